"""``ModelCheckpoint``: saves the model (or its weights) during ``fit``, every epoch or every N batches.

>>> import os, tempfile, numpy as np, highlevel as hl
>>> folder = tempfile.mkdtemp()
>>> model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> ckpt = hl.callbacks.ModelCheckpoint(os.path.join(folder, "ckpt-{epoch:02d}.weights.safetensors"),
...                                     save_weights_only=True, max_to_keep=2)
>>> _ = model.fit(np.ones((8, 4)), np.zeros((8, 1)), epochs=3, callbacks=[ckpt], verbose=0)
>>> sorted(os.listdir(folder))
['ckpt-02.weights.safetensors', 'ckpt-03.weights.safetensors']
"""

import numbers
import os
import warnings

import numpy as np

from .monitor_callback import MonitorCallback

# The file names ``model.save_weights`` and ``model.save`` are given: weights are a safetensors file (named
# ``.weights.safetensors``, or Keras's ``.weights.h5`` so that Keras code runs unchanged: the content is
# safetensors either way); a whole model is a zip archive, under any other name (``.keras`` reads well).
WEIGHTS_SUFFIX = ".weights.safetensors"
WEIGHTS_SUFFIXES = (WEIGHTS_SUFFIX, ".weights.h5")
_NOT_A_MODEL_FILE = (".safetensors", ".h5", ".hdf5")


def _check_filepath(filepath, save_weights_only):
    if save_weights_only:
        if not filepath.endswith(WEIGHTS_SUFFIXES):
            raise ValueError(
                f"When using `save_weights_only=True` in `ModelCheckpoint`, the filepath must end in "
                f"`{WEIGHTS_SUFFIX}` or Keras's `.weights.h5` (model.save_weights writes safetensors under either "
                f"name). Received: filepath={filepath!r}. "
                f"Rename it, e.g. 'ckpt-{{epoch:02d}}{WEIGHTS_SUFFIX}'."
            )
        return
    for ext in _NOT_A_MODEL_FILE:  # a `.weights.h5` name ends in `.h5`: refused too without save_weights_only
        if filepath.endswith(ext):
            hint = (
                f"pass `save_weights_only=True` to save only the weights to {filepath!r}, or "
                if ext == ".safetensors"
                else ""
            )
            raise ValueError(
                f"ModelCheckpoint saves the whole model (model.save writes one zip archive), but the filepath ends "
                f"in `{ext}`, which names another format. Received: filepath={filepath!r}. Expected a model file "
                f"such as 'ckpt-{{epoch:02d}}.keras': {hint}use a `.keras` name."
            )


class ModelCheckpoint(MonitorCallback):
    """Saves the model or its weights during training (``keras.callbacks.ModelCheckpoint``).

    The file name is ``filepath`` formatted with ``epoch`` (1-based, as in Keras), ``batch`` (1-based, for
    batch-level saves) and the keys of the logs: ``"ckpt-{epoch:02d}-{val_loss:.3f}.keras"``. Writes go
    through ``model.save`` / ``model.save_weights``, which are atomic; missing folders are created.

    ``max_to_keep`` is highlevel's own addition (Keras has no such argument): only the newest ``max_to_keep``
    files that this callback wrote are kept; older ones that it wrote are deleted. Files it did not write are
    never touched, even when they match the pattern.

    Args:
        filepath: a string or path-like, possibly with format fields. It must end in ``.weights.safetensors``
            (or Keras's ``.weights.h5``; the file holds safetensors either way) when
            ``save_weights_only=True``; otherwise it names a whole-model file (``.keras`` is the usual
            extension; ``.safetensors`` and ``.h5`` names are refused).
        monitor: the logged quantity that ``save_best_only`` compares, e.g. ``"val_loss"`` or ``"accuracy"``.
        verbose: 1 prints a line when a file is saved (or not, with ``save_best_only``).
        save_best_only: save only when ``monitor`` improves on the best value seen so far. When ``monitor`` is
            missing from the logs, a warning is issued and the model is saved anyway (as Keras does).
        save_weights_only: save with ``model.save_weights`` (weights only) instead of ``model.save``.
        mode: ``"auto"``, ``"min"`` or ``"max"`` (see :class:`MonitorCallback`). Unlike Keras, which warns and
            falls back to ``"auto"``, an unknown mode is an error: a checkpoint kept by the wrong rule is
            hard to notice.
        save_freq: ``"epoch"`` saves at the end of every epoch; an integer ``N`` saves every ``N`` training
            batches (counted across epochs). With batch-level saves the monitored value is the running
            value of the current epoch.
        initial_value_threshold: the initial best value for ``save_best_only``: nothing is saved until
            ``monitor`` beats it.
        max_to_keep: None keeps every file; an integer ``N >= 1`` keeps only the newest ``N`` files this
            callback wrote.

    Raises:
        ValueError: for an unknown ``save_freq`` or ``mode``, a bad ``max_to_keep``, or a filepath whose
            extension does not match ``save_weights_only``.

    >>> import os, tempfile
    >>> import numpy as np
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "best.keras")
    >>> checkpoint = hl.callbacks.ModelCheckpoint(path, monitor="loss", save_best_only=True)
    >>> _ = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0, callbacks=[checkpoint])
    >>> os.listdir(folder)
    ['best.keras']
    """

    #: In a multi-process run only process 0 keeps this callback (it writes files or prints).
    chief_only = True

    def __init__(
        self,
        filepath,
        monitor="val_loss",
        verbose=0,
        save_best_only=False,
        save_weights_only=False,
        mode="auto",
        save_freq="epoch",
        initial_value_threshold=None,
        max_to_keep=None,
    ):
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"ModelCheckpoint received an unknown mode={mode!r}; expected 'auto', 'min' or 'max'.")
        if save_freq != "epoch" and (
            not isinstance(save_freq, numbers.Integral) or isinstance(save_freq, bool) or save_freq < 1
        ):
            raise ValueError(
                f"Unrecognized save_freq: {save_freq!r}. Expected 'epoch' (save at the end of every epoch) or a "
                "positive integer N (save every N training batches)."
            )
        if max_to_keep is not None and (
            not isinstance(max_to_keep, numbers.Integral) or isinstance(max_to_keep, bool) or max_to_keep < 1
        ):
            raise ValueError(
                f"max_to_keep must be None (keep every file) or a positive integer; "
                f"received max_to_keep={max_to_keep!r}."
            )
        super().__init__(monitor, mode, baseline=initial_value_threshold)
        self.filepath = os.fspath(filepath)
        _check_filepath(self.filepath, save_weights_only)
        self.verbose = verbose
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq if save_freq == "epoch" else int(save_freq)
        self.max_to_keep = None if max_to_keep is None else int(max_to_keep)
        self._batches_seen_since_last_saving = 0
        self._current_epoch = 0
        self._written = []  # the files this callback wrote, oldest first: the only ones max_to_keep deletes

    def on_train_begin(self, logs=None):
        self._batches_seen_since_last_saving = 0

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        self._batches_seen_since_last_saving += 1
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            self._save_model(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._save_model(epoch, None, logs)

    def _should_save(self, epoch, logs, filepath):
        if not self.save_best_only:
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: saving model to {filepath}", flush=True)
            return True
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(
                f"ModelCheckpoint can save the best model only with `{self.monitor}` available, but the logs hold "
                f"only {sorted(logs)}; saving anyway. Pass a `monitor` that fit logs (with validation data for "
                "'val_' names).",
                stacklevel=3,
            )
            return True
        if isinstance(current, np.ndarray) and current.ndim > 0:
            warnings.warn(
                f"ModelCheckpoint can save the best model only when `{self.monitor}` is a scalar; "
                f"received {current!r}. Falling back to `save_best_only=False`.",
                stacklevel=3,
            )
            return True
        if self.monitor_op is None:
            self._set_monitor_op()  # only now are the model's compiled metrics built
        current = float(current)
        best = "None" if self.best is None else f"{self.best:.5f}"
        if self._is_improvement(current, self.best):
            if self.verbose > 0:
                print(
                    f"\nEpoch {epoch + 1}: {self.monitor} improved from {best} to {current:.5f}, saving model to "
                    f"{filepath}",
                    flush=True,
                )
            self.best = current
            return True
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {best}", flush=True)
        return False

    def _save_model(self, epoch, batch, logs):
        logs = dict(logs or {})
        filepath = self._get_file_path(epoch, batch, logs)
        if not self._should_save(epoch, logs, filepath):
            return
        if os.path.isdir(filepath):
            raise IsADirectoryError(
                f"ModelCheckpoint's filepath {filepath!r} is an existing folder; give the name "
                "of a file to write instead."
            )
        folder = os.path.dirname(filepath)
        if folder:
            os.makedirs(folder, exist_ok=True)
        if self.save_weights_only:
            self.model.save_weights(filepath)
        else:
            self.model.save(filepath)
        self._remember(filepath)

    def _remember(self, filepath):
        key = os.path.abspath(filepath)
        if key in self._written:  # rewritten in place: it is now the newest
            self._written.remove(key)
        self._written.append(key)
        if self.max_to_keep is None:
            return
        while len(self._written) > self.max_to_keep:
            old = self._written.pop(0)
            try:
                os.remove(old)
            except FileNotFoundError:
                pass  # already gone: the user moved or deleted it

    def _get_file_path(self, epoch, batch, logs):
        """``filepath`` formatted with the 1-based ``epoch`` (and ``batch``) and the logs."""
        fields = dict(logs)
        fields["epoch"] = epoch + 1
        if batch is not None and "batch" not in logs:
            fields["batch"] = batch + 1
        try:
            return self.filepath.format(**fields)
        except KeyError as e:
            raise KeyError(
                f"Failed to format the ModelCheckpoint filepath {self.filepath!r}: the field {e} is not available. "
                f"Available fields: {sorted(fields)} ('batch' only with an integer save_freq)."
            ) from None
        except (ValueError, IndexError) as e:
            raise ValueError(f"Failed to format the ModelCheckpoint filepath {self.filepath!r} ({e}).") from e
