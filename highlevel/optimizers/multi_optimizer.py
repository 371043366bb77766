"""``MultiOptimizer``: several optimizers in one, each training its own variables.

>>> import highlevel as hl
>>> a, b = hl.Variable([1.0], name="a"), hl.Variable([1.0], name="b")
>>> opt = hl.optimizers.MultiOptimizer(
...     hl.optimizers.OptimizerMap(hl.optimizers.SGD(0.5), {"b": hl.optimizers.SGD(0.1)})
... )
>>> _ = opt.apply([hl.ops.convert_to_tensor([1.0]), hl.ops.convert_to_tensor([1.0])], [a, b])
>>> float(a.numpy()[0]), round(float(b.numpy()[0]), 4)
(0.5, 0.9)
"""

from .optimizer import Optimizer
from .optimizer_map import OptimizerMap, _check_optimizer


class MultiOptimizer(Optimizer):
    """Delegates each variable to the optimizer that ``optimizer_map`` picks (``keras.optimizers.MultiOptimizer``).

    The sub-optimizers keep their own learning rates, slots and step counts (:attr:`optimizers`); the
    MultiOptimizer has none of its own learning rate — reading or setting ``learning_rate`` is an error —
    but counts its own ``iterations``. Its :attr:`variables` are its own followed by each sub-optimizer's,
    so that saving and loading a model restores every sub-optimizer's state.

    Args:
        optimizer_map: an :class:`OptimizerMap`, or a callable ``variable -> optimizer`` (then the
            optimizer cannot be serialized: use an ``OptimizerMap`` to save it).
        loss_scale_factor: the loss scale of every sub-optimizer (it replaces theirs).
        name: the optimizer's name.

    Raises:
        TypeError: if ``optimizer_map`` is not callable.

    >>> import highlevel as hl
    >>> a, b = hl.Variable([1.0], name="a"), hl.Variable([1.0], name="b")
    >>> mapping = hl.optimizers.OptimizerMap(hl.optimizers.SGD(0.1), {"b": hl.optimizers.SGD(1.0)})
    >>> opt = hl.optimizers.MultiOptimizer(mapping)
    >>> _ = opt.apply([hl.ops.convert_to_tensor([1.0]), hl.ops.convert_to_tensor([1.0])], [a, b])
    >>> round(float(a.numpy()[0]), 4), round(float(b.numpy()[0]), 4)
    (0.9, 0.0)
    """

    def __init__(self, optimizer_map, loss_scale_factor=None, name=None):
        if not callable(optimizer_map):
            raise TypeError(
                "optimizer_map must be an hl.optimizers.OptimizerMap or a callable variable -> optimizer; "
                f"received {type(optimizer_map).__name__}."
            )
        self._inner_optimizers = []
        super().__init__(learning_rate=0.0, loss_scale_factor=loss_scale_factor, name=name)
        self._optimizer_map = optimizer_map
        known = list(optimizer_map.values()) if isinstance(optimizer_map, OptimizerMap) else []
        default = getattr(optimizer_map, "default_optimizer", None)
        for opt in known + ([default] if default is not None else []):
            self._add_inner(opt)

    def _add_inner(self, optimizer):
        if not any(optimizer is o for o in self._inner_optimizers):
            _check_optimizer(optimizer, "Each optimizer of a MultiOptimizer")
            optimizer.loss_scale_factor = self.loss_scale_factor
            self._inner_optimizers.append(optimizer)
        return next(i for i, o in enumerate(self._inner_optimizers) if o is optimizer)

    @property
    def optimizers(self):
        """The sub-optimizers, in the order their variables appear in :attr:`variables`."""
        return list(self._inner_optimizers)

    @property
    def variables(self):
        out = list(self._variables)
        for opt in self._inner_optimizers:
            out.extend(opt.variables)
        return out

    @property
    def learning_rate(self):
        raise AttributeError(
            "A MultiOptimizer has no single learning rate: read it on one of its sub-optimizers "
            "(multi_optimizer.optimizers[i].learning_rate)."
        )

    @learning_rate.setter
    def learning_rate(self, value):
        raise AttributeError(
            "A MultiOptimizer has no single learning rate: set it on one of its sub-optimizers "
            "(multi_optimizer.optimizers[i].learning_rate = ...)."
        )

    @property
    def loss_scale_factor(self):
        return self.__dict__.get("_loss_scale_factor")

    @loss_scale_factor.setter
    def loss_scale_factor(self, value):
        self._loss_scale_factor = value
        for opt in self.__dict__.get("_inner_optimizers", []):
            opt.loss_scale_factor = value

    def _route(self, variables):
        """``{sub-optimizer index: [variables]}`` for ``variables``, remembering each variable's index."""
        groups = {}
        for v in variables:
            index = self._add_inner(self._optimizer_map(v))
            self._owner[id(v)] = index
            groups.setdefault(index, []).append(v)
        return groups

    def build(self, var_list):
        if self.built:
            return
        var_list = list(var_list)
        self._owner = {}
        for index, group in self._route(var_list).items():
            self._inner_optimizers[index].build(group)
        super().build(var_list)

    def _track_new_variables(self, variables):
        new = [v for v in variables if id(v) not in self._index]
        if not new or not self.built:
            return
        for index, group in self._route(new).items():
            opt = self._inner_optimizers[index]
            if opt.built:
                opt._track_new_variables(list(opt._trainable_variables) + group)
            else:
                opt.build(group)
        self._trainable_variables = list(self._trainable_variables) + new
        self._index = {id(v): i for i, v in enumerate(self._trainable_variables)}

    def apply(self, grads, trainable_variables=None, only_if=None):
        if only_if is not None:
            return super().apply(grads, trainable_variables, only_if=only_if)
        grads = list(grads)
        if trainable_variables is None:
            if not self.built:
                raise ValueError(
                    "apply() without trainable_variables needs a built optimizer: call "
                    "optimizer.build(variables) first or pass the variables."
                )
            trainable_variables = self._trainable_variables
        variables = list(trainable_variables)
        if len(grads) != len(variables):
            raise ValueError(f"apply() received {len(grads)} gradients for {len(variables)} variables.")
        if not variables:
            return self.iterations
        if not self.built:
            self._build_or_undo(variables)
        per_optimizer = {}
        for g, v in zip(grads, variables):
            self._slot_index(v)
            if g is not None:
                per_optimizer.setdefault(self._owner[id(v)], ([], []))
                per_optimizer[self._owner[id(v)]][0].append(g)
                per_optimizer[self._owner[id(v)]][1].append(v)
        if not per_optimizer:
            raise ValueError("No gradients provided for any variable: every gradient passed to apply() is None.")
        for index, (sub_grads, sub_vars) in sorted(per_optimizer.items()):
            self._inner_optimizers[index].apply(sub_grads, sub_vars)
        self.iterations.assign_add(1)
        return self.iterations

    def _by_owner(self, variables):
        groups = {}
        for v in variables:
            groups.setdefault(self._owner[id(v)], []).append(v)
        return groups

    def finalize_variable_values(self, var_list):
        for index, group in self._by_owner(var_list).items():
            self._inner_optimizers[index].finalize_variable_values(group)

    def get_config(self):
        if not isinstance(self._optimizer_map, OptimizerMap):
            raise TypeError(
                "This MultiOptimizer picks optimizers with a plain callable, which cannot be serialized. Build it "
                "from an hl.optimizers.OptimizerMap to save or clone it."
            )
        return {
            "optimizer_map": {"class_name": "OptimizerMap", "config": self._optimizer_map.get_config()},
            "loss_scale_factor": self.loss_scale_factor,
            "name": self.name,
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        entry = config.pop("optimizer_map")
        mapping = OptimizerMap.from_config(entry.get("config", entry), custom_objects=custom_objects)
        return cls(mapping, **config)
