"""``CallbackList``: calls every callback's hook in order, adding History and the progress bar for ``fit``."""

from highlevel import distribution

from .callback import Callback
from .history import History
from .progbar_logger import ProgbarLogger


class CallbackList(Callback):
    """A container that forwards each hook to its callbacks.

    Args:
        callbacks: the user's callbacks.
        add_history: append a :class:`History` (``fit`` returns it).
        add_progbar: append a :class:`ProgbarLogger` when ``verbose`` asks for output.
        model: the model, given to every callback.
        **params: ``epochs``, ``steps``, ``verbose``, set on every callback.

    Raises:
        TypeError: if an element of ``callbacks`` is not a Callback.

    >>> import highlevel as hl
    >>> callbacks = hl.callbacks.CallbackList([hl.callbacks.TerminateOnNaN()], add_history=True)
    >>> [type(cb).__name__ for cb in callbacks.callbacks]
    ['TerminateOnNaN', 'History']
    """

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None, **params):
        super().__init__()
        self.callbacks = list(callbacks or [])
        for cb in self.callbacks:
            if not isinstance(cb, Callback):
                raise TypeError(
                    f"Callbacks must be instances of hl.callbacks.Callback; received {type(cb).__name__}: {cb!r}."
                )
        if add_progbar and not any(isinstance(cb, ProgbarLogger) for cb in self.callbacks):
            self.callbacks.append(ProgbarLogger())
        # A multi-process run: only process 0 writes files and prints. The others keep the chief-only callbacks
        # aside: which step runs depends on the hooks defined (needs_train_batch_logs), and every process must
        # run the same step.
        self._chief_elsewhere = []
        if not distribution.is_chief():
            self._chief_elsewhere = [cb for cb in self.callbacks if getattr(cb, "chief_only", False)]
            self.callbacks = [cb for cb in self.callbacks if not getattr(cb, "chief_only", False)]
        self.history = None
        if add_history:
            self.history = next((cb for cb in self.callbacks if isinstance(cb, History)), None)
            if self.history is None:
                self.history = History()
                self.callbacks.append(self.history)
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def append(self, callback):
        self.callbacks.append(callback)

    def _overriding(self, *hooks):
        """The callbacks that define one of ``hooks`` themselves (not the base class's no-op)."""
        # A hook is defined by the callback's class or set on the instance (LambdaCallback does that).
        return [
            cb
            for cb in self.callbacks + self._chief_elsewhere
            if any(h in vars(cb) or getattr(type(cb), h) is not getattr(Callback, h) for h in hooks)
        ]

    @property
    def needs_train_batch_logs(self):
        """Whether a callback reads per-batch training logs. When none does (``verbose=0`` with History only),
        the trainer skips turning every step's logs into Python floats: on an asynchronous engine (JAX) that
        conversion waits for the step, which stops the next step from being queued behind it."""
        return bool(self._overriding("on_train_batch_end", "on_batch_end"))

    @property
    def needs_train_batch_begin(self):
        return bool(self._overriding("on_train_batch_begin", "on_batch_begin"))

    @property
    def needs_test_batch_logs(self):
        """Whether a callback reads per-batch evaluation logs (see :attr:`needs_train_batch_logs`)."""
        return bool(self._overriding("on_test_batch_end"))

    @property
    def needs_test_batch_begin(self):
        return bool(self._overriding("on_test_batch_begin"))

    @property
    def needs_predict_batch_hooks(self):
        """Whether a callback defines a per-batch ``predict`` hook; when none does, the trainer calls none (and
        builds no per-batch logs for them)."""
        return bool(self._overriding("on_predict_batch_begin", "on_predict_batch_end"))

    def set_params(self, params):
        self.params = params
        for cb in self.callbacks:
            cb.set_params(params)

    def set_model(self, model):
        self._model = model
        for cb in self.callbacks:
            cb.set_model(model)

    def _call(self, hook, *args):
        # Every hook receives a dict as ``logs`` (empty when there is nothing to report), as in Keras: a callback
        # may read or update it without checking for None.
        *head, logs = args
        args = (*head, {} if logs is None else logs)
        for cb in self.callbacks:
            getattr(cb, hook)(*args)

    def on_epoch_begin(self, epoch, logs=None):
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch, logs=None):
        self._call("on_epoch_end", epoch, logs)

    def on_train_begin(self, logs=None):
        self._call("on_train_begin", logs)

    def on_train_end(self, logs=None):
        self._call("on_train_end", logs)

    def on_test_begin(self, logs=None):
        self._call("on_test_begin", logs)

    def on_test_end(self, logs=None):
        self._call("on_test_end", logs)

    def on_predict_begin(self, logs=None):
        self._call("on_predict_begin", logs)

    def on_predict_end(self, logs=None):
        self._call("on_predict_end", logs)

    def on_train_batch_begin(self, batch, logs=None):
        logs = {} if logs is None else logs
        for cb in self.callbacks:
            cb.on_train_batch_begin(batch, logs)
            cb.on_batch_begin(batch, logs)

    def on_train_batch_end(self, batch, logs=None):
        logs = {} if logs is None else logs
        for cb in self.callbacks:
            cb.on_train_batch_end(batch, logs)
            cb.on_batch_end(batch, logs)

    def on_test_batch_begin(self, batch, logs=None):
        self._call("on_test_batch_begin", batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        self._call("on_test_batch_end", batch, logs)

    def on_predict_batch_begin(self, batch, logs=None):
        self._call("on_predict_batch_begin", batch, logs)

    def on_predict_batch_end(self, batch, logs=None):
        self._call("on_predict_batch_end", batch, logs)
