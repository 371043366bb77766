"""highlevel: a Keras-style deep-learning API whose models run unchanged on four engines.

``import highlevel`` loads only the configuration, the backend registry and ``hl.ops``/``hl.random`` (no
framework: a backend's engine loads when it is first used). Every other public name (``hl.layers``,
``hl.Sequential``, ``hl.optimizers``, ...) loads on first access, so a script pays only for what it touches.

>>> import highlevel as hl
>>> hl.config.backend() in hl.backends.known()
True
>>> hl.layers.Dense is hl.layers.core.Dense
True
"""

__version__ = "0.1.0"

from highlevel import backends, config
from highlevel.backends.contract import Variable, dtypes

Variable._default_backend = staticmethod(config.current_backend)

from highlevel import name_scoping as _name_scoping  # noqa: E402

Variable._path_of = staticmethod(_name_scoping.prefixed)

from highlevel import ops, random  # noqa: E402

#: Public names loaded on first access: name -> (module, attribute of it, or None for the module itself).
_LAZY = {
    name: (f"highlevel.{name}", None)
    for name in (
        "activations",
        "applications",
        "callbacks",
        "constraints",
        "datasets",
        "distribution",
        "initializers",
        "layers",
        "losses",
        "metrics",
        "mixed_precision",
        "models",
        "optimizers",
        "preprocessing",
        "regularizers",
        "saving",
        "utils",
        "tree",
        "backend",
        "wrappers",
        "legacy",
        "visualization",
        "distillation",
        "export",
        "quantizers",
        "dtype_policies",
    )
}
_LAZY.update(
    {
        "Input": ("highlevel.models", "Input"),
        "Model": ("highlevel.models", "Model"),
        "Sequential": ("highlevel.models", "Sequential"),
        "InputSpec": ("highlevel.input_spec", "InputSpec"),
        "KerasTensor": ("highlevel.keras_tensor", "KerasTensor"),
        "name_scope": ("highlevel.name_scoping", "name_scope"),
        "Layer": ("highlevel.layer", "Layer"),
        "Loss": ("highlevel.losses", "Loss"),
        "Metric": ("highlevel.metrics", "Metric"),
        "Optimizer": ("highlevel.optimizers", "Optimizer"),
        "Initializer": ("highlevel.initializers", "Initializer"),
        "Regularizer": ("highlevel.regularizers", "Regularizer"),
        "Constraint": ("highlevel.constraints", "Constraint"),
        "DTypePolicy": ("highlevel.mixed_precision", "DTypePolicy"),
        "FloatDTypePolicy": ("highlevel.mixed_precision", "FloatDTypePolicy"),
        "Quantizer": ("highlevel.quantizers", "Quantizer"),
        "StatelessScope": ("highlevel.backends.contract", "StatelessScope"),
        "SymbolicScope": ("highlevel.backends.contract", "SymbolicScope"),
        "Operation": ("highlevel.operation", "Operation"),
        "Function": ("highlevel.function", "Function"),
        "device": ("highlevel.device_placement", "device"),
        "remat": ("highlevel.rematerialization", "remat"),
        "RematScope": ("highlevel.rematerialization", "RematScope"),
    }
)


def version():
    """Returns the version of the installed highlevel package (``keras.version()``'s counterpart).

    Returns:
        A version string such as ``"0.1.0"``.

    >>> import highlevel as hl
    >>> hl.version() == hl.__version__
    True
    """
    return __version__


def __getattr__(name):
    # The layer library, the trainer and the training-side packages cost ~0.1-0.2 s to import: they load here,
    # on first use, which keeps `import highlevel` fast for scripts that only configure or use hl.ops.
    entry = _LAZY.get(name)
    if entry is None:
        raise AttributeError(f"module 'highlevel' has no attribute {name!r}")
    import importlib

    module = importlib.import_module(entry[0])
    value = module if entry[1] is None else getattr(module, entry[1])
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Constraint",
    "DTypePolicy",
    "FloatDTypePolicy",
    "Function",
    "Initializer",
    "Layer",
    "Loss",
    "Metric",
    "Operation",
    "Optimizer",
    "Quantizer",
    "Regularizer",
    "RematScope",
    "StatelessScope",
    "SymbolicScope",
    "device",
    "name_scope",
    "remat",
    "version",
    "Input",
    "InputSpec",
    "KerasTensor",
    "Model",
    "Sequential",
    "Variable",
    "activations",
    "applications",
    "backends",
    "callbacks",
    "config",
    "constraints",
    "datasets",
    "distribution",
    "dtype_policies",
    "dtypes",
    "initializers",
    "layers",
    "losses",
    "metrics",
    "mixed_precision",
    "models",
    "ops",
    "optimizers",
    "preprocessing",
    "quantizers",
    "random",
    "regularizers",
    "saving",
    "backend",
    "tree",
    "utils",
    "wrappers",
    "legacy",
    "visualization",
    "distillation",
    "__version__",
]
