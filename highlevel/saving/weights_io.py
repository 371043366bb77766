"""Model, optimizer and metric variables to safetensors tensors, and back, by position and name.

Keys are ``"<group>/<index>/<variable path>"`` (for example ``"model/0/dense/kernel"``): the index keeps
the order stable and unique, the path says what the tensor is. A layer that overrides ``save_own_variables`` or
``load_own_variables`` keeps its state its own way: what its ``save_own_variables`` puts in the store is saved
under ``"own/<layer index>/<key>"`` (the index of the layer in the model's layer walk), its variables are left
out of the positional list, and loading hands the same store to its ``load_own_variables``.

>>> import highlevel as hl
>>> from highlevel.saving import weights_io
>>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1, name="d")])
>>> sorted(weights_io.collect(model))
['model/0/d/kernel', 'model/1/d/bias']
"""

import numpy as np

from highlevel import config as hl_config

from .errors import InvalidFileError


def _to_numpy(variable):
    return np.asarray(hl_config.current_backend().to_numpy(variable.value))


OWN = "own"


def _uses_own_hooks(layer):
    from highlevel.layer import Layer

    decides = getattr(layer, "_uses_own_state_hooks", None)
    if callable(decides):
        # A layer whose hooks matter only in some states (LoRA on) says so itself.
        return bool(decides())
    cls = type(layer)
    return (
        getattr(cls, "save_own_variables", Layer.save_own_variables) is not Layer.save_own_variables
        or getattr(cls, "load_own_variables", Layer.load_own_variables) is not Layer.load_own_variables
    )


def hooked_layers(model):
    """``[(index, layer)]`` for the layers of ``model``'s walk that keep their state through their own hooks."""
    return [(i, layer) for i, layer in enumerate(model._flatten_layers()) if _uses_own_hooks(layer)]


def collect_own(model):
    """``{"own/<layer index>/<key>": array}`` from the ``save_own_variables`` of the hooked layers."""
    out = {}
    for index, layer in hooked_layers(model):
        store = {}
        layer.save_own_variables(store)
        for key, value in store.items():
            if not isinstance(key, str) or not key:
                raise TypeError(
                    f"Layer '{layer.name}'.save_own_variables put a key {key!r} in the store; keys must "
                    "be non-empty strings."
                )
            out[f"{OWN}/{index}/{key}"] = np.asarray(value.numpy() if hasattr(value, "numpy") else value)
    return out


def split_own(tensors):
    """``(others, {layer index: {key: array}})``: the hooked layers' entries taken out of ``tensors``."""
    others, own = {}, {}
    for key, array in tensors.items():
        if key.startswith(OWN + "/"):
            _, index, name = (key.split("/", 2) + ["", ""])[:3]
            if not index.isdigit() or not name:
                raise InvalidFileError(
                    f"Unexpected tensor name {key!r} in the weights; expected '{OWN}/<layer index>/<key>'."
                )
            own.setdefault(int(index), {})[name] = array
        else:
            others[key] = array
    return others, own


def assign_own(model, own, skip_mismatch=False):
    """Hands each hooked layer its store (``load_own_variables``).

    Raises:
        ValueError: the file holds the state of layers that do not keep their own, or lacks one that does
            (unless ``skip_mismatch``).
    """
    hooked = dict(hooked_layers(model))
    unknown = set(own) - set(hooked)
    missing = set(hooked) - set(own)
    if (unknown or missing) and not skip_mismatch:
        layers = model._flatten_layers()
        raise ValueError(
            "The file's own-variable state does not match the model: "
            + (f"it holds state for layer positions {sorted(unknown)} that keep none; " if unknown else "")
            + (f"it lacks the state of {[layers[i].name for i in sorted(missing)]}; " if missing else "")
            + "build the same architecture."
        )
    for index, layer in hooked.items():
        if index in own:
            layer.load_own_variables(dict(own[index]))


def model_variables(model):
    """``model.variables`` in an order fixed by the architecture alone.

    ``Layer.variables`` also lists variables that a layer merely references from an attribute, before those
    of its sub-layers; a trained model references its trainable variables from a cache (the training loop's
    ``_trainable_cache``), which moves the non-trainable ones (BatchNormalization's moving statistics) after
    all trainable ones, while a freshly loaded model keeps them with their layer. Here each variable sits
    at its owning layer, so saving after ``fit`` and loading into a new model agree by position.
    """
    layers = model._flatten_layers()
    owned = {id(v) for layer in layers for v in layer._own_weights}
    out, seen = [], set()
    for layer in layers:
        referenced = [v for v in layer._attribute_variables() if id(v) not in owned]
        if _uses_own_hooks(layer):  # its state is saved by its own hooks, not by position
            seen.update(id(v) for v in layer._own_variables())
            continue
        for v in layer._own_weights + referenced:
            if id(v) not in seen:
                seen.add(id(v))
                out.append(v)
    for v in model.variables:  # what the walk above does not reach: random seed generators' states
        if id(v) not in seen:
            seen.add(id(v))
            out.append(v)
    return out


def group_variables(model, with_optimizer=True, with_metrics=True):
    """``{"model": [...], "optimizer": [...], "metrics": [...]}``: the variables a file stores."""
    groups = {"model": model_variables(model)}
    if with_optimizer and getattr(model, "_compiled", False) and getattr(model.optimizer, "built", False):
        groups["optimizer"] = list(model.optimizer.variables)
    if with_metrics and getattr(model, "_compiled", False):
        seen, metric_vars = set(), []
        for m in model.metrics:
            for v in m.variables:
                if id(v) not in seen:
                    seen.add(id(v))
                    metric_vars.append(v)
        groups["metrics"] = metric_vars
    return groups


def collect(model, with_optimizer=True, with_metrics=True):
    """``{key: numpy array}`` of the variables :func:`group_variables` lists."""
    out = {}
    for group, variables in group_variables(model, with_optimizer, with_metrics).items():
        for i, v in enumerate(variables):
            out[f"{group}/{i}/{v.path}"] = _to_numpy(v)
    out.update(collect_own(model))
    return out


def split_keys(tensors):
    """``{group: [(path, array), ...] in index order}`` from stored tensors; malformed keys are refused."""
    groups = {}
    for key, array in tensors.items():
        parts = key.split("/", 2)
        if len(parts) != 3 or not parts[1].isdigit():
            raise InvalidFileError(f"Unexpected tensor name {key!r} in the weights; expected '<group>/<index>/<path>'.")
        groups.setdefault(parts[0], []).append((int(parts[1]), parts[2], array))
    out = {}
    for group, items in groups.items():
        items.sort(key=lambda t: t[0])
        if [t[0] for t in items] != list(range(len(items))):
            raise InvalidFileError(f"The '{group}' tensors of the weights are not numbered 0..{len(items) - 1}.")
        out[group] = [(path, array) for _, path, array in items]
    return out


def _describe(path):
    layer, _, name = path.rpartition("/")
    return f"layer '{layer or '?'}', variable '{name}'"


def assign_group(variables, stored, group, skip_mismatch=False, by_name=False):
    """Assigns ``stored`` (``[(path, array)]``) to ``variables``, by position (or by path when ``by_name``).

    Raises:
        ValueError: a count or shape mismatch, naming the layer, the variable and both shapes, unless
            ``skip_mismatch`` (then mismatching variables keep their values).
    """
    if by_name:
        lookup = {path: array for path, array in stored}
        pairs = [(v, (v.path, lookup[v.path])) for v in variables if v.path in lookup]
    else:
        if len(variables) != len(stored) and not skip_mismatch:
            raise ValueError(
                f"The file holds {len(stored)} {group} variables but the model has {len(variables)}: "
                f"file: {[p for p, _ in stored]}; model: {[v.path for v in variables]}. Build the same "
                "architecture (or pass skip_mismatch=True to load what fits)."
            )
        pairs = list(zip(variables, stored))
    for variable, (path, array) in pairs:
        if tuple(array.shape) != tuple(variable.shape):
            if skip_mismatch:
                continue
            raise ValueError(
                f"Cannot load {group} weights into {_describe(variable.path)}: the model's shape is "
                f"{tuple(variable.shape)} but the file's '{path}' ({_describe(path)}) has shape "
                f"{tuple(array.shape)}. Pass skip_mismatch=True to skip it."
            )
        variable.assign(array.astype(variable.dtype, copy=False))
