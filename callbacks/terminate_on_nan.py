"""``TerminateOnNaN``: stops training at the first batch whose loss is NaN or infinite.

>>> import math
>>> class FakeModel:
...     stop_training = False
>>> cb = TerminateOnNaN(); cb.set_model(FakeModel())
>>> cb.on_batch_end(0, {"loss": 0.5}); cb.model.stop_training
False
>>> cb.on_batch_end(1, {"loss": math.nan})
Batch 1: Invalid loss nan, terminating training
>>> cb.model.stop_training
True
"""

import numpy as np

from highlevel import ops

from .callback import Callback


class TerminateOnNaN(Callback):
    """Terminates training when a NaN or infinite loss appears (``keras.callbacks.TerminateOnNaN``).

    Args:
        raise_error: False (default) stops gracefully with ``model.stop_training = True``, so the other
            callbacks' ``on_train_end`` still run; True raises a ``RuntimeError`` at once instead, skipping
            them (to keep, e.g., a backup untouched).
    """

    def __init__(self, raise_error=False):
        super().__init__()
        self.raise_error = raise_error

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is None:
            return
        value = float(np.asarray(ops.convert_to_numpy(loss) if hasattr(loss, "shape") else loss))
        if np.isnan(value) or np.isinf(value):
            if self.raise_error:
                raise RuntimeError(f"NaN or Inf loss encountered at batch {batch}. Loss value: {value}. "
                                   "Terminating training immediately.")
            print(f"Batch {batch}: Invalid loss {value}, terminating training", flush=True)
            self.model.stop_training = True
