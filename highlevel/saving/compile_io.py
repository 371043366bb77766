"""A model's ``compile`` arguments as JSON, and back (optimizer, losses and metrics by their configs).

>>> import highlevel as hl
>>> from highlevel.saving import compile_io
>>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
>>> model.compile(optimizer=hl.optimizers.SGD(0.5), loss="mse", metrics=["mae"])
>>> config = compile_io.compile_config(model)
>>> config["optimizer"]["class_name"], config["loss"]
('SGD', 'mse')
>>> type(compile_io.compile_arguments(config, {})["optimizer"]).__name__
'SGD'
"""

_OBJECT = "__object__"
_TUPLE = "__tuple__"


def _encode(value, module):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, tuple):
        return {_TUPLE: [_encode(v, module) for v in value]}
    if isinstance(value, list):
        return [_encode(v, module) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode(v, module) for k, v in value.items()}
    return {_OBJECT: module.serialize(value)}


def _decode(value, module, custom_objects):
    if isinstance(value, list):
        return [_decode(v, module, custom_objects) for v in value]
    if isinstance(value, dict):
        if _OBJECT in value:
            return module.deserialize(value[_OBJECT], custom_objects=custom_objects)
        if _TUPLE in value:
            return tuple(_decode(v, module, custom_objects) for v in value[_TUPLE])
        return {k: _decode(v, module, custom_objects) for k, v in value.items()}
    return value


def compile_config(model):
    """The JSON-able ``compile`` arguments of ``model``, or None if it was never compiled."""
    from highlevel import losses, metrics, optimizers

    raw = getattr(model, "_compile_config", None)
    if not getattr(model, "_compiled", False) or raw is None:
        return None
    return {
        "optimizer": optimizers.serialize(model.optimizer),
        "loss": _encode(raw.get("loss"), losses),
        "loss_weights": _encode(raw.get("loss_weights"), None),
        "metrics": _encode(raw.get("metrics"), metrics),
        "weighted_metrics": _encode(raw.get("weighted_metrics"), metrics),
        "run_eagerly": raw.get("run_eagerly", False),
        "jit_compile": raw.get("jit_compile", "auto"),
    }


def compile_arguments(config, custom_objects):
    """Keyword arguments for ``model.compile`` from :func:`compile_config`'s output."""
    from highlevel import losses, metrics, optimizers

    return {
        "optimizer": optimizers.deserialize(config["optimizer"], custom_objects=custom_objects),
        "loss": _decode(config.get("loss"), losses, custom_objects),
        "loss_weights": config.get("loss_weights"),
        "metrics": _decode(config.get("metrics"), metrics, custom_objects),
        "weighted_metrics": _decode(config.get("weighted_metrics"), metrics, custom_objects),
        "run_eagerly": bool(config.get("run_eagerly", False)),
        "jit_compile": config.get("jit_compile", "auto"),
    }
