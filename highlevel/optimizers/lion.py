"""Lion: sign of an interpolated momentum (Chen et al., 2023).

>>> import highlevel as hl
>>> v = hl.Variable([1.0, 1.0])
>>> opt = hl.optimizers.Lion(learning_rate=0.1)
>>> _ = opt.apply([hl.ops.convert_to_tensor([0.5, -2.0])], [v])
>>> [round(float(x), 4) for x in v.numpy()]
[0.9, 1.1]
"""

from highlevel import ops

from ._checks import check_number
from .optimizer import Optimizer


class Lion(Optimizer):
    """Lion optimizer (``keras.optimizers.Lion``): sign updates from an interpolated momentum.

    ``w -= lr · sign(b1 m + (1 - b1) g)``; then ``m = b2 m + (1 - b2) g``. Updates have the same size for
    every entry, so Lion usually wants a 3-10x smaller learning rate than Adam.

    Args:
        learning_rate: float or schedule (default 0.001).
        beta_1: the interpolation weight of the update's direction, in (0, 1] (0.9).
        beta_2: the momentum's decay (0.99).
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
        ValueError: if ``beta_1`` is not in ``(0, 1]``.

    >>> import highlevel as hl
    >>> v = hl.Variable([1.0, 2.0])
    >>> opt = hl.optimizers.Lion(learning_rate=0.1)
    >>> _ = opt.apply([hl.ops.convert_to_tensor([0.5, -0.5])], [v])
    >>> [round(x, 4) for x in v.numpy().tolist()]
    [0.9, 2.1]
    """

    def __init__(
        self,
        learning_rate=0.001,
        beta_1=0.9,
        beta_2=0.99,
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
        if isinstance(beta_1, (int, float)) and not isinstance(beta_1, bool) and beta_1 == 0:
            raise ValueError("`beta_1` must be in (0, 1]; received beta_1=0, with which Lion degenerates to sign SGD.")
        self.beta_1 = float(check_number("beta_1", beta_1, 0.0, 1.0, low_open=True))
        self.beta_2 = float(check_number("beta_2", beta_2, 0.0, 1.0))

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums = [self.add_variable_from_reference(v, "momentum") for v in var_list]

    def update_step(self, gradient, variable, learning_rate):
        lr = ops.cast(learning_rate, variable.dtype)
        # Cast first, as Keras: (1 - beta) is then computed from the float32 beta.
        dtype = variable.dtype
        beta_1 = ops.convert_to_tensor(self.beta_1, dtype=dtype)
        beta_2 = ops.convert_to_tensor(self.beta_2, dtype=dtype)
        m = self._momentums[self._slot_index(variable)]
        direction = ops.sign(m.value * beta_1 + gradient * (1.0 - beta_1))
        variable.assign_sub(lr * direction)
        m.assign(m.value * beta_2 + gradient * (1.0 - beta_2))

    def get_config(self):
        return dict(super().get_config(), beta_1=self.beta_1, beta_2=self.beta_2)
