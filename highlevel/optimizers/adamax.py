"""Adamax: Adam with the infinity norm in place of the second moment.

>>> import highlevel as hl
>>> v = hl.Variable([1.0])
>>> opt = hl.optimizers.Adamax(learning_rate=0.1, epsilon=0.0)
>>> _ = opt.apply([hl.ops.convert_to_tensor([0.5])], [v])
>>> round(float(v.numpy()[0]), 4)
0.9
"""

from highlevel import ops

from ._checks import check_number
from .optimizer import Optimizer


class Adamax(Optimizer):
    """Adamax optimizer (``keras.optimizers.Adamax``): Adam with the infinity norm in place of the second moment.

    ``m += (g - m)(1 - b1)``; ``u = max(b2 u, |g|)``; ``w -= lr m / ((1 - b1^t)(u + epsilon))``.

    Args:
        learning_rate: float or schedule (default 0.001).
        beta_1: the first moment's decay (0.9).
        beta_2: the decay of the exponentially weighted infinity norm (0.999).
        epsilon: added to the denominator (1e-7).
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
    >>> opt = hl.optimizers.Adamax(learning_rate=0.1)
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
        self.beta_1 = float(check_number("beta_1", beta_1, 0.0, 1.0, high_open=True))
        self.beta_2 = float(check_number("beta_2", beta_2, 0.0, 1.0))
        self.epsilon = float(check_number("epsilon", epsilon, 0.0))

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._m = [self.add_variable_from_reference(v, "momentum") for v in var_list]
        self._u = [self.add_variable_from_reference(v, "norm") for v in var_list]

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = ops.cast(learning_rate, dtype)
        beta_1_power = ops.power(ops.convert_to_tensor(self.beta_1, dtype=dtype), self._local_step(dtype))
        i = self._slot_index(variable)
        m, u = self._m[i], self._u[i]
        m_new = m.value + (gradient - m.value) * (1.0 - self.beta_1)
        u_new = ops.maximum(self.beta_2 * u.value, ops.abs(gradient))
        m.assign(m_new)
        u.assign(u_new)
        variable.assign_sub(lr * m_new / ((1.0 - beta_1_power) * (u_new + self.epsilon)))

    def get_config(self):
        return dict(super().get_config(), beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon)
