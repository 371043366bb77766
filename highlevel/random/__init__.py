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
    """Normal draws of ``shape``."""
    if (symbolic := _symbolic(shape, dtype)) is not None:
        return symbolic
    return current_backend().random_normal(shape, mean=mean, stddev=stddev, dtype=dtype, seed=draw_seed(seed))


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Uniform draws in ``[minval, maxval)``."""
    if (symbolic := _symbolic(shape, dtype)) is not None:
        return symbolic
    return current_backend().random_uniform(shape, minval=minval, maxval=maxval, dtype=dtype, seed=draw_seed(seed))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal draws within two standard deviations of the mean."""
    if (symbolic := _symbolic(shape, dtype)) is not None:
        return symbolic
    return current_backend().random_truncated_normal(shape, mean=mean, stddev=stddev, dtype=dtype, seed=draw_seed(seed))


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers in ``[minval, maxval)``."""
    if (symbolic := _symbolic(shape, dtype)) is not None:
        return symbolic
    return current_backend().random_randint(shape, minval, maxval, dtype=dtype, seed=draw_seed(seed))


def dropout(inputs, rate, noise_shape=None, seed=None):
    """Zeros entries with probability ``rate`` and scales the others by ``1 / (1 - rate)``."""
    return current_backend().random_dropout(inputs, rate, noise_shape=noise_shape, seed=draw_seed(seed))


def shuffle(x, axis=0, seed=None):
    """``x`` permuted along ``axis``."""
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
