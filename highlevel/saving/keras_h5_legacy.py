"""Keras 2's HDF5 weights layout (the ``.h5`` files of ``keras.applications``), read into highlevel's models.

The layout differs from Keras 3's ``.weights.h5``: the root group (or its ``model_weights`` group, in a
whole-model file) lists its layers in the attribute ``layer_names``; each layer's group lists its arrays in
``weight_names`` (``conv1/kernel:0``, ``conv1/bias:0``), each the path of a dataset below that group. A long
list is split over ``layer_names0``, ``layer_names1``, ... A layer's arrays come in the order of its trainable
weights, then its non-trainable ones.

Layers are matched by name when the file's layer names are those of the model's layers that hold weights,
otherwise by position (as Keras does), and each layer's arrays by order. The file goes through the same checks
as :mod:`highlevel.saving.keras_h5` (no links, no external or virtual data, numeric arrays of bounded size), and
every shape is compared before any array is read; nothing is assigned unless the whole file fits.

>>> import highlevel as hl
>>> from highlevel.saving import keras_h5_legacy
>>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1, name="d")])
>>> [len(w) for _, w in keras_h5_legacy.weighted_layers(model)]
[2]
"""

import os

import numpy as np

from . import keras_h5
from .errors import InvalidFileError, UnsafeFileError

#: The most bytes one name-list attribute may hold (Keras splits its lists below 64 KiB per chunk).
MAX_ATTRIBUTE_BYTES = 1024**2
MAX_CHUNKS = 1000


def legacy_weights(layer):
    """A layer's weights in the legacy file's order: the trainable ones, then the others (creation order each).

    >>> import highlevel as hl
    >>> bn = hl.layers.BatchNormalization()
    >>> bn.build((None, 3))
    >>> [w.name for w in legacy_weights(bn)]
    ['gamma', 'beta', 'moving_mean', 'moving_variance']
    """
    weights = layer.weights
    return [w for w in weights if w.trainable] + [w for w in weights if not w.trainable]


def weighted_layers(model):
    """``[(layer, weights)]`` for the model's layers that hold weights, in the model's layer order."""
    out = []
    for layer in model.layers:
        weights = legacy_weights(layer)
        if weights:
            out.append((layer, weights))
    return out


def _names(group, name, where):
    """The list attribute ``name`` of ``group`` (joined from its chunks), as strings, its size bounded."""

    def read(key):
        attr_id = group.attrs.get_id(key)
        count = int(np.prod(attr_id.shape, dtype=np.float64)) if attr_id.shape else 1
        if count * max(attr_id.dtype.itemsize, 1) > MAX_ATTRIBUTE_BYTES:
            raise UnsafeFileError(
                f"{where}: the attribute '{key}' of '{group.name}' is over {MAX_ATTRIBUTE_BYTES} bytes; a list of "
                "layer or weight names is far smaller."
            )
        if count == 0:
            return []
        values = np.atleast_1d(group.attrs[key])
        if values.dtype.kind not in "SUO":
            raise InvalidFileError(f"{where}: the attribute '{key}' of '{group.name}' is not a list of names.")
        out = []
        for v in values:
            if isinstance(v, bytes):
                v = v.decode("utf8", errors="replace")
            if not isinstance(v, str):
                raise InvalidFileError(f"{where}: the attribute '{key}' of '{group.name}' is not a list of names.")
            out.append(v)
        return out

    if name in group.attrs:
        return read(name)
    out = []
    for i in range(MAX_CHUNKS):
        if f"{name}{i}" not in group.attrs:
            break
        out.extend(read(f"{name}{i}"))
    return out


def is_legacy_layout(h5_file):
    """Whether an open HDF5 file holds Keras 2's by-layer layout (``layer_names`` at its root or in
    ``model_weights``)."""
    group = h5_file["model_weights"] if "model_weights" in h5_file else h5_file
    return "layer_names" in group.attrs or "layer_names0" in group.attrs


def read_legacy_h5(model, path, skip_mismatch=False):
    """Loads a Keras 2 layout HDF5 weights file into the built ``model``.

    Args:
        model: a built model whose layers hold the file's weights (same names, or the same order).
        path: the file's path.
        skip_mismatch: leave the variables whose shape differs from the file's as they are, instead of raising.

    Raises:
        InvalidFileError: the file is not HDF5, is damaged, or its layers, weight counts or shapes do not match
            the model (the message names the layer, the weight and both shapes).
        UnsafeFileError: the file holds links, external or virtual data, or oversized arrays or attributes.
    """
    h5py = keras_h5._h5py()
    where = repr(os.fspath(path))
    try:
        assignments = _plan(h5py, model, path, where, skip_mismatch)
    except (InvalidFileError, UnsafeFileError):
        raise
    except keras_h5._CORRUPT_FILE_ERRORS as e:
        raise InvalidFileError(
            f"{where}: the file cannot be read (damaged or truncated?): {type(e).__name__}: {e}"
        ) from None
    for variable, array in assignments:
        variable.assign(array.astype(variable.dtype, copy=False))


def _plan(h5py, model, path, where, skip_mismatch):
    with keras_h5._open(path, where) as f:
        datasets = {}
        keras_h5._scan(h5py, f, "", datasets, where)
        root, prefix = (f["model_weights"], "model_weights/") if "model_weights" in f else (f, "")
        if not isinstance(root, h5py.Group):
            raise InvalidFileError(f"{where}: 'model_weights' is not a group.")
        file_layers = []
        for name in _names(root, "layer_names", where):
            group = root.get(name)
            if not isinstance(group, h5py.Group):
                raise InvalidFileError(f"{where}: the layer '{name}' listed in layer_names has no group.")
            weight_names = _names(group, "weight_names", where)
            if weight_names:
                file_layers.append((name, weight_names))
        ours = weighted_layers(model)
        by_name = {layer.name: (layer, weights) for layer, weights in ours}
        if sorted(by_name) == sorted(n for n, _ in file_layers) and len(by_name) == len(ours):
            pairs = [(by_name[n], n, w) for n, w in file_layers]
        elif len(file_layers) == len(ours):
            pairs = [(ours[k], n, w) for k, (n, w) in enumerate(file_layers)]
        else:
            theirs = [n for n, _ in file_layers]
            raise InvalidFileError(
                f"{where} holds the weights of {len(theirs)} layers ({_short(theirs)}), but the "
                f"{type(model).__name__} has {len(ours)} layers with weights ({_short([l.name for l, _ in ours])}). "
                "Build the same architecture the file was saved from."
            )
        planned, problems = [], []
        for (layer, weights), name, weight_names in pairs:
            if len(weight_names) != len(weights):
                problems.append(
                    f"  layer '{layer.name}' (file: '{name}') has {len(weights)} weights; the file holds "
                    f"{len(weight_names)} ({weight_names})"
                )
                continue
            for variable, weight_name in zip(weights, weight_names):
                key = f"{prefix}{name}/{weight_name}"
                if key not in datasets:
                    problems.append(f"  '{key}', listed in the file's weight_names, is not in the file")
                    continue
                got, want = tuple(datasets[key].shape), tuple(variable.shape)
                if got != want:
                    if not skip_mismatch:
                        problems.append(
                            f"  layer '{layer.name}', weight '{weight_name}': the model expects shape {want} but "
                            f"the file has shape {got}"
                        )
                    continue
                planned.append((variable, key))
        if problems:
            raise InvalidFileError(
                "\n".join(
                    [f"{where} does not match the {type(model).__name__} it is loaded into:"]
                    + problems
                    + ["Build the same architecture (same layers, sizes and input shape), or pass skip_mismatch=True."]
                )
            )
        return [(v, keras_h5._read_dataset(datasets[key], key, where)) for v, key in planned]


def _short(names, limit=6):
    shown = ", ".join(repr(n) for n in names[:limit])
    return shown + (f", ... ({len(names) - limit} more)" if len(names) > limit else "")
