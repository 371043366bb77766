"""Adafactor: Adam-like steps with factored second moments, so a matrix's state costs rows + columns.

>>> import highlevel as hl
>>> w = hl.Variable([[1.0, 2.0], [3.0, 4.0]])
>>> opt = hl.optimizers.Adafactor(learning_rate=0.1)
>>> _ = opt.apply([hl.ops.ones((2, 2))], [w])
>>> [tuple(v.shape) for v in opt.variables[2:]]  # row and column statistics, then the velocity
[(2,), (2,), (2, 2)]
"""

from highlevel import ops

from ._checks import check_number
from .optimizer import Optimizer


class Adafactor(Optimizer):
    """Adafactor (``keras.optimizers.Adafactor``; Shazeer & Stern, 2018).

    With ``t`` the step, ``rho = min(lr, 1/sqrt(t))``, ``alpha = max(epsilon_2, rms(w)) · rho``,
    ``beta = 1 - t^beta_2_decay`` and ``G = g² + epsilon_1``: a variable of rank >= 2 keeps the running
    row means ``r`` (its last axis averaged out) and column means ``c`` (its second-to-last axis averaged
    out) of ``G``, and ``v = (r / mean(r)) ⊗ c``; a vector or scalar keeps ``v = beta v + (1 - beta) G``
    itself. ``u = g / sqrt(v)``, clipped to ``u / max(1, rms(u) / clip_threshold)``; ``w -= alpha u``.

    Args:
        learning_rate: float or schedule (default 0.001).
        beta_2_decay: the exponent of the second-moment decay schedule (-0.8).
        epsilon_1: added to the squared gradient (1e-30).
        epsilon_2: the smallest weight scale used for the step size (1e-3).
        clip_threshold: the update's RMS is clipped to this value (1.0).
        relative_step: kept for Keras compatibility: the step size is always capped by ``1/sqrt(t)``.
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

    >>> import highlevel as hl
    >>> v = hl.Variable([1.0, 2.0])
    >>> opt = hl.optimizers.Adafactor(learning_rate=0.1)
    >>> _ = opt.apply([hl.ops.convert_to_tensor([0.5, -0.5])], [v])
    >>> [round(x, 4) for x in v.numpy().tolist()]
    [0.8419, 2.1581]
    """

    def __init__(
        self,
        learning_rate=0.001,
        beta_2_decay=-0.8,
        epsilon_1=1e-30,
        epsilon_2=1e-3,
        clip_threshold=1.0,
        relative_step=True,
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
        self.beta_2_decay = float(check_number("beta_2_decay", beta_2_decay, high=0.0))
        self.epsilon_1 = float(check_number("epsilon_1", epsilon_1, 0.0))
        self.epsilon_2 = float(check_number("epsilon_2", epsilon_2, 0.0))
        self.clip_threshold = float(check_number("clip_threshold", clip_threshold, 0.0, low_open=True))
        self.relative_step = bool(relative_step)

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._r, self._c, self._v = [], [], []
        for var in var_list:
            shape = tuple(var.shape)
            if len(shape) >= 2:
                # Factor over the last two axes: r drops the last one, c the second-to-last one.
                base = var.path.replace("/", "_")
                self._r.append(self.add_variable(shape[:-1], dtype=var.dtype, name=f"{base}_row_moment"))
                self._c.append(
                    self.add_variable(shape[:-2] + shape[-1:], dtype=var.dtype, name=f"{base}_column_moment")
                )
            else:
                self._r.append(None)
                self._c.append(None)
            self._v.append(self.add_variable_from_reference(var, "velocity"))

    @staticmethod
    def _rms(x):
        return ops.sqrt(ops.mean(ops.square(x)))

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = ops.cast(learning_rate, dtype)
        local_step = self._local_step(dtype)
        inv_sqrt_step = ops.divide(1.0, ops.sqrt(local_step))
        i = self._slot_index(variable)
        r, c, v = self._r[i], self._c[i], self._v[i]
        rho_t = ops.minimum(lr, inv_sqrt_step)
        alpha_t = ops.maximum(self.epsilon_2, self._rms(variable.value)) * rho_t
        regulated_grad_square = ops.square(gradient) + self.epsilon_1
        beta_2_t = 1.0 - ops.power(local_step, self.beta_2_decay)
        if r is not None:
            r_new = beta_2_t * r.value + (1.0 - beta_2_t) * ops.mean(regulated_grad_square, axis=-1)
            c_new = beta_2_t * c.value + (1.0 - beta_2_t) * ops.mean(regulated_grad_square, axis=-2)
            r.assign(r_new)
            c.assign(c_new)
            v_new = ops.expand_dims(r_new / ops.mean(r_new, axis=-1, keepdims=True), -1) * ops.expand_dims(c_new, -2)
        else:
            v_new = beta_2_t * v.value + (1.0 - beta_2_t) * regulated_grad_square
        v.assign(v_new)
        u_t = gradient / ops.sqrt(v_new)
        u_t_hat = u_t / ops.maximum(1.0, self._rms(u_t) / self.clip_threshold)
        variable.assign_sub(alpha_t * u_t_hat)

    def get_config(self):
        return dict(
            super().get_config(),
            beta_2_decay=self.beta_2_decay,
            epsilon_1=self.epsilon_1,
            epsilon_2=self.epsilon_2,
            clip_threshold=self.clip_threshold,
            relative_step=self.relative_step,
        )
