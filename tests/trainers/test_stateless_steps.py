"""The stateless side of the trainer on every engine: ``compute_loss_and_updates`` / ``stateless_compute_loss`` as
pure functions of the state, and ``train_step`` / ``test_step`` / ``predict_step`` overrides that take
``(state, data)`` (the JAX style), written here with ``hl.ops.value_and_grad`` so that they run on every engine."""

import numpy as np
import pytest

import highlevel as hl

RNG = np.random.default_rng(0)
X = RNG.normal(size=(32, 4)).astype("float32")
Y = (X @ RNG.normal(size=(4, 1))).astype("float32")


def _f(tensor):
    return float(hl.ops.convert_to_numpy(tensor))


def _split(values, metric):
    return values[: len(metric.variables)], values[len(metric.variables) :]


class StateModel(hl.Model):
    """A model trained the JAX way: every step a pure function of the state it receives."""

    def compute_loss_and_updates(self, trainable_variables, non_trainable_variables, x, y, training=False):
        y_pred, non_trainable_variables = self.stateless_call(
            trainable_variables, non_trainable_variables, x, training=training
        )
        return self.compute_loss(x, y, y_pred), (y_pred, non_trainable_variables)

    def _metrics_step(self, metrics_variables, loss, y, y_pred):
        logs, new = {}, []
        for metric in self.metrics:
            mine, metrics_variables = _split(metrics_variables, metric)
            if metric.name == "loss":
                mine = metric.stateless_update_state(mine, loss)
            else:
                mine = metric.stateless_update_state(mine, y, y_pred)
            logs[metric.name] = metric.stateless_result(mine)
            new += mine
        return logs, new

    def train_step(self, state, data):
        trainable_variables, non_trainable_variables, optimizer_variables, metrics_variables = state
        x, y = data
        grad_fn = hl.ops.value_and_grad(self.compute_loss_and_updates, has_aux=True)
        (loss, (y_pred, non_trainable_variables)), grads = grad_fn(
            trainable_variables, non_trainable_variables, x, y, training=True
        )
        trainable_variables, optimizer_variables = self.optimizer.stateless_apply(
            optimizer_variables, grads, trainable_variables
        )
        logs, metrics_variables = self._metrics_step(metrics_variables, loss, y, y_pred)
        return logs, (trainable_variables, non_trainable_variables, optimizer_variables, metrics_variables)

    def test_step(self, state, data):
        trainable_variables, non_trainable_variables, metrics_variables = state
        x, y = data
        loss, (y_pred, non_trainable_variables) = self.compute_loss_and_updates(
            trainable_variables, non_trainable_variables, x, y
        )
        logs, metrics_variables = self._metrics_step(metrics_variables, loss, y, y_pred)
        return logs, (trainable_variables, non_trainable_variables, metrics_variables)

    def predict_step(self, state, data):
        trainable_variables, non_trainable_variables = state
        x, _, _ = hl.utils.unpack_x_y_sample_weight(data)
        outputs, non_trainable_variables = self.stateless_call(trainable_variables, non_trainable_variables, x)
        return outputs * 1.0, non_trainable_variables


def _state_model(cls=StateModel):
    hl.utils.set_random_seed(1)
    inputs = hl.Input((4,))
    h = hl.layers.Dense(8)(inputs)
    h = hl.layers.BatchNormalization()(h)
    return cls(inputs, hl.layers.Dense(1)(h))


def test_state_style_steps_train_evaluate_and_predict(backend, tmp_path):
    model = _state_model()
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="mse", metrics=["mae"])
    moving_mean = model.non_trainable_variables[0].numpy().copy()
    start = model.evaluate(X, Y, verbose=0, return_dict=True)
    history = model.fit(X, Y, epochs=8, batch_size=16, verbose=0).history
    assert set(history) == {"loss", "mae"}
    assert history["loss"][-1] < 0.5 * history["loss"][0]
    # The non-trainable state the step returned was written back: batch norm's statistics moved.
    assert not np.allclose(model.non_trainable_variables[0].numpy(), moving_mean)
    end = model.evaluate(X, Y, verbose=0, return_dict=True)
    assert end["loss"] < 0.5 * start["loss"] and end["mae"] < start["mae"]
    predicted = model.predict(X, verbose=0)
    np.testing.assert_allclose(
        np.mean((predicted - Y) ** 2), end["loss"], rtol=1e-4
    )  # predict_step(state, data) gives the outputs
    path = str(tmp_path / "state_model.keras")
    model.save(path)
    loaded = hl.models.load_model(path, custom_objects={"StateModel": StateModel})
    np.testing.assert_allclose(loaded.predict(X, verbose=0), predicted, rtol=1e-5, atol=1e-6)


def test_compute_loss_and_updates_is_pure(backend):
    model = _state_model(hl.Model)
    model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse")
    model.fit(X[:4], Y[:4], epochs=1, verbose=0)  # builds the metrics and the optimizer
    before = [v.numpy().copy() for v in model.variables + model.metrics_variables]
    tv, ntv, mv = model.trainable_variables, model.non_trainable_variables, model.metrics_variables
    loss, (unscaled, y_pred, new_ntv, new_mv) = model.compute_loss_and_updates(
        tv, ntv, mv, X, Y, None, training=True, optimizer_variables=model.optimizer.variables
    )
    for b, v in zip(before, model.variables + model.metrics_variables):
        np.testing.assert_array_equal(v.numpy(), b)
    expected = np.mean((model.predict(X, verbose=0) - Y) ** 2)
    assert _f(unscaled) == pytest.approx(_f(loss))
    assert tuple(y_pred.shape) == (32, 1)
    # training=True: the batch statistics were computed, in the values returned only.
    assert not np.allclose(hl.ops.convert_to_numpy(new_ntv[0]), model.non_trainable_variables[0].numpy())
    assert len(new_mv) == len(mv)
    # Other weights give another loss: the function reads the values given, not the variables.
    zeros = [hl.ops.zeros_like(v.value) for v in tv]
    zero_loss, _ = model.stateless_compute_loss(zeros, ntv, mv, x=X, y=Y, y_pred=hl.ops.zeros((32, 1)))
    assert _f(zero_loss) == pytest.approx(float(np.mean(Y**2)), rel=1e-5)
    eval_loss, _ = model.compute_loss_and_updates(tv, ntv, mv, X, Y, None)
    assert _f(eval_loss) == pytest.approx(float(expected), rel=1e-4)


def test_compute_loss_and_updates_scales_with_the_optimizer_state(backend):
    model = _state_model(hl.Model)
    model.compile(optimizer=hl.optimizers.SGD(0.1, loss_scale_factor=8.0), loss="mse")
    model.fit(X[:4], Y[:4], epochs=1, verbose=0)
    tv, ntv, mv = model.trainable_variables, model.non_trainable_variables, model.metrics_variables
    loss, (unscaled, *_) = model.compute_loss_and_updates(
        tv, ntv, mv, X, Y, None, training=True, optimizer_variables=model.optimizer.variables
    )
    assert _f(loss) == pytest.approx(8.0 * _f(unscaled), rel=1e-5)


def test_stateless_compute_loss_wrong_lengths(backend):
    model = _state_model(hl.Model)
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match=r"stateless_compute_loss\(\).*`trainable_variables`.*\(6\).*received 1"):
        model.stateless_compute_loss(model.trainable_variables[:1], [], [], x=X, y=Y, y_pred=Y)


class BadReturn(hl.Model):
    def train_step(self, state, data):
        return {"loss": hl.ops.zeros(())}, state[:2]


def test_state_style_step_that_returns_a_wrong_state(backend):
    model = _state_model(BadReturn)
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match=r"train_step\(state, data\) must return the new state as a tuple of 4 lists"):
        model.fit(X, Y, epochs=1, verbose=0)


class SuperStateModel(hl.Model):
    """Extends the trainer's own steps in the JAX style, through ``super()``."""

    def train_step(self, state, data):
        logs, state = super().train_step(state, data)
        return dict(logs, steps=hl.ops.convert_to_tensor(1.0)), state

    def test_step(self, state, data):
        logs, state = super().test_step(state, data)
        return dict(logs, evaluated=hl.ops.convert_to_tensor(1.0)), state

    def predict_step(self, state, data):
        outputs, non_trainable = super().predict_step(state, data)
        return outputs + 100.0, non_trainable


def test_state_style_steps_through_super(backend):
    model = _state_model(SuperStateModel)
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="mse", metrics=["mae"])
    moving_mean = model.non_trainable_variables[0].numpy().copy()
    history = model.fit(X, Y, epochs=8, batch_size=16, verbose=0).history
    assert {"loss", "mae", "steps"} <= set(history)
    assert history["loss"][-1] < 0.5 * history["loss"][0]
    assert not np.allclose(model.non_trainable_variables[0].numpy(), moving_mean)
    logs = model.evaluate(X, Y, verbose=0, return_dict=True)
    assert logs["evaluated"] == 1.0 and logs["loss"] < 0.5 * history["loss"][0]
    predicted = model.predict(X, verbose=0) - 100.0
    np.testing.assert_allclose(np.mean((predicted - Y) ** 2), logs["loss"], rtol=1e-3)
