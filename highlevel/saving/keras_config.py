"""Translation between highlevel's model config and the ``config.json`` of a Keras 3 archive, both ways.

The two formats share their shape (``{"module", "class_name", "config", "registered_name"}`` objects, the same
argument names for almost every class); what differs is spelled out here and nowhere else:

* **modules**: highlevel's own module paths become the public Keras ones (``keras.layers``,
  ``keras.initializers``...; see ``_PACKAGES`` and ``_MODEL_MODULES``) and back. A user class keeps its module
  and its ``registered_name``.
* **dtype policies**: a layer's ``"dtype": "float32"`` is written as Keras's ``DTypePolicy`` object, and read back
  as the policy's name; a quantized one (``"int8_from_float32"``, ``"int4/128_from_float32"``...) likewise as the
  Keras class of its mode (``QuantizedDTypePolicy``, ``Int4DTypePolicy``...).
* **arguments**: Keras-only arguments highlevel lacks are listed in ``_KERAS_ONLY`` with the value that means
  "not used"; reading drops them at that value and refuses any other (the model would compute something else).
* **functional graphs**: highlevel lists its calls as ``nodes`` referring to tensors as ``[node, output]``;
  Keras gives each layer its ``inbound_nodes`` with tensors as ``__keras_tensor__`` objects whose
  ``keras_history`` is ``[layer, node of that layer, output]``. Both are converted here.

Nothing here imports Keras or builds an object: it maps plain data, and the safe loader checks the result.

>>> from highlevel.saving import keras_config
>>> dense = {"module": "highlevel.layers.core.dense", "class_name": "Dense",
...          "config": {"units": 2, "dtype": "float32", "name": "d"}}
>>> out = keras_config.object_to_keras(dense)
>>> out["module"], out["config"]["dtype"]["class_name"], out["registered_name"]
('keras.layers', 'DTypePolicy', None)
>>> back = keras_config.object_from_keras(out)
>>> back["module"], back["config"]["dtype"]
('highlevel.layers.core.dense', 'float32')
"""

from .errors import InvalidFileError

#: highlevel's package (by module prefix) -> the public Keras module its classes are written under.
_PACKAGES = (
    ("highlevel.optimizers.schedules", "keras.optimizers.schedules"),
    ("highlevel.optimizers", "keras.optimizers"),
    ("highlevel.mixed_precision", "keras"),
    ("highlevel.initializers", "keras.initializers"),
    ("highlevel.regularizers", "keras.regularizers"),
    ("highlevel.constraints", "keras.constraints"),
    ("highlevel.losses", "keras.losses"),
    ("highlevel.metrics", "keras.metrics"),
    ("highlevel.layers", "keras.layers"),
    ("highlevel.distillation", "keras.distillation"),
    ("highlevel.quantizers", "keras.quantizers"),
    ("highlevel.dtype_policies", "keras.dtype_policies"),
)

#: The layers of an application family (InceptionResNetV2's ``CustomScaleLayer``, ConvNeXt's ``LayerScale``) are
#: public in no Keras namespace: Keras writes them under their family's module, which matches highlevel's.
_OWN_APPLICATIONS = "highlevel.applications."
_KERAS_APPLICATIONS = "keras.src.applications."

#: Model classes, which Keras writes under modules of their own.
_MODEL_MODULES = {
    "InputLayer": "keras.layers",
    "Sequential": "keras",
    "Functional": "keras.src.models.functional",
    "Model": "keras",
}

#: Arguments Keras writes that highlevel's class does not take: ``{class: {argument: the value meaning unused}}``.
_KERAS_ONLY = {}

#: Arguments highlevel writes that Keras's class does not take: ``{class: {argument: its default}}``; written
#: only when they differ from the default (Keras would then refuse the config, rightly).
_HIGHLEVEL_ONLY = {
    "SpatialDropout1D": {"trainable": True},
    "SpatialDropout2D": {"trainable": True},
    "SpatialDropout3D": {"trainable": True},
    "Discretization": {"trainable": True},
}

#: Layers whose ``dtype`` means different things: highlevel's lookup layers take their output dtype there, Keras's
#: keep a float policy their lookups ignore. Their ``dtype`` is left out both ways (each side's default applies).
_DTYPE_NOT_SHARED = ("StringLookup", "IntegerLookup")

#: Arguments Keras writes that highlevel derives instead, dropped on reading whatever their value:
#: ``Sequential``'s ``dtype`` (its layers keep their own dtype policies, which are read) and ``build_input_shape``
#: (the ``InputLayer`` among its layers, or the archive's ``build_config``, builds it).
_DERIVED = {"Sequential": ("dtype", "build_input_shape")}

#: Arguments whose name differs: ``{class: {highlevel name: Keras name}}`` (none today; the mapping is applied both
#: ways, so a rename needs only an entry here).
_RENAMED = {}

#: Keys Keras adds to an object for its own bookkeeping, dropped on reading.
_KERAS_BOOKKEEPING = ("shared_object_id",)

_POLICIES = ("DTypePolicy", "FloatDTypePolicy")
#: The Keras class of a quantized policy by the first part of its mode (``"int4/128"`` -> ``"int4/"``).
_QUANTIZED_POLICIES = {
    "int8": "QuantizedDTypePolicy",
    "int4": "QuantizedDTypePolicy",
    "int4/": "Int4DTypePolicy",
    "float8": "QuantizedFloat8DTypePolicy",
    "gptq/": "GPTQDTypePolicy",
    "awq/": "AWQDTypePolicy",
}
_SPECIAL = "__"  # tagged forms (``__numpy__``, ``__keras_tensor__``...) pass through


def _own_classes():
    from .config_io import _own_classes

    return _own_classes()


def _own_class(class_name, keras_module):
    """highlevel's class for a Keras object: looked up in the package matching its Keras module (a metric and a
    loss may share a name), else by name alone."""
    import importlib

    if _is_keras(keras_module) and keras_module.startswith(_KERAS_APPLICATIONS):
        from highlevel import applications

        family = keras_module[len(_KERAS_APPLICATIONS) :]
        cls = getattr(getattr(applications, family), class_name, None) if family in applications._MODULES else None
        if isinstance(cls, type):
            return cls
    if _is_keras(keras_module):
        for package, public in _PACKAGES:
            if keras_module == public or (public != "keras" and keras_module.startswith(public + ".")):
                cls = getattr(importlib.import_module(package), class_name, None)
                if isinstance(cls, type):
                    return cls
                break
    return _own_classes().get(class_name)


def _is_own(module):
    return isinstance(module, str) and (module == "highlevel" or module.startswith("highlevel."))


def _is_keras(module):
    return isinstance(module, str) and (module == "keras" or module.startswith("keras."))


def _keras_module(class_name, module):
    if class_name in _MODEL_MODULES and (module is None or module.startswith("highlevel.models")):
        return _MODEL_MODULES[class_name]
    cls = _own_classes().get(class_name)
    source = module if _is_own(module) else getattr(cls, "__module__", "")
    if source.startswith(_OWN_APPLICATIONS):
        return _KERAS_APPLICATIONS + source[len(_OWN_APPLICATIONS) :]
    for prefix, keras_module in _PACKAGES:
        if source == prefix or source.startswith(prefix + "."):
            return keras_module
    raise ValueError(
        f"highlevel's {class_name!r} (module {source!r}) has no counterpart in Keras's format; save this model "
        "in highlevel's own format instead (a '.hl.zip' name, or save_format='highlevel')."
    )


def _is_object(node):
    return isinstance(node, dict) and isinstance(node.get("class_name"), str) and "config" in node


def _is_policy_name(value):
    """Whether Keras writes a layer's ``dtype`` as a policy object: float dtypes and mixed policies; an integer or
    string dtype (lookup layers) stays a string, as Keras writes it."""
    return isinstance(value, str) and (
        value.startswith("float") or value in ("bfloat16",) or value.startswith("mixed_")
    )


def _quantized_policy_class(name):
    """The Keras class of a quantized policy name (``"<mode>_from_<source>"``), or None for another name."""
    if not isinstance(name, str) or name.count("_from_") != 1:
        return None
    mode = name.split("_from_")[0]
    kind = mode.split("/")[0] + ("/" if "/" in mode else "")
    return _QUANTIZED_POLICIES.get(kind)


def _policy(name):
    class_name = _quantized_policy_class(name)
    if class_name is not None:
        mode, source = name.split("_from_")
        config = {"mode": mode, "source_name": source}
        return {"module": "keras.dtype_policies", "class_name": class_name, "config": config, "registered_name": None}
    return {"module": "keras", "class_name": "DTypePolicy", "config": {"name": name}, "registered_name": None}


def _policy_name(value):
    """The policy name a Keras policy object stands for, or None when it is not a float or quantized policy."""
    inner = value["config"] if isinstance(value["config"], dict) else {}
    if value["class_name"] in _POLICIES:
        return inner.get("name") if isinstance(inner.get("name"), str) else False
    if value["class_name"] in _QUANTIZED_POLICIES.values():
        mode, source = inner.get("mode"), inner.get("source_name")
        return f"{mode}_from_{source}" if isinstance(mode, str) and isinstance(source, str) else False
    return None


def object_to_keras(node, specs=None, kind=None):
    """A highlevel config tree (an object, or plain data holding objects) in Keras's spelling.

    Args:
        node: the config (what ``serialize_keras_object`` returns, JSON-able).
        specs: ``{functional model name: its tensor specs}`` (see :func:`tensor_specs`), for the shapes Keras
            records with each tensor of a graph.
        kind: the highlevel package (``"highlevel.metrics"``...) of the objects in ``node`` that name no module
            (a metric and a loss may share a class name).
    """
    if isinstance(node, (list, tuple)):
        return [object_to_keras(v, specs, kind) for v in node]
    if not isinstance(node, dict):
        return node
    if not _is_object(node) or node["class_name"].startswith(_SPECIAL) or node["class_name"] == "function":
        return {k: object_to_keras(v, specs, kind) for k, v in node.items()}
    class_name, module = node["class_name"], node.get("module")
    own = (module is None and class_name in _own_classes()) or _is_own(module)
    out = dict(node)
    if own:
        out["module"] = _keras_module(class_name, module if module is not None else kind)
        out["registered_name"] = "Functional" if class_name == "Functional" else None
    else:
        out.setdefault("registered_name", class_name)
    inner = node["config"]
    if isinstance(inner, dict):
        is_layer = _is_layer_class(class_name, node)
        if isinstance(inner.get("nodes"), list) and "layers" in inner:
            inner = functional_to_keras(inner, (specs or {}).get(inner.get("name")))
        if own and class_name in _DTYPE_NOT_SHARED:
            inner = {k: v for k, v in inner.items() if k != "dtype"}
        if own:
            defaults = _HIGHLEVEL_ONLY.get(class_name, {})
            inner = {k: v for k, v in inner.items() if not (k in defaults and v == defaults[k])}
        inner = {_RENAMED.get(class_name, {}).get(k, k): v for k, v in inner.items()}
        converted = {}
        for key, value in inner.items():
            policy_name = _is_policy_name(value) or _quantized_policy_class(value) is not None
            if key == "dtype" and is_layer and class_name != "InputLayer" and policy_name:
                converted[key] = _policy(value)
            else:
                converted[key] = object_to_keras(value, specs)
        out["config"] = converted
    for key in ("build_config", "compile_config"):
        if key in node:
            out[key] = object_to_keras(node[key], specs)
    return out


def _is_layer_class(class_name, node):
    from highlevel.layers import Layer

    cls = _own_classes().get(class_name)
    if isinstance(cls, type):
        return issubclass(cls, Layer)
    return "build_config" in node or "trainable" in (node.get("config") or {})


def object_from_keras(node):
    """A Keras config tree in highlevel's spelling (the inverse of :func:`object_to_keras`).

    Raises:
        InvalidFileError: a Keras-only argument set to a value highlevel cannot honour.
    """
    if isinstance(node, list):
        return [object_from_keras(v) for v in node]
    if not isinstance(node, dict):
        return node
    node = {k: v for k, v in node.items() if k not in _KERAS_BOOKKEEPING}
    if not _is_object(node) or node["class_name"].startswith(_SPECIAL) or node["class_name"] == "function":
        return {k: object_from_keras(v) for k, v in node.items()}
    class_name, module = node["class_name"], node.get("module")
    out = dict(node)
    cls = _own_class(class_name, module)
    if (_is_keras(module) or module is None) and cls is not None:
        out["module"] = cls.__module__
        out["registered_name"] = None
    inner = node["config"]
    if isinstance(inner, dict):
        inner = {k: v for k, v in inner.items() if k not in _KERAS_BOOKKEEPING}
        if "input_layers" in inner and "output_layers" in inner and isinstance(inner.get("layers"), list):
            inner = functional_from_keras(inner)
        dropped = _DERIVED.get(class_name, ()) + (("dtype",) if class_name in _DTYPE_NOT_SHARED else ())
        inner = {k: v for k, v in inner.items() if k not in dropped}
        for key, unused in _KERAS_ONLY.get(class_name, {}).items():
            if key in inner:
                value = inner.pop(key)
                if value != unused:
                    raise InvalidFileError(
                        f"The Keras config sets {class_name}({key}={value!r}); highlevel's {class_name} has no "
                        f"'{key}' argument (only {unused!r} can be read). Save the model in Keras without it."
                    )
        back = {v: k for k, v in _RENAMED.get(class_name, {}).items()}
        inner = {back.get(k, k): v for k, v in inner.items()}
        converted = {}
        for key, value in inner.items():
            name = _policy_name(value) if key == "dtype" and _is_object(value) else None
            if name is False:
                raise InvalidFileError(f"Malformed dtype policy in the Keras config of {class_name}: {value!r}.")
            if name is not None:
                converted[key] = name
            else:
                converted[key] = object_from_keras(value)
        out["config"] = converted
    for key in ("build_config", "compile_config"):
        if key in node:
            out[key] = object_from_keras(node[key])
    return out


# Functional graphs -----------------------------------------------------------------------------------------------


def _layer_names(config):
    return {layer["name"]: layer for layer in config["layers"]}


def functional_to_keras(config, tensor_specs=None):
    """highlevel's functional config (``layers`` + ``nodes``) as Keras's (``layers`` with ``inbound_nodes``,
    ``input_layers``, ``output_layers``).

    Args:
        config: the ``config`` of a highlevel ``Functional``.
        tensor_specs: ``{(node, output): (shape, dtype)}`` for the graph's tensors (what Keras records with each
            reference); without it, shapes are written as unknown.
    """
    specs = tensor_specs or {}
    layers = {layer["name"]: dict(layer, inbound_nodes=[]) for layer in config["layers"]}
    order = []  # Keras lists the input layers first, then the others in first-call order
    history = {}  # highlevel node index -> (layer name, node index of that layer)
    for index, node in enumerate(config["nodes"]):
        if "input" in node:
            inp = node["input"]
            name = inp["config"]["name"]
            layers[name] = dict(inp, name=name, inbound_nodes=[])
            order.append(name)
            history[index] = (name, 0)
            continue
        if "layer" not in node:
            raise ValueError(
                f"The model calls the operation {node.get('op')!r} directly; Keras's format records only layer "
                "calls. Wrap it in a layer, or save in highlevel's own format (a '.hl.zip' name, or "
                "save_format='highlevel')."
            )
        name = node["layer"]
        layer = layers[name]
        offset = 1 if layer.get("class_name") in ("Functional", "Sequential", "Model") else 0
        history[index] = (name, len(layer["inbound_nodes"]) + offset)
        if name not in order:
            order.append(name)
        refs = lambda x: _refs_to_keras(x, history, specs)  # noqa: E731
        kwargs = refs(node.get("kwargs") or {"__dict__": {}})
        layer["inbound_nodes"].append({"args": refs(node["args"]), "kwargs": kwargs})
    out = {k: v for k, v in config.items() if k not in ("layers", "nodes", "inputs", "outputs")}
    out["layers"] = [layers[name] for name in order] + [v for k, v in layers.items() if k not in order]
    out["input_layers"] = _io_to_keras(config["inputs"], history)
    out["output_layers"] = _io_to_keras(config["outputs"], history)
    return out


def _refs_to_keras(x, history, specs):
    if isinstance(x, list):
        return [_refs_to_keras(v, history, specs) for v in x]
    if isinstance(x, dict):
        if "__tensor__" in x:
            i, j = x["__tensor__"]
            name, index = history[i]
            shape, dtype = specs.get((i, j), (None, "float32"))
            return {
                "class_name": "__keras_tensor__",
                "config": {"shape": shape, "dtype": dtype, "keras_history": [name, index, j]},
            }
        if "__dict__" in x:
            return {k: _refs_to_keras(v, history, specs) for k, v in x["__dict__"].items()}
        if "__tuple__" in x:
            return [_refs_to_keras(v, history, specs) for v in x["__tuple__"]]
        if "__array__" in x:
            return {"class_name": "__numpy__", "config": {"value": x["__array__"], "dtype": x["dtype"]}}
        return {k: _refs_to_keras(v, history, specs) for k, v in x.items()}
    return x


def _io_to_keras(x, history):
    if isinstance(x, dict) and "__tensor__" in x:
        i, j = x["__tensor__"]
        name, index = history[i]
        return [name, index, j]
    if isinstance(x, dict) and "__dict__" in x:
        return {k: _io_to_keras(v, history) for k, v in x["__dict__"].items()}
    if isinstance(x, dict) and "__tuple__" in x:
        return [_io_to_keras(v, history) for v in x["__tuple__"]]
    if isinstance(x, list):
        return [_io_to_keras(v, history) for v in x]
    raise ValueError(f"Unexpected model input/output reference {x!r}.")


def _is_leaf(x):
    return isinstance(x, list) and len(x) == 3 and isinstance(x[0], str)


def functional_from_keras(config):
    """Keras's functional config as highlevel's (the inverse of :func:`functional_to_keras`).

    Raises:
        InvalidFileError: a call refers to a layer or a node that does not exist, or the graph has a cycle.
    """
    layers = config["layers"]
    for layer in layers:
        if not isinstance(layer, dict) or not isinstance(layer.get("name"), str):
            raise InvalidFileError(f"Malformed layer entry in the Keras functional config: {layer!r}.")
    by_name = {layer["name"]: layer for layer in layers}
    nodes = []
    produced = {}  # (layer name, node index of that layer) -> highlevel node index
    pending = {}
    for layer in layers:
        if layer.get("class_name") == "InputLayer":
            inner = {k: v for k, v in layer.items() if k not in ("name", "inbound_nodes")}
            produced[(layer["name"], 0)] = len(nodes)
            nodes.append({"input": inner})
        else:
            inbound = layer.get("inbound_nodes", [])
            if not isinstance(inbound, list):
                raise InvalidFileError(f"Malformed inbound_nodes for layer {layer['name']!r}.")
            pending[layer["name"]] = list(inbound)
    done = {name: 0 for name in pending}
    while any(pending.values()):
        progress = False
        for layer in layers:
            name = layer["name"]
            while pending.get(name):
                node = pending[name][0]
                if not isinstance(node, dict):
                    raise InvalidFileError(f"Unsupported (legacy) node format for layer {name!r}: {node!r}.")
                if not all(key in produced for key in _histories(node)):
                    break
                pending[name].pop(0)
                offset = 1 if layer.get("class_name") in ("Functional", "Sequential", "Model") else 0
                produced[(name, done[name] + offset)] = len(nodes)
                done[name] += 1
                args = _refs_from_keras(node.get("args", []), produced)
                kwargs = {"__dict__": _refs_from_keras(node.get("kwargs", {}), produced, wrap_dicts=False)}
                nodes.append({"layer": name, "args": args, "kwargs": kwargs})
                progress = True
        if not progress:
            stuck = sorted(name for name, rest in pending.items() if rest)
            raise InvalidFileError(
                f"The Keras functional config cannot be rebuilt: the calls of {stuck} refer to tensors no "
                "layer produces (a missing layer or node, or a cycle)."
            )
    out = {k: v for k, v in config.items() if k not in ("layers", "input_layers", "output_layers")}
    out["layers"] = [
        {k: v for k, v in layer.items() if k != "inbound_nodes"}
        for layer in layers
        if layer.get("class_name") != "InputLayer"
    ]
    out["nodes"] = nodes
    out["inputs"] = _io_from_keras(config["input_layers"], produced, by_name)
    out["outputs"] = _io_from_keras(config["output_layers"], produced, by_name)
    return out


def _histories(x):
    if isinstance(x, list):
        for v in x:
            yield from _histories(v)
    elif isinstance(x, dict):
        if x.get("class_name") == "__keras_tensor__":
            history = (x.get("config") or {}).get("keras_history")
            if not _is_leaf(history):
                raise InvalidFileError(f"Malformed keras_history {history!r} in the Keras config.")
            yield (history[0], history[1])
        else:
            for v in x.values():
                yield from _histories(v)


def _refs_from_keras(x, produced, wrap_dicts=True):
    if isinstance(x, list):
        return [_refs_from_keras(v, produced) for v in x]
    if isinstance(x, dict):
        if x.get("class_name") == "__keras_tensor__":
            name, index, j = x["config"]["keras_history"]
            return {"__tensor__": [produced[(name, index)], j]}
        if x.get("class_name") == "__numpy__":
            return {"__array__": x["config"]["value"], "dtype": x["config"]["dtype"]}
        inner = {k: _refs_from_keras(v, produced) for k, v in x.items()}
        return {"__dict__": inner} if wrap_dicts else inner
    return x


def _io_from_keras(x, produced, by_name):
    if _is_leaf(x):
        name, index, j = x
        if (name, index) not in produced:
            raise InvalidFileError(f"The Keras config names the model input/output {x!r}, which no layer produces.")
        return {"__tensor__": [produced[(name, index)], j]}
    if isinstance(x, dict):
        return {"__dict__": {k: _io_from_keras(v, produced, by_name) for k, v in x.items()}}
    if isinstance(x, list):
        return [_io_from_keras(v, produced, by_name) for v in x]
    raise InvalidFileError(f"Malformed input_layers/output_layers entry {x!r} in the Keras config.")


def tensor_specs(model):
    """``{functional model name: {(node, output): (shape, dtype)}}`` for ``model`` and the functional models
    nested in it: the shapes and dtypes of their graph tensors."""
    from highlevel.models import Functional

    out = {}
    for sub in [model] + list(model._flatten_layers()):
        if isinstance(sub, Functional) and sub.name not in out:
            specs = {}
            for i, node in enumerate(sub._nodes):
                for j, kt in enumerate(node.output_tensors):
                    specs[(i, j)] = (list(kt.shape), str(kt.dtype))
            out[sub.name] = specs
    return out


def model_to_keras(model_config, compile_config=None, build_config=None, specs=None):
    """The ``config.json`` Keras writes for a model, from highlevel's model, compile and build configs (and
    :func:`tensor_specs` of a functional model)."""
    out = object_to_keras(dict(model_config), specs)
    out["build_config"] = build_config if build_config is not None else {"input_shape": None}
    out["compile_config"] = compile_to_keras(compile_config) if compile_config else {}
    return out


def compile_to_keras(config):
    """highlevel's compile config (``compile_io``'s, losses/metrics as ``{"__object__": ...}``) as Keras's."""
    kinds = {
        "optimizer": "highlevel.optimizers",
        "loss": "highlevel.losses",
        "metrics": "highlevel.metrics",
        "weighted_metrics": "highlevel.metrics",
    }
    out = {}
    for key, value in config.items():
        out[key] = object_to_keras(_unwrap(value), kind=kinds.get(key))
    out.setdefault("steps_per_execution", 1)
    if out.get("jit_compile") == "auto":
        out["jit_compile"] = False
    return out


def _unwrap(value):
    if isinstance(value, list):
        return [_unwrap(v) for v in value]
    if isinstance(value, dict):
        if "__object__" in value:
            return value["__object__"]
        if "__tuple__" in value:
            return [_unwrap(v) for v in value["__tuple__"]]
        return {k: _unwrap(v) for k, v in value.items()}
    return value


def compile_from_keras(config):
    """Keras's compile config as highlevel's ``compile_io`` form (objects wrapped as ``{"__object__": ...}``)."""
    if not isinstance(config, dict) or not config:
        return None
    out = {}
    for key in ("optimizer", "loss", "loss_weights", "metrics", "weighted_metrics", "run_eagerly", "jit_compile"):
        value = object_from_keras(config.get(key))
        out[key] = value if key in ("optimizer", "loss_weights", "run_eagerly", "jit_compile") else _wrap(value)
    return out


def _wrap(value):
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    if _is_object(value):
        return {"__object__": value}
    if isinstance(value, dict):
        return {k: _wrap(v) for k, v in value.items()}
    return value
