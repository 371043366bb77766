"""``OrbaxCheckpoint``: saves the model's state during ``fit`` with Orbax's checkpoint manager, on every engine.

Each checkpoint is a numbered step folder under ``directory`` holding :meth:`Model.get_state_tree` as numpy
arrays (weights, optimizer and metric variables; only the weights with ``save_weights_only``). Orbax (the
``orbax`` extra: ``pip install -e ".[orbax]"`` in a checkout) is imported only when the callback is made.
``model.load_weights(directory)`` (or :func:`load_orbax_checkpoint`) puts the newest checkpoint back.

>>> import os, tempfile, numpy as np, highlevel as hl
>>> folder = tempfile.mkdtemp()
>>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> ckpt = hl.callbacks.OrbaxCheckpoint(folder, max_to_keep=2, save_on_background=False)
>>> _ = model.fit(np.ones((4, 2)), np.zeros((4, 1)), epochs=3, callbacks=[ckpt], verbose=0)
>>> sorted(int(name) for name in os.listdir(folder) if name.isdigit())
[1, 2]
"""

import numbers
import os
import warnings

import numpy as np

from .monitor_callback import MonitorCallback

_WEIGHT_GROUPS = ("trainable_variables", "non_trainable_variables")


def _orbax():
    try:
        import orbax.checkpoint as ocp
    except ImportError:
        from highlevel._extras import install_command

        raise ImportError(
            "OrbaxCheckpoint needs the orbax-checkpoint package, which is not installed: "
            f"{install_command('orbax')} (or `pip install orbax-checkpoint`)."
        ) from None
    return ocp


def _state_of(model, weights_only):
    """The model's state tree as numpy arrays (what Orbax writes on any engine)."""
    state = model.get_state_tree(value_format="numpy_array")
    if weights_only:
        state = {group: state[group] for group in _WEIGHT_GROUPS}
    # Copies: a background save reads them while training goes on, and an engine may hand out its own buffers.
    return _copied(state)


def _copied(node):
    if isinstance(node, dict):
        return {key: _copied(value) for key, value in node.items()}
    return np.array(node, copy=True)


def load_orbax_checkpoint(model, directory, step=None):
    """Puts a checkpoint that :class:`OrbaxCheckpoint` wrote back into ``model`` (the same architecture).

    Args:
        model: the model, built.
        directory: the callback's ``directory`` (its newest step is read unless ``step`` is given), or one step
            folder inside it.
        step: the step to read.

    Returns:
        The step that was read.

    Raises:
        ValueError: ``directory`` holds no checkpoint, or not ``step``.
    """
    ocp = _orbax()
    directory = os.path.abspath(os.fspath(directory))
    name = os.path.basename(directory)
    if step is None and name.isdigit() and not any(n.isdigit() for n in os.listdir(directory)):
        directory, step = os.path.dirname(directory), int(name)  # a step folder
    manager = ocp.CheckpointManager(directory)
    try:
        steps = list(manager.all_steps())
        if step is None:
            step = manager.latest_step()
        if step is None or step not in steps:
            raise ValueError(
                f"No Orbax checkpoint {'' if step is None else f'for step {step} '}in the folder {directory!r}; "
                f"the steps there are {sorted(steps)}. A folder is read as an OrbaxCheckpoint's `directory`: pass "
                "that (and a step it saved), or the path of a weights file."
            )
        state = manager.restore(step, args=ocp.args.PyTreeRestore())
    finally:
        manager.close()
    optimizer = getattr(model, "optimizer", None)
    if state.get("optimizer_variables") and optimizer is not None and not optimizer.built:
        optimizer.build(model.trainable_variables)  # make its slots, to take the saved values
    model.set_state_tree(_known_metrics_only(model, state))
    return step


def _known_metrics_only(model, state):
    """``state`` without the metric variables ``model`` has not made yet (its compiled metrics are built by the
    first step; ``fit`` resets them at each epoch anyway)."""
    if "metrics_variables" not in state:
        return state
    have = model.get_state_tree(value_format="numpy_array").get("metrics_variables", {})

    def prune(saved, known):
        return {
            key: prune(value, known[key]) if isinstance(value, dict) else value
            for key, value in saved.items()
            if key in known and isinstance(value, dict) == isinstance(known[key], dict)
        }

    return dict(state, metrics_variables=prune(state["metrics_variables"], have))


class OrbaxCheckpoint(MonitorCallback):
    """Saves the model's state with Orbax during training (``keras.callbacks.OrbaxCheckpoint``).

    The step of an epoch-end checkpoint is the epoch's index (0-based, as in Keras); with an integer
    ``save_freq`` it is the number of training batches seen, counted from the optimizer's ``iterations`` so
    that a resumed run goes on numbering. Saves run in the background unless ``save_on_background=False``;
    ``wait_until_finished()`` waits for them, and the end of ``fit`` too.

    Keras also writes the model's configuration and assets beside the arrays so that ``load_model`` can read
    the folder; this callback writes the arrays only: rebuild the model in code and call
    ``model.load_weights(directory)``.

    Args:
        directory: the folder of the checkpoints (made if missing).
        monitor: the logged quantity that ``save_best_only`` compares.
        verbose: 1 prints a line for each checkpoint.
        save_best_only: save only when ``monitor`` improves; a warning says so when it is missing from the logs.
        mode: ``"auto"``, ``"min"`` or ``"max"`` (see :class:`MonitorCallback`).
        save_freq: ``"epoch"`` or a positive integer number of batches.
        initial_value_threshold: the best value to beat at first, with ``save_best_only``.
        max_to_keep: the number of newest checkpoints kept (None keeps all).
        save_on_background: write asynchronously while training goes on.
        save_weights_only: save the trainable and non-trainable variables only (no optimizer or metrics).

    Raises:
        ValueError: if ``save_freq`` is neither ``"epoch"`` nor a positive int, or ``max_to_keep`` is not a positive int
            or None (or the other arguments are invalid).

    >>> import os, tempfile
    >>> import numpy as np
    >>> import highlevel as hl
    >>> def build():
    ...     model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1, name="out")])
    ...     model.compile(optimizer="sgd", loss="mse")
    ...     return model
    >>> model = build()
    >>> folder = os.path.join(tempfile.mkdtemp(), "checkpoints")
    >>> checkpoint = hl.callbacks.OrbaxCheckpoint(folder, monitor="loss", save_on_background=False)
    >>> _ = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0, callbacks=[checkpoint])
    >>> os.listdir(folder)  # the newest step is kept (max_to_keep=1)
    ['1']
    >>> restored = build()
    >>> restored.load_weights(folder)
    >>> all(np.array_equal(a, b) for a, b in zip(model.get_weights(), restored.get_weights()))
    True
    """

    def __init__(
        self,
        directory,
        monitor="val_loss",
        verbose=0,
        save_best_only=False,
        mode="auto",
        save_freq="epoch",
        initial_value_threshold=None,
        max_to_keep=1,
        save_on_background=True,
        save_weights_only=False,
    ):
        ocp = _orbax()
        super().__init__(monitor, mode, initial_value_threshold)
        if save_freq != "epoch" and not (
            isinstance(save_freq, numbers.Integral) and not isinstance(save_freq, bool) and save_freq > 0
        ):
            raise ValueError(
                f"OrbaxCheckpoint: save_freq must be 'epoch' or a positive integer number of batches; received "
                f"{save_freq!r}."
            )
        if max_to_keep is not None and (not isinstance(max_to_keep, numbers.Integral) or max_to_keep < 1):
            raise ValueError(
                f"OrbaxCheckpoint: max_to_keep must be a positive integer, or None to keep every checkpoint; "
                f"received {max_to_keep!r}."
            )
        self.directory = os.path.abspath(os.fspath(directory))
        self.verbose, self.save_best_only, self.save_freq = verbose, save_best_only, save_freq
        self.max_to_keep, self.save_on_background = max_to_keep, save_on_background
        self.save_weights_only = save_weights_only
        self._ocp = ocp
        self._manager = None
        self._since_last_save = 0
        self._total_batches_seen = 0

    def _open(self):
        if self._manager is None:
            options = self._ocp.CheckpointManagerOptions(
                max_to_keep=self.max_to_keep, enable_async_checkpointing=self.save_on_background, create=True
            )
            self._manager = self._ocp.CheckpointManager(self.directory, options=options)
        return self._manager

    def set_model(self, model):
        super().set_model(model)
        optimizer = getattr(model, "optimizer", None)
        if optimizer is not None and getattr(optimizer, "built", True):
            self._total_batches_seen = int(np.asarray(optimizer.iterations.numpy()))

    def on_train_begin(self, logs=None):
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is not None:
            self._total_batches_seen = int(np.asarray(optimizer.iterations.numpy()))

    def _best_allows(self, logs, where):
        if not self.save_best_only:
            return True
        if self.monitor_op is None:
            self._set_monitor_op()
        current = (logs or {}).get(self.monitor)
        if current is None:
            warnings.warn(
                f"OrbaxCheckpoint saves the best model only when '{self.monitor}' is logged; it is not, so "
                f"nothing is saved at {where}. Logged: {sorted(logs or {})}.",
                stacklevel=3,
            )
            return False
        if not self._is_improvement(float(current), self.best):
            return False
        self.best = float(current)
        return True

    def _save(self, step):
        manager = self._open()
        if manager.latest_step() is not None and step <= manager.latest_step():
            return  # a step is written once (a resumed run may meet a step it saved before)
        manager.save(step, args=self._ocp.args.PyTreeSave(_state_of(self.model, self.save_weights_only)))
        if not self.save_on_background:
            manager.wait_until_finished()
        if self.verbose:
            print(f"OrbaxCheckpoint: saved step {step} in {self.directory}")

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        self._total_batches_seen += 1
        self._since_last_save += 1
        if self._since_last_save >= self.save_freq:
            self._since_last_save = 0
            if self._best_allows(logs, f"batch {batch}"):
                self._save(self._total_batches_seen)

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch" and self._best_allows(logs, f"epoch {epoch}"):
            self._save(epoch)

    def on_train_end(self, logs=None):
        self.wait_until_finished()
        if self._manager is not None:
            self._manager.close()
            self._manager = None

    def wait_until_finished(self):
        """Waits for the checkpoints being written in the background."""
        if self._manager is not None:
            self._manager.wait_until_finished()
