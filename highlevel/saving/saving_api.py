"""``save_model``/``load_model`` (one zip archive) and ``save_weights``/``load_weights`` (safetensors, or Keras's HDF5).

Two archive formats: Keras 3's (``.keras``: a JSON config in Keras's spelling and HDF5 weights, which real Keras
loads; see :mod:`highlevel.saving.keras_archive`) and highlevel's own (``.hl.zip``: the same config in
highlevel's spelling and the weights as safetensors, readable without h5py). ``save_model`` picks the format from
the name (``.keras``: Keras's; any other name: highlevel's) or from ``save_format``; ``load_model`` recognises the
format from the archive's members, so files highlevel wrote as ``.keras`` before it wrote Keras's format still load.

>>> import os, tempfile
>>> import numpy as np
>>> import highlevel as hl
>>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
>>> path = os.path.join(tempfile.mkdtemp(), "m.hl.zip")
>>> model.save(path)
>>> again = hl.saving.load_model(path)
>>> x = np.ones((1, 3), "float32")
>>> bool(np.allclose(hl.ops.convert_to_numpy(model(x)), hl.ops.convert_to_numpy(again(x))))
True
"""

import datetime
import json
import os
import tempfile

from highlevel import config as hl_config

from . import archive, build_io, config_io, file_safety, keras_archive, safetensors_io, weights_io
from .assets_io import written_assets
from .errors import InvalidFileError
from .object_registry import CustomObjectScope

FORMAT_VERSION = 1
CONFIG = "config.json"
METADATA = "metadata.json"
WEIGHTS = "model.weights.safetensors"
ASSETS = "assets"
MAX_JSON_BYTES = 64 * 1024**2
#: The name highlevel's own archive goes by (any name but ``.keras`` also selects it).
EXTENSION = ".hl.zip"
KERAS_EXTENSION = ".keras"
_FORMATS = (None, "keras", "highlevel")
_HDF5_MAGIC = b"\x89HDF\r\n\x1a\n"
_ZIP_MAGIC = b"PK"


def _check_save_kwargs(kwargs, what):
    save_format = kwargs.pop("save_format", None)
    if save_format not in _FORMATS:
        raise ValueError(
            f"{what}: save_format={save_format!r} is not supported; use 'keras' (Keras 3's archive, HDF5 "
            "weights), 'highlevel' (highlevel's archive, safetensors weights) or None (chosen by the file name)."
        )
    if kwargs:
        raise TypeError(f"{what} got unexpected keyword arguments {sorted(kwargs)}.")
    return save_format


def _save_format(path, save_format):
    """``"keras"`` or ``"highlevel"``: the one asked for, else the one the name says (``.keras``: Keras's)."""
    if save_format is not None:
        return save_format
    return "keras" if path.endswith(KERAS_EXTENSION) else "highlevel"


def _check_overwrite(path, overwrite):
    if not overwrite and os.path.exists(path):
        raise FileExistsError(
            f"{path!r} already exists and overwrite=False; nothing was written. Pass "
            "overwrite=True to replace it, or choose another path."
        )


def _assets(model):
    """``{"assets/<layer index>/<relative path>": bytes}``: what the layers' ``save_assets(dir_path)`` wrote."""
    members = {}
    for index, layer in enumerate(model._flatten_layers()):
        if callable(getattr(layer, "save_assets", None)):
            for rel, data in written_assets(layer, f"Layer '{layer.name}'").items():
                members[f"{ASSETS}/{index}/{rel}"] = data
    return members


def _members(model):
    """The files of a saved model, ``{name: bytes}``."""
    import highlevel

    from .serialization_lib import serialize_keras_object

    config = {
        "model": config_io.serialize_model(model),
        "compile_config": serialize_keras_object(model.get_compile_config()),
    }
    build_config = model.get_build_config() if not isinstance(model, _functional()) else None
    if build_config is not None:  # a subclassed model: loading must build it before its weights exist
        config["build_config"] = serialize_keras_object(build_config)
    metadata = {
        "format_version": FORMAT_VERSION,
        "highlevel_version": highlevel.__version__,
        "backend": hl_config.backend(),
        "date_saved": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
    members = {
        CONFIG: json.dumps(config).encode("utf-8"),
        METADATA: json.dumps(metadata).encode("utf-8"),
        WEIGHTS: safetensors_io.dumps(weights_io.collect(model)),
    }
    members.update(_assets(model))
    return members


def _functional():
    from highlevel.models import Functional

    return Functional


def save_model(model, filepath, overwrite=True, zipped=None, **kwargs):
    """Writes ``model`` (architecture, compile arguments, weights, optimizer and metric state, assets) to
    ``filepath``, atomically: a crash leaves either the old file or the new one.

    Custom layers and models take part through their hooks: ``get_config``, ``get_build_config``,
    ``save_own_variables``, ``save_assets`` and ``get_compile_config``.

    Args:
        model: the model.
        filepath: the destination: ``.keras`` writes Keras 3's archive (which real Keras loads; needs h5py),
            ``.hl.zip`` (or any other name) highlevel's own archive.
        overwrite: replace an existing file (False: raise ``FileExistsError`` instead of asking, as Keras does
            on a terminal).
        zipped: True or None: one zip file; False: a folder holding the same files.
        **kwargs: ``save_format``: ``"keras"`` or ``"highlevel"`` to choose the format whatever the name.

    Returns:
        None.

    Raises:
        FileExistsError: ``overwrite=False`` and ``filepath`` exists.
        OSError: the file could not be written (the existing one is unchanged).

    >>> import os, tempfile
    >>> import numpy as np
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
    >>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
    >>> hl.models.save_model(model, path)
    >>> x = np.ones((1, 3), "float32")
    >>> bool(np.allclose(hl.models.load_model(path).predict(x, verbose=0), model.predict(x, verbose=0)))
    True
    """
    save_format = _check_save_kwargs(kwargs, "save_model")
    path = os.fspath(filepath)
    _check_overwrite(path, overwrite)
    if _save_format(path, save_format) == "keras":
        members, stored = keras_archive.members(model), {keras_archive.WEIGHTS}
    else:
        members, stored = _members(model), {WEIGHTS}
    if zipped is False:
        archive.write_folder(path, members)
    else:
        archive.write_archive(path, members, stored=stored)


def _json(data, name, path):
    if len(data) > MAX_JSON_BYTES:
        raise InvalidFileError(f"{path!r}: {name} is {len(data)} bytes, over the bound of {MAX_JSON_BYTES}.")
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise InvalidFileError(f"{path!r}: {name} is not valid JSON ({e}).") from e
    if not isinstance(value, dict):
        raise InvalidFileError(f"{path!r}: {name} must hold a JSON object.")
    return value


def _sniff_file(path):
    """Refuses a plain file that is not a zip, naming what it is."""
    if os.path.isdir(path):
        return
    file_safety.check_regular_file(path, "a model file")
    with open(path, "rb") as f:
        head = f.read(16)
    if head.startswith(_ZIP_MAGIC):
        return
    if head.startswith(_HDF5_MAGIC):
        found = "an HDF5 file (a Keras '.weights.h5' weights file or a legacy Keras '.h5' model)"
        fix = "Read weights with model.load_weights(); legacy '.h5' models are not supported."
    elif len(head) >= 9 and head[8:9] == b"{":
        found = "a safetensors weights file"
        fix = "Build the model in code and read it with model.load_weights()."
    else:
        return  # the zip reader names what is wrong
    raise InvalidFileError(f"{path!r} is {found}, not a model archive. {fix}")


def _read(path):
    """``(format, members)`` of the archive at ``path``; the format is told by its members, not its name."""
    _sniff_file(path)
    expected = {CONFIG, METADATA, WEIGHTS, keras_archive.WEIGHTS}
    read = archive.read_folder if os.path.isdir(path) else archive.read_archive
    members = read(path, expected=expected, required={CONFIG, METADATA}, prefixes=(ASSETS + "/",))
    if (WEIGHTS in members) == (keras_archive.WEIGHTS in members):
        raise InvalidFileError(
            f"{path!r} must hold exactly one of {WEIGHTS!r} (highlevel's archive) and "
            f"{keras_archive.WEIGHTS!r} (Keras's archive); it holds {sorted(members)}."
        )
    found = "keras" if keras_archive.WEIGHTS in members else "highlevel"
    if found == "keras" and path.endswith(EXTENSION):
        raise InvalidFileError(
            f"{path!r} is named as highlevel's own archive ({EXTENSION}) but holds Keras 3's archive format "
            f"({keras_archive.WEIGHTS}); rename it to '.keras'."
        )
    return found, members


def _load_assets(model, members, path):
    by_layer = {}
    for name, data in members.items():
        if name.startswith(ASSETS + "/"):
            _, index, rel = (name.split("/", 2) + ["", ""])[:3]
            if not index.isdigit() or not rel:
                raise InvalidFileError(
                    f"{path!r}: unexpected member {name!r}; assets are stored as '{ASSETS}/<layer index>/<file>'."
                )
            by_layer.setdefault(int(index), {})[rel] = data
    layers = model._flatten_layers()
    for index, files in sorted(by_layer.items()):
        layer = layers[index] if index < len(layers) else None
        if layer is None or not callable(getattr(layer, "load_assets", None)):
            raise InvalidFileError(
                f"{path!r} holds assets for layer position {index}, which has no load_assets() "
                "in this model; build the same architecture."
            )
        with tempfile.TemporaryDirectory(prefix="highlevel-assets-") as folder:
            root = os.path.realpath(folder)
            for rel, data in files.items():
                target = os.path.realpath(os.path.join(root, *rel.split("/")))
                if os.path.commonpath([root, target]) != root:  # the reader refuses such names already
                    raise InvalidFileError(f"{path!r}: the asset name {rel!r} leaves its folder.")
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "wb") as f:
                    f.write(data)
            layer.load_assets(folder)


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """Rebuilds a model saved with ``model.save`` / :func:`save_model`, or by Keras 3's ``model.save``.

    The format is told by the archive's members: Keras 3's archive (``model.weights.h5``) or highlevel's
    (``model.weights.safetensors``, also when an earlier highlevel wrote it under a ``.keras`` name).

    Classes and functions come from highlevel and the allow-list only (registered with
    ``register_keras_serializable``, in an enclosing ``custom_object_scope``, or in ``custom_objects``); the
    file never makes highlevel import or run code. Custom objects' hooks are honoured: ``from_config``,
    ``build_from_config``, ``load_own_variables``, ``load_assets``, ``compile_from_config``.

    Args:
        filepath: the file (or, for ``zipped=False``, the folder) ``model.save`` (highlevel's or Keras's) wrote.
        custom_objects: ``{"Name": class_or_function}`` for your own layers, losses, metrics...
        compile: compile the model as it was when saved (optimizer state included).
        safe_mode: refuse Lambda layers whose function is not highlevel's (that would run code named
            by the file). Set False only for files you trust.

    Returns:
        The model, with its weights (and, with ``compile=True``, its optimizer state) as saved.

    Raises:
        InvalidFileError: the file is not a readable highlevel model.
        UnsafeFileError: the file asks for something the safe loader refuses.

    >>> import os, tempfile
    >>> import numpy as np
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
    >>> model.compile(optimizer="adam", loss="mse")
    >>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
    >>> model.save(path)
    >>> again = hl.models.load_model(path)
    >>> x = np.ones((1, 3), "float32")
    >>> bool(np.allclose(again.predict(x, verbose=0), model.predict(x, verbose=0))), type(again.optimizer).__name__
    (True, 'Adam')
    """
    path = os.fspath(filepath)
    found, members = _read(path)
    if found == "keras":
        return keras_archive.load(path, members, custom_objects, compile, safe_mode)
    metadata = _json(members[METADATA], METADATA, path)
    version = metadata.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version > FORMAT_VERSION or version < 1:
        raise InvalidFileError(
            f"{path!r} has format version {version!r}; this highlevel reads versions 1.."
            f"{FORMAT_VERSION}. Upgrade highlevel to read it."
        )
    config = _json(members[CONFIG], CONFIG, path)
    tensors = safetensors_io.loads(members[WEIGHTS])
    objects = config_io.allowed_objects(custom_objects)
    compile_cfg = config.get("compile_config")
    if compile_cfg is not None:
        if not isinstance(compile_cfg, dict):
            raise InvalidFileError(f"{path!r}: the compile config is malformed.")
        config_io.check_config_tree(compile_cfg, objects, safe_mode, where="compile_config")
    with CustomObjectScope(custom_objects):
        model = config_io.deserialize_model(config.get("model"), custom_objects, safe_mode)
        build_io.build_from_config(model, config.get("build_config"), path)
        tensors, own = weights_io.split_own(tensors)
        groups = weights_io.split_keys(tensors)
        unknown = set(groups) - {"model", "optimizer", "metrics"}
        if unknown:
            raise InvalidFileError(f"{path!r}: the weights hold unknown groups {sorted(unknown)}.")
        weights_io.assign_group(weights_io.model_variables(model), groups.get("model", []), "model")
        weights_io.assign_own(model, own)
        _load_assets(model, members, path)
        if compile and compile_cfg is not None:
            _compile(model, compile_cfg, groups, path)
    return model


def _compile(model, compile_cfg, groups, path):
    from highlevel.trainers import Trainer

    default = type(model).compile_from_config is Trainer.compile_from_config
    if default and not isinstance(compile_cfg.get("optimizer"), dict):
        raise InvalidFileError(f"{path!r}: the compile config is malformed (it names no optimizer).")
    try:
        model.compile_from_config(compile_cfg)
    except (TypeError, KeyError, AttributeError) as e:
        raise InvalidFileError(
            f"{path!r}: the model could not be compiled from its saved compile config ({type(e).__name__}: {e})."
        ) from e
    optimizer = getattr(model, "optimizer", None)
    if "optimizer" in groups and optimizer is not None:
        if not optimizer.built:
            optimizer.build(model.trainable_variables)
        weights_io.assign_group(list(optimizer.variables), groups["optimizer"], "optimizer")
    if "metrics" in groups and getattr(model, "_compiled", False):
        # Compiled metrics that create their variables on the first batch do not exist yet; those
        # that do (the loss tracker, most metrics) get their saved state back, matched by path.
        current = weights_io.group_variables(model, with_optimizer=False)["metrics"]
        weights_io.assign_group(current, groups["metrics"], "metrics", skip_mismatch=True, by_name=True)


def save_weights(model, filepath, overwrite=True, max_shard_size=None, **kwargs):
    """Writes the model's variables (only) to a safetensors file at ``filepath``, atomically.

    Args:
        model: the model.
        filepath: the destination: a name ending in ``.h5`` (Keras's ``.weights.h5``) gets Keras's HDF5 layout,
            which real Keras reads; any other name (``.weights.safetensors``) gets highlevel's safetensors file.
        overwrite: replace an existing file (False: raise ``FileExistsError``).
        max_shard_size: must be None: highlevel writes one file.

    Returns:
        None.

    Raises:
        ValueError: if ``max_shard_size`` is given (sharded files are not supported).
        FileExistsError: if ``overwrite=False`` and the file exists.

    >>> import os, tempfile
    >>> import numpy as np
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
    >>> path = os.path.join(tempfile.mkdtemp(), "model.weights.h5")
    >>> hl.saving.save_weights(model, path)
    >>> other = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
    >>> hl.saving.load_weights(other, path)
    >>> all(np.array_equal(a, b) for a, b in zip(model.get_weights(), other.get_weights()))
    True
    """
    _check_save_kwargs(kwargs, "save_weights")
    if max_shard_size is not None:
        raise ValueError(
            f"save_weights(max_shard_size={max_shard_size!r}): sharded weight files are not "
            "supported; highlevel writes the weights as one safetensors file. Leave max_shard_size out."
        )
    path = os.fspath(filepath)
    _check_overwrite(path, overwrite)
    if path.endswith(".h5"):  # Keras's layout, which Keras itself reads
        import io

        from . import keras_h5

        buffer = io.BytesIO()
        keras_h5.write_keras_h5(model, buffer)
        archive.atomic_write(path, buffer.getvalue())
        return
    data = safetensors_io.dumps(weights_io.collect(model, with_optimizer=False, with_metrics=False))
    archive.atomic_write(path, data)


def _holds_legacy_layout(path):
    """Whether an HDF5 file holds Keras 2's by-layer layout (the weight files of ``keras.applications``)."""
    from . import keras_h5, keras_h5_legacy

    try:
        with keras_h5._open(path, repr(path)) as f:
            return keras_h5_legacy.is_legacy_layout(f)
    except keras_h5._CORRUPT_FILE_ERRORS:
        return False  # the reader of Keras 3's layout reports the damage


def load_weights(model, filepath, skip_mismatch=False, **kwargs):
    """Loads :func:`save_weights`'s file into ``model`` (same architecture), recognising its format by its first bytes:
    Keras's HDF5 ``.weights.h5`` (by Keras's paths), Keras 2's by-layer HDF5 layout (the ``.h5`` weight files of
    ``keras.applications``, by layer name) or highlevel's safetensors file (by position; earlier versions wrote
    safetensors under ``.weights.h5`` names too, and those still load).

    Args:
        model: the model.
        filepath: the file, or the folder of an :class:`~highlevel.callbacks.OrbaxCheckpoint` (its newest
            checkpoint is read).
        skip_mismatch: keep the current values of variables whose shape differs instead of raising.

    Returns:
        None; the model's variables hold the file's values.

    Raises:
        TypeError: for an unknown keyword argument.
        InvalidFileError: if the file is not a weights file (or is too large, or is a whole-model archive).
        ValueError: if a variable's shape differs from the file's and ``skip_mismatch`` is False.

    >>> import os, tempfile
    >>> import numpy as np
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
    >>> path = os.path.join(tempfile.mkdtemp(), "model.weights.safetensors")
    >>> model.save_weights(path)
    >>> other = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
    >>> hl.saving.load_weights(other, path)
    >>> all(np.array_equal(a, b) for a, b in zip(model.get_weights(), other.get_weights()))
    True
    """
    if kwargs:
        raise TypeError(f"load_weights got unexpected keyword arguments {sorted(kwargs)}.")
    path = os.fspath(filepath)
    if os.path.isdir(path):  # the folder of an OrbaxCheckpoint callback (or one of its steps)
        from highlevel.callbacks.orbax_checkpoint import load_orbax_checkpoint

        load_orbax_checkpoint(model, path)
        return
    file_safety.check_regular_file(path, "a weights file")  # /dev/zero never ends; a FIFO blocks
    size = os.path.getsize(path)
    if size > archive.MAX_MEMBER_BYTES:
        raise InvalidFileError(f"{path!r} is {size} bytes, over the bound of {archive.MAX_MEMBER_BYTES}.")
    from . import keras_h5

    with open(path, "rb") as f:
        head = f.read(16)
    found = keras_h5.sniff_format(head)
    if found == "hdf5":
        if path.endswith(".safetensors"):
            raise InvalidFileError(
                f"{path!r} is named as a safetensors file but holds HDF5 (Keras's .weights.h5 format). Rename it "
                "to end in .weights.h5."
            )
        from . import keras_h5_legacy

        if _holds_legacy_layout(path):
            keras_h5_legacy.read_legacy_h5(model, path, skip_mismatch=skip_mismatch)
            return
        keras_h5.read_keras_h5(model, path, skip_mismatch=skip_mismatch)
        return
    if found == "zip":
        raise InvalidFileError(
            f"{path!r} is not a weights file: it holds a zip archive (a whole-model file: load it with "
            "load_model), where a weights file is HDF5 (Keras's .weights.h5) or safetensors. Pass the file "
            "save_weights wrote."
        )
    with open(path, "rb") as f:
        data = f.read()
    try:
        # Not HDF5: read as safetensors, whose reader bounds what a header claims (a hostile size is unsafe).
        loaded = safetensors_io.loads(data, where=repr(path))
    except InvalidFileError as err:
        if found == "safetensors":
            raise
        raise InvalidFileError(
            f"{path!r} is not a weights file: it is neither HDF5 (Keras's .weights.h5) nor safetensors (it starts "
            f"with {head[:8]!r}; {err}). Pass the file save_weights wrote."
        ) from None
    tensors, own = weights_io.split_own(loaded)
    groups = weights_io.split_keys(tensors)
    if set(groups) - {"model"}:
        raise InvalidFileError(f"{path!r} is not a weights file of model.save_weights.")
    weights_io.assign_group(
        weights_io.model_variables(model), groups.get("model", []), "model", skip_mismatch=skip_mismatch
    )
    weights_io.assign_own(model, own, skip_mismatch=skip_mismatch)
