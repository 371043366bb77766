"""Keras 3's ``.weights.h5`` files, written and read for highlevel's models and layers.

The paths come from :mod:`highlevel.saving.keras_h5_layout` (``layers/dense/vars/0``, ``optimizer/vars/3``).
Reading is checked before anything is allocated: every link in the file must be an ordinary (hard) link, every
dataset a plain numeric array, and every dataset's path and shape must be one the object expects; a mismatch is
reported with the path, both shapes, and the lists of missing and unexpected paths. Nothing is unpickled, no
external file is opened, and no variable changes unless the whole file fits.

>>> import io
>>> import numpy as np
>>> import highlevel as hl
>>> from highlevel.saving import keras_h5
>>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
>>> buffer = io.BytesIO()
>>> keras_h5.write_keras_h5(model, buffer)
>>> other = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
>>> keras_h5.read_keras_h5(other, buffer)
>>> bool(np.array_equal(model.layers[0].kernel.numpy(), other.layers[0].kernel.numpy()))
True
"""

import os
import warnings

import numpy as np

from highlevel import config as hl_config

from . import keras_h5_layout
from .errors import InvalidFileError, UnsafeFileError

HDF5_MAGIC = b"\x89HDF\r\n\x1a\n"
MAX_DATASET_BYTES = 4 * 1024**3
_NUMERIC_KINDS = "biuf"


def _h5py():
    try:
        import h5py
    except ImportError:
        from highlevel._extras import install_command

        raise ImportError(
            "Reading or writing Keras's .weights.h5 files needs h5py, which is not installed. Install it with "
            f"`pip install h5py`, or the h5 extra: {install_command('h5')}."
        ) from None
    return h5py


def _vars_path(path):
    return f"{path}/vars" if path else "vars"


def _to_numpy(value):
    if isinstance(value, keras_h5_layout.Unused):
        return value.value
    if hasattr(value, "shape") and hasattr(value, "assign"):  # a Variable
        return np.asarray(hl_config.current_backend().to_numpy(value.value))
    if hasattr(value, "numpy"):
        return np.asarray(value.numpy())
    return np.asarray(value)


def _store_array(group, key, array):
    if array.dtype == np.int64 and array.ndim == 0 and "/optimizer/" in group.name + "/":
        array = array.astype(np.int32)  # Keras keeps an optimizer's counters (step count, growth steps) as int32
    if array.dtype.name == "bfloat16":  # as Keras writes it: the raw 2-byte values, tagged
        group.create_dataset(key, data=array.view("V2")).attrs["dtype"] = "bfloat16"
        return
    if array.dtype.kind not in _NUMERIC_KINDS:
        raise TypeError(f"Cannot write {group.name}/{key}: its dtype {array.dtype} is not numeric.")
    group.create_dataset(key, data=array)


def write_keras_h5(obj, h5_path_or_file):
    """Writes the state of ``obj`` as Keras 3.15 lays out a ``.weights.h5`` file.

    Args:
        obj: a built model (with its optimizer's state when it is compiled and the optimizer built) or layer.
        h5_path_or_file: a file path, or a writable binary file object (``io.BytesIO``).

    Raises:
        ImportError: h5py is not installed.
    """
    h5py = _h5py()
    entries = keras_h5_layout.entries(obj)
    target = os.fspath(h5_path_or_file) if isinstance(h5_path_or_file, (str, os.PathLike)) else h5_path_or_file
    with h5py.File(target, "w") as f:
        for path, item, state in entries:
            if keras_h5_layout._kind(item) == "optimizer" and not state:
                continue
            group = f.create_group(_vars_path(path))
            name = getattr(item, "name", None)
            if isinstance(name, str):
                group.attrs["name"] = name
            items = state.items() if isinstance(state, dict) else ((str(i), v) for i, v in enumerate(state))
            for key, value in items:
                _store_array(group, key, _to_numpy(value))


def _open(h5_path_or_file, where):
    h5py = _h5py()
    if isinstance(h5_path_or_file, (str, os.PathLike)):
        from . import file_safety

        file_safety.check_regular_file(h5_path_or_file, "a Keras weights file")
        with open(h5_path_or_file, "rb") as f:
            head = f.read(len(HDF5_MAGIC))
    else:
        h5_path_or_file.seek(0)
        head = h5_path_or_file.read(len(HDF5_MAGIC))
        h5_path_or_file.seek(0)
    if head != HDF5_MAGIC:
        raise InvalidFileError(f"{where} is not an HDF5 file (it does not start with the HDF5 signature).")
    try:
        return h5py.File(h5_path_or_file, "r")
    except (OSError, ValueError) as e:
        raise InvalidFileError(f"{where} is not a readable HDF5 file (truncated or corrupt?): {e}") from None


MAX_DEPTH = 64
MAX_ENTRIES = 200_000


def _scan(h5py, group, prefix, found, where, counter=None):
    """Every dataset below ``group``, ``{path: dataset}``, after refusing links other than hard links. Hard links
    can make a group its own descendant, or reach one group by many paths: the depth and the number of entries
    visited are bounded."""
    counter = counter if counter is not None else [0]
    if prefix.count("/") >= MAX_DEPTH:
        raise UnsafeFileError(f"{where}: '{prefix}' is nested over {MAX_DEPTH} groups deep (a link cycle?).")
    for name in group:
        counter[0] += 1
        if counter[0] > MAX_ENTRIES:
            raise UnsafeFileError(f"{where}: the file has over {MAX_ENTRIES} entries; a weights file has far fewer.")
        path = f"{prefix}/{name}" if prefix else name
        link = group.get(name, getlink=True)
        if isinstance(link, h5py.ExternalLink):
            raise UnsafeFileError(
                f"{where}: '{path}' is an external link to {link.filename!r}; a Keras weights file holds its "
                "arrays itself, and this loader opens no other file."
            )
        if isinstance(link, h5py.SoftLink):
            raise UnsafeFileError(
                f"{where}: '{path}' is a soft link to {link.path!r}; Keras writes no links, so this file was "
                "made by hand and is refused."
            )
        try:
            item = group[name]
        except (KeyError, OSError, ValueError) as e:
            raise InvalidFileError(f"{where}: cannot read '{path}' (truncated or corrupt?): {e}") from None
        if isinstance(item, h5py.Group):
            _scan(h5py, item, path, found, where, counter)
        elif isinstance(item, h5py.Dataset):
            _check_dataset(h5py, item, path, where)
            found[path] = item
        else:
            raise UnsafeFileError(f"{where}: '{path}' is a {type(item).__name__}, not a group or an array.")


def _is_bfloat16(ds):
    if ds.dtype.kind != "V" or ds.dtype.itemsize != 2 or "dtype" not in ds.attrs:
        return False
    if ds.attrs.get_id("dtype").get_storage_size() > 64:  # read no attribute of unbounded size
        return False
    return ds.attrs["dtype"] in ("bfloat16", b"bfloat16")


def _check_dataset(h5py, ds, path, where):
    if ds.is_virtual:
        raise UnsafeFileError(f"{where}: '{path}' is a virtual dataset (it maps other files); it is refused.")
    if ds.external:
        raise UnsafeFileError(f"{where}: '{path}' keeps its data in an external file; it is refused.")
    if h5py.check_dtype(ref=ds.dtype) is not None:
        raise UnsafeFileError(f"{where}: '{path}' holds object references, not numbers; it is refused.")
    if ds.dtype.kind not in _NUMERIC_KINDS and not _is_bfloat16(ds):
        raise InvalidFileError(
            f"{where}: '{path}' has dtype {ds.dtype}, which is not numeric; a weights file holds numeric arrays."
        )
    if ds.shape is None:
        raise InvalidFileError(f"{where}: '{path}' is an empty (null) dataset; expected an array.")
    nbytes = int(np.prod(ds.shape, dtype=np.float64) * ds.dtype.itemsize)
    if nbytes > MAX_DATASET_BYTES:
        raise UnsafeFileError(
            f"{where}: '{path}' declares shape {ds.shape} ({nbytes} bytes), over the bound of {MAX_DATASET_BYTES} "
            "bytes per array; it is refused before reading."
        )


def _read_dataset(ds, path, where):
    try:
        if _is_bfloat16(ds):
            raw = np.empty(ds.shape, dtype=np.uint16)
            ds.read_direct(raw.view(ds.dtype))
            return (raw.astype(np.uint32) << 16).view(np.float32)
        return np.asarray(ds[()])
    except (OSError, ValueError, TypeError) as e:
        raise InvalidFileError(f"{where}: cannot read '{path}' (truncated or corrupt?): {e}") from None


def _prepare_optimizer(obj, file_paths):
    """Builds a compiled model's unbuilt optimizer when the file holds its slots (as ``load_model`` would)."""
    optimizer = getattr(obj, "optimizer", None)
    if optimizer is None or getattr(optimizer, "built", True):
        return
    if len([p for p in file_paths if p.startswith("optimizer/vars/")]) > len(optimizer.variables):
        optimizer.build(obj.trainable_variables)


def _expected(obj):
    """``({dataset path: (target, shape)}, [optimizer vars groups])`` where ``target`` is a Variable, or
    ``(layer, key)`` for a layer that keeps its state through its own ``save_own_variables``."""
    out, optimizer_groups = {}, []
    for path, item, state in keras_h5_layout.entries(obj):
        vpath = _vars_path(path)
        if keras_h5_layout._kind(item) == "optimizer":
            optimizer_groups.append(vpath)
        if isinstance(state, dict):
            for key, value in state.items():
                out[f"{vpath}/{key}"] = ((item, key), tuple(_to_numpy(value).shape))
            continue
        for i, v in enumerate(state):
            out[f"{vpath}/{i}"] = (v, tuple(v.shape))
    return out, optimizer_groups


def _in_group(path, group):
    return path.rpartition("/")[0] == group


def _match_optimizers(expected, datasets, optimizer_groups, where):
    """Drops the optimizer state that cannot be loaded, as Keras does: all of it when the object has no
    optimizer, and an optimizer's whole group (with a warning) when the file holds another number of variables
    for it (another optimizer, or one that was not built)."""
    if not optimizer_groups:
        return expected, {p: d for p, d in datasets.items() if not p.startswith("optimizer/")}
    for group in optimizer_groups:
        ours = {p for p in expected if _in_group(p, group)}
        theirs = {p for p in datasets if _in_group(p, group)}
        if ours == theirs:
            continue
        if theirs:
            warnings.warn(
                f"{where}: the optimizer state in '{group}' was not loaded: the file holds {len(theirs)} "
                f"variables and the optimizer has {len(ours)} (another optimizer, or one not yet built). "
                "Training continues from the optimizer's current state.",
                stacklevel=3,
            )
        expected = {p: e for p, e in expected.items() if p not in ours}
        datasets = {p: d for p, d in datasets.items() if p not in theirs}
    return expected, datasets


def read_keras_h5(obj, h5_path_or_file, skip_mismatch=False):
    """Loads a Keras ``.weights.h5`` file (or :func:`write_keras_h5`'s) into the built ``obj``.

    Args:
        obj: a built model or layer of the architecture the file was saved from.
        h5_path_or_file: a file path, or a readable binary file object.
        skip_mismatch: load what fits, leaving the variables whose path or shape does not match as they are.

    Raises:
        InvalidFileError: the file is not HDF5, is truncated, holds non-numeric data, or its paths and shapes do
            not match ``obj`` (the message names each path and both shapes).
        UnsafeFileError: the file holds links, virtual or external datasets, object references, or arrays
            declared larger than the bound.
    """
    h5py = _h5py()
    where = repr(os.fspath(h5_path_or_file)) if isinstance(h5_path_or_file, (str, os.PathLike)) else "the file"
    try:
        values, expected = _read_values(h5py, obj, h5_path_or_file, where, skip_mismatch)
    except (InvalidFileError, UnsafeFileError):
        raise
    except _CORRUPT_FILE_ERRORS as e:
        # A damaged file makes h5py fail in many ways (a name that is not UTF-8, a bad B-tree, a truncated chunk...):
        # each is this file's fault, said as such, and nothing was assigned yet.
        raise InvalidFileError(
            f"{where}: the file cannot be read (damaged or truncated?): {type(e).__name__}: {e}"
        ) from None
    _assign(expected, values)


# What h5py raises on a damaged file (checked by the fuzzing suite).
_CORRUPT_FILE_ERRORS = (OSError, RuntimeError, KeyError, ValueError, TypeError, IndexError, OverflowError, SystemError)


def _read_values(h5py, obj, h5_path_or_file, where, skip_mismatch):
    """``(values, expected)``: the arrays to assign, read and checked against ``obj`` (see :func:`read_keras_h5`)."""
    with _open(h5_path_or_file, where) as f:
        datasets = {}
        try:
            _scan(h5py, f, "", datasets, where)
        except (OSError, RuntimeError, KeyError) as e:
            raise InvalidFileError(
                f"{where}: the file's structure cannot be read (truncated or corrupt?): {e}"
            ) from None
        _prepare_optimizer(obj, datasets)
        expected, optimizer_groups = _expected(obj)
        expected, datasets = _match_optimizers(expected, datasets, optimizer_groups, where)
        missing = sorted(set(expected) - set(datasets))
        unexpected = sorted(set(datasets) - set(expected))
        wrong = [
            (p, expected[p][1], tuple(datasets[p].shape))
            for p in sorted(set(expected) & set(datasets))
            if tuple(datasets[p].shape) != expected[p][1]
        ]
        if (missing or unexpected or wrong) and not skip_mismatch:
            lines = [f"{where} does not match the {type(obj).__name__} it is loaded into:"]
            lines += [f"  '{p}': the object expects shape {e} but the file has shape {g}" for p, e, g in wrong]
            if missing:
                lines.append(f"  missing from the file: {missing}")
            if unexpected:
                lines.append(f"  in the file but not expected: {unexpected}")
            lines.append(
                "Build the same architecture (same layers, sizes and input shape), or pass skip_mismatch=True."
            )
            raise InvalidFileError("\n".join(lines))
        values = {}
        for p in sorted(set(expected) & set(datasets)):
            if tuple(datasets[p].shape) == expected[p][1]:
                values[p] = _read_dataset(datasets[p], p, where)
    return values, expected


def _assign(expected, values):
    stores = {}
    for p, array in values.items():
        target, _ = expected[p]
        if isinstance(target, tuple):
            layer, key = target
            stores.setdefault(id(layer), (layer, {}))[1][key] = array
        else:
            target.assign(array.astype(target.dtype, copy=False))
    for layer, store in stores.values():
        layer.load_own_variables(store)


def sniff_format(head):
    """The format of a weights file from its first bytes: ``"hdf5"``, ``"zip"``, ``"safetensors"`` or None.

    >>> sniff_format(HDF5_MAGIC + b"...")
    'hdf5'
    """
    if head.startswith(HDF5_MAGIC):
        return "hdf5"
    if head.startswith(b"PK\x03\x04"):
        return "zip"
    if len(head) >= 9 and head[8:9] == b"{":
        return "safetensors"
    return None
