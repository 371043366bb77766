"""Dynamic loss scaling for float16 training (``keras.optimizers.LossScaleOptimizer``).

Float16 gradients of small losses underflow to zero. The trainer multiplies the loss by a large *scale* before
differentiating (:meth:`LossScaleOptimizer.scale_loss`), and this optimizer divides the gradients by it again
before handing them to the optimizer it wraps. The scale adapts:

* a step whose gradients hold an inf or NaN is skipped — the weights, the inner optimizer's slots and its
  ``iterations`` stay as they were — and the scale is halved;
* after ``dynamic_growth_steps`` consecutive finite steps the scale is doubled (and the count restarts).

Every decision is made with ``ops.where`` on tensors and the scale and count are optimizer variables, so the
rules hold inside a compiled step and are saved with the model.

>>> import highlevel as hl
>>> v = hl.Variable([1.0])
>>> opt = hl.optimizers.LossScaleOptimizer(hl.optimizers.SGD(0.1), initial_scale=8.0, dynamic_growth_steps=2)
>>> _ = opt.apply([hl.ops.convert_to_tensor([8.0])], [v])                 # finite: unscaled gradient 1.0
>>> _ = opt.apply([hl.ops.convert_to_tensor([float("inf")])], [v])     # skipped, scale halved
>>> [round(x, 4) for x in v.numpy().tolist()], float(opt.dynamic_scale.numpy()), int(opt.iterations.numpy())
([0.9], 4.0, 1)
"""

from highlevel import ops
from highlevel.backends.contract import StatelessScope
from highlevel.config import current_backend

from .. import naming
from .optimizer import Optimizer

# Base-optimizer arguments Keras's LossScaleOptimizer accepts only at their defaults (old configs hold them).
_BASE_DEFAULTS = {
    "weight_decay": None,
    "clipnorm": None,
    "global_clipnorm": None,
    "clipvalue": None,
    "use_ema": False,
    "ema_momentum": 0.99,
    "ema_overwrite_frequency": None,
    "loss_scale_factor": None,
    "gradient_accumulation_steps": None,
}


class LossScaleOptimizer(Optimizer):
    """Wraps an optimizer with dynamic loss scaling (``keras.optimizers.LossScaleOptimizer``).

    ``compile`` wraps the optimizer of a model whose dtype policy is ``"mixed_float16"`` in one automatically
    (unless ``auto_scale_loss=False``).

    Args:
        inner_optimizer: the :class:`Optimizer` that applies the unscaled gradients.
        initial_scale: the first loss scale (a large power of two: too high a scale is lowered in a few
            steps, too low a one is raised only every ``dynamic_growth_steps``).
        dynamic_growth_steps: the number of consecutive finite steps after which the scale doubles.
        name: the optimizer's name.

    Raises:
        TypeError: if ``inner_optimizer`` is not an Optimizer (or is itself a LossScaleOptimizer), or an unknown keyword
            is passed.
        ValueError: if ``initial_scale`` is not a positive number, ``dynamic_growth_steps`` is not a positive int, or
            ``dynamic=False`` or a base option (such as ``clipnorm``) is given: set those on the inner optimizer.

    >>> import highlevel as hl
    >>> opt = hl.optimizers.LossScaleOptimizer(hl.optimizers.SGD(0.1))
    >>> float(opt.scale_loss(1.0))
    32768.0
    >>> v = hl.Variable([1.0])
    >>> _ = opt.apply([hl.ops.convert_to_tensor([float("inf")])], [v])  # overflow: the step is skipped
    >>> v.numpy().tolist(), float(opt.dynamic_scale.numpy())
    ([1.0], 16384.0)
    >>> _ = opt.apply([hl.ops.convert_to_tensor([16384.0])], [v])  # scaled gradient 1.0
    >>> round(float(v.numpy()[0]), 4)
    0.9
    """

    def __init__(self, inner_optimizer, initial_scale=2.0**15, dynamic_growth_steps=2000, name=None, **kwargs):
        if not kwargs.pop("dynamic", True):
            raise ValueError(
                "LossScaleOptimizer supports only dynamic loss scaling; for a fixed scale set "
                "`loss_scale_factor` on the optimizer itself instead."
            )
        for arg, default in _BASE_DEFAULTS.items():
            if arg in kwargs and kwargs.pop(arg) != default:
                raise ValueError(f"LossScaleOptimizer does not take `{arg}`: set it on the inner optimizer.")
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments passed to LossScaleOptimizer: {sorted(kwargs)}.")
        if not isinstance(inner_optimizer, Optimizer) or isinstance(inner_optimizer, LossScaleOptimizer):
            raise TypeError(
                "LossScaleOptimizer wraps an hl.optimizers.Optimizer (not another "
                f"LossScaleOptimizer); received inner_optimizer={inner_optimizer!r}."
            )
        if isinstance(initial_scale, bool) or not isinstance(initial_scale, (int, float)) or not initial_scale > 0:
            raise ValueError(f"`initial_scale` must be a positive number; received {initial_scale!r}.")
        if (
            isinstance(dynamic_growth_steps, bool)
            or not isinstance(dynamic_growth_steps, int)
            or dynamic_growth_steps < 1
        ):
            raise ValueError(f"`dynamic_growth_steps` must be a positive integer; received {dynamic_growth_steps!r}.")
        # The base constructor is not called: the learning rate, iteration count and every hyper-parameter
        # belong to the inner optimizer.
        self.name = name or naming.to_snake_case(type(self).__name__)
        self.inner_optimizer = inner_optimizer
        self.initial_scale = float(initial_scale)
        self.dynamic_growth_steps = dynamic_growth_steps
        # The gradients are unscaled here: the inner optimizer must not divide them a second time.
        inner_optimizer.loss_scale_factor = None
        self.loss_scale_factor = None
        self.built = False
        self._variables = []
        self._trainable_variables = []
        self._backend = current_backend()

    # ------------------------------------------------------------ delegation
    @property
    def iterations(self):
        """The inner optimizer's step count (skipped steps do not count)."""
        return self.inner_optimizer.iterations

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self.inner_optimizer.learning_rate = value

    @property
    def variables(self):
        """The scale and growth counter, then the inner optimizer's variables."""
        return list(self._variables) + list(self.inner_optimizer.variables)

    @property
    def use_ema(self):
        """Whether the inner optimizer keeps moving averages of the weights (read by ``SwapEMAWeights``)."""
        return self.inner_optimizer.use_ema

    def finalize_variable_values(self, var_list):
        self.inner_optimizer.finalize_variable_values(var_list)

    def swap_ema_weights(self, variables):
        self.inner_optimizer.swap_ema_weights(variables)

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        self.inner_optimizer.exclude_from_weight_decay(var_list, var_names)

    # ----------------------------------------------------------------- state
    def build(self, var_list):
        """Creates the scale and growth counter, and builds the inner optimizer for ``var_list``."""
        if self.built:
            return
        from highlevel import initializers

        var_list = list(var_list)
        self.step_counter = self.add_variable((), initializer="zeros", dtype="int64", name="step_counter")
        self.dynamic_scale = self.add_variable(
            (), initializer=initializers.Constant(self.initial_scale), dtype="float32", name="dynamic_scale"
        )
        if not self.inner_optimizer.built:
            self.inner_optimizer.build(var_list)
        self._trainable_variables = var_list
        self.built = True

    def _track_new_variables(self, variables):
        """Extends the inner optimizer to newly trainable variables (see :meth:`Optimizer._track_new_variables`)."""
        self.inner_optimizer._track_new_variables(variables)
        self._trainable_variables = list(self.inner_optimizer._trainable_variables)

    def scale_loss(self, loss):
        """``loss`` times the current scale (the initial one before the first step)."""
        scale = self.dynamic_scale.value if self.built else self.initial_scale
        return ops.multiply(loss, scale)

    def check_finite(self, grads):
        """A boolean scalar tensor: whether every gradient is free of inf and NaN."""
        flags = [ops.all(ops.isfinite(g)) for g in grads if g is not None]
        return ops.all(ops.stack(flags)) if flags else ops.convert_to_tensor(True)

    # ----------------------------------------------------------------- apply
    def apply(self, grads, trainable_variables=None, only_if=None):
        """Unscales ``grads`` and applies them with the inner optimizer if all are finite; updates the scale.

        Args:
            grads: one (scaled) gradient or None per variable.
            trainable_variables: the variables (optional once built).
            only_if: as in :meth:`Optimizer.apply`: when this boolean tensor is false nothing changes, the
                scale and counter included.

        Returns:
            The inner optimizer's ``iterations``.
        """
        grads = list(grads)
        if not self.built:
            if trainable_variables is None:
                raise ValueError(
                    "apply() without trainable_variables needs a built optimizer: call "
                    "optimizer.build(variables) first or pass the variables."
                )
            self.build(trainable_variables)
        if only_if is not None:
            with StatelessScope() as scope:
                self.apply(grads, trainable_variables)
            for var, new in scope.assigned.values():
                var.assign(ops.where(only_if, new, var.value))
            return self.iterations
        finite = self.check_finite(grads)
        scale = self.dynamic_scale.value
        unscaled = [None if g is None else ops.divide(g, scale) for g in grads]
        # Computed either way, kept only when finite (no Python branch on a tensor).
        self.inner_optimizer.apply(unscaled, trainable_variables, only_if=finite)
        counter = self.step_counter.value
        grow = ops.logical_and(finite, ops.equal(counter, self.dynamic_growth_steps - 1))
        zero = ops.zeros_like(counter)
        self.step_counter.assign(ops.where(finite, ops.where(grow, zero, counter + 1), zero))
        self.dynamic_scale.assign(ops.where(finite, ops.where(grow, scale * 2.0, scale), scale * 0.5))
        return self.iterations

    # --------------------------------------------------------------- configs
    def get_config(self):
        from . import serialize

        return {
            "name": self.name,
            "inner_optimizer": serialize(self.inner_optimizer),
            "initial_scale": self.initial_scale,
            "dynamic_growth_steps": self.dynamic_growth_steps,
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from . import deserialize

        config = dict(config)
        inner = deserialize(config.pop("inner_optimizer"), custom_objects=custom_objects)
        return cls(inner, **config)
