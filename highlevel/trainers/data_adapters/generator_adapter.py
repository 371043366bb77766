"""Batches from Python generators, iterators and other iterables (torch DataLoader, tf.data.Dataset).

Framework datasets are recognised by what they offer, not imported: a ``tf.data.Dataset`` through
``as_numpy_iterator`` and any iterable of tensors (a torch ``DataLoader``) by converting each batch to numpy.
"""

import collections.abc

import numpy as np

from . import utils


class GeneratorDataAdapter:
    """Yields the batches a generator (or re-iterable dataset) produces, converted to numpy.

    Args:
        source: a generator, an iterator, or an iterable that can be iterated once per epoch.
        steps: batches per epoch; required for a one-shot generator used for several epochs.
    """

    def __init__(self, source, steps=None):
        self.source = source
        self._steps = steps
        self._reiterable = not _is_one_shot(source)
        self._iterator = None
        self._exhausted_once = False

    @property
    def num_batches(self):
        if self._steps is not None:
            return self._steps
        length = getattr(self.source, "__len__", None)
        if self._reiterable and length is not None:
            try:
                return len(self.source)
            except TypeError:
                return None
        return None

    def _fresh_iterator(self):
        if hasattr(self.source, "as_numpy_iterator"):
            return iter(self.source.as_numpy_iterator())
        return iter(self.source)

    def get_numpy_iterator(self):
        if self._reiterable:
            iterator = self._fresh_iterator()
        else:
            if self._iterator is None:
                self._iterator = iter(self.source)
            iterator = self._iterator
        produced = 0
        while self._steps is None or produced < self._steps:
            try:
                batch = next(iterator)
            except StopIteration:
                if produced == 0:
                    raise ValueError(
                        "The data generator yielded no batches. If it is a one-shot generator used for several "
                        "epochs, pass `steps_per_epoch` so that each epoch takes only part of it, or make it "
                        "loop forever."
                    ) from None
                return
            produced += 1
            yield _to_tuple(utils.to_numpy_structure(batch))


def _to_tuple(batch):
    if isinstance(batch, dict) and set(batch) <= {"x", "y", "sample_weight"} and "x" in batch:
        return utils.pack_x_y_sample_weight(batch["x"], batch.get("y"), batch.get("sample_weight"))
    if isinstance(batch, list):
        return tuple(batch)
    if isinstance(batch, np.ndarray) or not isinstance(batch, tuple):
        return (batch,)
    return batch


def _is_one_shot(source):
    """Generators and iterators can be walked once; datasets and lists start again on every iter()."""
    return isinstance(source, collections.abc.Iterator) or not hasattr(source, "__iter__")
