"""The first ``fit`` of a built graph model builds its loss and metrics from the outputs' shapes, not a forward pass.

A forward pass on the first batch (in inference mode, before training) used to build the compiled loss and
metrics: a batch's compute for nothing, one program per op on an engine that compiles eager ops (JAX), and a call
that a layer with side effects could see. A functional or Sequential model knows its outputs' shapes: zeros of
those shapes build everything (and create the variables of metrics that make them on their first update, then
reset). A subclassed model's ``call`` may return anything: it still gets the forward pass. So does every model on
an engine that settles a variable's layout on its first use (``layouts_set_on_first_use``: PyTorch's column-major
dense kernels), so that the optimizer's slots and a data-parallel wrapper are made to the layout the steps use.
"""

import numpy as np

import highlevel as hl
from highlevel import layers


class CallLog(layers.Layer):
    """The identity, noting the ``training`` flag of every call on real tensors (run eagerly: one per batch)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.calls = []

    def call(self, inputs, training=None):
        if not hl.utils.is_keras_tensor(inputs):  # a graph model's construction calls it on symbolic tensors
            self.calls.append(bool(training))
        return inputs


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype("float32")
    labels = (x[:, 0] + x[:, 1] > 0).astype("int64")
    return x, np.eye(2, dtype="float32")[labels]


def _compile(model):
    model.compile(
        optimizer=hl.optimizers.Adam(0.05),
        loss="categorical_crossentropy",
        metrics=["accuracy", hl.metrics.F1Score(average="macro")],  # F1 makes its variables on its first update
        run_eagerly=True,
    )


def test_functional_and_sequential_models_train_without_a_forward_pass_first(backend):
    x, y = _data()
    for kind in ("functional", "sequential"):
        log = CallLog()
        if kind == "functional":
            inputs = hl.Input((4,))
            model = hl.Model(
                inputs, layers.Dense(2, activation="softmax")(layers.Dense(8, activation="relu")(log(inputs)))
            )
        else:
            model = hl.Sequential(
                [hl.Input((4,)), log, layers.Dense(8, activation="relu"), layers.Dense(2, activation="softmax")]
            )
        _compile(model)
        history = model.fit(x, y, batch_size=16, epochs=6, verbose=0)
        # 4 batches x 6 epochs, each in training mode only; first the inference-mode pass that settles the layouts
        first = [False] if hl.config.current_backend().capabilities.layouts_set_on_first_use else []
        assert log.calls == first + [True] * 24, (kind, log.calls[:6])
        assert history.history["loss"][-1] < 0.6 * history.history["loss"][0], (kind, history.history["loss"])
        assert history.history["accuracy"][-1] > 0.85, (kind, history.history["accuracy"])
        # the F1 score whose variables the stand-ins made counts only real batches: it is the F1 of the predictions
        got = model.evaluate(x, y, batch_size=16, verbose=0, return_dict=True)["f1_score"]
        np.testing.assert_allclose(float(np.asarray(got)), _macro_f1(y, model.predict(x, verbose=0)), rtol=1e-4)


def test_a_subclassed_model_still_gets_its_forward_pass(backend):
    x, y = _data()

    class Net(hl.Model):
        def __init__(self):
            super().__init__()
            self.log = CallLog()
            self.hidden = layers.Dense(8, activation="relu")
            self.out = layers.Dense(2, activation="softmax")

        def call(self, inputs, training=None):
            return self.out(self.hidden(self.log(inputs)))

    model = Net()
    _compile(model)
    history = model.fit(x, y, batch_size=16, epochs=6, verbose=0)
    # the first call builds it (inference mode), then 4 batches x 6 epochs
    assert log_calls(model) == [False] + [True] * 24
    assert history.history["loss"][-1] < 0.6 * history.history["loss"][0], history.history["loss"]


def _macro_f1(y, probabilities):
    truth, guess = y.argmax(1), probabilities.argmax(1)
    scores = []
    for c in range(y.shape[1]):
        tp = np.sum((guess == c) & (truth == c))
        precision, recall = tp / max(np.sum(guess == c), 1), tp / max(np.sum(truth == c), 1)
        scores.append(0.0 if tp == 0 else 2 * precision * recall / (precision + recall))
    return float(np.mean(scores))


def log_calls(model):
    return model.log.calls


def test_metrics_that_make_their_variables_on_their_first_update_work_in_compiled_steps(backend):
    # R2Score, F1Score and a multi-label AUC make their variables on their first update: the first batch makes them
    # (eagerly, from the stand-ins), then they are reset, and the compiled steps find them in place
    x, y = _data()
    model = hl.Sequential([hl.Input((4,)), layers.Dense(8, activation="relu"), layers.Dense(2, activation="softmax")])
    model.compile(
        optimizer=hl.optimizers.Adam(0.05),
        loss="categorical_crossentropy",
        metrics=[
            hl.metrics.F1Score(average="macro"),
            hl.metrics.R2Score(),
            hl.metrics.AUC(multi_label=True, name="auc"),
        ],
    )
    history = model.fit(x, y, batch_size=16, epochs=6, verbose=0)
    assert history.history["loss"][-1] < 0.6 * history.history["loss"][0], history.history["loss"]
    got = model.evaluate(x, y, batch_size=16, verbose=0, return_dict=True)
    p = model.predict(x, verbose=0)
    np.testing.assert_allclose(float(np.asarray(got["f1_score"])), _macro_f1(y, p), rtol=1e-4)
    r2 = np.mean(1 - np.sum((y - p) ** 2, 0) / np.sum((y - y.mean(0)) ** 2, 0))
    np.testing.assert_allclose(float(np.asarray(got["r2_score"])), r2, rtol=1e-3, atol=1e-4)
    assert float(np.asarray(got["auc"])) > 0.9, got
