"""``fit``'s batches, epoch by epoch.

Without ``steps_per_epoch``, an epoch is one pass over the data. With it, the epochs share one stream of batches:
each takes the next ``steps_per_epoch`` batches, where the previous epoch stopped, and when a pass over the data
ends a new one (reshuffled, for arrays) carries on. So every batch of the data is trained on, as with Keras's
iterator; an epoch does not start the data again and train on its first ``steps_per_epoch`` batches only.

>>> import numpy as np
>>> from highlevel.trainers.data_adapters import get_data_adapter
>>> adapter = get_data_adapter(np.arange(8).reshape(8, 1), batch_size=2)
>>> epochs = EpochIterator(adapter, steps_per_epoch=3)
>>> [[int(batch[0, 0]) for batch in epochs.epoch()] for _ in range(3)]  # batches of x alone (no targets)
[[0, 2, 4], [6, 0, 2], [4, 6, 0]]
"""


class EpochIterator:
    """Hands out each epoch's batches of ``adapter`` (see the module docstring).

    Args:
        adapter: a data adapter whose ``get_numpy_iterator()`` makes one pass over the data.
        steps_per_epoch: batches per epoch, or None for one pass per epoch.
    """

    def __init__(self, adapter, steps_per_epoch=None):
        if steps_per_epoch is not None and (
            not isinstance(steps_per_epoch, int) or isinstance(steps_per_epoch, bool) or steps_per_epoch < 1
        ):
            raise ValueError(f"steps_per_epoch must be a positive integer or None; received {steps_per_epoch!r}.")
        self.adapter = adapter
        self.steps_per_epoch = steps_per_epoch
        self._pass = None

    @property
    def num_batches(self):
        """Batches per epoch (None when unknown: a pass over a generator of unknown length)."""
        return self.steps_per_epoch if self.steps_per_epoch is not None else self.adapter.num_batches

    def epoch(self):
        """The batches of the next epoch."""
        if self.steps_per_epoch is None:
            yield from self.adapter.get_numpy_iterator()
            return
        produced = 0
        while produced < self.steps_per_epoch:
            fresh = self._pass is None
            if fresh:
                self._pass = self.adapter.get_numpy_iterator()
            try:
                batch = next(self._pass)
            except StopIteration:
                self._pass = None
                if fresh:  # a pass with no batch at all: nothing more will come
                    return
                continue
            produced += 1
            yield batch

    def close(self):
        """Ends a pass left unfinished by the last epoch (a PyDataset's ``on_epoch_end`` runs now)."""
        if self._pass is not None:
            self._pass.close()
            self._pass = None
