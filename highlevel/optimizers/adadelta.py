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
    """Adadelta optimizer (``keras.optimizers.Adadelta``): per-coordinate steps from running averages.

    ``E[g²] = rho E[g²] + (1 - rho) g²``; ``Δ = -sqrt(E[Δ²] + eps) / sqrt(E[g²] + eps) · g``;
    ``E[Δ²] = rho E[Δ²] + (1 - rho) Δ²``; ``w += lr Δ``.

    Args:
        learning_rate: float or schedule (default 0.001; the original paper uses 1.0).
        rho: the decay rate of both running averages (0.95).
        epsilon: added inside the square roots (1e-7).
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
    >>> opt = hl.optimizers.Adadelta(learning_rate=0.1)
    >>> _ = opt.apply([hl.ops.convert_to_tensor([0.5, -0.5])], [v])
    >>> [round(x, 4) for x in v.numpy().tolist()]
    [0.9999, 2.0001]
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
