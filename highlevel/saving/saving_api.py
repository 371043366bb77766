"""``save_model``/``load_model`` (one zip archive) and ``save_weights``/``load_weights`` (safetensors).

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

from highlevel import config as hl_config

from . import archive, build_io, compile_io, config_io, safetensors_io, weights_io
from .errors import InvalidFileError

FORMAT_VERSION = 1
CONFIG = "config.json"
METADATA = "metadata.json"
WEIGHTS = "model.weights.safetensors"
MAX_JSON_BYTES = 64 * 1024 ** 2


def save_model(model, path):
    """Writes ``model`` (architecture, compile arguments, weights, optimizer and metric state) to ``path``."""
    import highlevel

    config = {"model": config_io.serialize_model(model), "compile_config": compile_io.compile_config(model)}
    build_config = build_io.build_config(model)
    if build_config is not None:  # a subclassed model: loading must build it before its weights exist
        config["build_config"] = build_config
    metadata = {"format_version": FORMAT_VERSION, "highlevel_version": highlevel.__version__,
                "backend": hl_config.backend(),
                "date_saved": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    weights = safetensors_io.dumps(weights_io.collect(model))
    archive.write_archive(os.fspath(path), {CONFIG: json.dumps(config).encode("utf-8"),
                                            METADATA: json.dumps(metadata).encode("utf-8"), WEIGHTS: weights},
                          stored={WEIGHTS})


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


def load_model(path, custom_objects=None, compile=True, safe_mode=True):
    """Rebuilds a model saved with ``model.save``.

    Args:
        path: the file ``model.save`` wrote.
        custom_objects: ``{"Name": class_or_function}`` for your own layers, losses, metrics...
        compile: compile the model as it was when saved (optimizer state included).
        safe_mode: refuse Lambda layers whose function is not highlevel's (that would run code named
            by the file). Set False only for files you trust.

    Raises:
        InvalidFileError: the file is not a readable highlevel model.
        UnsafeFileError: the file asks for something the safe loader refuses.
    """
    path = os.fspath(path)
    members = archive.read_archive(path, expected={CONFIG, METADATA, WEIGHTS})
    metadata = _json(members[METADATA], METADATA, path)
    version = metadata.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version > FORMAT_VERSION or version < 1:
        raise InvalidFileError(f"{path!r} has format version {version!r}; this highlevel reads versions 1.."
                               f"{FORMAT_VERSION}. Upgrade highlevel to read it.")
    config = _json(members[CONFIG], CONFIG, path)
    tensors = safetensors_io.loads(members[WEIGHTS])
    objects = config_io.get_custom_objects(custom_objects)
    compile_cfg = config.get("compile_config")
    if compile_cfg is not None:
        if not isinstance(compile_cfg, dict) or not isinstance(compile_cfg.get("optimizer"), dict):
            raise InvalidFileError(f"{path!r}: the compile config is malformed.")
        config_io.check_config_tree(compile_cfg, objects, safe_mode, where="compile_config")
    model = config_io.deserialize_model(config.get("model"), custom_objects, safe_mode)
    build_io.build_from_config(model, config.get("build_config"), path)
    groups = weights_io.split_keys(tensors)
    unknown = set(groups) - {"model", "optimizer", "metrics"}
    if unknown:
        raise InvalidFileError(f"{path!r}: the weights hold unknown groups {sorted(unknown)}.")
    weights_io.assign_group(weights_io.model_variables(model), groups.get("model", []), "model")
    if compile and compile_cfg is not None:
        try:
            model.compile(**compile_io.compile_arguments(compile_cfg, objects))
        except (TypeError, KeyError, AttributeError) as e:
            raise InvalidFileError(f"{path!r}: the model could not be compiled from its saved compile config "
                                   f"({type(e).__name__}: {e}).") from e
        if "optimizer" in groups:
            model.optimizer.build(model.trainable_variables)
            weights_io.assign_group(list(model.optimizer.variables), groups["optimizer"], "optimizer")
        if "metrics" in groups:
            # Compiled metrics that create their variables on the first batch do not exist yet; those
            # that do (the loss tracker, most metrics) get their saved state back, matched by path.
            current = weights_io.group_variables(model, with_optimizer=False)["metrics"]
            weights_io.assign_group(current, groups["metrics"], "metrics", skip_mismatch=True, by_name=True)
    return model


def save_weights(model, path):
    """Writes the model's variables (only) to a safetensors file at ``path``, atomically."""
    data = safetensors_io.dumps(weights_io.collect(model, with_optimizer=False, with_metrics=False))
    archive.atomic_write(os.fspath(path), data)


def load_weights(model, path, skip_mismatch=False):
    """Loads :func:`save_weights`'s file into ``model`` (same architecture; by position)."""
    path = os.fspath(path)
    size = os.path.getsize(path)
    if size > archive.MAX_MEMBER_BYTES:
        raise InvalidFileError(f"{path!r} is {size} bytes, over the bound of {archive.MAX_MEMBER_BYTES}.")
    with open(path, "rb") as f:
        data = f.read()
    groups = weights_io.split_keys(safetensors_io.loads(data, where=repr(path)))
    if set(groups) - {"model"}:
        raise InvalidFileError(f"{path!r} is not a weights file of model.save_weights.")
    weights_io.assign_group(weights_io.model_variables(model), groups.get("model", []), "model",
                            skip_mismatch=skip_mismatch)
