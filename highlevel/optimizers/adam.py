"""Adam, with the AMSGrad variant.

>>> import highlevel as hl
>>> v = hl.Variable([1.0])
>>> opt = hl.optimizers.Adam(learning_rate=0.1)
>>> _ = opt.apply([hl.ops.convert_to_tensor([0.5])], [v])
>>> round(float(v.numpy()[0]), 4)
0.9
"""

import numpy as np

from highlevel import ops
from highlevel.config import current_backend
from highlevel.losses.host_values import concrete_value

from .optimizer import Optimizer

_HOST_DTYPES = ("float16", "float32", "float64")


class Adam(Optimizer):
    """Adam (``keras.optimizers.Adam``): bias-corrected first and second moment estimates.

    ``m = b1 m + (1 - b1) g``; ``v = b2 v + (1 - b2) g²``;
    ``w -= lr · sqrt(1 - b2^t) / (1 - b1^t) · m / (sqrt(v) + epsilon)``.

    Args:
        learning_rate: float or schedule (default 0.001).
        beta_1: the decay rate of the first moment (the gradients' running mean; default 0.9).
        beta_2: the decay rate of the second moment (the squared gradients' running mean; default 0.999).
        epsilon: added to the denominator (1e-7, as Keras).
        amsgrad: use the running maximum of ``v`` (AMSGrad).
        weight_decay: optional float, decoupled weight decay: each step first does ``w -= lr * weight_decay * w``
            (default None: none).
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
        **kwargs: the base :class:`Optimizer` options.

    Raises:
        ValueError: if ``beta_1`` or ``beta_2`` is outside ``[0, 1)`` or ``epsilon`` is negative.

    >>> import highlevel as hl
    >>> v = hl.Variable([1.0, 2.0])
    >>> opt = hl.optimizers.Adam(learning_rate=0.1)
    >>> _ = opt.apply([hl.ops.convert_to_tensor([0.5, -0.5])], [v])
    >>> [round(x, 4) for x in v.numpy().tolist()]
    [0.9, 2.1]
    """

    def __init__(
        self,
        learning_rate=0.001,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-7,
        amsgrad=False,
        weight_decay=None,
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
        use_ema=False,
        ema_momentum=0.99,
        ema_overwrite_frequency=None,
        loss_scale_factor=None,
        gradient_accumulation_steps=None,
        name=None,
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
        for arg, value in (("beta_1", beta_1), ("beta_2", beta_2)):
            if not 0 <= value < 1:
                raise ValueError(f"`{arg}` must be in [0, 1); received {arg}={value!r}.")
        if epsilon < 0:
            raise ValueError(f"`epsilon` must be >= 0; received epsilon={epsilon!r}.")
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)
        self.amsgrad = bool(amsgrad)

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self.momentums = [self.add_variable_from_reference(v, "momentum") for v in var_list]
        self.velocities = [self.add_variable_from_reference(v, "velocity") for v in var_list]
        self.velocity_hats = (
            [self.add_variable_from_reference(v, "velocity_hat") for v in var_list] if self.amsgrad else []
        )

    def _bias_corrected_rate(self, learning_rate, dtype):
        """``lr · sqrt(1 - beta_2^t) / (1 - beta_1^t)``, once per step and dtype."""

        def compute():
            lr = ops.cast(learning_rate, dtype)
            done = concrete_value(self.iterations.value) if dtype in _HOST_DTYPES else None
            if done is not None:
                # Eager: the step count is known, so the powers are computed on the host, in the variables'
                # dtype as the traced formula below does (same rounding), instead of a dozen tensor ops.
                n = int(done)
                t = np.asarray(
                    (n // self.gradient_accumulation_steps if self.gradient_accumulation_steps else n) + 1, dtype
                )
                one = np.asarray(1.0, dtype)
                b1_power = np.power(np.asarray(self.beta_1, dtype), t)
                b2_power = np.power(np.asarray(self.beta_2, dtype), t)
                return lr * float(np.sqrt(one - b2_power)) / float(one - b1_power)
            # One fused engine call (the same formula, in ``dtype``): engines that know the count then still
            # compute the powers on scalars, not as a chain of tensor ops.
            return current_backend().adam_learning_rate(lr, self.beta_1, self.beta_2, self._local_step(dtype))

        return self._step_constant(("adam_alpha", dtype), compute)

    def _update_variables(self, grads, variables, learning_rate):
        # All variables of one dtype go through the backend's fused Adam kernel in one call (its generic
        # definition is Keras's formula on the contract's ops; eager engines run it as a few multi-tensor ops).
        by_dtype = {}
        for g, v in zip(grads, variables):
            by_dtype.setdefault(v.dtype, []).append((g, v))
        backend = current_backend()
        for dtype, pairs in by_dtype.items():
            idx = [self._slot_index(v) for _, v in pairs]
            backend.adam_update(
                [v for _, v in pairs],
                [g for g, _ in pairs],
                [self.momentums[i] for i in idx],
                [self.velocities[i] for i in idx],
                self._bias_corrected_rate(learning_rate, dtype),
                self.beta_1,
                self.beta_2,
                self.epsilon,
                velocity_hats=[self.velocity_hats[i] for i in idx] if self.amsgrad else None,
            )

    def update_step(self, gradient, variable, learning_rate):
        self._update_variables([gradient], [variable], learning_rate)

    def get_config(self):
        return dict(
            super().get_config(), beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon, amsgrad=self.amsgrad
        )
