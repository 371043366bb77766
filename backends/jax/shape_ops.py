"""Linear algebra, shape manipulation, indexing and sorting of the JAX backend.

Operands of joins (``concatenate``, ``stack``, ``where``, ``matmul``, ...) are promoted by the contract's
table before JAX sees them, so mixing int32 and float16 gives float16 and never widens to float64.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from highlevel.backends.contract import Variable
from highlevel.backends.contract import dtypes as cdt
from highlevel.backends.contract.axes import canonical_axes

from . import conversion as cv


def _index_part(k):
    """One component of a ``getitem`` key in a form JAX indexes with."""
    if isinstance(k, Variable):
        k = k.value
    if isinstance(k, (list, tuple)):
        return cv.convert(k)
    if isinstance(k, np.ndarray) and k.dtype.kind in "iub":
        return jnp.asarray(k)
    return k


def _int_indices(indices):
    indices = cv.convert(indices)
    if not (cv.is_int(indices)):
        # float labels (e.g. from a float dataset) index like their integer value
        indices = indices.astype(jnp.int32)
    return indices


class ShapeOps:
    """Linear algebra, shape, indexing and sorting methods of :class:`~highlevel.backends.contract.NumpyContract`."""

    # ------------------------------------------------------------ linear algebra
    def matmul(self, x1, x2):
        x1, x2 = cv.promote(x1, x2)
        if cv.dtype_name(x1) == "bool":
            x1, x2 = x1.astype(jnp.int32), x2.astype(jnp.int32)
        return jnp.matmul(x1, x2)

    def int8_matmul(self, x, kernel):
        # XLA's int8 product with int32 accumulation: 6x faster than an int32 product on CPU
        return jax.lax.dot_general(x, kernel, (((x.ndim - 1,), (0,)), ((), ())), preferred_element_type=jnp.int32)

    def einsum(self, subscripts, *operands):
        operands = cv.promote(*operands)
        if operands and cv.dtype_name(operands[0]) == "bool":
            operands = tuple(o.astype(jnp.int32) for o in operands)
        return jnp.einsum(subscripts, *operands)

    def tensordot(self, x1, x2, axes=2):
        x1, x2 = cv.promote(x1, x2)
        return jnp.tensordot(x1, x2, axes=axes)

    def outer(self, x1, x2):
        x1, x2 = cv.promote(x1, x2)
        return jnp.outer(x1, x2)

    # ------------------------------------------------------------------- shapes
    def reshape(self, x, newshape):
        if isinstance(newshape, (int, np.integer)):
            newshape = (int(newshape),)
        return jnp.reshape(cv.convert(x), tuple(int(d) for d in newshape))

    def transpose(self, x, axes=None):
        return jnp.transpose(cv.convert(x), axes)

    def swapaxes(self, x, axis1, axis2):
        return jnp.swapaxes(cv.convert(x), axis1, axis2)

    def moveaxis(self, x, source, destination):
        return jnp.moveaxis(cv.convert(x), source, destination)

    def concatenate(self, xs, axis=0):
        xs = cv.promote(*xs)
        return jnp.concatenate(xs, axis=axis)

    def stack(self, xs, axis=0):
        xs = cv.promote(*xs)
        return jnp.stack(xs, axis=axis)

    def split(self, x, indices_or_sections, axis=0):
        x = cv.convert(x)
        if not isinstance(indices_or_sections, (int, np.integer)):
            indices_or_sections = [int(i) for i in indices_or_sections]
        return list(jnp.split(x, indices_or_sections, axis=axis))

    def expand_dims(self, x, axis):
        return jnp.expand_dims(cv.convert(x), axis)

    def squeeze(self, x, axis=None):
        x = cv.convert(x)
        return jnp.squeeze(x, None if axis is None else canonical_axes(axis, x.ndim))

    def take(self, x, indices, axis=None):
        x = cv.convert(x)
        indices = _int_indices(indices)
        if axis is None:
            x, axis = x.reshape(-1), 0
        n = x.shape[axis]
        # negative indices count from the end, as numpy; done here so every index mode agrees
        indices = jnp.where(indices < 0, indices + n, indices)
        return jnp.take(x, indices, axis=axis)

    def take_along_axis(self, x, indices, axis=None):
        x = cv.convert(x)
        indices = _int_indices(indices)
        if axis is None:
            x, indices, axis = x.reshape(-1), indices.reshape(-1), 0
        return jnp.take_along_axis(x, indices, axis=axis)

    def where(self, condition, x1=None, x2=None):
        condition = cv.convert(condition)
        if x1 is None and x2 is None:
            return tuple(i.astype(jnp.int32) for i in jnp.nonzero(condition))
        if x1 is None or x2 is None:
            raise ValueError("where() needs both x1 and x2, or neither (to return the indices of true entries).")
        x1, x2 = cv.promote(x1, x2)
        return jnp.where(condition.astype(jnp.bool_), x1, x2)

    def pad(self, x, pad_width, mode="constant", constant_values=None):
        x = cv.convert(x)
        if mode == "constant":
            value = cv.convert(0 if constant_values is None else constant_values, cv.dtype_name(x))
            return jnp.pad(x, pad_width, mode="constant", constant_values=value)
        return jnp.pad(x, pad_width, mode=mode)

    def tile(self, x, repeats):
        return jnp.tile(cv.convert(x), repeats)

    def repeat(self, x, repeats, axis=None):
        x = cv.convert(x)
        if isinstance(repeats, Variable):
            repeats = repeats.value
        if isinstance(repeats, (list, tuple)):
            repeats = np.asarray(repeats)
        return jnp.repeat(x, repeats, axis=axis)

    def broadcast_to(self, x, shape):
        return jnp.broadcast_to(cv.convert(x), tuple(shape))

    def flip(self, x, axis=None):
        return jnp.flip(cv.convert(x), axis)

    def getitem(self, x, key):
        x = cv.convert(x)
        if isinstance(key, tuple):
            key = tuple(_index_part(k) for k in key)
        else:
            key = _index_part(key)
        return x[key]

    def slice(self, inputs, start_indices, shape):
        inputs = cv.convert(inputs)
        if isinstance(start_indices, Variable):
            start_indices = start_indices.value
        if not cv.is_array(start_indices):
            start_indices = [s.value if isinstance(s, Variable) else s for s in start_indices]
        return lax.dynamic_slice(inputs, start_indices, tuple(int(s) for s in shape))

    def slice_update(self, inputs, start_indices, updates):
        inputs = cv.convert(inputs)
        updates = cv.convert(updates, cv.dtype_name(inputs))
        if isinstance(start_indices, Variable):
            start_indices = start_indices.value
        if not cv.is_array(start_indices):
            start_indices = [s.value if isinstance(s, Variable) else s for s in start_indices]
        return lax.dynamic_update_slice(inputs, updates, start_indices)

    # ------------------------------------------------------------------ sorting
    def sort(self, x, axis=-1):
        return jnp.sort(cv.convert(x), axis=axis)

    def argsort(self, x, axis=-1):
        x = cv.convert(x)
        if axis is None:
            x, axis = x.reshape(-1), 0
        return jnp.argsort(x, axis=axis, stable=True).astype(jnp.int32)

    def top_k(self, x, k, sorted=True):
        x = cv.convert(x)
        values, indices = lax.top_k(x, int(k))
        return values, indices.astype(jnp.int32)

    def one_hot(self, x, num_classes, axis=-1, dtype=None):
        x = _int_indices(x)
        dt = cv.jdtype(dtype or cdt.floatx())
        return jax.nn.one_hot(x, int(num_classes), dtype=dt, axis=axis)
