"""The JAX engine's kernels for the array-search ops of ``contract/numpy_array.py``: ``jnp.searchsorted`` (a
binary search) and a scatter-add for ``bincount``, instead of the contract's comparison tables; and reading
the values of a tensor that ``jax.grad`` traces eagerly, which data-dependent shapes (``unique``, ``nonzero``,
``bincount``) need.

>>> from highlevel.backends.jax import JaxBackend
>>> b = JaxBackend()
>>> b.to_numpy(b.searchsorted(b.convert_to_tensor([1.0, 2.0, 3.0]), b.convert_to_tensor([2.5, 0.0]))).tolist()
[2, 0]
"""

import jax.numpy as jnp
import numpy as np
from jax.extend.core import concrete_or_error

from highlevel.backends.contract import dtypes

from . import conversion as cv


class NumpyArrayOps:
    """``searchsorted`` and ``bincount`` with jax kernels; host reads of eagerly known traced values."""

    def _known_values(self, x):
        # Under jax.grad (outside jit) a tensor is a tracer whose value is known; under jit it is not, and
        # concrete_or_error raises.
        return np.asarray(concrete_or_error(None, cv.convert(x), "a data-dependent output shape"))

    def searchsorted(self, sorted_sequence, values, side="left"):
        a, v = cv.convert(sorted_sequence), cv.convert(values)
        dt = dtypes.result_type(cv.dtype_name(a), cv.dtype_name(v))
        a, v = self.cast(a, dt), self.cast(v, dt)
        return jnp.searchsorted(a, v, side=side).astype(jnp.int32)

    def bincount(self, x, weights=None, minlength=0, sparse=False):
        x = cv.convert(x)
        length = self._bincount_length(x, minlength)
        rows = x.shape[0] if x.ndim == 2 else 1
        flat = x.astype(jnp.int32)
        if x.ndim == 2:
            flat = flat + (jnp.arange(rows, dtype=jnp.int32) * length)[:, None]
        flat = flat.reshape(-1)
        shape = x.shape[:-1] + (length,)
        if weights is None:
            return jnp.bincount(flat, length=rows * length).astype(jnp.int32).reshape(shape)
        w = cv.convert(weights)
        w = self.cast(w, dtypes.result_type(cv.dtype_name(x), cv.dtype_name(w)))
        return jnp.zeros((rows * length,), w.dtype).at[flat].add(w.reshape(-1)).reshape(shape)
