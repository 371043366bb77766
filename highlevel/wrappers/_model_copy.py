"""Copies of a model for the scikit-learn wrappers: a fresh compiled copy to train, and bytes to pickle.

A wrapper given a ``Model`` trains a fresh copy of it on each ``fit`` (the given model stays the untrained
template, as scikit-learn wants of an estimator's parameters). The copy has the same architecture and compile
arguments and newly initialized weights: ``hl.models.clone_model`` where it exists, else the model's
``from_config(get_config())``. Pickling (``joblib``'s parallel workers, ``pickle.dumps(estimator)``) stores a
model as the bytes of its saved file.

>>> import highlevel as hl
>>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> copy = fresh_copy(model)
>>> copy is model, [tuple(w.shape) for w in copy.weights]
(False, [(3, 2), (2,)])
"""

import copy
import os
import tempfile


def _fresh(value, module):
    """A new object configured like ``value`` (an optimizer, loss or metric object; names stay as they are)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return type(value)(_fresh(v, module) for v in value)
    if isinstance(value, dict):
        return {k: _fresh(v, module) for k, v in value.items()}
    if hasattr(value, "get_config") and hasattr(module, "serialize"):
        try:
            return module.deserialize(module.serialize(value))
        except (TypeError, ValueError):  # a custom object the registry does not know: a deep copy will do
            pass
    return copy.deepcopy(value)


def fresh_copy(model):
    """A compiled copy of ``model`` with the same architecture and compile arguments and new weights.

    Raises:
        TypeError: for a model that cannot be rebuilt from its config (a subclassed model without
            ``get_config``): pass a function that builds the model instead.
    """
    from highlevel import losses, metrics, models, optimizers

    clone_model = getattr(models, "clone_model", None)
    try:
        clone = clone_model(model) if clone_model is not None else type(model).from_config(model.get_config())
    except (NotImplementedError, TypeError, ValueError, KeyError) as e:
        raise TypeError(
            f"The scikit-learn wrapper could not copy the model {model.name!r} ({type(e).__name__}: {e}). Pass a "
            "function that builds and compiles the model instead: model=build_fn, called as build_fn(X=X, y=y, "
            "**model_kwargs)."
        ) from e
    config = model.get_compile_config() if hasattr(model, "get_compile_config") else {}
    if config and not getattr(clone, "_compiled", False):
        config = dict(config)
        config["optimizer"] = _fresh(config.get("optimizer"), optimizers)
        config["loss"] = _fresh(config.get("loss"), losses)
        for key in ("metrics", "weighted_metrics"):
            config[key] = _fresh(config.get(key), metrics)
        clone.compile(**config)
    return clone


def model_to_bytes(model):
    """The bytes of ``model``'s saved file (architecture, compile arguments, weights, optimizer state)."""
    from highlevel.saving import save_model

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "model.hl.zip")
        save_model(model, path)
        with open(path, "rb") as f:
            return f.read()


def model_from_bytes(data):
    """The model :func:`model_to_bytes` stored."""
    from highlevel.saving import load_model

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "model.hl.zip")
        with open(path, "wb") as f:
            f.write(data)
        return load_model(path)
