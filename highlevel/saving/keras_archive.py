"""The Keras 3 model archive (``.keras``): written so that real Keras loads it, and read from files Keras wrote.

The zip holds ``config.json`` (the model's config in Keras's spelling, see :mod:`highlevel.saving.keras_config`,
with its ``build_config`` and ``compile_config``), ``metadata.json`` (``keras_version``, ``date_saved``) and
``model.weights.h5`` (the variables in Keras's HDF5 layout, see :mod:`highlevel.saving.keras_h5`). Reading goes
through the same defenses as highlevel's own archive: the zip reader's bounds, the allow-list of classes, no
Lambda bytecode, no pickle, and weights whose shapes and dtypes are checked before they are read.

>>> import os, tempfile
>>> import highlevel as hl
>>> from highlevel.saving import keras_archive
>>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
>>> members = keras_archive.members(model)
>>> sorted(members)
['config.json', 'metadata.json', 'model.weights.h5']
"""

import datetime
import io
import json
import os
import tempfile

from . import build_io, config_io, keras_config
from .assets_io import written_assets
from .errors import InvalidFileError, UnsafeFileError
from .object_registry import CustomObjectScope

CONFIG = "config.json"
METADATA = "metadata.json"
WEIGHTS = "model.weights.h5"
ASSETS = "assets"

#: The Keras release whose archive format this module writes (Keras reads ``keras_version`` only as information).
KERAS_FORMAT_VERSION = "3.15.1"


def _h5():
    try:
        from . import keras_h5
    except ImportError as e:  # h5py is an optional dependency
        from highlevel._extras import install_command

        raise ImportError(
            "Keras's '.keras' archives hold HDF5 weights, which need the optional dependency h5py: "
            f"`pip install h5py`, or the h5 extra: {install_command('h5')}. Without it, save in highlevel's own format "
            "(a '.hl.zip' name, or save_format='highlevel')."
        ) from e
    return keras_h5


def keras_model_config(model):
    """``config.json``'s content for ``model``: its config, build config and compile config in Keras's spelling."""
    from highlevel.models import Functional

    from .serialization_lib import serialize_keras_object

    model_config = config_io.serialize_model(model)
    compile_config = model.get_compile_config()
    compile_config = serialize_keras_object(compile_config) if compile_config else None
    build_config = None if isinstance(model, Functional) else model.get_build_config()
    specs = keras_config.tensor_specs(model)
    return keras_config.model_to_keras(model_config, compile_config, build_config, specs)


def members(model):
    """The files of ``model``'s Keras archive, ``{name: bytes}``."""
    import highlevel

    config = keras_model_config(model)
    metadata = {
        "keras_version": KERAS_FORMAT_VERSION,
        "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S"),
        "highlevel_version": highlevel.__version__,
    }
    buffer = io.BytesIO()
    _h5().write_keras_h5(model, buffer)
    out = {
        METADATA: json.dumps(metadata).encode("utf-8"),
        CONFIG: json.dumps(config).encode("utf-8"),
        WEIGHTS: buffer.getvalue(),
    }
    out.update(_assets(model))
    return out


def _object_paths(model):
    """``[(path, object)]``: where Keras files each object's state (``layers/dense``...), the HDF5 walk's paths."""
    from . import keras_h5_layout

    return [(path, obj) for path, obj, _ in keras_h5_layout.entries(model)]


def _assets(model):
    """``{"assets/<object path>/<file>": bytes}``: what the objects' ``save_assets(folder)`` wrote, where Keras
    puts it."""
    members = {}
    for inner, obj in _object_paths(model):
        if callable(getattr(obj, "save_assets", None)):
            for rel, data in written_assets(obj, type(obj).__name__).items():
                members[f"{ASSETS}/{inner}/{rel}" if inner else f"{ASSETS}/{rel}"] = data
    return members


def _load_assets(model, files, path):
    assets = {name[len(ASSETS) + 1 :]: data for name, data in files.items() if name.startswith(ASSETS + "/")}
    if not assets:
        return
    owners = sorted(
        ((inner, obj) for inner, obj in _object_paths(model) if callable(getattr(obj, "load_assets", None))),
        key=lambda item: -len(item[0]),
    )
    by_owner = {}
    for name, data in assets.items():
        for inner, obj in owners:
            if not inner or name.startswith(inner + "/"):
                by_owner.setdefault(inner, (obj, {}))[1][name[len(inner) + 1 :] if inner else name] = data
                break
        else:
            raise InvalidFileError(
                f"{path!r} holds the asset {ASSETS}/{name!r}, which belongs to no object with load_assets() in "
                "this model; build the same architecture."
            )
    for inner, (obj, members_of) in by_owner.items():
        with tempfile.TemporaryDirectory(prefix="highlevel-assets-") as folder:
            root = os.path.realpath(folder)
            for rel, data in members_of.items():
                target = os.path.realpath(os.path.join(root, *rel.split("/")))
                if os.path.commonpath([root, target]) != root:
                    raise InvalidFileError(f"{path!r}: the asset name {rel!r} leaves its folder.")
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "wb") as f:
                    f.write(data)
            obj.load_assets(folder)


def _check_top(config, path):
    if not isinstance(config, dict) or not isinstance(config.get("class_name"), str):
        raise InvalidFileError(f"{path!r}: {CONFIG} must hold one model object (with a 'class_name').")
    module = config.get("module")
    if module is not None and not isinstance(module, str):
        raise InvalidFileError(f"{path!r}: malformed 'module' {module!r} in {CONFIG}.")


def load(path, files, custom_objects=None, compile=True, safe_mode=True):
    """The model of a Keras archive's files (``{name: bytes}`` from the safe zip reader).

    Raises:
        InvalidFileError: the files do not describe a model highlevel can rebuild.
        UnsafeFileError: the config names a class outside the allow-list, or code (a Lambda's bytecode).
    """
    from .saving_api import _json

    _json(files[METADATA], METADATA, path)
    raw = _json(files[CONFIG], CONFIG, path)
    _check_top(raw, path)
    try:
        config = keras_config.object_from_keras(raw)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        if isinstance(e, (InvalidFileError, UnsafeFileError)):
            raise
        raise InvalidFileError(f"{path!r}: {CONFIG} is not a model config highlevel can read ({e}).") from e
    objects = config_io.allowed_objects(custom_objects)
    compile_cfg = keras_config.compile_from_keras(config.get("compile_config"))
    if compile_cfg is not None:
        config_io.check_config_tree(compile_cfg, objects, safe_mode, where="compile_config")
    build_cfg = config.get("build_config")
    if isinstance(build_cfg, dict) and build_cfg.get("input_shape") is None:
        build_cfg = None
    model_config = {k: v for k, v in config.items() if k not in ("build_config", "compile_config")}
    with CustomObjectScope(custom_objects):
        model = config_io.deserialize_model(model_config, custom_objects, safe_mode)
        build_io.build_from_config(model, build_cfg, path)
        h5 = _h5()
        h5.read_keras_h5(model, io.BytesIO(files[WEIGHTS]))  # the model's own state (an uncompiled model)
        if compile and compile_cfg is not None:
            _compile(model, compile_cfg, path)
            _read_optimizer(model, files[WEIGHTS], path)
        _load_assets(model, files, path)
    return model


def _saved_optimizer_entries(data):
    """How many arrays the weights file holds for the optimizer (``optimizer/vars/<i>``)."""
    import h5py

    try:
        with h5py.File(io.BytesIO(data), "r") as f:
            group = f.get("optimizer/vars")
            return len(group) if isinstance(group, h5py.Group) else 0
    except (OSError, ValueError):
        return 0  # the reader names what is wrong with the file


def _read_optimizer(model, data, path):
    """Reads the optimizer's state into the compiled model. An optimizer saved before it was built (a model
    compiled but never trained) has only its step count and learning rate in the file, both at their configured
    values: the freshly compiled optimizer already holds them, so nothing is read."""
    optimizer = getattr(model, "optimizer", None)
    saved = _saved_optimizer_entries(data)
    if optimizer is None or not saved:
        return
    if optimizer.built and saved < len(optimizer.variables):
        return
    _h5().read_keras_h5(model, io.BytesIO(data))


def _compile(model, compile_cfg, path):
    try:
        model.compile_from_config(compile_cfg)
    except (TypeError, KeyError, AttributeError, ValueError) as e:
        raise InvalidFileError(
            f"{path!r}: the model could not be compiled from its saved compile config ({type(e).__name__}: {e})."
        ) from e
    optimizer = getattr(model, "optimizer", None)
    if optimizer is not None and not optimizer.built and model.built:
        optimizer.build(model.trainable_variables)
