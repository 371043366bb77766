"""highlevel: a Keras-style deep-learning API whose models run unchanged on four engines.

>>> import highlevel as hl
>>> hl.config.backend() in hl.backends.known()
True
"""

__version__ = "0.1.0"

from highlevel import backends, config
from highlevel.backends.contract import Variable, dtypes

Variable._default_backend = staticmethod(config.current_backend)

from highlevel import ops, random, utils  # noqa: E402
from highlevel import activations, constraints, initializers, regularizers  # noqa: E402
from highlevel import layers, models  # noqa: E402
from highlevel.input_spec import InputSpec  # noqa: E402
from highlevel.keras_tensor import KerasTensor  # noqa: E402
from highlevel.models import Input, Model, Sequential  # noqa: E402

_LAZY = ("callbacks", "datasets", "losses", "metrics", "mixed_precision", "optimizers", "saving")


def __getattr__(name):
    # Training-side packages load on first use, keeping `import highlevel` fast.
    if name in _LAZY:
        import importlib

        module = importlib.import_module(f"highlevel.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'highlevel' has no attribute {name!r}")


__all__ = ["Input", "InputSpec", "KerasTensor", "Model", "Sequential", "Variable", "activations", "backends",
           "callbacks", "config", "constraints", "datasets", "dtypes", "initializers", "layers", "losses",
           "metrics", "mixed_precision", "models", "ops", "optimizers", "random", "regularizers", "saving", "utils",
           "__version__"]
