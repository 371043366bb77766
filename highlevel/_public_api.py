"""The namespaces a user reaches and the public functions and classes in them: what the docstring rules
(tests/docs/test_docstring_sections.py) check and what the API reference (docs/hooks/api_pages.py) documents.

>>> "layers" in NAMESPACES and ("Dense", namespace("layers").Dense) in public_names("layers")
True
>>> public_objects()["layers.Dense"].__name__
'Dense'
"""

import inspect
import types

#: The namespaces, relative to ``highlevel`` ("" is the top level), in the order of the reference's pages.
NAMESPACES = (
    "",
    "ops",
    "layers",
    "activations",
    "initializers",
    "losses",
    "metrics",
    "optimizers",
    "optimizers.schedules",
    "callbacks",
    "regularizers",
    "constraints",
    "models",
    "saving",
    "utils",
    "random",
    "config",
    "backend",
    "tree",
    "mixed_precision",
    "quantizers",
    "dtype_policies",
    "distribution",
    "preprocessing",
    "wrappers",
    "visualization",
    "export",
)


def namespace(path):
    """The module at ``highlevel.<path>`` (``""``: ``highlevel`` itself)."""
    import highlevel

    mod = highlevel
    for part in [p for p in path.split(".") if p]:
        mod = getattr(mod, part)
    return mod


def public_names(path):
    """The public functions and classes of one namespace, as ``[(name, object)]`` sorted by name (those defined
    in highlevel; re-exported framework objects are left out)."""
    mod = namespace(path)
    names = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
    out = []
    for name in sorted(names):
        obj = getattr(mod, name, None)
        if isinstance(obj, types.ModuleType) or not (inspect.isclass(obj) or inspect.isroutine(obj)):
            continue
        if not (getattr(obj, "__module__", "") or "").startswith("highlevel"):
            continue
        out.append((name, obj))
    return out


def public_objects():
    """``{"namespace.name": object}`` for every public function and class, each object once (its first path in
    :data:`NAMESPACES` order)."""
    seen, out = set(), {}
    for path in NAMESPACES:
        for name, obj in public_names(path):
            if id(obj) not in seen:
                seen.add(id(obj))
                out[f"{path}.{name}" if path else name] = obj
    return out
