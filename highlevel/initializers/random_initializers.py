"""Random initializers with fixed parameters: RandomNormal, RandomUniform and TruncatedNormal.

All draws come from the host stream (see :mod:`highlevel.initializers.host_values`): ``seed=None`` uses
the global host generator (successive calls differ; ``hl.utils.set_random_seed`` makes them
reproducible), an int seed gives the same values on every call and on every backend.

>>> import highlevel as hl
>>> init = RandomNormal(stddev=1.0, seed=3)
>>> a = hl.ops.convert_to_numpy(init((4,))); b = hl.ops.convert_to_numpy(init((4,)))
>>> bool((a == b).all())
True
"""

import math
import numbers

from .host_values import check_seed, float_dtype, rng_for, standardize_shape, to_tensor, truncated_standard_normal
from .initializer import Initializer


class RandomInitializer(Initializer):
    """Base of the random initializers: keeps and validates ``seed``.

    Args:
        seed: None (draw from the global host stream), a non-negative int (the same values on every
            call) or a ``highlevel.random.SeedGenerator`` (a new reproducible draw on every call).

    >>> import numpy as np
    >>> import highlevel as hl
    >>> class Halves(hl.initializers.RandomInitializer):
    ...     def __call__(self, shape, dtype=None):
    ...         return hl.random.uniform(shape, 0.0, 0.5, dtype=dtype, seed=self.seed)
    >>> w = hl.ops.convert_to_numpy(Halves(seed=1)((4, 4)))
    >>> w.shape, bool((w >= 0).all() and (w < 0.5).all())
    ((4, 4), True)
    """

    def __init__(self, seed=None):
        self.seed = check_seed(seed, type(self).__name__)

    def _draw(self, shape, dtype):
        """(the shape, the float dtype, the host generator for this call)."""
        who = type(self).__name__
        return standardize_shape(shape, who), float_dtype(dtype, who), rng_for(self.seed)

    def get_config(self):
        # A SeedGenerator is not serializable; its initial seed restarts the same stream.
        seed = self.seed if self.seed is None or isinstance(self.seed, int) else self.seed.initial_seed
        return {"seed": seed}


def _check_stddev(stddev, who):
    if not isinstance(stddev, numbers.Real) or isinstance(stddev, bool) or not math.isfinite(stddev) or stddev < 0:
        raise ValueError(f"{who}: stddev must be a finite non-negative number; received stddev={stddev!r}.")
    return float(stddev)


class RandomNormal(RandomInitializer):
    """Draws from a normal distribution N(``mean``, ``stddev``**2).

    Args:
        mean: the mean.
        stddev: the standard deviation (>= 0).
        seed: see :class:`RandomInitializer`.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> w = hl.ops.convert_to_numpy(hl.initializers.RandomNormal(stddev=0.1, seed=0)((10000,)))
    >>> bool(abs(w.mean()) < 0.01 and abs(w.std() - 0.1) < 0.01)
    True
    """

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean = mean
        self.stddev = _check_stddev(stddev, "RandomNormal")
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        shape, dtype, rng = self._draw(shape, dtype)
        return to_tensor(self.mean + self.stddev * rng.standard_normal(shape), dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, **super().get_config()}


class TruncatedNormal(RandomInitializer):
    """Draws from a normal distribution N(``mean``, ``stddev``**2) cut at two standard deviations
    (values farther than ``2 * stddev`` from the mean are drawn again).

    Args:
        mean: the mean.
        stddev: the standard deviation of the normal before truncation (>= 0).
        seed: see :class:`RandomInitializer`.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> w = hl.ops.convert_to_numpy(hl.initializers.TruncatedNormal(stddev=0.1, seed=0)((10000,)))
    >>> bool(np.abs(w).max() <= 0.2)  # nothing beyond two standard deviations
    True
    """

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean = mean
        self.stddev = _check_stddev(stddev, "TruncatedNormal")
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        shape, dtype, rng = self._draw(shape, dtype)
        return to_tensor(self.mean + self.stddev * truncated_standard_normal(rng, shape), dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, **super().get_config()}


class RandomUniform(RandomInitializer):
    """Draws uniformly from [``minval``, ``maxval``).

    Args:
        minval: the lower bound.
        maxval: the upper bound (>= ``minval``).
        seed: see :class:`RandomInitializer`.

    Raises:
        ValueError: if ``maxval`` is smaller than ``minval``.

    >>> import highlevel as hl
    >>> w = hl.ops.convert_to_numpy(hl.initializers.RandomUniform(-1.0, 1.0, seed=0)((1000,)))
    >>> bool(w.min() >= -1.0 and w.max() < 1.0)
    True
    """

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        if maxval < minval:
            raise ValueError(f"RandomUniform: maxval must be >= minval; received minval={minval!r}, maxval={maxval!r}.")
        self.minval = minval
        self.maxval = maxval
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        shape, dtype, rng = self._draw(shape, dtype)
        return to_tensor(rng.uniform(self.minval, self.maxval, size=shape), dtype)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, **super().get_config()}
