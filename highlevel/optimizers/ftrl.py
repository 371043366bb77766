"""FTRL-Proximal ("Follow The Regularized Leader"), the online optimizer for wide, sparse linear models.

>>> import highlevel as hl
>>> v = hl.Variable([0.0, 0.0])
>>> opt = hl.optimizers.Ftrl(learning_rate=0.1, l1_regularization_strength=0.5)
>>> _ = opt.apply([hl.ops.convert_to_tensor([0.2, 2.0])], [v])
>>> [round(x, 4) for x in v.numpy().tolist()]  # the L1 term keeps a weight with a small gradient at 0
[0.0, -0.0741]
"""

from highlevel import initializers, ops

from ._checks import check_number
from .optimizer import Optimizer


class Ftrl(Optimizer):
    """FTRL-Proximal (``keras.optimizers.Ftrl``).

    With ``p = -learning_rate_power``: ``n' = n + g²``;
    ``z += g + 2·l2_shrinkage·w - (n'^p - n^p) / lr · w``;
    ``w = (clip(z, -l1, l1) - z) / (n'^p / lr + 2·(l2 + beta / (2 lr)))``.

    Args:
        learning_rate: float or schedule (default 0.001).
        learning_rate_power: how the per-coordinate rate falls as squared gradients accumulate; <= 0
            (-0.5, the Adagrad-like rate; 0 keeps it fixed).
        initial_accumulator_value: the accumulator's starting value, >= 0 (0.1).
        l1_regularization_strength: the L1 penalty, >= 0 (0.0); it drives weights to exactly zero.
        l2_regularization_strength: the L2 penalty (stabilization), >= 0 (0.0).
        l2_shrinkage_regularization_strength: an L2 penalty added to the gradient (magnitude), >= 0 (0.0).
        beta: the ``beta`` of the paper's per-coordinate rate; adds ``beta / (2 lr)`` to the L2 penalty (0.0).
        **kwargs: the base :class:`Optimizer` options.
    """

    def __init__(
        self,
        learning_rate=0.001,
        learning_rate_power=-0.5,
        initial_accumulator_value=0.1,
        l1_regularization_strength=0.0,
        l2_regularization_strength=0.0,
        l2_shrinkage_regularization_strength=0.0,
        beta=0.0,
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
        self.learning_rate_power = float(check_number("learning_rate_power", learning_rate_power, high=0.0))
        self.initial_accumulator_value = float(
            check_number("initial_accumulator_value", initial_accumulator_value, low=0.0)
        )
        self.l1_regularization_strength = float(
            check_number("l1_regularization_strength", l1_regularization_strength, low=0.0)
        )
        self.l2_regularization_strength = float(
            check_number("l2_regularization_strength", l2_regularization_strength, low=0.0)
        )
        self.l2_shrinkage_regularization_strength = float(
            check_number("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength, low=0.0)
        )
        self.beta = float(check_number("beta", beta))

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        start = initializers.Constant(self.initial_accumulator_value)
        self._accumulators = [self.add_variable_from_reference(v, "accumulator", initializer=start) for v in var_list]
        self._linears = [self.add_variable_from_reference(v, "linear") for v in var_list]

    def update_step(self, gradient, variable, learning_rate):
        lr = ops.cast(learning_rate, variable.dtype)
        i = self._slot_index(variable)
        accum, linear = self._accumulators[i], self._linears[i]
        power = -self.learning_rate_power
        l2 = self.l2_regularization_strength + self.beta / (2.0 * lr)
        w = variable.value
        n_old = accum.value
        n_new = n_old + ops.square(gradient)
        shrunk = gradient + 2.0 * self.l2_shrinkage_regularization_strength * w
        z = linear.value + shrunk - (ops.power(n_new, power) - ops.power(n_old, power)) / lr * w
        linear.assign(z)
        quadratic = ops.power(n_new, power) / lr + 2.0 * l2
        l1 = self.l1_regularization_strength
        variable.assign((ops.clip(z, -l1, l1) - z) / quadratic)
        accum.assign(n_new)

    def get_config(self):
        return dict(
            super().get_config(),
            learning_rate_power=self.learning_rate_power,
            initial_accumulator_value=self.initial_accumulator_value,
            l1_regularization_strength=self.l1_regularization_strength,
            l2_regularization_strength=self.l2_regularization_strength,
            l2_shrinkage_regularization_strength=self.l2_shrinkage_regularization_strength,
            beta=self.beta,
        )
