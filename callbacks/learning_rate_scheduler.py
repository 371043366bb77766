"""``LearningRateScheduler``: sets the optimizer's learning rate at the start of every epoch from a function.

>>> import numpy as np, highlevel as hl
>>> model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(1)])
>>> model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse")
>>> halve = hl.callbacks.LearningRateScheduler(lambda epoch, lr: lr if epoch == 0 else lr / 2)
>>> history = model.fit(np.ones((8, 4)), np.zeros((8, 1)), epochs=3, callbacks=[halve], verbose=0)
>>> [round(lr, 4) for lr in history.history["learning_rate"]]
[0.1, 0.05, 0.025]
"""

import inspect
import numbers

import numpy as np

from highlevel import ops

from .callback import Callback


def current_learning_rate(optimizer):
    """The optimizer's learning rate as a Python float."""
    if not hasattr(optimizer, "learning_rate"):
        raise ValueError(f'The optimizer must have a "learning_rate" attribute; received {optimizer!r}.')
    return float(ops.convert_to_numpy(optimizer.learning_rate))


def _takes_two_arguments(fn):
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return True  # builtins and some callables hide their signature: try the current API
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 or any(p.kind is p.VAR_POSITIONAL for p in params)


class LearningRateScheduler(Callback):
    """Sets the learning rate to ``schedule(epoch, lr)`` at the start of every epoch
    (``keras.callbacks.LearningRateScheduler``).

    The learning rate in use is also written to the epoch logs as ``"learning_rate"`` (so ``History`` records
    it). The optimizer must have been created with a float learning rate, not a ``LearningRateSchedule``.

    Args:
        schedule: a function of the epoch index (from 0) and the current learning rate (a float) returning
            the new learning rate (a float). A function of the epoch alone (the old API) is accepted too.
        verbose: 1 prints the new learning rate at every epoch.

    Raises:
        TypeError: if ``schedule`` is not callable.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    >>> model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse")
    >>> schedule = hl.callbacks.LearningRateScheduler(lambda epoch, lr: 0.1 / (epoch + 1))
    >>> _ = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=3, verbose=0, callbacks=[schedule])
    >>> round(float(model.optimizer.learning_rate), 4)
    0.0333
    """

    def __init__(self, schedule, verbose=0):
        super().__init__()
        if not callable(schedule):
            raise TypeError(f"schedule must be a function schedule(epoch, lr) -> float; received {schedule!r}.")
        self.schedule = schedule
        self.verbose = verbose

    def _new_learning_rate(self, epoch, lr):
        value = self.schedule(epoch, lr) if _takes_two_arguments(self.schedule) else self.schedule(epoch)
        if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.ndarray)) and not hasattr(value, "shape"):
            raise ValueError(f"The output of the `schedule` function should be a float. Got: {value!r}")
        array = np.asarray(ops.convert_to_numpy(value)) if hasattr(value, "shape") else np.asarray(value)
        if array.shape != () or array.dtype.kind not in "fiu":
            raise ValueError(f"The output of the `schedule` function should be a float. Got: {value!r}")
        return float(array)

    def on_epoch_begin(self, epoch, logs=None):
        optimizer = self.model.optimizer
        learning_rate = self._new_learning_rate(epoch, current_learning_rate(optimizer))
        optimizer.learning_rate = learning_rate
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {learning_rate}.", flush=True)

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = current_learning_rate(self.model.optimizer)
