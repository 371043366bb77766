"""Nadam: Adam with Nesterov momentum, with the momentum schedule of Dozat (2016) as Keras.

>>> import highlevel as hl
>>> v = hl.Variable([1.0])
>>> opt = hl.optimizers.Nadam(learning_rate=0.1)
>>> _ = opt.apply([hl.ops.convert_to_tensor([0.5])], [v])
>>> bool(0.8 < v.numpy()[0] < 0.95)
True
"""

from highlevel import config, ops

from ._checks import check_number
from .optimizer import Optimizer

#: The momentum schedule's decay: ``u_t = beta_1 (1 - 0.5 * 0.96^t)``.
_MOMENTUM_DECAY = 0.96


class Nadam(Optimizer):
    """Nadam optimizer (``keras.optimizers.Nadam``): Adam with Nesterov momentum.

    With ``u_t = b1 (1 - 0.5 · 0.96^t)`` and the running product ``U_t = u_1 ··· u_t`` (a state variable,
    ``u_product``, updated once per step before the variables): ``m += (g - m)(1 - b1)``;
    ``v += (g² - v)(1 - b2)``; ``m̂ = u_{t+1} m / (1 - U_t u_{t+1}) + (1 - u_t) g / (1 - U_t)``;
    ``v̂ = v / (1 - b2^t)``; ``w -= lr m̂ / (sqrt(v̂) + epsilon)``.

    Args:
        learning_rate: float or schedule (default 0.001).
        beta_1: the decay rate of the first moment (the gradients' running mean; default 0.9).
        beta_2: the decay rate of the second moment (the squared gradients' running mean; default 0.999).
        epsilon: added to the denominator (1e-7).
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
    >>> opt = hl.optimizers.Nadam(learning_rate=0.1)
    >>> _ = opt.apply([hl.ops.convert_to_tensor([0.5, -0.5])], [v])
    >>> [round(x, 4) for x in v.numpy().tolist()]
    [0.8937, 2.1063]
    """

    def __init__(
        self,
        learning_rate=0.001,
        beta_1=0.9,
        beta_2=0.999,
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
        self.beta_1 = float(check_number("beta_1", beta_1, 0.0, 1.0, high_open=True))
        self.beta_2 = float(check_number("beta_2", beta_2, 0.0, 1.0, high_open=True))
        self.epsilon = float(check_number("epsilon", epsilon, 0.0))

    def build(self, var_list):
        if self.built:
            return
        var_list = list(var_list)
        dtype = var_list[0].dtype if var_list else config.floatx()
        super().build(var_list)
        self._momentums = [self.add_variable_from_reference(v, "momentum") for v in var_list]
        self._velocities = [self.add_variable_from_reference(v, "velocity") for v in var_list]
        self._u_product = self.add_variable((), initializer="ones", dtype=dtype, name="u_product")

    def _update_variables(self, grads, variables, learning_rate):
        # The momentum-cache product advances once per step, before any variable uses it.
        dtype = self._u_product.dtype
        decay_power = ops.power(_MOMENTUM_DECAY, self._local_step(dtype))
        self._u_product.assign(self._u_product.value * self.beta_1 * (1.0 - 0.5 * decay_power))
        super()._update_variables(grads, variables, learning_rate)

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = ops.cast(learning_rate, dtype)
        local_step = self._local_step(dtype)
        decay = ops.convert_to_tensor(_MOMENTUM_DECAY, dtype=dtype)
        # Cast first, as Keras: (1 - beta) is then computed from the float32 beta.
        beta_1 = ops.convert_to_tensor(self.beta_1, dtype=dtype)
        beta_2 = ops.convert_to_tensor(self.beta_2, dtype=dtype)
        u_t = beta_1 * (1.0 - 0.5 * ops.power(decay, local_step))
        u_t_1 = beta_1 * (1.0 - 0.5 * ops.power(decay, local_step + 1.0))
        u_product_t = ops.cast(self._u_product.value, dtype)
        u_product_t_1 = u_product_t * u_t_1
        beta_2_power = ops.power(beta_2, local_step)
        i = self._slot_index(variable)
        m, v = self._momentums[i], self._velocities[i]
        m_new = m.value + (gradient - m.value) * (1.0 - beta_1)
        v_new = v.value + (ops.square(gradient) - v.value) * (1.0 - beta_2)
        m.assign(m_new)
        v.assign(v_new)
        m_hat = u_t_1 * m_new / (1.0 - u_product_t_1) + (1.0 - u_t) * gradient / (1.0 - u_product_t)
        v_hat = v_new / (1.0 - beta_2_power)
        variable.assign_sub(m_hat * lr / (ops.sqrt(v_hat) + self.epsilon))

    def get_config(self):
        return dict(super().get_config(), beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon)
