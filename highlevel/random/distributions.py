"""Draws from the gamma, beta, binomial and categorical distributions (``keras.random.gamma``, ...).

The arguments are checked here, once, for every engine: the shape, the dtype, and the distribution parameters
(positive shape parameters, probabilities in ``[0, 1]``, whole non-negative counts, broadcastable to the shape)
whenever their values are known (Python numbers, arrays, eager tensors; a traced tensor is passed on as it is).
``seed`` is an int, a :class:`~highlevel.random.SeedGenerator` or None, as for the other random ops.

>>> import highlevel as hl
>>> x = hl.random.gamma((2, 3), alpha=2.0, seed=1)
>>> tuple(x.shape), hl.ops.dtype(x)
((2, 3), 'float32')
>>> hl.ops.convert_to_numpy(hl.random.categorical([[0.0, -1e9]], 4, seed=0)).tolist()
[[0, 0, 0, 0]]
"""

import numpy as np

from highlevel.backends.contract import dtypes as _dtypes
from highlevel.backends.contract.random import draw_dtype
from highlevel.config import current_backend
from highlevel.losses.host_values import concrete_value
from highlevel.ops import _args

from .seed_generator import draw_seed


def _float_dtype(dtype, op):
    name = _args.dtype(dtype, op) or _dtypes.floatx()
    if not _dtypes.is_float_dtype(name):
        raise ValueError(
            f"{op} draws floats: `dtype` must be a float dtype such as 'float32'; received dtype={dtype!r}."
        )
    return name


def _param(value, name, op, shape, dtype, check):
    """``value`` as a tensor of the draw dtype, checked by ``check`` (a numpy predicate and the words of what it
    expects) when its values are known, and checked to broadcast to ``shape``."""
    tensor = hasattr(value, "shape") and not isinstance(value, (np.ndarray, np.generic))
    host = concrete_value(value) if tensor else np.asarray(value)
    if host is not None:
        if host.dtype.kind not in "biuf":
            raise TypeError(f"{op}: `{name}` must be a number or an array of numbers; received {name}={value!r}.")
        predicate, expected = check
        if not np.all(predicate(host.astype(np.float64))):
            raise ValueError(f"{op}: `{name}` must be {expected}; received {name}={value!r}.")
    param_shape = _args.shape_of(value) if tensor else host.shape
    try:
        joint = np.broadcast_shapes(tuple(1 if d is None else d for d in param_shape), shape)
    except ValueError:
        joint = None
    if joint != tuple(shape):
        raise ValueError(
            f"{op}: `{name}` of shape {tuple(param_shape)} does not broadcast to the output shape "
            f"{tuple(shape)}; pass a number or an array whose shape broadcasts to `shape`."
        )
    b = current_backend()
    return b.cast(b.convert_to_tensor(host if host is not None else value), draw_dtype(dtype))


_POSITIVE = (lambda v: v > 0, "positive (> 0)")
_PROBABILITY = (lambda v: (v >= 0) & (v <= 1), "a probability, in [0, 1]")
_COUNT = (lambda v: (v >= 0) & (v == np.floor(v)), "a whole number of trials (an integer >= 0)")


def gamma(shape, alpha, dtype=None, seed=None):
    """Draws from the gamma distribution with shape parameter ``alpha`` and scale 1 (``keras.random.gamma``).

    Args:
        shape: the shape of the output.
        alpha: the shape parameter, > 0: a number or an array broadcastable to ``shape``.
        dtype: a float dtype (default: ``hl.config.floatx()``).
        seed: an int, a ``SeedGenerator`` or None (the global generator).

    Returns:
        A tensor of ``shape`` and ``dtype`` whose entries have mean ``alpha`` and variance ``alpha``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_numpy(hl.random.gamma((1000,), alpha=3.0, seed=0))
    >>> bool(2.7 < x.mean() < 3.3)
    True
    """
    op = "gamma"
    shape = _args.shape(shape, op)
    dtype = _float_dtype(dtype, op)
    alpha = _param(alpha, "alpha", op, shape, dtype, _POSITIVE)
    return current_backend().random_gamma(shape, alpha, dtype, seed=draw_seed(seed))


def beta(shape, alpha, beta, dtype=None, seed=None):
    """Draws from the beta distribution with parameters ``alpha`` and ``beta`` (``keras.random.beta``).

    Args:
        shape: the shape of the output.
        alpha: the first parameter, > 0: a number or an array broadcastable to ``shape``.
        beta: the second parameter, > 0: a number or an array broadcastable to ``shape``.
        dtype: a float dtype (default: ``hl.config.floatx()``).
        seed: an int, a ``SeedGenerator`` or None (the global generator).

    Returns:
        A tensor of ``shape`` and ``dtype`` with values in ``[0, 1]`` and mean ``alpha / (alpha + beta)``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_numpy(hl.random.beta((1000,), alpha=2.0, beta=6.0, seed=0))
    >>> bool(0.22 < x.mean() < 0.28)
    True
    """
    op = "beta"
    shape = _args.shape(shape, op)
    dtype = _float_dtype(dtype, op)
    a = _param(alpha, "alpha", op, shape, dtype, _POSITIVE)
    b = _param(beta, "beta", op, shape, dtype, _POSITIVE)
    return current_backend().random_beta(shape, a, b, dtype, seed=draw_seed(seed))


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Draws from the binomial distribution: the number of successes in ``counts`` independent trials that
    each succeed with probability ``probabilities`` (``keras.random.binomial``).

    Args:
        shape: the shape of the output.
        counts: the number of trials, a whole number >= 0, or an array of them broadcastable to ``shape``.
        probabilities: the success probability of one trial, in ``[0, 1]``, or an array of them
            broadcastable to ``shape``.
        dtype: the output dtype (default: ``hl.config.floatx()``); an integer dtype is accepted too.
        seed: an int, a ``SeedGenerator`` or None (the global generator).

    Returns:
        A tensor of ``shape`` and ``dtype`` with mean ``counts * probabilities``.

    Raises:
        ValueError: ``dtype`` is neither a float nor an integer dtype.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.random.binomial((3,), counts=5, probabilities=1.0, seed=0)).tolist()
    [5.0, 5.0, 5.0]
    """
    op = "binomial"
    shape = _args.shape(shape, op)
    dtype = _args.dtype(dtype, op) or _dtypes.floatx()
    if not (_dtypes.is_float_dtype(dtype) or _dtypes.is_int_dtype(dtype)):
        raise ValueError(f"binomial: `dtype` must be a float or integer dtype; received dtype={dtype!r}.")
    work = dtype if _dtypes.is_float_dtype(dtype) else _dtypes.floatx()
    n = _param(counts, "counts", op, shape, work, _COUNT)
    p = _param(probabilities, "probabilities", op, shape, work, _PROBABILITY)
    return current_backend().random_binomial(shape, n, p, dtype, seed=draw_seed(seed))


def categorical(logits, num_samples, dtype="int32", seed=None):
    """Draws class indices from categorical distributions given by their logits (``keras.random.categorical``).

    Args:
        logits: a ``(batch_size, num_classes)`` tensor; row ``i`` holds the unnormalized log-probabilities of
            the classes of distribution ``i``.
        num_samples: how many independent draws to make per row.
        dtype: an integer dtype for the indices (default ``"int32"``).
        seed: an int, a ``SeedGenerator`` or None (the global generator).

    Returns:
        A ``(batch_size, num_samples)`` tensor of class indices.

    Raises:
        ValueError: ``dtype`` is not an integer dtype, ``logits`` is not 2-D, or it has no classes.

    >>> import highlevel as hl
    >>> tuple(hl.random.categorical([[0.0, 1.0, 2.0]], num_samples=5, seed=2).shape)
    (1, 5)
    """
    op = "categorical"
    b = current_backend()
    num_samples = _args.positive_int(num_samples, "num_samples", op, minimum=0)
    dtype = _args.dtype(dtype, op) or "int32"
    if not _dtypes.is_int_dtype(dtype):
        raise ValueError(
            f"categorical returns class indices: `dtype` must be an integer dtype such as 'int32'; "
            f"received dtype={dtype!r}."
        )
    if not b.is_tensor(logits):
        logits = b.convert_to_tensor(np.asarray(logits) if isinstance(logits, (list, tuple)) else logits)
    shape = _args.shape_of(logits)
    if len(shape) != 2:
        raise ValueError(
            f"categorical: `logits` must be a 2-D tensor of shape (batch_size, num_classes); "
            f"received logits of shape {shape}."
        )
    if shape[1] == 0:
        raise ValueError("categorical: `logits` has no classes (shape[1] == 0); there is nothing to draw from.")
    if not _dtypes.is_float_dtype(b.dtype(logits)):
        logits = b.cast(logits, _dtypes.floatx())
    return b.random_categorical(logits, num_samples, dtype, seed=draw_seed(seed))


__all__ = ["beta", "binomial", "categorical", "gamma"]
