"""``OptimizerMap``: which optimizer trains which variable, by variable path (exact or regex), with a default.

>>> import highlevel as hl
>>> adam, sgd = hl.optimizers.Adam(), hl.optimizers.SGD()
>>> mapping = hl.optimizers.OptimizerMap(default_optimizer=adam)
>>> mapping["encoder/.*"] = sgd
>>> mapping["encoder/dense/kernel"] is sgd, mapping["head/kernel"] is adam
(True, True)
"""

import re
from collections.abc import MutableMapping


def _check_optimizer(optimizer, what):
    from .loss_scale_optimizer import LossScaleOptimizer
    from .multi_optimizer import MultiOptimizer
    from .optimizer import Optimizer

    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"{what} must be an hl.optimizers.Optimizer instance; received {optimizer!r}.")
    if isinstance(optimizer, (LossScaleOptimizer, MultiOptimizer)):
        raise TypeError(
            f"{what} cannot be a {type(optimizer).__name__}: map plain optimizers, and wrap the "
            "MultiOptimizer itself if needed (set loss_scale_factor on the MultiOptimizer)."
        )


class OptimizerMap(MutableMapping):
    """A mapping from variable paths to optimizers (``keras.optimizers.OptimizerMap``).

    Looking up a path first tries the exact key, then every key as a regular expression that must match the
    whole path (``re.fullmatch``): ``"encoder/.*"`` covers every variable under ``encoder``, ``"encoder"``
    only a variable whose path is exactly that. A path no key matches gets ``default_optimizer``; one that
    two patterns match is an error. Calling the map on a variable looks up its ``path``.

    Args:
        default_optimizer: the optimizer of every variable no key matches.
        optimizer_map: an initial ``{path or pattern: optimizer}`` dict.

    Raises:
        TypeError: if ``optimizer_map`` is not a dict (or a value is not an Optimizer).

    >>> import highlevel as hl
    >>> fast = hl.optimizers.SGD(1.0)
    >>> mapping = hl.optimizers.OptimizerMap(hl.optimizers.SGD(0.1), {"encoder/.*": fast})
    >>> mapping["encoder/dense/kernel"] is fast, mapping["decoder/dense/kernel"] is fast
    (True, False)
    """

    def __init__(self, default_optimizer, optimizer_map=None):
        _check_optimizer(default_optimizer, "default_optimizer")
        if optimizer_map is not None and not isinstance(optimizer_map, dict):
            raise TypeError(
                f"optimizer_map must be a dict {{path or regex: optimizer}}; received {type(optimizer_map).__name__}."
            )
        self._default_optimizer = default_optimizer
        self._optimizer_map = {}
        for key, optimizer in (optimizer_map or {}).items():
            self[key] = optimizer

    @property
    def default_optimizer(self):
        """The optimizer of variables that no key matches."""
        return self._default_optimizer

    def __getitem__(self, key):
        if key in self._optimizer_map:
            return self._optimizer_map[key]
        matches = [pattern for pattern in self._optimizer_map if re.fullmatch(pattern, key)]
        if len(matches) > 1:
            raise ValueError(
                f"Several optimizers are assigned to the variable {key!r}: the patterns {matches} all match it. "
                "Make the patterns exclusive."
            )
        return self._optimizer_map[matches[0]] if matches else self._default_optimizer

    def __setitem__(self, key, optimizer):
        if not isinstance(key, str):
            raise TypeError(f"OptimizerMap keys are variable paths or regexes (str); received {key!r}.")
        if key in self._optimizer_map:
            raise ValueError(f"{key!r} is already in the OptimizerMap; delete it first to assign another optimizer.")
        _check_optimizer(optimizer, f"The optimizer for {key!r}")
        self._optimizer_map[key] = optimizer

    def __delitem__(self, key):
        del self._optimizer_map[key]

    def __len__(self):
        return len(self._optimizer_map)

    def __iter__(self):
        return iter(self._optimizer_map)

    def __call__(self, variable):
        return self[variable.path]

    def get_config(self):
        """The default optimizer and the map, serialized. An optimizer that appears more than once is
        serialized once; its other entries read ``{"same_as": key}`` (``"default"`` for the default), so that
        a loaded map shares it again."""
        from . import serialize

        seen = {id(self._default_optimizer): "default"}
        entries = {}
        for key, optimizer in self._optimizer_map.items():
            if id(optimizer) in seen:
                entries[key] = {"same_as": seen[id(optimizer)]}
            else:
                seen[id(optimizer)] = key
                entries[key] = serialize(optimizer)
        return {"default_optimizer": serialize(self._default_optimizer), "optimizer_map": entries}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from . import deserialize

        default = deserialize(config["default_optimizer"], custom_objects=custom_objects)
        made = {"default": default}
        entries = {}
        for key, entry in config.get("optimizer_map", {}).items():
            if isinstance(entry, dict) and "same_as" in entry:
                entries[key] = made[entry["same_as"]]
            else:
                entries[key] = made[key] = deserialize(entry, custom_objects=custom_objects)
        return cls(default, entries)
