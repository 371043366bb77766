"""Muon: momentum SGD whose update for each weight matrix is orthogonalized by a Newton-Schulz iteration;
other variables (biases, embeddings, non-2D kernels, excluded layers) take AdamW steps.

>>> import highlevel as hl
>>> kernel = hl.Variable([[1.0, 0.0], [0.0, 1.0]], name="kernel")
>>> bias = hl.Variable([1.0], name="bias")
>>> opt = hl.optimizers.Muon(learning_rate=0.1, weight_decay=0.0, adam_weight_decay=0.0)
>>> _ = opt.apply([hl.ops.convert_to_tensor([[1.0, 0.0], [0.0, 1.0]]), hl.ops.convert_to_tensor([1.0])], [kernel, bias])
>>> opt.uses_adamw(kernel), opt.uses_adamw(bias)
(False, True)
"""

import math
import re

from highlevel import ops

from ._checks import check_number
from .optimizer import Optimizer


class Muon(Optimizer):
    """Muon (``keras.optimizers.Muon``; Jordan et al., 2024, with the update-RMS matching of Liu et al., 2025).

    For a 2-D variable: ``m = momentum · m + g``; the direction (``g + momentum · m`` with Nesterov, else
    ``m``) is orthogonalized by ``ns_steps`` quintic Newton-Schulz steps with coefficients
    ``(muon_a, muon_b, muon_c)``; ``w -= lr · O · sqrt(max(rows, cols)) · rms_rate`` (no rescaling when
    ``rms_rate`` is None). Every other variable — not 2-D, an embedding (its path contains "embedding",
    with ``exclude_embeddings``), or its path matches a regex of ``exclude_layers`` — takes an AdamW step
    with rate ``lr · adam_lr_ratio`` and decay ``adam_weight_decay`` instead of ``weight_decay``.

    Args:
        learning_rate: float or schedule (default 0.001).
        adam_beta_1: the first-moment decay rate of AdamW-updated variables (0.9).
        adam_beta_2: the second-moment decay rate of AdamW-updated variables (0.999).
        adam_weight_decay: the decoupled weight decay of AdamW-updated variables (0.004; None for none).
        epsilon: the AdamW denominator's epsilon (1e-7).
        weight_decay: the decoupled weight decay of Muon-updated variables (0.004).
        exclude_layers: regexes; a variable whose path matches one takes AdamW steps.
        exclude_embeddings: embeddings take AdamW steps (True).
        muon_a: the first Newton-Schulz coefficient (3.4445).
        muon_b: the second Newton-Schulz coefficient (-4.7750).
        muon_c: the third Newton-Schulz coefficient (2.0315).
        adam_lr_ratio: the AdamW learning rate over the main one (1).
        momentum: the Muon momentum (0.95).
        ns_steps: the number of Newton-Schulz steps (5).
        nesterov: use Nesterov momentum (True).
        rms_rate: scales the update to this RMS per ``sqrt(max(rows, cols))`` (0.2; None to disable).
        clipnorm: optional float; each gradient is rescaled so that its L2 norm is at most this.
        clipvalue: optional float; each gradient's entries are clipped to ``[-clipvalue, clipvalue]``.
        global_clipnorm: optional float; all gradients are rescaled together so that their joint L2 norm is at most
            this.
        use_ema: whether to keep an exponential moving average of the weights (default False); see ``swap_ema_weights``
            and the SwapEMAWeights callback.
        ema_momentum: the moving average's momentum, ``avg = m * avg + (1 - m) * w`` (default 0.99).
        ema_overwrite_frequency: optional int; every this many steps the weights are overwritten by their average.
        loss_scale_factor: optional float; gradients are divided by it before the update (use it when the loss was
            multiplied by it).
        gradient_accumulation_steps: optional int; gradients are averaged over this many steps and applied once every
            this many steps.
        name: the optimizer's name (default None: the class name in snake_case).
        **kwargs: the other base :class:`Optimizer` options.

    Raises:
        TypeError: if ``exclude_layers`` is not a list of regex strings.

    >>> import highlevel as hl
    >>> v = hl.Variable([1.0, 2.0])
    >>> opt = hl.optimizers.Muon(learning_rate=0.1)
    >>> _ = opt.apply([hl.ops.convert_to_tensor([0.5, -0.5])], [v])
    >>> [round(x, 4) for x in v.numpy().tolist()]
    [0.8996, 2.0992]
    """

    def __init__(
        self,
        learning_rate=0.001,
        adam_beta_1=0.9,
        adam_beta_2=0.999,
        adam_weight_decay=0.004,
        epsilon=1e-7,
        weight_decay=0.004,
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
        use_ema=False,
        ema_momentum=0.99,
        ema_overwrite_frequency=None,
        loss_scale_factor=None,
        gradient_accumulation_steps=None,
        name=None,
        exclude_layers=None,
        exclude_embeddings=True,
        muon_a=3.4445,
        muon_b=-4.7750,
        muon_c=2.0315,
        adam_lr_ratio=1,
        momentum=0.95,
        ns_steps=5,
        nesterov=True,
        rms_rate=0.2,
        **kwargs,
    ):
        super().__init__(
            learning_rate=learning_rate,
            weight_decay=weight_decay,
            clipnorm=clipnorm,
            clipvalue=clipvalue,
            global_clipnorm=global_clipnorm,
            use_ema=use_ema,
            ema_momentum=ema_momentum,
            ema_overwrite_frequency=ema_overwrite_frequency,
            loss_scale_factor=loss_scale_factor,
            gradient_accumulation_steps=gradient_accumulation_steps,
            name=name,
            **kwargs,
        )
        self.adam_beta_1 = float(check_number("adam_beta_1", adam_beta_1, 0.0, 1.0, high_open=True))
        self.adam_beta_2 = float(check_number("adam_beta_2", adam_beta_2, 0.0, 1.0, high_open=True))
        if adam_weight_decay is not None:
            check_number("adam_weight_decay", adam_weight_decay, low=0.0)
        self.adam_weight_decay = adam_weight_decay
        self.epsilon = float(check_number("epsilon", epsilon, low=0.0))
        if isinstance(exclude_layers, str):
            exclude_layers = [exclude_layers]
        if exclude_layers is not None and not all(isinstance(p, str) for p in exclude_layers):
            raise TypeError(
                f"`exclude_layers` must be a list of regex strings matched against variable paths; "
                f"received exclude_layers={exclude_layers!r}."
            )
        self.exclude_layers = list(exclude_layers or [])
        self.exclude_embeddings = bool(exclude_embeddings)
        self.muon_a = float(check_number("muon_a", muon_a))
        self.muon_b = float(check_number("muon_b", muon_b))
        self.muon_c = float(check_number("muon_c", muon_c))
        self.adam_lr_ratio = check_number("adam_lr_ratio", adam_lr_ratio, low=0.0)
        self.momentum = float(check_number("momentum", momentum, 0.0, 1.0))
        self.ns_steps = check_number("ns_steps", ns_steps, low=0, integer=True)
        self.nesterov = bool(nesterov)
        if rms_rate is not None:
            check_number("rms_rate", rms_rate, low=0.0)
        self.rms_rate = rms_rate

    def uses_adamw(self, variable):
        """Whether ``variable`` takes AdamW steps (True) or Muon steps (False)."""
        if len(variable.shape) != 2:
            return True
        if self.exclude_embeddings and "embedding" in variable.path.lower():
            return True
        return any(re.search(pattern, variable.path) for pattern in self.exclude_layers)

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums = [self.add_variable_from_reference(v, "momentum") for v in var_list]
        self._adam_velocities = [
            self.add_variable_from_reference(v, "velocity") if self.uses_adamw(v) else None for v in var_list
        ]

    def _apply_update(self, grads, variables):
        learning_rate = self.learning_rate
        for v in variables:
            decay = self.adam_weight_decay if self.uses_adamw(v) else self.weight_decay
            if decay and self._use_weight_decay(v):
                lr = ops.cast(learning_rate, v.dtype)
                v.assign(v.value - v.value * float(decay) * lr)
        self._update_variables(grads, variables, learning_rate)

    def update_step(self, gradient, variable, learning_rate):
        i = self._slot_index(variable)
        velocity = self._adam_velocities[i]
        if velocity is not None:
            self._adamw_step(gradient, variable, learning_rate * self.adam_lr_ratio, self._momentums[i], velocity)
        else:
            self._muon_step(gradient, variable, learning_rate, self._momentums[i])

    def _muon_step(self, gradient, variable, learning_rate, m):
        lr = ops.cast(learning_rate, variable.dtype)
        m_new = m.value * self.momentum + gradient
        m.assign(m_new)
        direction = gradient + self.momentum * m_new if self.nesterov else m_new
        update = lr * self._orthogonalize(direction)
        if self.rms_rate is not None:
            update = update * (math.sqrt(max(variable.shape)) * float(self.rms_rate))
        variable.assign_sub(update)

    def _adamw_step(self, gradient, variable, learning_rate, m, v):
        dtype = variable.dtype
        lr = ops.cast(learning_rate, dtype)
        step = self._local_step(dtype)
        beta_1_power = ops.power(ops.convert_to_tensor(self.adam_beta_1, dtype=dtype), step)
        beta_2_power = ops.power(ops.convert_to_tensor(self.adam_beta_2, dtype=dtype), step)
        alpha = lr * ops.sqrt(1.0 - beta_2_power) / (1.0 - beta_1_power)
        m_new = m.value + (gradient - m.value) * (1.0 - self.adam_beta_1)
        v_new = v.value + (ops.square(gradient) - v.value) * (1.0 - self.adam_beta_2)
        m.assign(m_new)
        v.assign(v_new)
        variable.assign_sub(m_new * alpha / (ops.sqrt(v_new) + self.epsilon))

    def _orthogonalize(self, x):
        """The quintic Newton-Schulz approximation of ``U Vᵀ`` (from ``x = U S Vᵀ``), on the wide side."""
        tall = x.shape[-2] > x.shape[-1]
        if tall:
            x = ops.swapaxes(x, -2, -1)
        x = x / (ops.norm(x, axis=(-2, -1), keepdims=True) + 1e-7)
        a, b, c = self.muon_a, self.muon_b, self.muon_c
        for _ in range(self.ns_steps):
            gram = ops.matmul(x, ops.swapaxes(x, -2, -1))
            x = a * x + ops.matmul(b * gram + c * ops.matmul(gram, gram), x)
        return ops.swapaxes(x, -2, -1) if tall else x

    def get_config(self):
        return dict(
            super().get_config(),
            adam_beta_1=self.adam_beta_1,
            adam_beta_2=self.adam_beta_2,
            epsilon=self.epsilon,
            exclude_layers=list(self.exclude_layers),
            muon_a=self.muon_a,
            muon_b=self.muon_b,
            muon_c=self.muon_c,
            adam_lr_ratio=self.adam_lr_ratio,
            momentum=self.momentum,
            ns_steps=self.ns_steps,
            nesterov=self.nesterov,
            exclude_embeddings=self.exclude_embeddings,
            adam_weight_decay=self.adam_weight_decay,
            rms_rate=self.rms_rate,
        )
