"""Host-side helpers of the initializers: shapes, dtypes, the generator a seed selects, truncated
normal draws, and the exact move of a float64 host array onto the current backend.

Every value is computed with numpy in float64 and rounded once to the target dtype on the host, so
one seed gives bitwise-identical initial weights on every backend.

>>> import numpy as np
>>> round_to_bfloat16(np.array([1.0 + 2.0**-9, 1.0 + 3 * 2.0**-9])).tolist()
[1.0, 1.0078125]
"""

import numpy as np

from highlevel import ops
from highlevel.backends.contract import dtypes
from highlevel.random.host import host_rng, make_rng


def standardize_shape(shape, who):
    """``shape`` as a tuple of non-negative Python ints (an int is a 1-D shape)."""
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    try:
        shape = tuple(shape)
    except TypeError:
        raise TypeError(f"{who}: shape must be a tuple of ints; received {shape!r}.") from None
    for d in shape:
        if not isinstance(d, (int, np.integer)) or isinstance(d, bool) or d < 0:
            raise ValueError(f"{who}: shape must be a tuple of non-negative ints; received shape={shape}.")
    return tuple(int(d) for d in shape)


def float_dtype(dtype, who):
    """The canonical name of ``dtype`` (default floatx); raises unless it is a float dtype."""
    dtype = dtypes.standardize_dtype(dtype)
    if not dtypes.is_float_dtype(dtype):
        raise ValueError(
            f"{who} draws random floats and needs a float dtype ({', '.join(dtypes.FLOAT_DTYPES)}); "
            f"received dtype={dtype!r}. Use Zeros, Ones or Constant for integer or bool weights."
        )
    return dtype


def check_seed(seed, who):
    """Validates an initializer's ``seed``: None, a non-negative int or a ``SeedGenerator``."""
    from highlevel.random import SeedGenerator

    if seed is None or isinstance(seed, SeedGenerator):
        return seed
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0:
        return int(seed)
    raise ValueError(
        f"{who}: seed must be None, a non-negative int or a highlevel.random.SeedGenerator; received seed={seed!r}."
    )


def rng_for(seed):
    """The host generator a call draws from.

    None: the global host stream (reseeded by ``hl.utils.set_random_seed``), so successive calls differ.
    An int: a fresh generator keyed by it, so every call gives the same values (Keras' seeded behaviour).
    A ``SeedGenerator``: a fresh generator keyed by its next ``(seed, counter)`` pair, so calls differ
    but the sequence is reproducible; only the integer pair is read, never a backend generator.
    """
    if seed is None:
        return host_rng()
    if isinstance(seed, (int, np.integer)):
        return make_rng(int(seed))
    pair = np.asarray(ops.convert_to_numpy(seed.next())).astype(np.int64).reshape(-1)
    return make_rng(int(pair[0]) * 2**32 + int(pair[1]))


def truncated_standard_normal(rng, shape):
    """Standard normal draws in [-2, 2]: values outside are drawn again until none is left."""
    z = rng.standard_normal(shape)
    bad = np.abs(z) > 2.0
    while bad.any():
        z[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(z) > 2.0
    return z


def round_to_bfloat16(values):
    """float64 values rounded once, to nearest even, onto the bfloat16 grid (8 significant bits).

    The result is exactly representable in float32, so a backend's float32 -> bfloat16 cast of it is
    exact and every backend ends with the same bits (bfloat16 subnormals, below 1e-38, are left to
    that cast).
    """
    values = np.asarray(values, dtype=np.float64)
    mantissa, exponent = np.frexp(values)  # values = mantissa * 2**exponent, |mantissa| in [0.5, 1)
    return np.ldexp(np.rint(mantissa * 256.0) / 256.0, exponent)


def to_tensor(values, dtype):
    """``values`` (a host numpy array) as a tensor of ``dtype`` on the current backend.

    The rounding to ``dtype`` happens here on the host (numpy), never on the backend.
    """
    dtype = dtypes.standardize_dtype(dtype)
    if dtype == "bfloat16":
        exact = round_to_bfloat16(values).astype(np.float32)
        return ops.cast(ops.convert_to_tensor(exact), "bfloat16")
    return ops.convert_to_tensor(np.asarray(values).astype(dtype))
