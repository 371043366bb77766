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
    """Adamax (``keras.optimizers.Adamax``).

    ``m += (g - m)(1 - b1)``; ``u = max(b2 u, |g|)``; ``w -= lr m / ((1 - b1^t)(u + epsilon))``.

    Args:
        learning_rate: float or schedule (default 0.001).
        beta_1: the first moment's decay (0.9).
        beta_2: the decay of the exponentially weighted infinity norm (0.999).
        epsilon: added to the denominator (1e-7).
        **kwargs: the base :class:`Optimizer` options.
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
