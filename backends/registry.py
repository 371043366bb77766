"""Finds backends by name and imports them lazily.

The four engines that ship with highlevel are listed here; any installed distribution can add one
through the entry-point group ``highlevel.backends`` (``name = "package.module:BackendClass"``). Nothing is
imported until a backend is first asked for, so importing highlevel with the native backend imports no
framework.
"""

import importlib
import importlib.util
import sys

# name -> ("module:Class", the module a user must have installed, the pip extra that installs it)
_BUILTIN = {
    "native": ("highlevel.backends.native:NativeBackend", None, None),
    "jax": ("highlevel.backends.jax:JaxBackend", "jax", "jax"),
    "torch": ("highlevel.backends.torch:TorchBackend", "torch", "torch"),
    "tensorflow": ("highlevel.backends.tensorflow:TensorFlowBackend", "tensorflow", "tensorflow"),
}

# Other names people use for the built-in engines (the framework's import name, its common nickname).
ALIASES = {"tf": "tensorflow", "pytorch": "torch", "np": "native", "numpy": "native"}

_instances = {}
_extra_targets = None


def _entry_point_targets():
    """Backends that third-party distributions registered (built-ins win on a name clash)."""
    global _extra_targets
    if _extra_targets is None:
        _extra_targets = {}
        import importlib.metadata  # only when a backend is first looked up: it is slow to import

        try:
            eps = importlib.metadata.entry_points(group="highlevel.backends")
        except Exception:  # a broken environment must not stop the built-in engines
            eps = ()
        for ep in eps:
            if ep.name not in _BUILTIN:
                _extra_targets[ep.name] = ep.value
    return _extra_targets


def known():
    """Every registered backend name, installed or not."""
    return list(_BUILTIN) + sorted(_entry_point_targets())


def installed():
    """The registered backends whose framework is importable (checked without importing it)."""
    out = []
    for name in known():
        module = _BUILTIN[name][1] if name in _BUILTIN else None
        if module is None or importlib.util.find_spec(module) is not None:
            out.append(name)
    return out


def register(name, target):
    """Registers a backend class (or a ``"module:Class"`` string) under ``name`` at run time."""
    _entry_point_targets()[name] = target
    _instances.pop(name, None)


class BackendNotAvailableError(ValueError):
    """Raised for an unknown backend name or one whose framework is not installed."""


def canonical(name):
    """The registered name that ``name`` means: case and surrounding spaces ignored, aliases resolved.

    >>> canonical(" TF "), canonical("pytorch"), canonical("np"), canonical("jax")
    ('tensorflow', 'torch', 'native', 'jax')
    """
    if not isinstance(name, str):
        raise TypeError(
            f"A backend name must be a string such as 'jax'; received {name!r} of type {type(name).__name__}."
        )
    key = name.strip().lower()
    return ALIASES.get(key, key)


def _suggestion(name):
    """`` Did you mean 'tensorflow'?`` for a near miss of a known name or alias, else an empty string."""
    import difflib

    names = known() + sorted(ALIASES)
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return f" Did you mean {ALIASES.get(close[0], close[0])!r}?" if close else ""


def get(name):
    """Returns the (single) instance of the backend called ``name`` (or an alias of it), importing it on first use."""
    name = canonical(name)
    inst = _instances.get(name)
    if inst is not None:
        return inst
    if name in _BUILTIN:
        target, module, extra = _BUILTIN[name]
    elif name in _entry_point_targets():
        target, module, extra = _entry_point_targets()[name], None, None
    else:
        raise BackendNotAvailableError(
            f"Unknown backend {name!r}.{_suggestion(name)} Installed backends: {installed()}. Known backends: "
            f"{known()} (aliases: {', '.join(f'{a!r}' for a in ALIASES)}). "
            "Set HIGHLEVEL_BACKEND to one of them, or register a third-party backend under the "
            "entry-point group 'highlevel.backends'."
        )
    if module is not None and importlib.util.find_spec(module) is None:
        from highlevel._extras import install_command

        raise BackendNotAvailableError(
            f"Backend {name!r} needs the {module!r} package, which is not installed. Installed "
            f"backends: {installed()}. Install it with: {install_command(extra)}"
        )
    if isinstance(target, str):
        mod_name, _, cls_name = target.partition(":")
        cls = getattr(importlib.import_module(mod_name), cls_name)
    else:
        cls = target
    inst = cls()
    _instances[name] = inst
    return inst


def _of_framework(value, module):
    """Whether ``value``'s type comes from the framework package ``module`` (a ``tf.Tensor`` from tensorflow)."""
    owner = type(value).__module__ or ""
    return owner == module or owner.startswith(module + ".")


def pipeline_owner(values, current=None):
    """The engine, other than ``current``, whose data pipeline holds one of ``values`` (a flat list), or None.

    The engines already loaded are asked first; a value of another framework (a ``tf.Tensor`` met while another
    engine runs) also asks the built-in engines whose framework the program has imported, loading them then. A
    framework that is not imported has no tensors, so nothing is imported here.
    """
    for inst in list(_instances.values()):
        if inst is current:
            continue
        for value in values:
            if inst.is_pipeline_tensor(value):
                return inst
    for name, (_, module, _) in _BUILTIN.items():
        if name in _instances or module is None or module not in sys.modules:
            continue
        if not any(_of_framework(value, module) for value in values):
            continue
        inst = get(name)
        if inst is not current and any(inst.is_pipeline_tensor(value) for value in values):
            return inst
    return None
