"""Stochastic gradient descent with optional (Nesterov) momentum.

>>> import highlevel as hl
>>> v = hl.Variable([1.0, 2.0])
>>> opt = hl.optimizers.SGD(learning_rate=0.1)
>>> _ = opt.apply([hl.ops.convert_to_tensor([1.0, 1.0])], [v])
>>> [round(float(x), 4) for x in v.numpy()]
[0.9, 1.9]
"""

from highlevel import ops

from .optimizer import Optimizer


class SGD(Optimizer):
    """Stochastic gradient descent, with optional (Nesterov) momentum (``keras.optimizers.SGD``).

    With ``momentum`` m: ``velocity = m * velocity - lr * g``; ``w += velocity`` (or, with ``nesterov``,
    ``w += m * velocity - lr * g``).

    Args:
        learning_rate: float or schedule (default 0.01).
        momentum: in [0, 1] (default 0: plain gradient descent).
        nesterov: use Nesterov momentum.
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
        **kwargs: the base :class:`Optimizer` options (clipnorm, weight_decay, use_ema, ...).

    Raises:
        ValueError: if ``momentum`` is not a float in ``[0, 1]``.

    >>> import highlevel as hl
    >>> v = hl.Variable([1.0, 2.0])
    >>> opt = hl.optimizers.SGD(learning_rate=0.1)
    >>> _ = opt.apply([hl.ops.convert_to_tensor([0.5, -0.5])], [v])
    >>> [round(x, 4) for x in v.numpy().tolist()]
    [0.95, 2.05]
    """

    def __init__(
        self,
        learning_rate=0.01,
        momentum=0.0,
        nesterov=False,
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
        if isinstance(momentum, bool) or not isinstance(momentum, (int, float)) or not 0 <= momentum <= 1:
            raise ValueError(f"`momentum` must be a float in [0, 1]; received momentum={momentum!r}.")
        self.momentum = float(momentum)
        self.nesterov = bool(nesterov)

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self.momentums = (
            [self.add_variable_from_reference(v, "momentum") for v in variables] if self.momentum != 0 else []
        )

    def update_step(self, gradient, variable, learning_rate):
        lr = ops.cast(learning_rate, variable.dtype)
        if self.momentum == 0:
            variable.assign_sub(gradient * lr)
            return
        m = self.momentums[self._slot_index(variable)]
        velocity = m.value * self.momentum - gradient * lr
        m.assign(velocity)
        if self.nesterov:
            variable.assign_add(velocity * self.momentum - gradient * lr)
        else:
            variable.assign_add(velocity)

    def get_config(self):
        return dict(super().get_config(), momentum=self.momentum, nesterov=self.nesterov)
