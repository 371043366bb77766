"""``LambdaCallback``: a callback made of plain functions, one per hook.

>>> calls = []
>>> cb = LambdaCallback(on_epoch_end=lambda epoch, logs: calls.append(("epoch_end", epoch)),
...                     on_test_begin=lambda logs: calls.append("test_begin"))
>>> cb.on_epoch_begin(0, {}); cb.on_epoch_end(0, {}); cb.on_test_begin({})
>>> calls
[('epoch_end', 0), 'test_begin']
"""

from .callback import Callback


def _hook_names():
    return sorted(n for n in dir(Callback) if n.startswith("on_") and callable(getattr(Callback, n)))


class LambdaCallback(Callback):
    """A callback built from functions (``keras.callbacks.LambdaCallback``); hooks not given do nothing.

    The functions take the hook's positional arguments: ``on_epoch_begin``/``on_epoch_end`` take
    ``(epoch, logs)``, ``on_train_begin``/``on_train_end`` (and the test/predict ones) take ``(logs)``, the
    batch hooks take ``(batch, logs)``.

    Args:
        on_epoch_begin: called at the start of every epoch.
        on_epoch_end: called at the end of every epoch.
        on_train_begin: called when training starts.
        on_train_end: called when training ends.
        on_train_batch_begin: called before every training batch.
        on_train_batch_end: called after every training batch.
        **kwargs: any other hook of :class:`Callback` by name, e.g. ``on_test_end=fn``.

    Raises:
        ValueError: if a keyword names no known hook.
        TypeError: if a hook is not callable.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> seen = []
    >>> log_epochs = hl.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append(epoch))
    >>> _ = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0, callbacks=[log_epochs])
    >>> seen
    [0, 1]
    """

    def __init__(
        self,
        on_epoch_begin=None,
        on_epoch_end=None,
        on_train_begin=None,
        on_train_end=None,
        on_train_batch_begin=None,
        on_train_batch_end=None,
        **kwargs,
    ):
        super().__init__()
        hooks = dict(
            kwargs,
            on_epoch_begin=on_epoch_begin,
            on_epoch_end=on_epoch_end,
            on_train_begin=on_train_begin,
            on_train_end=on_train_end,
            on_train_batch_begin=on_train_batch_begin,
            on_train_batch_end=on_train_batch_end,
        )
        known = _hook_names()
        for name, fn in hooks.items():
            if name not in known:
                # Keras accepts any keyword silently; a typo would then never be called, so reject it.
                raise ValueError(f"LambdaCallback received an unknown hook {name!r}. Known hooks: {known}.")
            if fn is None:
                continue
            if not callable(fn):
                raise TypeError(f"LambdaCallback hook {name} must be a function; received {fn!r}.")
            setattr(self, name, fn)
