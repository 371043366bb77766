"""``hl.callbacks.Callback``: hooks called by ``fit``, ``evaluate`` and ``predict``.

>>> import highlevel as hl
>>> class CountBatches(hl.callbacks.Callback):
...     def on_train_begin(self, logs=None):
...         self.batches = 0
...     def on_train_batch_end(self, batch, logs=None):
...         self.batches += 1
>>> cb = CountBatches()
>>> cb.on_train_begin(); cb.on_train_batch_end(0); cb.batches
1
"""


class Callback:
    """Base class of callbacks (``keras.callbacks.Callback``).

    ``self.model`` is the model being trained and ``self.params`` holds ``epochs``, ``steps`` and ``verbose``.
    A callback may stop training (``self.model.stop_training = True``), change the optimizer's learning rate,
    and read the current weights (which are up to date on every backend when a hook runs).

    >>> import numpy as np
    >>> import highlevel as hl
    >>> class CountBatches(hl.callbacks.Callback):
    ...     def on_train_begin(self, logs=None):
    ...         self.batches = 0
    ...     def on_train_batch_end(self, batch, logs=None):
    ...         self.batches += 1
    >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> counter = CountBatches()
    >>> _ = model.fit(np.ones((8, 2)), np.ones((8, 1)), batch_size=4, epochs=2, verbose=0, callbacks=[counter])
    >>> counter.batches
    4
    """

    def __init__(self):
        self.params = {}
        self._model = None

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self._model = model

    @property
    def model(self):
        return self._model

    def on_epoch_begin(self, epoch, logs=None):
        """Called at the start of an epoch of ``fit``."""

    def on_epoch_end(self, epoch, logs=None):
        """Called at the end of an epoch; ``logs`` has the epoch's metrics (and ``val_`` ones)."""

    def on_train_begin(self, logs=None):
        """Called when ``fit`` starts."""

    def on_train_end(self, logs=None):
        """Called when ``fit`` ends."""

    def on_test_begin(self, logs=None):
        """Called when ``evaluate`` (or validation) starts."""

    def on_test_end(self, logs=None):
        """Called when ``evaluate`` (or validation) ends."""

    def on_predict_begin(self, logs=None):
        """Called when ``predict`` starts."""

    def on_predict_end(self, logs=None):
        """Called when ``predict`` ends."""

    def on_train_batch_begin(self, batch, logs=None):
        """Called before a training batch."""

    def on_train_batch_end(self, batch, logs=None):
        """Called after a training batch; ``logs`` has the running metrics."""

    def on_test_batch_begin(self, batch, logs=None):
        """Called before an evaluation batch."""

    def on_test_batch_end(self, batch, logs=None):
        """Called after an evaluation batch."""

    def on_predict_batch_begin(self, batch, logs=None):
        """Called before a prediction batch."""

    def on_predict_batch_end(self, batch, logs=None):
        """Called after a prediction batch; ``logs["outputs"]`` holds the batch's predictions."""

    # Keras 2 spellings that Keras 3 keeps as aliases.
    def on_batch_begin(self, batch, logs=None):
        """Alias of :meth:`on_train_batch_begin`."""

    def on_batch_end(self, batch, logs=None):
        """Alias of :meth:`on_train_batch_end`."""
