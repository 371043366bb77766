"""The override hooks Keras users rely on in a custom model: Keras 2's ``compiled_loss``/``compiled_metrics`` (kept,
deprecated, by Keras 3), ``compute_loss``, ``compute_metrics``, the order and content of ``self.metrics``. Each
test shows the override changing what ``fit`` does."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops


def _data(n=64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5]], "float32") + 0.3).astype("float32")
    return x, y


def _grads(loss_fn, variables):
    return hl.config.current_backend().variables_value_and_grad(loss_fn, variables)


class Keras2Style(hl.Model):
    """The custom train_step of Keras 2's guide: compiled_loss, then compiled_metrics, then self.metrics."""

    def train_step(self, data):
        x, y = data

        def loss_fn():
            y_pred = self(x, training=True)
            return self.compiled_loss(y, y_pred, regularization_losses=self.losses), y_pred

        (loss, y_pred), grads = _grads(loss_fn, self.trainable_variables)
        self.optimizer.apply(grads, self.trainable_variables)
        self.compiled_metrics.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


def _dense_model(cls):
    inputs = hl.Input((3,))
    return cls(inputs, hl.layers.Dense(1)(inputs))


def test_compiled_loss_and_compiled_metrics_train_and_report_as_in_keras_2(backend):
    x, y = _data()
    model = _dense_model(Keras2Style)
    model.compile(optimizer=hl.optimizers.Adam(0.1), loss="mse", metrics=["mae"])
    with pytest.warns(DeprecationWarning, match="compiled_loss"):
        history = model.fit(x, y, epochs=15, batch_size=16, verbose=0).history
    assert [m.name for m in model.metrics][:2] == ["loss", "mae"]
    assert history["loss"][-1] < 0.5 * history["loss"][0]
    assert history["mae"][-1] < 0.5 * history["mae"][0]
    # the model evaluate sees has learned what the reported loss says
    assert model.evaluate(x, y, verbose=0)[0] < 0.5 * history["loss"][0]


def test_compiled_loss_adds_the_regularization_losses_it_is_given(backend):
    x, y = _data(16)
    inputs = hl.Input((3,))
    model = hl.Model(inputs, hl.layers.Dense(1, kernel_regularizer=hl.regularizers.L2(10.0))(inputs))
    model.compile(optimizer="sgd", loss="mse")
    y_pred = model(x)
    with pytest.warns(DeprecationWarning):
        plain = float(ops.convert_to_numpy(model.compiled_loss(y, y_pred)))
        total = float(ops.convert_to_numpy(model.compiled_loss(y, y_pred, regularization_losses=model.losses)))
    kernel = ops.convert_to_numpy(model.layers[-1].kernel)
    np.testing.assert_allclose(total - plain, 10.0 * float((kernel**2).sum()), rtol=1e-4)


def test_compiled_loss_before_compile_says_what_to_do(backend):
    model = _dense_model(hl.Model)
    with pytest.raises(ValueError, match="compile"):
        model.compiled_loss(np.zeros((2, 1)), np.zeros((2, 1)))


class PullTowardsThree(hl.Model):
    """compute_loss ignores the targets: the model learns to predict 3."""

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        return ops.mean(ops.square(y_pred - 3.0))


def test_a_compute_loss_override_is_what_fit_minimises(backend):
    x, y = _data()
    model = _dense_model(PullTowardsThree)
    model.compile(optimizer=hl.optimizers.Adam(0.1), loss="mse")
    model.fit(x, y, epochs=20, batch_size=16, verbose=0)
    assert abs(float(model.predict(x, verbose=0).mean()) - 3.0) < 0.3


class CountingMetrics(hl.Model):
    """compute_metrics reports a value of its own besides the compiled ones."""

    def compute_metrics(self, x, y, y_pred, sample_weight=None):
        logs = super().compute_metrics(x, y, y_pred, sample_weight)
        logs["mean_prediction"] = ops.mean(y_pred)
        return logs


def test_a_compute_metrics_override_adds_to_the_logs_of_fit_and_evaluate(backend):
    x, y = _data(32)
    model = _dense_model(CountingMetrics)
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    history = model.fit(x, y, epochs=1, batch_size=32, verbose=0).history
    assert set(history) == {"loss", "mae", "mean_prediction"}
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    np.testing.assert_allclose(logs["mean_prediction"], model.predict(x, verbose=0).mean(), rtol=1e-4, atol=1e-5)


class WithTracker(hl.Model):
    """A metric held as an attribute, updated in train_step: fit resets and reports it, after the loss."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.batches_seen = hl.metrics.Sum(name="batches_seen")

    def train_step(self, data):
        logs = super().train_step(data)
        self.batches_seen.update_state(1.0)
        return {**logs, "batches_seen": self.batches_seen.result()}


def test_metrics_held_as_attributes_come_after_the_loss_and_are_reset_each_epoch(backend):
    x, y = _data(32)
    inputs = hl.Input((3,))
    model = WithTracker(inputs, hl.layers.Dense(1)(inputs))
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    history = model.fit(x, y, epochs=3, batch_size=8, verbose=0).history
    assert [m.name for m in model.metrics] == ["loss", "mae", "batches_seen"]
    assert history["batches_seen"] == [4.0, 4.0, 4.0]  # reset at each epoch's start, as Keras does
