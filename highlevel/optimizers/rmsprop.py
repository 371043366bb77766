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
    """RMSprop optimizer (``keras.optimizers.RMSprop``): steps divided by a running root mean square of the gradients.

    ``v = rho v + (1 - rho) g²``; with ``centered``, also ``a = rho a + (1 - rho) g`` and the denominator is
    ``sqrt(v - a² + epsilon)``, else ``sqrt(v + epsilon)``; ``inc = lr g / denominator``; with ``momentum``
    μ: ``m = μ m + inc``, ``w -= m``; else ``w -= inc``.

    Args:
        learning_rate: float or schedule (default 0.001).
        rho: the decay of the squared-gradient average (0.9).
        momentum: momentum (0: none).
        epsilon: added inside the square root (1e-7).
        centered: normalise by an estimate of the gradient's variance instead of its second moment.
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
    >>> opt = hl.optimizers.RMSprop(learning_rate=0.1)
    >>> _ = opt.apply([hl.ops.convert_to_tensor([0.5, -0.5])], [v])
    >>> [round(x, 4) for x in v.numpy().tolist()]
    [0.6838, 2.3162]
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
