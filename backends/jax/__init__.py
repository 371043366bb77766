"""The JAX engine of highlevel (``HIGHLEVEL_BACKEND=jax``).

>>> from highlevel.backends.jax import JaxBackend
>>> JaxBackend.name
'jax'
"""

from .backend import JaxBackend
from .core import JaxVariableHandle

__all__ = ["JaxBackend", "JaxVariableHandle"]
