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
    >>> opt = hl.optimizers.Adagrad(learning_rate=0.1)
    >>> _ = opt.apply([hl.ops.convert_to_tensor([0.5, -0.5])], [v])
    >>> [round(x, 4) for x in v.numpy().tolist()]
    [0.9155, 2.0845]
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
