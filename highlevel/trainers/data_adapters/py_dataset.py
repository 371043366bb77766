"""``hl.utils.PyDataset``: a Keras-style indexable dataset, loaded in parallel threads when asked.

>>> import numpy as np
>>> import highlevel as hl
>>> class Squares(hl.utils.PyDataset):
...     def __len__(self):
...         return 3
...     def __getitem__(self, i):
...         x = np.full((2, 1), float(i), "float32")
...         return x, x ** 2
>>> [float(b[1][0, 0]) for b in PyDatasetAdapter(Squares(workers=2)).get_numpy_iterator()]
[0.0, 1.0, 4.0]
"""

import concurrent.futures

from highlevel.random.host import host_rng

from . import utils


class PyDataset:
    """Base class for datasets that return one batch per index (``keras.utils.PyDataset``).

    Subclasses implement ``__len__`` (batches per epoch) and ``__getitem__(index)`` (a batch ``x``,
    ``(x, y)`` or ``(x, y, sample_weight)``); ``on_epoch_end`` runs after every pass over the batches (every
    epoch; with ``fit(steps_per_epoch=...)``, when the epochs have gone through all the batches). ``fit`` visits
    the batches in a new random order every pass unless ``shuffle=False``, as in Keras.

    Args:
        workers: threads loading batches ahead of the training loop (1: load in the loop's thread).
        use_multiprocessing: not supported; threads are used (batches are usually I/O- or numpy-bound,
            which release the GIL). Differs from Keras on purpose: no pickling of the dataset.
        max_queue_size: how many batches may be loaded ahead.

    Raises:
        ValueError: if ``use_multiprocessing=True`` (batches load in threads) or ``workers`` is not a positive int.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> class Batches(hl.utils.PyDataset):
    ...     def __len__(self):
    ...         return 2
    ...     def __getitem__(self, index):
    ...         return np.full((4, 1), float(index)), np.full((4, 1), 2.0 * index)
    >>> model = hl.Sequential([hl.Input((1,)), hl.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> history = model.fit(Batches(), epochs=2, verbose=0)
    >>> len(history.history["loss"])
    2
    """

    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        if use_multiprocessing:
            raise ValueError(
                "PyDataset(use_multiprocessing=True) is not supported: highlevel loads batches in threads. "
                "Use workers=N with use_multiprocessing=False."
            )
        if not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a positive integer; received workers={workers!r}.")
        self.workers = workers
        self.use_multiprocessing = False
        self.max_queue_size = max(1, int(max_queue_size))

    def __len__(self):
        raise TypeError(f"{type(self).__name__} must define __len__ (the number of batches per epoch).")

    def __getitem__(self, index):
        raise TypeError(f"{type(self).__name__} must define __getitem__(index) returning one batch.")

    def on_epoch_end(self):
        """Called after each pass over the batches (e.g. to reshuffle the samples)."""


class PyDatasetAdapter:
    """Iterates a :class:`PyDataset`, prefetching with its worker threads.

    Args:
        dataset: the :class:`PyDataset`.
        steps: at most this many batches per pass.
        shuffle: ``True`` (or ``"batch"``) visits the batches in a new random order, drawn from the host random
            stream, on every pass (``fit``'s default, as in Keras); ``False`` in index order.
    """

    def __init__(self, dataset, steps=None, shuffle=False):
        self.dataset = dataset
        self._steps = steps
        self.shuffle = shuffle

    @property
    def num_batches(self):
        n = len(self.dataset)
        return min(n, self._steps) if self._steps is not None else n

    def get_numpy_iterator(self):
        n = self.num_batches
        if n == 0:
            raise ValueError(f"{type(self.dataset).__name__} has length 0: it yields no batches.")
        order = host_rng().permutation(len(self.dataset))[:n].tolist() if self.shuffle else list(range(n))
        workers = getattr(self.dataset, "workers", 1)
        try:
            if workers <= 1:
                for i in order:
                    yield _as_tuple(self.dataset[i])
            else:
                ahead = getattr(self.dataset, "max_queue_size", 10)
                with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
                    pending = {}
                    for k in range(min(n, ahead)):
                        pending[k] = pool.submit(self.dataset.__getitem__, order[k])
                    for k in range(n):
                        batch = pending.pop(k).result()
                        nxt = k + ahead
                        if nxt < n:
                            pending[nxt] = pool.submit(self.dataset.__getitem__, order[nxt])
                        yield _as_tuple(batch)
        finally:
            self.dataset.on_epoch_end()


def _as_tuple(batch):
    batch = utils.to_numpy_structure(batch)
    return tuple(batch) if isinstance(batch, (tuple, list)) else (batch,)
