"""Exact streaming mean and variance on the host, in float64 (Chan, Golub and LeVeque's parallel update).

>>> import numpy as np
>>> m = RunningMoments(reduce_axes=(0,))
>>> for batch in np.split(np.arange(10.0).reshape(10, 1), [3, 7]):
...     m.update(batch)
>>> m.count, m.mean.tolist(), m.variance.tolist()
(10, [4.5], [8.25])
"""

import math

import numpy as np


class RunningMoments:
    """Accumulates the per-feature count, mean and sum of squared deviations (M2) of batches.

    Combining two partial results ``(n_a, mean_a, M2_a)`` and ``(n_b, mean_b, M2_b)``::

        n = n_a + n_b;  delta = mean_b - mean_a
        mean = mean_a + delta * n_b / n
        M2 = M2_a + M2_b + delta**2 * n_a * n_b / n

    is exact (no E[x^2] - E[x]^2 cancellation), so any split of the data into batches gives the
    statistics of the whole data set up to float64 rounding.

    Args:
        reduce_axes: the axes of a batch that the statistics are taken over (the others are kept).
    """

    def __init__(self, reduce_axes):
        self.reduce_axes = tuple(reduce_axes)
        self.count = 0
        self.mean = None
        self._m2 = None

    def update(self, batch):
        """Adds a batch (a numpy array) to the statistics."""
        batch = np.asarray(batch, dtype="float64")
        n_b = math.prod(batch.shape[a] for a in self.reduce_axes) if self.reduce_axes else 1
        if n_b == 0:
            return
        mean_b = batch.mean(axis=self.reduce_axes) if self.reduce_axes else batch
        m2_b = (
            np.square(batch - batch.mean(axis=self.reduce_axes, keepdims=True)).sum(axis=self.reduce_axes)
            if self.reduce_axes
            else np.zeros_like(batch)
        )
        if self.count == 0:
            self.count, self.mean, self._m2 = n_b, mean_b, m2_b
            return
        n = self.count + n_b
        delta = mean_b - self.mean
        self.mean = self.mean + delta * (n_b / n)
        self._m2 = self._m2 + m2_b + np.square(delta) * (self.count * n_b / n)
        self.count = n

    @property
    def variance(self):
        """The population variance (ddof 0) of everything seen so far."""
        return self._m2 / self.count
