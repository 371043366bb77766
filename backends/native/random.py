"""Seeded random draws of the native engine: a numpy Philox generator keyed by ``(seed, counter)``.

Draws are made on the host (also when the engine runs on CuPy, then copied to the GPU), so a seed gives
the same values on CPU and GPU.

>>> a = normal((2,), seed=(1, 0)); b = normal((2,), seed=(1, 0))
>>> bool((a.numpy() == b.numpy()).all())
True
"""

import numpy as np

from highlevel.backends.contract import Variable, dtypes
from .convert import to_tensor
from .tensor import Tensor, xp_dtype
from .xp import xp

_MASK32 = 0xFFFFFFFF


def _generator(seed):
    """The Philox generator for ``seed``: a ``(seed, counter)`` pair of ints or an int tensor of shape (2,)."""
    if seed is None:
        return np.random.Generator(np.random.Philox())
    if isinstance(seed, (Tensor, Variable, np.ndarray)) or hasattr(seed, "__array__"):
        values = np.asarray(to_tensor(seed).numpy()).reshape(-1).tolist()
    elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        values = [int(seed), 0]
    else:
        values = list(seed)
    if len(values) != 2 or not all(isinstance(v, (int, np.integer)) for v in values):
        raise ValueError(f"A random seed must be a pair (seed, counter) of ints or an int tensor of shape (2,); "
                         f"received {seed!r}.")
    key = ((int(values[0]) & _MASK32) << 32) | (int(values[1]) & _MASK32)
    return np.random.Generator(np.random.Philox(key=key))


def _shape(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(d) for d in shape)


def _float_dtype(dtype):
    name = dtypes.standardize_dtype(dtype)
    if not dtypes.is_float_dtype(name):
        raise ValueError(f"This random op draws floats; received dtype={name!r}. Use randint for integers.")
    return name


def _out(values, name):
    return Tensor(xp.asarray(values.astype(xp_dtype(name))))


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal draws of ``shape``."""
    name = _float_dtype(dtype)
    z = _generator(seed).standard_normal(_shape(shape))
    return _out(z * float(stddev) + float(mean), name)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Uniform draws in ``[minval, maxval)``."""
    name = _float_dtype(dtype)
    lo, hi = float(minval), float(maxval)
    u = _generator(seed).random(_shape(shape)) * (hi - lo) + lo
    out = u.astype(xp_dtype(name))
    # rounding to a narrower float can land exactly on maxval; keep the interval half-open
    if hi > lo:
        top = np.nextafter(np.asarray(hi, out.dtype), np.asarray(lo, out.dtype))
        out = np.minimum(out, top)
    return Tensor(xp.asarray(out))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal draws within two standard deviations of the mean (out-of-range draws are redrawn)."""
    name = _float_dtype(dtype)
    shape = _shape(shape)
    rng = _generator(seed)
    z = rng.standard_normal(shape)
    bad = np.abs(z) > 2.0
    while bad.any():
        z[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(z) > 2.0
    return _out(z * float(stddev) + float(mean), name)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers in ``[minval, maxval)``."""
    name = dtypes.standardize_dtype(dtype)
    values = _generator(seed).integers(int(minval), int(maxval), size=_shape(shape), dtype=np.int64)
    return Tensor(xp.asarray(values.astype(xp_dtype(name))))


def shuffle(x, axis=0, seed=None):
    """``x`` permuted along ``axis`` (differentiable: a gather)."""
    from .ops_shape import take

    x = to_tensor(x)
    axis = int(axis) % max(x.ndim, 1)
    perm = _generator(seed).permutation(x.shape[axis])
    return take(x, Tensor(xp.asarray(perm)), axis=axis)
