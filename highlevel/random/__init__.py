"""``highlevel.random``: random draws inside computations, on the backend's own generator.

``seed`` may be an int (the same draw every call, on one backend), a :class:`SeedGenerator` (a new draw
each call, reproducible from its seed) or None (the global generator, reset by
``highlevel.utils.set_random_seed``). Initial weights and data shuffling do not come from here but from
the host stream (:mod:`highlevel.random.host`), which is bitwise identical on every backend.

>>> import highlevel as hl
>>> a = hl.random.normal((2,), seed=3); b = hl.random.normal((2,), seed=3)
>>> bool((hl.ops.convert_to_numpy(a) == hl.ops.convert_to_numpy(b)).all())
True
"""

from highlevel.config import current_backend
from highlevel.keras_tensor import KerasTensor

from .distributions import beta, binomial, categorical, gamma
from .host import host_rng, set_host_seed
from .seed_generator import SeedGenerator, draw_seed


def _symbolic(shape, dtype):
    """A KerasTensor standing for the draw when ``shape`` has unknown (None) sizes, else None.

    A layer's ``call`` runs on symbolic tensors while a functional model is built; there
    ``ops.shape(x)`` holds None for the batch size, and a draw of that shape can only be described, not
    made (the layer's call draws for real when the model runs). The seed generator does not advance.
    """
    if not isinstance(shape, (list, tuple)):  # an int, or a shape tensor (``tf.shape(x)`` inside a graph)
        return None
    if any(d is None for d in shape):
        return KerasTensor(shape, dtype=dtype)
    return None


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Draws random values from a normal (Gaussian) distribution.

    Args:
        shape: the shape of the result, a tuple of ints.
        mean: the mean of the distribution (default 0.0).
        stddev: its standard deviation (default 1.0).
        dtype: a float dtype (default floatx).
        seed: an int (the same int gives the same values on every engine), a
            :class:`~highlevel.random.SeedGenerator` (each call draws the next seed from it), or None (default: the
            global generator, fixed by ``hl.utils.set_random_seed``).

    Returns:
        A tensor of shape ``shape`` and dtype ``dtype``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_numpy(hl.random.normal((2000,), mean=5.0, stddev=0.1, seed=0))
    >>> x.shape, x.dtype, bool(abs(x.mean() - 5.0) < 0.02)
    ((2000,), dtype('float32'), True)
    """
    if (symbolic := _symbolic(shape, dtype)) is not None:
        return symbolic
    return current_backend().random_normal(shape, mean=mean, stddev=stddev, dtype=dtype, seed=draw_seed(seed))


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Draws random values uniformly from the interval ``[minval, maxval)``.

    Args:
        shape: the shape of the result, a tuple of ints.
        minval: the lower bound, included (default 0.0).
        maxval: the upper bound, excluded (default 1.0).
        dtype: a float dtype (default floatx).
        seed: an int (the same int gives the same values on every engine), a
            :class:`~highlevel.random.SeedGenerator` (each call draws the next seed from it), or None (default: the
            global generator, fixed by ``hl.utils.set_random_seed``).

    Returns:
        A tensor of shape ``shape`` and dtype ``dtype``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_numpy(hl.random.uniform((100,), minval=-1.0, maxval=1.0, seed=3))
    >>> x.shape, bool(x.min() >= -1.0 and x.max() < 1.0)
    ((100,), True)
    """
    if (symbolic := _symbolic(shape, dtype)) is not None:
        return symbolic
    return current_backend().random_uniform(shape, minval=minval, maxval=maxval, dtype=dtype, seed=draw_seed(seed))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Draws random values from a normal distribution cut at two standard deviations.

    Values farther than ``2 * stddev`` from the mean are drawn again, so every value lies in
    ``[mean - 2 * stddev, mean + 2 * stddev]``.

    Args:
        shape: the shape of the result, a tuple of ints.
        mean: the mean of the distribution before truncation (default 0.0).
        stddev: its standard deviation before truncation (default 1.0).
        dtype: a float dtype (default floatx).
        seed: an int (the same int gives the same values on every engine), a
            :class:`~highlevel.random.SeedGenerator` (each call draws the next seed from it), or None (default: the
            global generator, fixed by ``hl.utils.set_random_seed``).

    Returns:
        A tensor of shape ``shape`` and dtype ``dtype``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_numpy(hl.random.truncated_normal((1000,), seed=0))
    >>> bool(x.min() >= -2.0 and x.max() <= 2.0)
    True
    """
    if (symbolic := _symbolic(shape, dtype)) is not None:
        return symbolic
    return current_backend().random_truncated_normal(shape, mean=mean, stddev=stddev, dtype=dtype, seed=draw_seed(seed))


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Draws random integers uniformly from ``[minval, maxval)``.

    Args:
        shape: the shape of the result, a tuple of ints.
        minval: the lowest value, included.
        maxval: the highest value, excluded.
        dtype: an integer dtype (default ``"int32"``).
        seed: an int (the same int gives the same values on every engine), a
            :class:`~highlevel.random.SeedGenerator` (each call draws the next seed from it), or None (default: the
            global generator, fixed by ``hl.utils.set_random_seed``).

    Returns:
        A tensor of shape ``shape`` and dtype ``dtype``.

    >>> import highlevel as hl
    >>> x = hl.random.randint((50,), 0, 3, seed=0)
    >>> hl.ops.dtype(x), sorted(set(hl.ops.convert_to_numpy(x).tolist()))
    ('int32', [0, 1, 2])
    """
    if (symbolic := _symbolic(shape, dtype)) is not None:
        return symbolic
    return current_backend().random_randint(shape, minval, maxval, dtype=dtype, seed=draw_seed(seed))


def dropout(inputs, rate, noise_shape=None, seed=None):
    """Sets entries of ``inputs`` to 0 at random, with probability ``rate``, and scales the others up.

    The kept entries are multiplied by ``1 / (1 - rate)`` so that the expected value of each entry is unchanged.

    Args:
        inputs: the input tensor.
        rate: the probability of dropping each entry, a float in ``[0, 1)``.
        noise_shape: the shape of the random keep/drop mask, broadcast against ``inputs`` (e.g. ``(batch, 1,
            features)`` drops the same features at every time step); default None: the shape of ``inputs``.
        seed: an int (the same int gives the same values on every engine), a
            :class:`~highlevel.random.SeedGenerator` (each call draws the next seed from it), or None (default: the
            global generator, fixed by ``hl.utils.set_random_seed``).

    Returns:
        A tensor of the shape and dtype of ``inputs``.

    >>> import highlevel as hl
    >>> y = hl.ops.convert_to_numpy(hl.random.dropout(hl.ops.ones((1000,)), rate=0.5, seed=1))
    >>> sorted(set(y.tolist())), 400 < int((y == 0).sum()) < 600
    ([0.0, 2.0], True)
    """
    return current_backend().random_dropout(inputs, rate, noise_shape=noise_shape, seed=draw_seed(seed))


def shuffle(x, axis=0, seed=None):
    """Randomly permutes the entries of ``x`` along an axis.

    Whole slices move together: shuffling rows keeps each row intact.

    Args:
        x: the tensor to shuffle.
        axis: the axis to permute (default 0).
        seed: an int (the same int gives the same values on every engine), a
            :class:`~highlevel.random.SeedGenerator` (each call draws the next seed from it), or None (default: the
            global generator, fixed by ``hl.utils.set_random_seed``).

    Returns:
        A tensor of the shape and dtype of ``x`` holding the same slices in a random order.

    >>> import highlevel as hl
    >>> y = hl.random.shuffle(hl.ops.arange(6), seed=0)
    >>> sorted(hl.ops.convert_to_numpy(y).tolist())
    [0, 1, 2, 3, 4, 5]
    """
    return current_backend().random_shuffle(x, axis=axis, seed=draw_seed(seed))


__all__ = [
    "SeedGenerator",
    "beta",
    "binomial",
    "categorical",
    "draw_seed",
    "dropout",
    "gamma",
    "host_rng",
    "normal",
    "randint",
    "set_host_seed",
    "shuffle",
    "truncated_normal",
    "uniform",
]
