"""RMSprop: divide the gradient by a running root mean square of recent gradients.

>>> import highlevel as hl
>>> v = hl.Variable([1.0])
>>> opt = hl.optimizers.RMSprop(learning_rate=0.1, rho=0.75)
>>> _ = opt.apply([hl.ops.convert_to_tensor([2.0])], [v])
>>> round(float(v.numpy()[0]), 4)  # 1 - 0.1 * 2 / sqrt(0.25 * 4)
0.8
"""

from highlevel import ops

from ._checks import check_number
from .optimizer import Optimizer


class RMSprop(Optimizer):
    """RMSprop (``keras.optimizers.RMSprop``).

    ``v = rho v + (1 - rho) g²``; with ``centered``, also ``a = rho a + (1 - rho) g`` and the denominator is
    ``sqrt(v - a² + epsilon)``, else ``sqrt(v + epsilon)``; ``inc = lr g / denominator``; with ``momentum``
    μ: ``m = μ m + inc``, ``w -= m``; else ``w -= inc``.

    Args:
        learning_rate: float or schedule (default 0.001).
        rho: the decay of the squared-gradient average (0.9).
        momentum: momentum (0: none).
        epsilon: added inside the square root (1e-7).
        centered: normalise by an estimate of the gradient's variance instead of its second moment.
        **kwargs: the base :class:`Optimizer` options.
    """

    def __init__(
        self,
        learning_rate=0.001,
        rho=0.9,
        momentum=0.0,
        epsilon=1e-7,
        centered=False,
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
        self.rho = float(check_number("rho", rho, 0.0, 1.0))
        self.momentum = float(check_number("momentum", momentum, 0.0))
        self.epsilon = float(check_number("epsilon", epsilon, 0.0))
        self.centered = bool(centered)

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._velocities = [self.add_variable_from_reference(v, "velocity") for v in var_list]
        self._momentums = (
            [self.add_variable_from_reference(v, "momentum") for v in var_list] if self.momentum > 0 else []
        )
        self._average_gradients = (
            [self.add_variable_from_reference(v, "average_gradient") for v in var_list] if self.centered else []
        )

    def update_step(self, gradient, variable, learning_rate):
        lr = ops.cast(learning_rate, variable.dtype)
        i = self._slot_index(variable)
        velocity = self._velocities[i]
        rho = self.rho
        v_new = rho * velocity.value + (1.0 - rho) * ops.square(gradient)
        velocity.assign(v_new)
        if self.centered:
            average = self._average_gradients[i]
            a_new = rho * average.value + (1.0 - rho) * gradient
            average.assign(a_new)
            denominator = v_new - ops.square(a_new) + self.epsilon
        else:
            denominator = v_new + self.epsilon
        increment = lr * gradient / ops.sqrt(denominator)
        if self.momentum > 0:
            m = self._momentums[i]
            m_new = self.momentum * m.value + increment
            m.assign(m_new)
            variable.assign_sub(m_new)
        else:
            variable.assign_sub(increment)

    def get_config(self):
        return dict(
            super().get_config(), rho=self.rho, momentum=self.momentum, epsilon=self.epsilon, centered=self.centered
        )
