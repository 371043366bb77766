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
        beta_1, beta_2: the moment decay rates (0.9, 0.999).
        epsilon: added to the denominator (1e-7).
        amsgrad: use the running maximum of the second moment (AMSGrad).
        **kwargs: the base :class:`Optimizer` options (exclude variables with ``exclude_from_weight_decay``).
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
