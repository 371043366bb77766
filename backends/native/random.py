"""Seeded random draws of the native engine: a numpy Philox generator keyed by ``(seed, counter)``.

Draws are made on the host (also when the engine runs on CuPy, then copied to the GPU), so a seed gives
the same values on CPU and GPU. One exception keeps a GPU training step free of host synchronisation: on
CuPy, a seed held in a tensor (a ``SeedGenerator``'s state: dropout and noise layers inside a step) is not
read on the host; ``normal``, ``uniform``, ``randint`` and ``shuffle`` then draw on the device from a
counter-based hash (splitmix64) of the seed and the element index. Same seed, same draw, as everywhere; the
values differ from the CPU's (DESIGN.md: randomness inside a step uses the engine's own generator).

>>> a = normal((2,), seed=(1, 0)); b = normal((2,), seed=(1, 0))
>>> bool((a.numpy() == b.numpy()).all())
True
"""

import numpy as np

from highlevel.backends.contract import Variable, dtypes

from .convert import to_tensor
from .tensor import Tensor, xp_dtype
from .xp import on_gpu, xp

_MASK32 = 0xFFFFFFFF
# splitmix64's constants (Steele, Lea and Flood 2014), as typed scalars: uint64 arithmetic wraps on every xp
_GOLDEN, _M1, _M2 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_U32 = np.uint64(_MASK32)


def _on_device(seed):
    """Whether to draw on the device: on a GPU, for a seed whose value lives there (reading it would sync)."""
    return on_gpu and isinstance(seed, (Tensor, Variable))


def _mix(z):
    """splitmix64's finaliser on a uint64 array: every output bit depends on every input bit."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def _device_bits(seed, n):
    """``n`` pseudo-random uint64 on the device for an int tensor seed ``(seed, counter)``, without reading it."""
    s = to_tensor(seed).data.reshape(-1).astype(xp.uint64)
    key = _mix(((s[:1] & _U32) << np.uint64(32)) | (s[1:2] & _U32))  # shape (1,): broadcasts
    return _mix(key + xp.arange(1, n + 1, dtype=xp.uint64) * _GOLDEN)


def _unit(bits, dtype, open_low=False):
    """Uniform floats in [0, 1) (``(0, 1]`` with ``open_low``) from uint64 ``bits``: float32 from 24 bits, or
    float64 from 53 when ``dtype`` is float64."""
    if np.dtype(dtype) == np.float64:
        u, scale = (bits >> np.uint64(11)).astype(xp.float64), np.float64(2.0**-53)
    else:
        u, scale = (bits >> np.uint64(40)).astype(xp.float32), np.float32(2.0**-24)
    if open_low:
        u += u.dtype.type(1)
    u *= scale
    return u


def _device_uniform(seed, shape, dtype):
    """Uniform draws in [0, 1) of ``shape`` on the device."""
    return _unit(_device_bits(seed, int(np.prod(shape, dtype=np.int64))), dtype).reshape(shape)


def _device_normal(seed, shape, dtype):
    """Standard normal draws of ``shape`` on the device: Box-Muller on the two halves of one stream."""
    n = int(np.prod(shape, dtype=np.int64))
    bits = _device_bits(seed, 2 * n)
    u1 = _unit(bits[:n], dtype, open_low=True)  # (0, 1]: the log is finite
    u2 = _unit(bits[n:], dtype)
    z = xp.sqrt(u1.dtype.type(-2.0) * xp.log(u1)) * xp.cos(u2.dtype.type(2.0 * np.pi) * u2)
    return z.reshape(shape)


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
        raise ValueError(
            f"A random seed must be a pair (seed, counter) of ints or an int tensor of shape (2,); received {seed!r}."
        )
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
    if _on_device(seed):
        z = _device_normal(seed, _shape(shape), xp_dtype(name))
        return Tensor((z * z.dtype.type(stddev) + z.dtype.type(mean)).astype(xp_dtype(name), copy=False))
    z = _generator(seed).standard_normal(_shape(shape))
    return _out(z * float(stddev) + float(mean), name)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Uniform draws in ``[minval, maxval)``."""
    name = _float_dtype(dtype)
    lo, hi = float(minval), float(maxval)
    if _on_device(seed):
        u = _device_uniform(seed, _shape(shape), xp_dtype(name))
        u = u * u.dtype.type(hi - lo) + u.dtype.type(lo)
    else:
        u = _generator(seed).random(_shape(shape)) * (hi - lo) + lo
    out = u.astype(xp_dtype(name))
    # rounding to a narrower float can land exactly on maxval; keep the interval half-open
    if hi > lo:
        top = np.nextafter(np.asarray(hi, out.dtype), np.asarray(lo, out.dtype))
        out = xp.minimum(out, top[()]) if _on_device(seed) else np.minimum(out, top)
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
    if _on_device(seed):
        lo, hi = int(minval), int(maxval)
        if hi <= lo:
            raise ValueError(f"randint needs minval < maxval; received minval={lo}, maxval={hi}.")
        # floor(u * span) of a 53-bit uniform: the bias is below span / 2**53
        picks = xp.floor(_device_uniform(seed, _shape(shape), np.float64) * np.float64(hi - lo)).astype(xp.int64)
        values = xp.minimum(picks, np.int64(hi - lo - 1)) + np.int64(lo)
        return Tensor(values.astype(xp_dtype(name)))
    values = _generator(seed).integers(int(minval), int(maxval), size=_shape(shape), dtype=np.int64)
    return Tensor(xp.asarray(values.astype(xp_dtype(name))))


def shuffle(x, axis=0, seed=None):
    """``x`` permuted along ``axis`` (differentiable: a gather)."""
    from .ops_shape import take

    x = to_tensor(x)
    axis = int(axis) % max(x.ndim, 1)
    if _on_device(seed):
        perm = xp.argsort(_device_bits(seed, x.shape[axis]))  # a random permutation: the order of random keys
    else:
        perm = xp.asarray(_generator(seed).permutation(x.shape[axis]))
    return take(x, Tensor(perm), axis=axis)


def _host_param(value):
    """A distribution parameter as a float64 numpy array on the host."""
    return np.asarray(to_tensor(value).numpy(), dtype=np.float64)


def gamma(shape, alpha, dtype, seed=None):
    """Gamma draws of ``shape`` with shape parameter ``alpha`` and scale 1 (numpy's sampler, on the host; on a
    GPU a seed held in a tensor is read there, one synchronisation per draw)."""
    shape = _shape(shape)
    alpha = np.broadcast_to(_host_param(alpha), shape)
    return _out(_generator(seed).standard_gamma(alpha, size=shape), _float_dtype(dtype))


def binomial(shape, counts, probabilities, dtype, seed=None):
    """Binomial draws of ``shape``: successes in ``counts`` trials of probability ``probabilities``."""
    shape = _shape(shape)
    n = np.broadcast_to(np.rint(_host_param(counts)).astype(np.int64), shape)
    p = np.broadcast_to(_host_param(probabilities), shape)
    return _out(_generator(seed).binomial(n, p, size=shape), dtypes.standardize_dtype(dtype))
