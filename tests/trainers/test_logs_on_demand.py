"""Logs on demand: with no callback reading batch logs, fit and evaluate run a lean step (state updates only)
and compute the metrics' results once at the end; the numbers are those of the full step."""

import numpy as np

import highlevel as hl


def _data(n=70, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 5)).astype("float32")
    y = rng.integers(0, 3, size=(n,))
    return x, y


def _model():
    hl.utils.set_random_seed(4)
    model = hl.Sequential([hl.Input((5,)), hl.layers.Dense(8, activation="relu"), hl.layers.Dense(3)])
    model.compile(
        optimizer=hl.optimizers.Adam(0.01),
        loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    return model


class _ReadsBatchLogs(hl.callbacks.Callback):
    """A callback that reads every batch's logs, which forces the full steps."""

    def __init__(self):
        super().__init__()
        self.train, self.test = [], []

    def on_train_batch_end(self, batch, logs=None):
        self.train.append(dict(logs))

    def on_test_batch_end(self, batch, logs=None):
        self.test.append(dict(logs))


def _run(callbacks):
    x, y = _data()
    model = _model()
    # 70 samples in batches of 16: the last batch is partial, so the epoch's results weigh batches by size.
    history = model.fit(
        x, y, batch_size=16, epochs=3, verbose=0, shuffle=False, validation_split=0.2, callbacks=callbacks
    )
    result = model.evaluate(x, y, batch_size=32, verbose=0, return_dict=True, callbacks=callbacks)
    return model, history.history, result


def test_lean_steps_give_the_full_steps_numbers(backend):
    lean_model, lean_history, lean_result = _run([])
    reader = _ReadsBatchLogs()
    full_model, full_history, full_result = _run([reader])
    # Which steps ran: lean without a reader, the full ones with it.
    assert lean_model._lean_train_function is not None and lean_model._train_function is None
    assert lean_model._lean_test_function is not None and lean_model._test_function is None
    assert full_model._train_function is not None and full_model._lean_train_function is None
    assert full_model._test_function is not None and full_model._lean_test_function is None
    assert set(lean_history) == {"loss", "accuracy", "val_loss", "val_accuracy"}
    for key, values in full_history.items():
        np.testing.assert_allclose(lean_history[key], values, rtol=1e-6, err_msg=key)
    assert set(lean_result) == set(full_result) == {"loss", "accuracy"}
    for key, value in full_result.items():
        np.testing.assert_allclose(lean_result[key], value, rtol=1e-6, err_msg=key)
    # The last batch's logs a reader saw are the evaluation's result (the full steps return running results).
    np.testing.assert_allclose(reader.test[-1]["loss"], full_result["loss"], rtol=1e-6)
    for a, b in zip(lean_model.get_weights(), full_model.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6)


class _OwnMetrics(hl.Sequential):
    """Overrides compute_metrics (as a Keras user may): its logs must reach evaluate, so no lean step."""

    def compute_metrics(self, x, y, y_pred, sample_weight=None):
        logs = super().compute_metrics(x, y, y_pred, sample_weight)
        logs["twice_loss"] = logs["loss"] * 2.0
        return logs


def test_an_overridden_metric_method_keeps_the_full_step(backend):
    x, y = _data()
    hl.utils.set_random_seed(4)
    model = _OwnMetrics([hl.Input((5,)), hl.layers.Dense(3)])
    model.compile(optimizer="sgd", loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(x, y, batch_size=16, epochs=1, verbose=0)
    result = model.evaluate(x, y, batch_size=16, verbose=0, return_dict=True)
    assert model._lean_train_function is None and model._lean_test_function is None
    assert set(history.history) == {"loss", "twice_loss"}
    np.testing.assert_allclose(result["twice_loss"], 2.0 * result["loss"], rtol=1e-6)


def test_evaluate_returns_the_same_with_and_without_a_progress_bar(backend, capsys):
    # The progress bar reads batch logs (full steps); verbose=0 reads none (a lean step): same list returned.
    x, y = _data()
    model = _model()
    quiet = model.evaluate(x, y, batch_size=16, verbose=0)
    shown = model.evaluate(x, y, batch_size=16, verbose=1)
    assert model._lean_test_function is not None and model._test_function is not None
    assert "accuracy" in capsys.readouterr().out
    np.testing.assert_allclose(quiet, shown, rtol=1e-6)
