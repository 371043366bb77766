"""``ProgbarLogger``: the progress display of ``fit``/``evaluate``/``predict`` (``verbose`` 1 or 2).

``verbose=1`` shows a rich progress bar per epoch with the step count, elapsed time, ETA, steps per second
and the running metrics; in a terminal or Jupyter it updates live, elsewhere (CI logs, files) it prints the
finished bar once, never a stream of carriage-return frames. ``verbose=2`` prints one line per epoch.
"""

import sys
import time

from .callback import Callback


def _format_logs(logs, skip=("outputs",)):
    parts = []
    for k, v in (logs or {}).items():
        if k in skip:
            continue
        try:
            parts.append(f"{k}: {float(v):.4f}")
        except (TypeError, ValueError):
            continue
    return " - ".join(parts)


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
        self._progress = None
        self._task = None
        self._console = None
        self._mode = "train"
        self._t0 = None
        self._epoch = 0

    def set_params(self, params):
        super().set_params(params)
        verbose = params.get("verbose", 1)
        self.verbose = 1 if verbose == "auto" else int(verbose)
        self.epochs = params.get("epochs", 1)

    def _console_get(self):
        if self._console is None:
            from rich.console import Console

            self._console = Console(file=sys.stdout)
        return self._console

    def _live(self):
        from highlevel import config

        if not config.is_interactive_logging_enabled():
            return False  # plain lines (hl.config.disable_interactive_logging)
        console = self._console_get()
        return console.is_terminal or console.is_jupyter

    def _start_bar(self, total, description):
        self._t0 = time.perf_counter()
        self._steps_done = 0
        if self.verbose != 1 or not self._live():
            return
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        console = self._console_get()
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(bar_width=30),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[rate]}"),
            TextColumn("{task.fields[metrics]}"),
            console=console,
            transient=False,
            refresh_per_second=8,
        )
        self._progress.start()
        self._task = self._progress.add_task(description, total=total, rate="", metrics="")
        self._last_draw = 0.0

    def _update_bar(self, step, logs):
        self._steps_done = step
        if self._progress is None:
            return
        now = time.perf_counter()
        if now - self._last_draw < 0.1 and step != self._progress.tasks[0].total:
            return  # formatting the metrics reads them from the device: do it a few times a second only
        self._last_draw = now
        elapsed = max(now - self._t0, 1e-9)
        rate = f"{step / elapsed:.1f} steps/s" if step else ""
        self._progress.update(self._task, completed=step, rate=rate, metrics=_format_logs(logs))

    def _stop_bar(self, logs=None, total=None):
        if self._progress is None:
            return
        if logs is not None:
            self._progress.update(self._task, metrics=_format_logs(logs))
        if total is not None:
            task = self._progress.tasks[0]
            if task.total is None:
                self._progress.update(self._task, total=task.completed)
        self._progress.refresh()
        self._progress.stop()
        self._progress = None

    # ------------------------------------------------------------------ fit
    def on_train_begin(self, logs=None):
        self._mode = "train"

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch = epoch
        self._epoch_t0 = time.perf_counter()
        if self.verbose == 1 and self._live():
            self._console_get().print(f"Epoch {epoch + 1}/{self.epochs}", highlight=False)
        self._start_bar(self.params.get("steps"), "")

    def on_train_batch_end(self, batch, logs=None):
        self._train_steps = batch + 1
        self._update_bar(batch + 1, logs)

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        val = {k: v for k, v in logs.items() if k.startswith("val_")}
        seconds = time.perf_counter() - self._epoch_t0
        if self.verbose == 1 and self._progress is not None:
            self._stop_bar(train, total=True)
            if val:
                self._console_get().print("  " + _format_logs(val), highlight=False)
        elif self.verbose in (1, 2):
            # One plain line per epoch where nothing can be redrawn (logs, files) and for verbose=2.
            steps = getattr(self, "_train_steps", 0)
            rate = f" - {steps / max(seconds, 1e-9):.1f} steps/s" if steps else ""
            print(
                f"Epoch {epoch + 1}/{self.epochs} - {steps} steps - {seconds:.1f}s{rate} - {_format_logs(logs)}",
                flush=True,
            )

    # ------------------------------------------------------- evaluate/predict
    def on_test_begin(self, logs=None):
        if self._evaluating_alone():
            self._mode_prev = self._mode
            self._mode = "test"
            self._start_bar(self.params.get("steps"), "evaluate")

    def _evaluating_alone(self):
        # validation inside fit is reported in the epoch line, not with a bar of its own
        return not getattr(self.model, "_in_fit", False)

    def on_test_batch_end(self, batch, logs=None):
        if self._mode == "test":
            self._update_bar(batch + 1, logs)

    def on_test_end(self, logs=None):
        if self._mode == "test":
            if self._progress is not None:
                self._stop_bar(logs, total=True)
            elif self.verbose in (1, 2):
                print(f"evaluate - {self._steps_done} steps - {_format_logs(logs)}", flush=True)
            self._mode = getattr(self, "_mode_prev", "train")

    def on_predict_begin(self, logs=None):
        self._mode = "predict"
        self._start_bar(self.params.get("steps"), "predict")

    def on_predict_batch_end(self, batch, logs=None):
        self._update_bar(batch + 1, None)

    def on_predict_end(self, logs=None):
        self._stop_bar(None, total=True)
        self._mode = "train"
