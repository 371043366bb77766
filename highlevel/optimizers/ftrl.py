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
    """FTRL-Proximal optimizer (``keras.optimizers.Ftrl``), suited to sparse linear models with L1/L2 penalties.

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
    >>> opt = hl.optimizers.Ftrl(learning_rate=0.1)
    >>> _ = opt.apply([hl.ops.convert_to_tensor([0.5, -0.5])], [v])
    >>> [round(x, 4) for x in v.numpy().tolist()]
    [0.381, 1.0155]
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
