"""Adadelta: step sizes from running averages of squared gradients and squared updates.

>>> import highlevel as hl
>>> v = hl.Variable([1.0])
>>> opt = hl.optimizers.Adadelta(learning_rate=1.0)
>>> _ = opt.apply([hl.ops.convert_to_tensor([1.0])], [v])
>>> bool(v.numpy()[0] < 1.0)
True
"""

from highlevel import ops

from ._checks import check_number
from .optimizer import Optimizer


class Adadelta(Optimizer):
    """Adadelta (``keras.optimizers.Adadelta``).

    ``E[g²] = rho E[g²] + (1 - rho) g²``; ``Δ = -sqrt(E[Δ²] + eps) / sqrt(E[g²] + eps) · g``;
    ``E[Δ²] = rho E[Δ²] + (1 - rho) Δ²``; ``w += lr Δ``.

    Args:
        learning_rate: float or schedule (default 0.001; the original paper uses 1.0).
        rho: the decay rate of both running averages (0.95).
        epsilon: added inside the square roots (1e-7).
        **kwargs: the base :class:`Optimizer` options.
    """

    def __init__(
        self,
        learning_rate=0.001,
        rho=0.95,
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
        self.rho = float(check_number("rho", rho, 0.0, 1.0))
        self.epsilon = float(check_number("epsilon", epsilon, 0.0))

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._accumulated_grads = [self.add_variable_from_reference(v, "accumulated_grad") for v in var_list]
        self._accumulated_delta_vars = [self.add_variable_from_reference(v, "accumulated_delta_var") for v in var_list]

    def update_step(self, gradient, variable, learning_rate):
        lr = ops.cast(learning_rate, variable.dtype)
        i = self._slot_index(variable)
        acc_grad, acc_delta = self._accumulated_grads[i], self._accumulated_delta_vars[i]
        rho = self.rho
        g2 = rho * acc_grad.value + (1.0 - rho) * ops.square(gradient)
        acc_grad.assign(g2)
        delta = ops.negative(ops.sqrt(acc_delta.value + self.epsilon) * gradient / ops.sqrt(g2 + self.epsilon))
        acc_delta.assign(rho * acc_delta.value + (1.0 - rho) * ops.square(delta))
        variable.assign_add(lr * delta)

    def get_config(self):
        return dict(super().get_config(), rho=self.rho, epsilon=self.epsilon)
