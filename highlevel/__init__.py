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

__all__ = ["Variable", "backends", "config", "dtypes", "ops", "random", "utils", "__version__"]
