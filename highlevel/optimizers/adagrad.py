"""Adagrad: per-parameter learning rates scaled by the history of squared gradients.

>>> import highlevel as hl
>>> v = hl.Variable([1.0])
>>> opt = hl.optimizers.Adagrad(learning_rate=0.1, initial_accumulator_value=0.0, epsilon=0.0)
>>> _ = opt.apply([hl.ops.convert_to_tensor([3.0])], [v])
>>> round(float(v.numpy()[0]), 4)  # 1 - 0.1 * 3 / sqrt(9)
0.9
"""

from highlevel import initializers, ops

from ._checks import check_number
from .optimizer import Optimizer


class Adagrad(Optimizer):
    """Adagrad (``keras.optimizers.Adagrad``): ``acc += g²``; ``w -= lr g / sqrt(acc + epsilon)``.

    Args:
        learning_rate: float or schedule (default 0.001).
        initial_accumulator_value: the accumulators' starting value (0.1).
        epsilon: added inside the square root (1e-7).
        **kwargs: the base :class:`Optimizer` options.
    """

    def __init__(
        self,
        learning_rate=0.001,
        initial_accumulator_value=0.1,
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
        self.initial_accumulator_value = float(
            check_number("initial_accumulator_value", initial_accumulator_value, 0.0)
        )
        self.epsilon = float(check_number("epsilon", epsilon, 0.0))

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        init = initializers.Constant(self.initial_accumulator_value)
        self._accumulators_sq = [self.add_variable_from_reference(v, "accumulator", initializer=init) for v in var_list]

    def update_step(self, gradient, variable, learning_rate):
        lr = ops.cast(learning_rate, variable.dtype)
        acc = self._accumulators_sq[self._slot_index(variable)]
        acc_new = acc.value + ops.square(gradient)
        acc.assign(acc_new)
        variable.assign_sub(lr * gradient / ops.sqrt(acc_new + self.epsilon))

    def get_config(self):
        return dict(
            super().get_config(), initial_accumulator_value=self.initial_accumulator_value, epsilon=self.epsilon
        )
