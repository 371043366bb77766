"""Batches of numpy arrays (or lists/dicts of them), shuffled from the host random stream."""

import math

import numpy as np

from highlevel.random.host import host_rng

from . import utils


class ArrayDataAdapter:
    """Yields ``(x, y, sample_weight)`` batches of in-memory arrays.

    Args:
        x, y, sample_weight: arrays, or lists/dicts of arrays, with one leading sample axis.
        batch_size: samples per batch; the last batch may be smaller.
        shuffle: ``True`` reshuffles every epoch, ``"batch"`` shuffles whole batches, ``False`` keeps order.
        steps: stop after this many batches per epoch (default: one pass over the data).
    """

    def __init__(self, x, y=None, sample_weight=None, batch_size=32, shuffle=False, steps=None):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size must be a positive integer; received batch_size={batch_size!r}.")
        self.x, self.y, self.sample_weight = x, y, sample_weight
        self.num_samples = utils.check_lengths(x, y, sample_weight)
        self.batch_size = batch_size
        self.shuffle = shuffle
        self._steps = steps

    @property
    def num_batches(self):
        full = math.ceil(self.num_samples / self.batch_size)
        return min(full, self._steps) if self._steps is not None else full

    def _order(self):
        n = self.num_samples
        if self.shuffle == "batch":
            starts = np.arange(0, n, self.batch_size)
            host_rng().shuffle(starts)
            return np.concatenate([np.arange(s, min(s + self.batch_size, n)) for s in starts])
        if self.shuffle:
            return host_rng().permutation(n)
        return None

    def get_numpy_iterator(self):
        order = self._order()
        for i in range(self.num_batches):
            lo, hi = i * self.batch_size, min((i + 1) * self.batch_size, self.num_samples)
            index = slice(lo, hi) if order is None else order[lo:hi]
            yield utils.pack_x_y_sample_weight(
                utils.slice_structure(self.x, index),
                utils.slice_structure(self.y, index) if self.y is not None else None,
                utils.slice_structure(self.sample_weight, index) if self.sample_weight is not None else None,
            )
