"""Adam, with the AMSGrad variant.

>>> import highlevel as hl
>>> v = hl.Variable([1.0])
>>> opt = hl.optimizers.Adam(learning_rate=0.1)
>>> _ = opt.apply([hl.ops.convert_to_tensor([0.5])], [v])
>>> round(float(v.numpy()[0]), 4)
0.9
"""

from highlevel import ops

from .optimizer import Optimizer


class Adam(Optimizer):
    """Adam (``keras.optimizers.Adam``): bias-corrected first and second moment estimates.

    ``m = b1 m + (1 - b1) g``; ``v = b2 v + (1 - b2) g²``;
    ``w -= lr · sqrt(1 - b2^t) / (1 - b1^t) · m / (sqrt(v) + epsilon)``.

    Args:
        learning_rate: float or schedule (default 0.001).
        beta_1, beta_2: the moment decay rates (0.9, 0.999).
        epsilon: added to the denominator (1e-7, as Keras).
        amsgrad: use the running maximum of ``v`` (AMSGrad).
        **kwargs: the base :class:`Optimizer` options.
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False, name=None,
                 **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        for arg, value in (("beta_1", beta_1), ("beta_2", beta_2)):
            if not 0 <= value < 1:
                raise ValueError(f"`{arg}` must be in [0, 1); received {arg}={value!r}.")
        if epsilon < 0:
            raise ValueError(f"`epsilon` must be >= 0; received epsilon={epsilon!r}.")
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)
        self.amsgrad = bool(amsgrad)

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self.momentums = [self.add_variable_from_reference(v, "momentum") for v in variables]
        self.velocities = [self.add_variable_from_reference(v, "velocity") for v in variables]
        self.velocity_hats = [self.add_variable_from_reference(v, "velocity_hat") for v in variables] \
            if self.amsgrad else []

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype

        def bias_corrected_rate():
            lr = ops.cast(learning_rate, dtype)
            step = self._local_step(dtype)
            b1_power = ops.power(ops.convert_to_tensor(self.beta_1, dtype=dtype), step)
            b2_power = ops.power(ops.convert_to_tensor(self.beta_2, dtype=dtype), step)
            return lr * ops.sqrt(1.0 - b2_power) / (1.0 - b1_power)

        alpha = self._step_constant(("adam_alpha", dtype), bias_corrected_rate)
        i = self._slot_index(variable)
        m, v = self.momentums[i], self.velocities[i]
        m_new = m.value + (gradient - m.value) * (1.0 - self.beta_1)
        v_new = v.value + (ops.square(gradient) - v.value) * (1.0 - self.beta_2)
        m.assign(m_new)
        v.assign(v_new)
        if self.amsgrad:
            v_hat = self.velocity_hats[i]
            v_new = ops.maximum(v_hat.value, v_new)
            v_hat.assign(v_new)
        variable.assign_sub(m_new * alpha / (ops.sqrt(v_new) + self.epsilon))

    def get_config(self):
        return dict(super().get_config(), beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon,
                    amsgrad=self.amsgrad)
