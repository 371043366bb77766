"""Schedule-free AdamW: no learning-rate schedule needed; the weights interpolate between an Adam-driven
sequence and its running average.

>>> import highlevel as hl
>>> v = hl.Variable([1.0])
>>> opt = hl.optimizers.ScheduleFreeAdamW(learning_rate=0.1)
>>> _ = opt.apply([hl.ops.convert_to_tensor([0.5])], [v])
>>> round(float(v.numpy()[0]), 4)  # the first step: weights, average and z all move by lr
0.9
"""

from highlevel import ops

from ._checks import check_number
from .optimizer import Optimizer


class ScheduleFreeAdamW(Optimizer):
    """Schedule-free AdamW (``keras.optimizers.ScheduleFreeAdamW``; Defazio et al., 2024).

    Three sequences: ``z`` (the slot ``momentum``, started at the weights) takes plain Adam steps
    ``z -= lr · g / (sqrt(v̂) + epsilon)``; ``x`` is the uniform average of the ``z``'s; the weights are
    ``y = (1 - beta_1) z + beta_1 x``. ``x`` is not stored: it is recovered from ``y`` and the previous ``z``.
    Evaluate the model at ``y`` (its weights), as Keras does.

    Keras 3.15.1 gives this update only on its JAX backend; on TensorFlow and PyTorch it reads ``z`` after
    updating it when it recovers ``x`` (an aliasing slip), a different sequence from the second step on.
    highlevel follows the algorithm, the same on every engine.

    Args:
        learning_rate: float or schedule (default 0.0025).
        beta_1: the interpolation weight of the average (0.9).
        beta_2: the decay of the squared-gradient average (0.999).
        epsilon: added to the denominator (1e-8).
        warmup_steps: the learning rate rises linearly over this many steps (0: no warm-up).
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
    >>> opt = hl.optimizers.ScheduleFreeAdamW(learning_rate=0.1)
    >>> _ = opt.apply([hl.ops.convert_to_tensor([0.5, -0.5])], [v])
    >>> [round(x, 4) for x in v.numpy().tolist()]
    [0.9, 2.1]
    """

    def __init__(
        self,
        learning_rate=0.0025,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-8,
        warmup_steps=0,
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
        self.beta_1 = float(check_number("beta_1", beta_1, 0.0, 1.0, low_open=True, high_open=True))
        self.beta_2 = float(check_number("beta_2", beta_2, 0.0, 1.0, high_open=True))
        self.epsilon = float(check_number("epsilon", epsilon, low=0.0))
        self.warmup_steps = check_number("warmup_steps", warmup_steps, low=0, integer=True)

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums = [self.add_variable_from_reference(v, "momentum") for v in var_list]
        self._velocities = [self.add_variable_from_reference(v, "velocity") for v in var_list]
        for z, v in zip(self._momentums, var_list):
            z.assign(ops.copy(v.value))

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = ops.cast(learning_rate, dtype)
        step = self._local_step(dtype)
        if self.warmup_steps > 0:
            lr = lr * ops.minimum(step / float(self.warmup_steps), 1.0)
        # The betas are cast before ``1 - beta`` is formed (as Keras does): float32's 1 - 0.9 is not 0.1.
        beta_1 = ops.convert_to_tensor(self.beta_1, dtype=dtype)
        beta_2 = ops.convert_to_tensor(self.beta_2, dtype=dtype)
        i = self._slot_index(variable)
        z, v = self._momentums[i], self._velocities[i]
        # A copy: an engine that updates variables in place would otherwise hand back the new z below.
        z_old = ops.copy(z.value)
        v_new = v.value + (ops.square(gradient) - v.value) * (1.0 - beta_2)
        v.assign(v_new)
        z_new = z_old - lr * gradient / (ops.sqrt(v_new / (1.0 - ops.power(beta_2, step))) + self.epsilon)
        z.assign(z_new)
        weight = 1.0 / step
        x_old = (variable.value - (1.0 - beta_1) * z_old) / beta_1
        x_new = (1.0 - weight) * x_old + weight * z_new
        variable.assign((1.0 - beta_1) * z_new + beta_1 * x_new)

    def get_config(self):
        return dict(
            super().get_config(),
            beta_1=self.beta_1,
            beta_2=self.beta_2,
            epsilon=self.epsilon,
            warmup_steps=self.warmup_steps,
        )
