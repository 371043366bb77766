"""The input shapes a model was built with, so a loaded subclassed model gets its weights before they load.

A functional or Sequential model (with an ``Input``) creates its weights when it is constructed; a subclassed
model creates them on its first call. The file therefore records the shapes of that first call
(``{"input_shape": ...}``, the batch axis as ``None``) and loading runs the model once on symbolic inputs of
those shapes, which builds every sub-layer without computing anything.

>>> import numpy as np
>>> import highlevel as hl
>>> from highlevel.saving import build_io
>>> class Tiny(hl.Model):
...     def __init__(self, **kwargs):
...         super().__init__(**kwargs)
...         self.dense = hl.layers.Dense(2)
...     def call(self, x):
...         return self.dense(x)
>>> model = Tiny()
>>> _ = model(np.ones((4, 3), "float32"))
>>> build_io.build_config(model)
{'input_shape': [None, 3]}
>>> again = Tiny()
>>> build_io.build_from_config(again, build_io.build_config(model), "m.zip")
>>> [tuple(v.shape) for v in again.variables]
[(3, 2), (2,)]
"""

from .errors import InvalidFileError

_MAX_DEPTH = 32
_MAX_RANK = 64


def _is_shape(value):
    return isinstance(value, (list, tuple)) and all(
        d is None or (isinstance(d, int) and not isinstance(d, bool)) for d in value
    )


def _to_json(shapes):
    """Shapes (tuples of ints, possibly nested in lists/tuples/dicts) as JSON, the batch axis as ``None``."""
    if _is_shape(shapes):
        return [None] + list(shapes[1:]) if len(shapes) else []
    if isinstance(shapes, dict):
        return {str(k): _to_json(v) for k, v in shapes.items()}
    if isinstance(shapes, (list, tuple)):
        return [_to_json(s) for s in shapes]
    return None


def symbolic_inputs(shapes, path="the build config", at="input_shape"):
    """Symbolic inputs (KerasTensors) of the given shapes: a shape (tuple or list of ints and None), or lists,
    tuples and dicts of them.

    Raises:
        InvalidFileError: ``shapes`` holds something other than shapes.
    """
    if isinstance(shapes, tuple) and _is_shape(shapes):
        shapes = list(shapes)
    return _parse(_lists(shapes), path, at)


def _lists(value):
    if isinstance(value, (list, tuple)):
        return [_lists(v) for v in value]
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    return value


def build_config(model):
    """``{"input_shape": ...}`` for a model built by a call or by ``build``, or ``None`` when it needs none (a
    functional or Sequential model with an ``Input``, or a model never built)."""
    from highlevel.models import Functional

    if isinstance(model, Functional) or not model.built:
        return None
    shapes = getattr(model, "_build_shapes", None)
    recorded = getattr(model, "_build_call", None)
    if shapes is None and recorded is not None and len(recorded[0]) == 1 and not recorded[1]:
        shapes = recorded[0][0]  # an overridden build() called with the input shape
    if shapes is None:
        return None
    return {"input_shape": _to_json(shapes)}


def _parse(value, path, at, depth=0):
    """The symbolic inputs for the JSON ``value``; anything that is not nested shapes is refused."""
    from highlevel.keras_tensor import KerasTensor

    if depth > _MAX_DEPTH:
        raise InvalidFileError(f"{path!r}: the build config nests deeper than {_MAX_DEPTH} levels at {at}.")
    if isinstance(value, list) and _is_shape(value) and value:
        if len(value) > _MAX_RANK or any(d is not None and d < 0 for d in value):
            raise InvalidFileError(f"{path!r}: the build config holds an invalid shape {value!r} at {at}.")
        return KerasTensor(tuple(value))
    if isinstance(value, dict):
        return {k: _parse(v, path, f"{at}.{k}", depth + 1) for k, v in value.items()}
    if isinstance(value, list) and value:
        return [_parse(v, path, f"{at}[{i}]", depth + 1) for i, v in enumerate(value)]
    raise InvalidFileError(
        f"{path!r}: the build config must hold shapes (lists of ints or null), possibly "
        f"nested in lists or objects; found {value!r} at {at}."
    )


def build_from_config(model, config, path):
    """Builds ``model``'s weights from its saved build config: through its own ``build_from_config`` when it
    overrides Model's, else as :func:`apply_build_config` does (a no-op when it is already built).

    Raises:
        InvalidFileError: the build config is malformed, or the model cannot be built from it.
    """
    from highlevel.models import Model

    if config is None or getattr(model, "built", False):
        return
    if type(model).build_from_config is not Model.build_from_config:
        try:
            model.build_from_config(config)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
            raise InvalidFileError(
                f"{path!r}: {type(model).__name__}.build_from_config failed on the saved build "
                f"config {config!r} ({type(e).__name__}: {e})."
            ) from e
        return
    apply_build_config(model, config, path)


def apply_build_config(model, config, path):
    """Builds ``model`` by calling it on symbolic inputs of the shapes in ``config`` (``{"input_shape": ...}``).

    Raises:
        InvalidFileError: the build config is malformed, or the model cannot be built from it.
    """
    if config is None or getattr(model, "built", False):
        return
    if not isinstance(config, dict) or set(config) != {"input_shape"}:
        raise InvalidFileError(f"{path!r}: the build config must be {{'input_shape': ...}}; received {config!r}.")
    inputs = _parse(config["input_shape"], path, "input_shape")
    try:
        model(inputs)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        raise InvalidFileError(
            f"{path!r}: the model {type(model).__name__!r} could not be built for the saved input shapes "
            f"{config['input_shape']!r} ({type(e).__name__}: {e}). Its call() must accept inputs of the "
            "shapes it was first called with."
        ) from e
