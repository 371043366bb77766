"""AdamW: Adam with decoupled weight decay (on by default).

>>> import highlevel as hl
>>> v = hl.Variable([1.0])
>>> opt = hl.optimizers.AdamW(learning_rate=0.1, weight_decay=0.5)
>>> _ = opt.apply([hl.ops.convert_to_tensor([0.5])], [v])
>>> round(float(v.numpy()[0]), 4)  # 1 - 1*0.5*0.1 (decay), then - 0.1 (Adam's first step)
0.85
"""

from .adam import Adam


class AdamW(Adam):
    """AdamW (``keras.optimizers.AdamW``): each step first shrinks the weights, ``w -= w * weight_decay * lr``,
    then applies Adam's update (the decay is not part of the gradient, so the moments never see it).

    Args:
        learning_rate: float or schedule (default 0.001).
        weight_decay: the decoupled decay rate (default 0.004; must be a number).
        beta_1: the decay rate of the first moment (the gradients' running mean; default 0.9).
        beta_2: the decay rate of the second moment (the squared gradients' running mean; default 0.999).
        epsilon: added to the denominator (1e-7).
        amsgrad: use the running maximum of the second moment (AMSGrad).
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
        **kwargs: the base :class:`Optimizer` options (exclude variables with ``exclude_from_weight_decay``).

    Raises:
        ValueError: if ``beta_1`` or ``beta_2`` is outside ``[0, 1)``, ``epsilon`` is negative or ``weight_decay`` is
            None.

    >>> import highlevel as hl
    >>> v = hl.Variable([1.0, 2.0])
    >>> opt = hl.optimizers.AdamW(learning_rate=0.1, weight_decay=0.01)
    >>> _ = opt.apply([hl.ops.convert_to_tensor([0.5, -0.5])], [v])
    >>> [round(x, 4) for x in v.numpy().tolist()]
    [0.899, 2.098]
    """

    def __init__(
        self,
        learning_rate=0.001,
        weight_decay=0.004,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-7,
        amsgrad=False,
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
        if weight_decay is None:
            raise ValueError(
                "AdamW needs a numeric `weight_decay` (e.g. 0.004); received weight_decay=None. "
                "Use Adam for no weight decay."
            )
        super().__init__(
            learning_rate=learning_rate,
            beta_1=beta_1,
            beta_2=beta_2,
            epsilon=epsilon,
            amsgrad=amsgrad,
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
