"""``BackupAndRestore``: back training up as it runs, and resume exactly where a killed run stopped.

>>> import os, tempfile
>>> import numpy as np
>>> import highlevel as hl
>>> folder = os.path.join(tempfile.mkdtemp(), "backup")
>>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> x, y = np.ones((8, 2), "float32"), np.zeros((8, 1), "float32")
>>> _ = model.fit(x, y, batch_size=4, epochs=2, verbose=0,
...               callbacks=[hl.callbacks.BackupAndRestore(folder, save_freq=1)])
>>> os.path.exists(folder)  # a run that ends normally deletes its backups
False
"""

import json
import math
import os
import random
import re
import warnings

import numpy as np

from highlevel import distribution
from highlevel.config import current_backend
from highlevel.random import host as host_random
from highlevel.random import seed_generator as seed_generator_module
from highlevel.saving import archive, safetensors_io, weights_io
from highlevel.saving.errors import InvalidFileError, UnsafeFileError

from .callback import Callback

FORMAT_VERSION = 1
PROGRESS = "progress.json"
VARIABLES = "variables.safetensors"
MAX_PROGRESS_BYTES = 16 * 1024**2
_BACKUP_NAME = re.compile(r"^backup-(\d{9})\.hl\.zip$")
# atomic_write's temporary name for a backup: left behind only by a run killed while writing.
_TEMP_NAME = re.compile(r"^\.backup-\d{9}\.hl\.zip\..*\.tmp$")


class BackupAndRestore(Callback):
    """Backs the whole training state up, and resumes an interrupted ``fit`` exactly where it stopped.

    A backup is one file holding the model's variables (weights and random seed-generator states), the
    optimizer's variables, the metrics' variables and the progress: epoch, batch within the epoch, and the
    positions of every random stream (the host stream that shuffles the data and draws initial weights,
    the global seed generator of ``hl.random``, numpy's and Python's global generators). It is written to a
    temporary file, fsynced and renamed into place, so weights and progress change together and a run
    killed at any moment (``SIGKILL`` included, mid-save included) leaves the previous backup intact; the
    previous one is deleted only once the new one is complete. With ``double_checkpoint=True`` the two
    newest backups are kept, and a latest backup that cannot be read later (truncated, corrupt) falls back to
    the one before it.

    Run the same script again after a crash: this callback loads the last backup when ``fit`` begins, the
    resumed epoch redraws the same data order and passes over the batches already trained (without
    training them), and training continues from the next batch. On the same backend, the final weights are
    bitwise identical to those of a run that was never interrupted.

    This differs from ``keras.callbacks.BackupAndRestore``: Keras 3 replays the whole interrupted epoch
    from its first batch (on top of mid-epoch weights, so those batches are trained twice), keeps no
    random-stream position and no position in the data order, writes weights and progress as two files,
    and needs a model built before ``fit``; a resumed Keras run does not reproduce the uninterrupted one.
    Here the resumed run is the uninterrupted one, bit for bit, and an unbuilt model is fine.

    Backups are deleted when training ends normally (``delete_checkpoint=True``) — including a stop by
    ``EarlyStopping`` — but never when it ends with a NaN or infinite loss (``TerminateOnNaN``) or with an
    exception, and a backup is never written from a non-finite loss.

    Exactness needs the same script: same seed (``hl.utils.set_random_seed``), model, data, batch size and
    backend. Data order is reproduced for arrays, ``hl.utils.PyDataset`` and re-iterable datasets; a
    one-shot Python generator starts from its beginning again, so only its batch count is honoured. Other
    callbacks' own state (``EarlyStopping``'s patience count, ...) is not backed up, and a callback that
    changes the model at the end of a batch or epoch must come before this one in the list, so that the
    backup sees the change.

    Args:
        backup_dir: the folder for the backups (created if missing). Use one folder per training run.
        save_freq: ``"epoch"`` (default) backs up at the end of every epoch; an int ``N`` every ``N``
            training batches (counted across epochs).
        double_checkpoint: keep the previous backup next to the newest one (twice the disk space), as the
            fallback should the newest one be damaged after it was written.
        delete_checkpoint: delete the backups when training ends normally.

    Raises:
        ValueError: if ``backup_dir`` is not a non-empty path, ``save_freq`` is neither ``"epoch"`` nor a positive int,
            or ``double_checkpoint``/``delete_checkpoint`` is not a bool.

    Example:

    >>> import tempfile
    >>> cb = BackupAndRestore(tempfile.mkdtemp(), save_freq=10)
    >>> cb.save_freq
    10
    """

    def __init__(self, backup_dir, save_freq="epoch", double_checkpoint=False, delete_checkpoint=True):
        super().__init__()
        if isinstance(backup_dir, bytes) or not isinstance(backup_dir, (str, os.PathLike)) or not os.fspath(backup_dir):
            raise ValueError(
                f"backup_dir must be a non-empty folder path (str or os.PathLike); received {backup_dir!r}."
            )
        if save_freq != "epoch" and (not isinstance(save_freq, int) or isinstance(save_freq, bool) or save_freq < 1):
            raise ValueError(
                f"save_freq must be 'epoch' or a positive number of batches; received save_freq={save_freq!r}."
            )
        for arg, value in (("double_checkpoint", double_checkpoint), ("delete_checkpoint", delete_checkpoint)):
            if not isinstance(value, bool):
                raise ValueError(f"{arg} must be True or False; received {value!r}.")
        self.backup_dir = os.fspath(backup_dir)
        self.save_freq = save_freq
        self.double_checkpoint = double_checkpoint
        self.delete_checkpoint = delete_checkpoint
        self._reset_run_state()

    def _reset_run_state(self):
        self._epoch = 0
        self._total_batches = 0  # training batches since the run's start (a resumed run continues the count)
        self._epoch_rng_state = None  # the host stream at the start of the current epoch, before its shuffle
        self._pending = None  # progress of the backup being resumed, until the trainer asks for the restore
        self._pending_tensors = None
        self._restored_path = None  # the newest backup known complete: kept as the fallback of the next one
        self._non_finite = False

    # --------------------------------------------------------------- hooks
    def on_train_begin(self, logs=None):
        self._reset_run_state()
        if os.path.exists(self.backup_dir) and not os.path.isdir(self.backup_dir):
            raise ValueError(f"backup_dir {self.backup_dir!r} exists and is not a folder; pass a folder path.")
        os.makedirs(self.backup_dir, exist_ok=True)
        self._remove_temporaries()
        found = self._load_latest()
        if found is None:
            return
        path, progress, tensors = found
        self._pending, self._pending_tensors, self._restored_path = progress, tensors, path
        self._total_batches = progress["total_batches"]
        # The trainer starts at this epoch, passes over the batches already trained, and calls
        # _restore_state once the model, optimizer and metrics exist (see Trainer.fit).
        self.model._initial_epoch = progress["epoch"]
        self.model._initial_step = progress["step"]
        self.model._resume_restore = self._restore_state

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch = epoch
        rng = host_random.host_rng()
        if self._pending is not None and epoch == self._pending["epoch"]:
            # The resumed epoch's shuffle is drawn after this hook: from the position it had the first time.
            rng.bit_generator.state = _decode(self._pending["epoch_rng_state"])
        self._epoch_rng_state = rng.bit_generator.state

    def on_train_batch_end(self, batch, logs=None):
        self._total_batches += 1
        if not _finite_loss(logs):
            self._non_finite = True
            return
        if self.save_freq != "epoch" and self._total_batches % self.save_freq == 0:
            self._save(epoch=self._epoch, step=batch + 1)

    def on_epoch_end(self, epoch, logs=None):
        if not _finite_loss(logs):
            self._non_finite = True
            return
        if self.save_freq == "epoch" and not self._non_finite:
            self._save(epoch=epoch + 1, step=0)

    def on_train_end(self, logs=None):
        if self._pending is not None:
            # fit() ran no epoch (the backup is of a finished run kept with delete_checkpoint=False): put
            # the saved weights back all the same, as far as the model is built.
            if getattr(self.model, "built", False):
                self._restore_state(lenient=True)
            self._pending = self._pending_tensors = None
        if self._non_finite or not _finite_loss(logs):
            return  # a NaN/inf stop keeps the backups: they hold the last good state
        if self.delete_checkpoint:
            self._delete_all()

    # ------------------------------------------------------------- writing
    def _save(self, epoch, step):
        """Writes backup ``epoch``/``step`` (the next batch to train) atomically, then prunes older ones."""
        if not distribution.is_chief():
            return  # every process restores from the backups; only process 0 writes them
        model = self.model
        rng_state = host_random.host_rng().bit_generator.state
        global_gen = seed_generator_module._global_generator
        backend = current_backend()
        progress = {
            "format_version": FORMAT_VERSION,
            "epoch": int(epoch),
            "step": int(step),
            "total_batches": int(self._total_batches),
            "epoch_rng_state": _encode(rng_state if step == 0 else self._epoch_rng_state),
            "rng_state": _encode(rng_state),
            "global_seed_state": (
                None
                if global_gen is None or global_gen.state.backend is not backend
                else np.asarray(backend.to_numpy(global_gen.state.value)).tolist()
            ),
            "numpy_random_state": _encode(np.random.get_state()),
            "python_random_state": _encode(random.getstate()),
        }
        tensors = weights_io.collect(model)
        path = os.path.join(self.backup_dir, f"backup-{self._next_number():09d}.hl.zip")
        archive.write_archive(
            path, {PROGRESS: json.dumps(progress).encode("utf-8"), VARIABLES: safetensors_io.dumps(tensors)}
        )
        # Only now, with the new backup complete on disk, may older ones go; with double_checkpoint the
        # previous good one stays, as the fallback should the new one be damaged later.
        keep = {path, self._restored_path} if self.double_checkpoint else {path}
        for old in self._backup_paths():
            if old not in keep:
                _remove(old)
        self._restored_path = path

    def _next_number(self):
        numbers = [n for n, _ in self._numbered()]
        return max(numbers) + 1 if numbers else 0

    # ------------------------------------------------------------- reading
    def _load_latest(self):
        """``(path, progress, tensors)`` of the newest readable backup, or None when there is none."""
        failures = []
        for _, path in sorted(self._numbered(), reverse=True):
            try:
                progress, tensors = _read_backup(path)
            except (InvalidFileError, UnsafeFileError, OSError) as e:
                failures.append(f"{path!r}: {e}")
                warnings.warn(
                    f"BackupAndRestore: the backup {path!r} cannot be read ({e}); falling back to the previous backup.",
                    stacklevel=2,
                )
                continue
            return path, progress, tensors
        if failures:
            raise InvalidFileError(
                "BackupAndRestore found backups in "
                f"{self.backup_dir!r} but none is readable: "
                + "; ".join(failures)
                + ". Delete the folder to train from scratch."
            )
        return None

    def _restore_state(self, lenient=False):
        """Loads the pending backup into the (built) model, optimizer and metrics, and the random streams."""
        if self._pending is None:
            return
        progress, groups = self._pending, weights_io.split_keys(self._pending_tensors)
        model = self.model
        weights_io.assign_group(list(model.variables), groups.get("model", []), "model")
        if "optimizer" in groups and getattr(model, "_compiled", False):
            if not getattr(model.optimizer, "built", False):
                model.optimizer.build(model.trainable_variables)
            weights_io.assign_group(list(model.optimizer.variables), groups["optimizer"], "optimizer")
        # Metrics only mid-epoch: an epoch-end backup holds the finished epoch's totals, and the resumed
        # epoch starts from reset metrics, as the uninterrupted one did.
        if "metrics" in groups and getattr(model, "_compiled", False) and progress["step"] > 0:
            current = weights_io.group_variables(model, with_optimizer=False)["metrics"]
            weights_io.assign_group(current, groups["metrics"], "metrics", skip_mismatch=lenient, by_name=lenient)
        # Random streams. At step 0 the host stream is already right: on_epoch_begin put it where the
        # epoch started and the epoch's shuffle advanced it. Mid-epoch it goes to where the backup was made.
        if progress["step"] > 0 or lenient:
            host_random.host_rng().bit_generator.state = _decode(progress["rng_state"])
        saved_global = progress["global_seed_state"]
        if saved_global is None:
            seed_generator_module.reset_global_seed_generator()
        else:
            # Creating the generator draws from the host stream; the backup's position is what counts.
            state = host_random.host_rng().bit_generator.state
            seed_generator_module.global_seed_generator().state.assign(np.asarray(saved_global, "int32"))
            host_random.host_rng().bit_generator.state = state
        np.random.set_state(_decode(progress["numpy_random_state"]))
        random.setstate(_decode(progress["python_random_state"]))
        self._pending = self._pending_tensors = None

    # ------------------------------------------------------------ the folder
    def _numbered(self):
        try:
            names = os.listdir(self.backup_dir)
        except FileNotFoundError:
            return []
        out = []
        for name in names:
            m = _BACKUP_NAME.match(name)
            if m:
                out.append((int(m.group(1)), os.path.join(self.backup_dir, name)))
        return out

    def _backup_paths(self):
        return [p for _, p in self._numbered()]

    def _remove_temporaries(self):
        for name in os.listdir(self.backup_dir):
            if _TEMP_NAME.match(name):
                _remove(os.path.join(self.backup_dir, name))

    def _delete_all(self):
        if not distribution.is_chief():
            return
        if not os.path.isdir(self.backup_dir):
            return
        for path in self._backup_paths():
            _remove(path)
        self._remove_temporaries()
        try:
            os.rmdir(self.backup_dir)  # only if empty: never delete files this callback did not write
        except OSError:
            pass


def _read_backup(path):
    members = archive.read_archive(path, expected={PROGRESS, VARIABLES})
    data = members[PROGRESS]
    if len(data) > MAX_PROGRESS_BYTES:
        raise InvalidFileError(f"{PROGRESS} is {len(data)} bytes, over the bound of {MAX_PROGRESS_BYTES}.")
    try:
        progress = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise InvalidFileError(f"{PROGRESS} is not valid JSON ({e}).") from e
    required = {
        "format_version",
        "epoch",
        "step",
        "total_batches",
        "epoch_rng_state",
        "rng_state",
        "global_seed_state",
        "numpy_random_state",
        "python_random_state",
    }
    if not isinstance(progress, dict) or not required <= set(progress):
        raise InvalidFileError(f"{PROGRESS} lacks the fields {sorted(required - set(progress or {}))}.")
    version = progress["format_version"]
    if version != FORMAT_VERSION:
        raise InvalidFileError(f"the backup has format version {version!r}; this highlevel reads {FORMAT_VERSION}.")
    for key in ("epoch", "step", "total_batches"):
        value = progress[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InvalidFileError(f"{PROGRESS}: {key} must be a non-negative int; found {value!r}.")
    try:  # the random states must be settable, so that a damaged one falls back here rather than later
        probe = np.random.Generator(np.random.Philox())
        for key in ("epoch_rng_state", "rng_state"):
            probe.bit_generator.state = _decode(progress[key])
        np.random.RandomState().set_state(_decode(progress["numpy_random_state"]))
        random.Random().setstate(_decode(progress["python_random_state"]))
    except (TypeError, ValueError, KeyError, IndexError, OverflowError) as e:
        raise InvalidFileError(f"{PROGRESS} holds an invalid random-generator state ({e}).") from e
    tensors = safetensors_io.loads(members[VARIABLES], where=repr(path))
    weights_io.split_keys(tensors)  # checks the names now, so that a bad file falls back here
    return progress, tensors


def _finite_loss(logs):
    loss = (logs or {}).get("loss")
    if loss is None:
        return True
    try:
        return math.isfinite(float(np.asarray(loss)))
    except (TypeError, ValueError):
        return True


def _remove(path):
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


# Random-generator states hold numpy arrays and tuples; JSON holds neither, so arrays are tagged.
def _encode(value):
    if isinstance(value, np.ndarray):
        return {"__ndarray__": value.tolist(), "dtype": value.dtype.str}
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def _decode(value):
    if isinstance(value, dict):
        if set(value) == {"__ndarray__", "dtype"}:
            return np.asarray(value["__ndarray__"], dtype=np.dtype(value["dtype"]))
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return tuple(_decode(v) for v in value)
    return value
