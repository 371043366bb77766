"""``SwapEMAWeights``: evaluates (and optionally checkpoints) with the optimizer's moving average of the weights.

>>> import numpy as np, highlevel as hl
>>> model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(1)])
>>> model.compile(optimizer=hl.optimizers.SGD(0.1, use_ema=True), loss="mse")
>>> x, y = np.ones((8, 4)), np.zeros((8, 1))
>>> history = model.fit(x, y, epochs=2, validation_data=(x, y), callbacks=[hl.callbacks.SwapEMAWeights()],
...                     verbose=0)
>>> sorted(history.history)
['loss', 'val_loss']
"""

from .callback import Callback


class SwapEMAWeights(Callback):
    """Swaps the model's weights with their exponential moving average around evaluation
    (``keras.callbacks.SwapEMAWeights``).

    Before every evaluation (validation in ``fit``, ``evaluate``, ``predict``) the weights are exchanged
    in place with the optimizer's moving averages, and exchanged back afterwards. The optimizer must be
    created with ``use_ema=True``.

    Args:
        swap_on_epoch: also put the averages in the model at the end of every epoch (so that later callbacks,
            e.g. checkpoints, see them) and take them out at the start of the next one. After the last epoch
            the model keeps the averaged weights.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    >>> model.compile(optimizer=hl.optimizers.SGD(0.1, use_ema=True), loss="mse")
    >>> data = (np.ones((4, 2)), np.ones((4, 1)))
    >>> history = model.fit(*data, epochs=2, verbose=0, validation_data=data, callbacks=[hl.callbacks.SwapEMAWeights()])
    >>> sorted(history.history)  # val_loss was computed with the averaged weights
    ['loss', 'val_loss']
    """

    def __init__(self, swap_on_epoch=False):
        super().__init__()
        self.swap_on_epoch = swap_on_epoch
        self._ema_weights_in_model = False

    def _optimizer(self):
        optimizer = getattr(self.model, "optimizer", None)
        if not getattr(optimizer, "use_ema", False):
            raise ValueError(
                "SwapEMAWeights must be used when `use_ema=True` is set on the optimizer. Received: "
                f"use_ema={getattr(optimizer, 'use_ema', None)}. Compile the model with e.g. "
                "hl.optimizers.Adam(use_ema=True)."
            )
        if not getattr(optimizer, "built", False):
            raise ValueError(
                "SwapEMAWeights found an optimizer that has no moving averages yet: train the model "
                "(fit) before evaluating it with SwapEMAWeights."
            )
        return optimizer

    def _swap(self):
        self._optimizer().swap_ema_weights(self.model.trainable_variables)
        self._ema_weights_in_model = not self._ema_weights_in_model

    def on_epoch_begin(self, epoch, logs=None):
        if self.swap_on_epoch and self._ema_weights_in_model:
            self._swap()

    def on_epoch_end(self, epoch, logs=None):
        if self.swap_on_epoch and not self._ema_weights_in_model:
            if epoch == self.params.get("epochs", 0) - 1:
                # Last epoch: the model keeps the averages and the averages stay as they are, the state Keras
                # reaches by swapping and then copying the weights into the averages.
                self._optimizer().finalize_variable_values(self.model.trainable_variables)
                self._ema_weights_in_model = True
            else:
                self._swap()

    def on_test_begin(self, logs=None):
        if not self._ema_weights_in_model:
            self._swap()

    def on_test_end(self, logs=None):
        if self._ema_weights_in_model:
            self._swap()

    def on_predict_begin(self, logs=None):
        if not self._ema_weights_in_model:
            self._swap()

    def on_predict_end(self, logs=None):
        # Keras tests `not self._ema_weights_in_model` here and so leaves the averages in the model after
        # predict; the weights are swapped back instead, as after evaluate.
        if self._ema_weights_in_model:
            self._swap()
