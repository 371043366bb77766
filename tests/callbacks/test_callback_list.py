"""CallbackList: per-batch hooks are skipped when no callback defines them, and called when one does."""

import numpy as np
import pytest

import highlevel as hl


class _OnlyOne(hl.callbacks.Callback):
    """Records the calls of the one hook it defines (set per test)."""

    def __init__(self, hook):
        super().__init__()
        self.calls = []
        setattr(self, hook, lambda batch, logs=None: self.calls.append((batch, logs)))


@pytest.mark.parametrize(
    "hook", ["on_predict_batch_begin", "on_predict_batch_end", "on_test_batch_begin", "on_test_batch_end"]
)
def test_a_callback_defining_a_single_batch_hook_gets_every_call(backend, hook):
    x = np.arange(20, dtype="float32").reshape(10, 2)
    y = np.zeros((10, 1), "float32")
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    cb = _OnlyOne(hook)
    assert hl.callbacks.CallbackList([cb]).needs_predict_batch_hooks == hook.startswith("on_predict")
    if hook.startswith("on_predict"):
        pred = model.predict(x, batch_size=4, verbose=0, callbacks=[cb])
    else:
        model.evaluate(x, y, batch_size=4, verbose=0, callbacks=[cb])
    assert [batch for batch, _ in cb.calls] == [0, 1, 2]
    if hook == "on_predict_batch_end":
        np.testing.assert_array_equal(np.concatenate([logs["outputs"] for _, logs in cb.calls]), pred)
    if hook == "on_test_batch_end":
        assert all(set(logs) == {"loss"} for _, logs in cb.calls)


def test_no_batch_hook_is_needed_without_callbacks():
    callbacks = hl.callbacks.CallbackList([hl.callbacks.History()])
    assert not callbacks.needs_predict_batch_hooks and not callbacks.needs_test_batch_begin
    assert not callbacks.needs_train_batch_logs and not callbacks.needs_test_batch_logs


def test_begin_and_end_hooks_receive_a_dict_as_logs(backend):
    import numpy as np

    import highlevel as hl

    received = {}

    class Recorder(hl.callbacks.Callback):
        def _record(self, hook, logs):
            received[hook] = logs
            logs["touched_by"] = hook  # a Keras callback may write into logs without checking for None

        def on_train_begin(self, logs=None):
            self._record("train_begin", logs)

        def on_epoch_begin(self, epoch, logs=None):
            self._record("epoch_begin", logs)

        def on_test_begin(self, logs=None):
            self._record("test_begin", logs)

        def on_predict_begin(self, logs=None):
            self._record("predict_begin", logs)

        def on_predict_end(self, logs=None):
            self._record("predict_end", logs)

    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x, y = np.ones((4, 2), "float32"), np.ones((4, 1), "float32")
    model.fit(x, y, epochs=1, verbose=0, callbacks=[Recorder()])
    model.evaluate(x, y, verbose=0, callbacks=[Recorder()])
    model.predict(x, verbose=0, callbacks=[Recorder()])
    assert set(received) == {"train_begin", "epoch_begin", "test_begin", "predict_begin", "predict_end"}
    assert all(isinstance(logs, dict) for logs in received.values())
