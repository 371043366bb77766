"""JAX's own way of training a highlevel model: pure functions of the state under ``jax.jit`` and ``jax.grad``, as
Keras 3's JAX guides teach them ("Writing a training loop from scratch", "Customizing what happens in fit()")."""

import numpy as np
import pytest

import highlevel as keras

jax = pytest.importorskip("jax")

RNG = np.random.default_rng(0)
X = RNG.normal(size=(64, 8)).astype("float32")
LABELS = np.argmax(X @ RNG.normal(size=(8, 3)), axis=1)
Y = np.eye(3, dtype="float32")[LABELS]


@pytest.fixture(autouse=True)
def jax_engine():
    if "jax" not in keras.backends.installed():
        pytest.skip("jax is not installed")
    with keras.config.backend_scope("jax"):
        keras.utils.set_random_seed(0)
        yield


def _classifier():
    inputs = keras.Input(shape=(8,), name="digits")
    x1 = keras.layers.Dense(16, activation="relu")(inputs)
    outputs = keras.layers.Dense(3, name="predictions")(x1)
    return keras.Model(inputs=inputs, outputs=outputs)


def test_training_loop_from_scratch(tmp_path):
    model = _classifier()
    loss_fn = keras.losses.CategoricalCrossentropy(from_logits=True)
    optimizer = keras.optimizers.Adam(learning_rate=1e-2)
    train_acc_metric = keras.metrics.CategoricalAccuracy()

    def compute_loss_and_updates(trainable_variables, non_trainable_variables, metric_variables, x, y):
        y_pred, non_trainable_variables = model.stateless_call(trainable_variables, non_trainable_variables, x)
        loss = loss_fn(y, y_pred)
        metric_variables = train_acc_metric.stateless_update_state(metric_variables, y, y_pred)
        return loss, (non_trainable_variables, metric_variables)

    grad_fn = jax.value_and_grad(compute_loss_and_updates, has_aux=True)

    @jax.jit
    def train_step(state, data):
        trainable_variables, non_trainable_variables, optimizer_variables, metric_variables = state
        x, y = data
        (loss, (non_trainable_variables, metric_variables)), grads = grad_fn(
            trainable_variables, non_trainable_variables, metric_variables, x, y
        )
        trainable_variables, optimizer_variables = optimizer.stateless_apply(
            optimizer_variables, grads, trainable_variables
        )
        return loss, (trainable_variables, non_trainable_variables, optimizer_variables, metric_variables)

    optimizer.build(model.trainable_variables)
    # The first step takes the variables themselves, as the guide writes it.
    state = (model.trainable_variables, model.non_trainable_variables, optimizer.variables, train_acc_metric.variables)
    before = [v.numpy().copy() for v in model.trainable_variables]
    losses, accuracies = [], []
    for _ in range(15):
        for i in range(0, 64, 16):
            loss, state = train_step(state, (X[i : i + 16], Y[i : i + 16]))
            losses.append(float(loss))
        trainable_variables, non_trainable_variables, optimizer_variables, metric_variables = state
        accuracies.append(float(train_acc_metric.stateless_result(metric_variables)))
        state = (
            trainable_variables,
            non_trainable_variables,
            optimizer_variables,
            train_acc_metric.stateless_reset_state(),
        )
    assert losses[-1] < 0.5 * losses[0]
    assert accuracies[-1] > accuracies[0] and accuracies[-1] >= 0.9
    # Nothing was assigned until the loop writes the state back.
    for b, v in zip(before, model.trainable_variables):
        np.testing.assert_array_equal(v.numpy(), b)
    trainable_variables, non_trainable_variables, optimizer_variables, _ = state
    for variable, value in zip(model.trainable_variables, trainable_variables):
        variable.assign(value)
    for variable, value in zip(model.non_trainable_variables, non_trainable_variables):
        variable.assign(value)
    for variable, value in zip(optimizer.variables, optimizer_variables):
        variable.assign(value)
    assert int(optimizer.iterations.numpy()) == 60
    predicted = model.predict(X, verbose=0)
    assert np.mean(np.argmax(predicted, axis=1) == LABELS) >= 0.9
    path = str(tmp_path / "scratch.keras")
    model.save(path)
    np.testing.assert_allclose(keras.models.load_model(path).predict(X, verbose=0), predicted, rtol=1e-5, atol=1e-6)


def test_jax_grad_over_stateless_call():
    layer = keras.layers.Dense(2)
    x = X[:5, :3]
    layer(x)
    kernel, bias = (v.numpy() for v in layer.trainable_variables)

    def loss(trainable_variables):
        y, _ = layer.stateless_call(trainable_variables, [], x)
        return keras.ops.sum(y**2)

    grads = jax.jit(jax.grad(loss))([v.value for v in layer.trainable_variables])
    y = x @ kernel + bias
    np.testing.assert_allclose(np.asarray(grads[0]), 2 * x.T @ y, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(grads[1]), 2 * y.sum(axis=0), rtol=1e-5, atol=1e-5)


def test_metric_state_under_jit():
    metric = keras.metrics.MeanAbsoluteError()
    update = jax.jit(metric.stateless_update_state)
    state = update(metric.variables, Y[:8], np.zeros_like(Y[:8]))
    state = update(state, Y[8:16], np.ones_like(Y[8:16]))
    expected = (np.abs(Y[:8]).mean() + np.abs(Y[8:16] - 1).mean()) / 2
    assert float(jax.jit(metric.stateless_result)(state)) == pytest.approx(expected, rel=1e-6)
    assert float(metric.result()) == 0.0


def test_variables_are_pytrees_of_their_value():
    v = keras.Variable(np.arange(3.0, dtype="float32"))
    leaves = jax.tree_util.tree_leaves({"w": v, "n": 2})
    assert [np.asarray(leaf).tolist() for leaf in leaves] == [2, [0.0, 1.0, 2.0]]
    doubled = jax.tree_util.tree_map(lambda a: a * 2, [v])
    assert np.asarray(doubled[0]).tolist() == [0.0, 2.0, 4.0] and v.numpy().tolist() == [0.0, 1.0, 2.0]


class CustomModel(keras.Model):
    traced = []

    def compute_loss_and_updates(self, trainable_variables, non_trainable_variables, x, y, training=False):
        y_pred, non_trainable_variables = self.stateless_call(
            trainable_variables, non_trainable_variables, x, training=training
        )
        loss = self.compute_loss(x, y, y_pred)
        return loss, (y_pred, non_trainable_variables)

    def train_step(self, state, data):
        trainable_variables, non_trainable_variables, optimizer_variables, metrics_variables = state
        CustomModel.traced.append(isinstance(trainable_variables[0], jax.core.Tracer))
        x, y = data
        grad_fn = jax.value_and_grad(self.compute_loss_and_updates, has_aux=True)
        (loss, (y_pred, non_trainable_variables)), grads = grad_fn(
            trainable_variables, non_trainable_variables, x, y, training=True
        )
        trainable_variables, optimizer_variables = self.optimizer.stateless_apply(
            optimizer_variables, grads, trainable_variables
        )
        new_metrics_vars, logs = [], {}
        for metric in self.metrics:
            this_metric_vars = metrics_variables[len(new_metrics_vars) : len(new_metrics_vars) + len(metric.variables)]
            if metric.name == "loss":
                this_metric_vars = metric.stateless_update_state(this_metric_vars, loss)
            else:
                this_metric_vars = metric.stateless_update_state(this_metric_vars, y, y_pred)
            logs[metric.name] = metric.stateless_result(this_metric_vars)
            new_metrics_vars += this_metric_vars
        state = (trainable_variables, non_trainable_variables, optimizer_variables, new_metrics_vars)
        return logs, state


@pytest.mark.parametrize("run_eagerly", [False, True], ids=["jit", "eager"])
def test_custom_train_step_under_fit(tmp_path, run_eagerly):
    inputs = keras.Input(shape=(8,))
    outputs = keras.layers.Dense(1)(keras.layers.Dense(16, activation="relu")(inputs))
    model = CustomModel(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="mse", metrics=["mae"], run_eagerly=run_eagerly)
    y = X @ RNG.normal(size=(8, 1)).astype("float32")
    CustomModel.traced.clear()
    history = model.fit(X, y, batch_size=16, epochs=10, verbose=0).history
    assert history["loss"][-1] < 0.5 * history["loss"][0] and history["mae"][-1] < history["mae"][0]
    if run_eagerly:  # every batch ran the Python step on concrete arrays
        assert len(CustomModel.traced) == 40 and not any(CustomModel.traced)
    else:  # traced by jax.jit (on tracers), then run compiled: not once per batch
        assert CustomModel.traced and all(CustomModel.traced) and len(CustomModel.traced) < 40
    predicted = model.predict(X, verbose=0)
    path = str(tmp_path / "custom.keras")
    model.save(path)
    loaded = keras.models.load_model(path, custom_objects={"CustomModel": CustomModel})
    np.testing.assert_allclose(loaded.predict(X, verbose=0), predicted, rtol=1e-5, atol=1e-6)
