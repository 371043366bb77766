"""``EarlyStopping``: stops ``fit`` when a monitored quantity stops improving, optionally restoring the best
weights.

>>> import numpy as np, highlevel as hl
>>> model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(1)])
>>> model.compile(optimizer=hl.optimizers.SGD(0.0), loss="mse")  # a zero step size: the loss never improves
>>> stop = hl.callbacks.EarlyStopping(monitor="loss", patience=2)
>>> history = model.fit(np.ones((8, 4)), np.zeros((8, 1)), epochs=10, callbacks=[stop], verbose=0)
>>> len(history.history["loss"]), stop.stopped_epoch
(3, 2)
"""

import warnings

from .monitor_callback import MonitorCallback


class EarlyStopping(MonitorCallback):
    """Stops training when ``monitor`` has not improved for ``patience`` epochs (``keras.callbacks.EarlyStopping``).

    At the end of every epoch (from ``start_from_epoch`` on) the monitored value is compared with the best so
    far; after ``patience`` epochs without an improvement larger than ``min_delta``, ``model.stop_training``
    is set. An instance can be reused: its state is reset when training begins.

    Args:
        monitor: the quantity to watch (a key of the epoch logs). Defaults to ``"val_loss"``.
        min_delta: the smallest change that counts as an improvement.
        patience: the number of epochs without improvement after which training stops.
        verbose: 1 prints a line when training is stopped and when weights are restored.
        mode: ``"auto"``, ``"min"`` or ``"max"`` (see :class:`MonitorCallback`).
        baseline: training stops if the monitored value does not improve on this baseline within
            ``patience`` epochs.
        restore_best_weights: at the end of training, put back the weights of the best epoch (also when
            training was not stopped early, and whatever the baseline).
        start_from_epoch: the number of warm-up epochs during which nothing is monitored.

    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.layers.Dense(1)])
    >>> model.stop_training = False
    >>> stop = hl.callbacks.EarlyStopping(monitor="loss", patience=1)
    >>> stop.set_model(model)
    >>> stop.on_train_begin()
    >>> for epoch, loss in enumerate([1.0, 0.5, 0.6, 0.7, 0.8]):  # fit calls on_epoch_end like this
    ...     stop.on_epoch_end(epoch, {"loss": loss})
    ...     if model.stop_training:
    ...         break
    >>> epoch, stop.stopped_epoch
    (2, 2)
    """

    def __init__(
        self,
        monitor="val_loss",
        min_delta=0,
        patience=0,
        verbose=0,
        mode="auto",
        baseline=None,
        restore_best_weights=False,
        start_from_epoch=0,
    ):
        super().__init__(monitor, mode, min_delta=min_delta)
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.wait = 0
        self.stopped_epoch = 0
        self.restore_best_weights = restore_best_weights
        self.best_weights = None
        self.best_epoch = 0
        self.start_from_epoch = start_from_epoch

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = None
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()  # only now are the model's compiled metrics built
        current = self.get_monitor_value(logs)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            # The first monitored epoch is the best one until another beats it.
            self.best_weights = self.model.get_weights()
            self.best_epoch = epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            # The patience counter restarts only when the baseline is beaten too.
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping", flush=True)
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print(f"Restoring model weights from the end of the best epoch: {self.best_epoch + 1}.", flush=True)
            self.model.set_weights(self.best_weights)

    def get_monitor_value(self, logs):
        """The monitored value in ``logs``, or None (with a warning listing the available keys)."""
        logs = logs or {}
        value = logs.get(self.monitor)
        if value is None:
            warnings.warn(
                f"Early stopping conditioned on metric `{self.monitor}` which is not available. "
                f"Available metrics are: {','.join(logs.keys())}",
                stacklevel=2,
            )
        return value
