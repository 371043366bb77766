"""``ReduceLROnPlateau``: multiplies the learning rate by ``factor`` when a monitored quantity stops improving.

>>> import numpy as np, highlevel as hl
>>> model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(1)])
>>> model.compile(optimizer=hl.optimizers.SGD(0.4), loss="mse")
>>> cb = hl.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1)
>>> cb.set_model(model); cb.on_train_begin()
>>> for epoch in range(3):  # the loss does not improve after the first epoch: two reductions
...     cb.on_epoch_end(epoch, {"loss": 1.0})
>>> round(float(model.optimizer.learning_rate), 4)
0.1
"""

import warnings

import numpy as np

from .learning_rate_scheduler import current_learning_rate
from .monitor_callback import MonitorCallback


class ReduceLROnPlateau(MonitorCallback):
    """Reduces the learning rate when a metric has stopped improving (``keras.callbacks.ReduceLROnPlateau``).

    After ``patience`` epochs without an improvement larger than ``min_delta``, the learning rate becomes
    ``max(lr * factor, min_lr)``; then ``cooldown`` epochs pass before the counting resumes. The learning
    rate is also written to the epoch logs as ``"learning_rate"``.

    Args:
        monitor: the quantity to watch (a key of the epoch logs).
        factor: the multiplier of the learning rate, below 1.
        patience: the number of epochs without improvement after which the rate is reduced.
        verbose: 1 prints a line at every reduction.
        mode: ``"auto"``, ``"min"`` or ``"max"`` (see :class:`MonitorCallback`).
        min_delta: the smallest change that counts as an improvement.
        cooldown: the number of epochs to wait after a reduction before resuming normal operation.
        min_lr: the lower bound of the learning rate.
        baseline: the value the monitored quantity must beat before it counts as improving: epochs that do
            not beat it count towards ``patience`` from the first one. None (default) takes the first epoch's
            value as the best so far. (Keras accepts this argument and ignores it.)

    Raises:
        ValueError: if ``factor`` is not below 1.

    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    >>> model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse")
    >>> reduce = hl.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1)
    >>> reduce.set_model(model)
    >>> reduce.on_train_begin()
    >>> for epoch, loss in enumerate([1.0, 1.0, 1.0]):  # no improvement after the first epoch
    ...     reduce.on_epoch_end(epoch, {"loss": loss})
    >>> round(float(model.optimizer.learning_rate), 4)
    0.025
    """

    def __init__(
        self,
        monitor="val_loss",
        factor=0.1,
        patience=10,
        verbose=0,
        mode="auto",
        min_delta=1e-4,
        cooldown=0,
        min_lr=0.0,
        baseline=None,
    ):
        super().__init__(monitor, mode, baseline=baseline, min_delta=min_delta)
        self.baseline = baseline
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Received factor={factor}")
        self.factor = factor
        self.min_lr = min_lr
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0

    def _reset(self):
        self.best = self.baseline
        self.cooldown_counter = 0
        self.wait = 0

    def in_cooldown(self):
        """Whether the callback is in the cool-down period after a reduction."""
        return self.cooldown_counter > 0

    def _reduce_learning_rate(self, epoch):
        optimizer = self.model.optimizer
        old_lr = current_learning_rate(optimizer)
        # The learning rate is stored as float32: compare with min_lr at that precision, as Keras does.
        if old_lr <= float(np.float32(self.min_lr)):
            return False
        new_lr = max(old_lr * self.factor, self.min_lr)
        optimizer.learning_rate = new_lr
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}.", flush=True)
        return True

    def on_train_begin(self, logs=None):
        self._reset()

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()  # only now are the model's compiled metrics built
        logs = logs if logs is not None else {}
        logs["learning_rate"] = current_learning_rate(self.model.optimizer)
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(
                f"Learning rate reduction is conditioned on metric `{self.monitor}` which is not available. "
                f"Available metrics are: {','.join(logs.keys())}.",
                stacklevel=2,
            )
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience and self._reduce_learning_rate(epoch):
                self.cooldown_counter = self.cooldown
                self.wait = 0
