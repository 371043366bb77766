"""``ProgbarLogger``: the progress display of ``fit``/``evaluate``/``predict`` (``verbose`` 1 or 2).

``verbose=1`` shows one line per epoch: the step count, a bar, the ETA while the epoch runs, then the epoch's
time, the time per step and the metrics (validation metrics included). In a terminal the line is redrawn in
place; in Jupyter it is one output updated in place (plain text and HTML, no widget, so a saved notebook shows
it); elsewhere (CI logs, files) the finished line prints once, never a stream of partial frames (see
``progress_display``). ``verbose=2`` prints the finished line only, everywhere.
"""

from .callback import Callback
from .progress_display import ProgressLine


class ProgbarLogger(Callback):
    """Prints progress and metrics. Added by ``fit`` when ``verbose`` is 1 or 2.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> _ = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=1, verbose=2)  # one line per epoch
    Epoch 1/1 ...loss: ...
    """

    #: In a multi-process run only process 0 keeps this callback (it writes files or prints).
    chief_only = True

    def __init__(self):
        super().__init__()
        self.verbose = 1
        self.epochs = 1
        self._line = None
        self._steps = 0
        self._mode = "train"

    def set_params(self, params):
        super().set_params(params)
        verbose = params.get("verbose", 1)
        self.verbose = 1 if verbose == "auto" else int(verbose)
        self.epochs = params.get("epochs", 1)

    def _begin(self, title):
        self._steps = 0
        self._line = ProgressLine(title, self.params.get("steps"), live=self.verbose == 1)

    def _step(self, step, logs):
        self._steps = step
        if self._line is not None:
            self._line.update(step, logs)

    def _end(self, logs):
        if self._line is not None and self.verbose in (1, 2):
            self._line.finish(self._steps, logs)
        self._line = None

    # ------------------------------------------------------------------ fit
    def on_train_begin(self, logs=None):
        self._mode = "train"

    def on_epoch_begin(self, epoch, logs=None):
        self._begin(f"Epoch {epoch + 1}/{self.epochs}")

    def on_train_batch_end(self, batch, logs=None):
        self._step(batch + 1, logs)

    def on_epoch_end(self, epoch, logs=None):
        self._end(logs)  # the validation metrics are in these logs: they end the epoch's line

    # ------------------------------------------------------- evaluate/predict
    def _evaluating_alone(self):
        # validation inside fit is reported in the epoch's line, not with a line of its own
        return not getattr(self.model, "_in_fit", False)

    def on_test_begin(self, logs=None):
        if self._evaluating_alone():
            self._mode_prev, self._mode = self._mode, "test"
            self._train_line, self._train_steps = self._line, self._steps
            self._begin("evaluate")

    def on_test_batch_end(self, batch, logs=None):
        if self._mode == "test":
            self._step(batch + 1, logs)

    def on_test_end(self, logs=None):
        if self._mode == "test":
            self._end(logs)
            self._mode = getattr(self, "_mode_prev", "train")
            self._line, self._steps = self._train_line, self._train_steps

    def on_predict_begin(self, logs=None):
        self._mode = "predict"
        self._begin("predict")
        if self.verbose != 1:
            self._line = None  # predict has no metrics: verbose=2 prints nothing, as before

    def on_predict_batch_end(self, batch, logs=None):
        self._step(batch + 1, None)

    def on_predict_end(self, logs=None):
        self._end(None)
        self._mode = "train"
