"""``TerminateOnNaN``: stops training at the first batch whose loss is NaN or infinite, before that batch's
update reaches the weights.

>>> import math
>>> class FakeModel:
...     stop_training = False
>>> cb = TerminateOnNaN(); cb.set_model(FakeModel())
>>> cb.on_batch_end(0, {"loss": 0.5}); cb.model.stop_training
False
>>> cb.on_batch_end(1, {"loss": math.nan})
Batch 1: Invalid loss nan, terminating training (this batch's update was not applied)
>>> cb.model.stop_training
True
"""

import numpy as np

from highlevel import ops

from .callback import Callback


class TerminateOnNaN(Callback):
    """Terminates training when a NaN or infinite loss appears (``keras.callbacks.TerminateOnNaN``).

    Unlike Keras, which notices the bad loss only after the optimizer has applied the batch's (NaN) update,
    this callback asks the trainer to guard the step: with the default ``train_step``, an update whose loss or
    any gradient is not finite is computed but not kept (a ``where`` on every variable the optimizer assigns, so
    it works inside compiled JAX and TensorFlow steps too). A step kept out that way reports its loss as NaN: a
    NaN input can give a finite loss with NaN gradients (TensorFlow's fused matmul + ReLU kernel on CPU maps NaN
    to 0 in the forward pass), and training must stop there too. Training stops with the weights and the
    optimizer state of the last good batch. A custom ``train_step`` can do the same through
    ``optimizer.apply(..., only_if=...)``.

    Args:
        raise_error: False (default) stops gracefully with ``model.stop_training = True``, so the other
            callbacks' ``on_train_end`` still run; True raises a ``RuntimeError`` at once instead, skipping
            them (to keep, e.g., a backup untouched).

    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.layers.Dense(1)])
    >>> model.stop_training = False
    >>> guard = hl.callbacks.TerminateOnNaN()
    >>> guard.set_model(model)
    >>> guard.on_batch_end(0, {"loss": float("nan")})
    Batch 0: Invalid loss nan, terminating training (this batch's update was not applied)
    >>> model.stop_training
    True
    """

    def __init__(self, raise_error=False):
        super().__init__()
        self.raise_error = raise_error
        self._previous_guard = None

    def _set_guard(self, on):
        model = self.model
        if model is None or not hasattr(model, "_reset_step_functions"):
            return
        if bool(getattr(model, "_guard_nonfinite", False)) != on:
            model._guard_nonfinite = on
            model._reset_step_functions()  # a compiled step bakes the guard in: build it again

    def on_train_begin(self, logs=None):
        self._previous_guard = bool(getattr(self.model, "_guard_nonfinite", False))
        self._set_guard(True)

    def on_train_end(self, logs=None):
        if self._previous_guard is not None:
            self._set_guard(self._previous_guard)
            self._previous_guard = None

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is None:
            return
        value = float(np.asarray(ops.convert_to_numpy(loss) if hasattr(loss, "shape") else loss))
        if np.isnan(value) or np.isinf(value):
            if self.raise_error:
                self.on_train_end()  # the hooks after this one do not run: drop the guard now
                raise RuntimeError(
                    f"NaN or Inf loss encountered at batch {batch}. Loss value: {value}. "
                    "Terminating training immediately; this batch's update was not applied."
                )
            print(
                f"Batch {batch}: Invalid loss {value}, terminating training (this batch's update was not applied)",
                flush=True,
            )
            self.model.stop_training = True
