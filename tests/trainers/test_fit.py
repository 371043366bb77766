"""compile / fit / evaluate / predict on every backend."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops


def regression_data(n=96, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 6)).astype("float32")
    y = (x[:, :1] * 1.5 - x[:, 1:2] + 0.3).astype("float32")
    return x, y


def mlp(units=16, outputs=1):
    return hl.Sequential([hl.Input((6,)), hl.layers.Dense(units, activation="tanh"), hl.layers.Dense(outputs)])


def test_fit_reduces_the_loss_and_returns_history(backend):
    hl.utils.set_random_seed(1)
    x, y = regression_data()
    model = mlp()
    model.compile(optimizer=hl.optimizers.Adam(0.02), loss="mse", metrics=["mae"])
    history = model.fit(x, y, batch_size=16, epochs=5, verbose=0)
    assert set(history.history) == {"loss", "mae"}
    assert history.epoch == [0, 1, 2, 3, 4]
    losses = history.history["loss"]
    assert losses[-1] < 0.5 * losses[0]
    result = model.evaluate(x, y, verbose=0, return_dict=True)
    assert set(result) == {"loss", "mae"}
    pred = model.predict(x, batch_size=40, verbose=0)
    assert isinstance(pred, np.ndarray) and pred.shape == (96, 1)
    np.testing.assert_allclose(np.mean((pred - y) ** 2), result["loss"], rtol=1e-4)


def test_validation_split_and_data(backend):
    hl.utils.set_random_seed(2)
    x, y = regression_data()
    model = mlp()
    model.compile(optimizer="sgd", loss="mse")
    h = model.fit(x, y, epochs=2, validation_split=0.25, verbose=0)
    assert set(h.history) == {"loss", "val_loss"}
    h = model.fit(x, y, epochs=3, validation_data=(x[:10], y[:10]), validation_freq=2, verbose=0)
    assert len(h.history["loss"]) == 3 and len(h.history["val_loss"]) == 1


def test_single_batch_methods(backend):
    x, y = regression_data(32)
    model = mlp()
    model.compile(optimizer="sgd", loss="mse", metrics=["mse"])
    logs = model.train_on_batch(x, y, return_dict=True)
    assert set(logs) == {"loss", "mse"}
    loss, mse = model.test_on_batch(x, y)
    assert np.isclose(loss, mse, rtol=1e-5)
    assert model.predict_on_batch(x).shape == (32, 1)


def test_sample_weight_zero_ignores_samples(backend):
    x, y = regression_data(32)
    model = mlp()
    model.compile(optimizer="sgd", loss="mse")
    w = np.zeros(32, "float32")
    w[:8] = 1.0
    full = model.evaluate(x[:8], y[:8], verbose=0)
    weighted = model.evaluate(x, y, sample_weight=w, verbose=0, batch_size=32)
    # sum_over_batch_size: the weighted sum divided by the batch size
    np.testing.assert_allclose(weighted, full * 8 / 32, rtol=1e-5)


def test_custom_train_step_override(backend):
    """The documented override pattern: a subclass writes its own step with hl.ops."""

    class HalfStep(hl.Model):
        def __init__(self):
            super().__init__()
            self.dense = hl.layers.Dense(1)

        def call(self, x, training=None):
            return self.dense(x)

        def train_step(self, data):
            x, y = data

            def loss_fn():
                y_pred = self(x, training=True)
                return self.compute_loss(x=x, y=y, y_pred=y_pred), y_pred

            (loss, _), grads = hl.config.current_backend().variables_value_and_grad(loss_fn, self.trainable_variables)
            self.optimizer.apply([g * 0.5 for g in grads], self.trainable_variables)
            self._loss_tracker.update_state(loss)
            return {"loss": self._loss_tracker.result()}

    hl.utils.set_random_seed(3)
    x, y = regression_data(64)
    model = HalfStep()
    model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse")
    h = model.fit(x, y, batch_size=16, epochs=3, verbose=0)
    assert h.history["loss"][-1] < h.history["loss"][0]


@pytest.mark.parametrize(
    "bad,match",
    [
        (lambda m, x, y: m.fit(x, y[:-1], verbose=0), "same number of samples"),
        (lambda m, x, y: m.fit(x[:0], y[:0], verbose=0), "0 samples"),
        (lambda m, x, y: m.fit(iter([]), verbose=0), "yielded no batches"),
        (
            lambda m, x, y: m.fit(x, y, class_weight={0: 1.0}, sample_weight=np.ones(len(x)), verbose=0),
            "class_weight` and `sample_weight",
        ),
        (lambda m, x, y: m.fit(x, y, batch_size=0, verbose=0), "batch_size must be an integer >= 1"),
    ],
)
def test_bad_data_errors(backend, bad, match):
    x, y = regression_data(16)
    model = mlp()
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match=match):
        bad(model, x, y)


def test_fit_before_compile_is_explained(backend):
    model = mlp()
    with pytest.raises(ValueError, match="must call model.compile"):
        model.fit(*regression_data(8), verbose=0)


def test_generators_and_py_dataset(backend):
    x, y = regression_data(64)

    def gen():
        while True:
            for i in range(0, 64, 16):
                yield x[i : i + 16], y[i : i + 16]

    class Data(hl.utils.PyDataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return x[i * 16 : (i + 1) * 16], y[i * 16 : (i + 1) * 16]

    model = mlp()
    model.compile(optimizer="sgd", loss="mse")
    h1 = model.fit(gen(), steps_per_epoch=4, epochs=2, verbose=0)
    h2 = model.fit(Data(workers=2), epochs=2, verbose=0)
    assert len(h1.history["loss"]) == 2 and len(h2.history["loss"]) == 2


def test_dict_inputs_and_two_outputs(backend):
    a = hl.Input((3,), name="a")
    b = hl.Input((2,), name="b")
    h = hl.layers.Concatenate()([a, b])
    out1 = hl.layers.Dense(1, name="reg")(h)
    out2 = hl.layers.Dense(3, name="cls")(h)
    model = hl.Model({"a": a, "b": b}, {"reg": out1, "cls": out2})
    model.compile(
        optimizer="adam",
        loss={"reg": "mse", "cls": "sparse_categorical_crossentropy"},
        loss_weights={"reg": 1.0, "cls": 0.5},
    )
    rng = np.random.default_rng(0)
    xa, xb = rng.normal(size=(20, 3)).astype("float32"), rng.normal(size=(20, 2)).astype("float32")
    yr, yc = rng.normal(size=(20, 1)).astype("float32"), rng.integers(0, 3, 20)
    h = model.fit({"a": xa, "b": xb}, {"reg": yr, "cls": yc}, epochs=1, verbose=0)
    assert {"loss", "reg_loss", "cls_loss"} <= set(h.history)
    pred = model.predict({"a": xa, "b": xb}, verbose=0)
    assert pred["reg"].shape == (20, 1) and pred["cls"].shape == (20, 3)


def test_freezing_a_layer_between_fits_takes_effect(backend):
    # The compiled step (jax.jit, tf.function, the eager engines' replay) is made again when the trainable
    # variables changed since it was made, so a layer frozen between two fits stays as it was.
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(32, 6)).astype("float32"), rng.integers(0, 3, size=(32,))
    first = hl.layers.Dense(5, activation="relu")
    model = hl.Sequential([hl.Input((6,)), first, hl.layers.Dense(3)])
    model.compile(optimizer="adam", loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(x, y, batch_size=8, epochs=1, verbose=0)
    first.trainable = False
    frozen = first.kernel.numpy().copy()
    head = model.layers[-1].kernel.numpy().copy()
    model.fit(x, y, batch_size=8, epochs=1, verbose=0)
    np.testing.assert_array_equal(first.kernel.numpy(), frozen)
    assert not np.array_equal(model.layers[-1].kernel.numpy(), head)  # the rest still trains
    first.trainable = True
    model.fit(x, y, batch_size=8, epochs=1, verbose=0)
    assert not np.array_equal(first.kernel.numpy(), frozen)


@pytest.mark.parametrize("jit_compile", ["auto", False])
def test_inference_steps_record_no_autodiff_graph(backend, jit_compile):
    """predict and evaluate run their steps with graph recording off on the engines that record as they go
    (native, PyTorch; as Keras runs its PyTorch inference steps under ``torch.no_grad``); fit still trains."""
    x, y = regression_data(32)
    model = mlp()
    model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse", metrics=["mae"], jit_compile=jit_compile)
    model.evaluate(x, y, batch_size=16, verbose=0)
    model.predict(x, batch_size=16, verbose=0)
    for _ in range(2):  # recorded, then replayed (on native and PyTorch)
        out = model._make_predict_function()(model._to_tensors((x,)))
        assert not getattr(out, "requires_grad", False)
        logs = model._make_test_function()(model._to_tensors((x, y)))
        assert not any(getattr(v, "requires_grad", False) for v in logs.values())
    kernel = np.array(model.layers[0].kernel.numpy())
    model.fit(x, y, batch_size=16, epochs=1, verbose=0)
    assert not np.allclose(kernel, model.layers[0].kernel.numpy())


def test_evaluate_and_predict_leave_the_data_untouched(backend):
    """The batches are slices of the user's arrays (shared, not copied, where the engine allows): the data keeps
    its values and flags, and the results are those of batches converted one by one."""
    x, y = regression_data(40)
    x0, y0 = x.copy(), y.copy()
    model = mlp()
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    pred = model.predict(x, batch_size=16, verbose=0)
    logs = model.evaluate(x, y, batch_size=16, verbose=0, return_dict=True)
    np.testing.assert_array_equal(x, x0)
    np.testing.assert_array_equal(y, y0)
    assert x.flags.writeable and y.flags.writeable
    by_batch = np.concatenate([model.predict_on_batch(x[i : i + 16]) for i in range(0, 40, 16)])
    np.testing.assert_array_equal(pred, by_batch)
    x[:] = 0.0  # the user changes the data afterwards: nothing of ours changes with it
    np.testing.assert_array_equal(pred, by_batch)
    assert model.evaluate(x0, y0, batch_size=16, verbose=0, return_dict=True) == logs


class _CountsInference(hl.layers.Layer):
    """Adds up the samples it sees in inference: a layer that assigns a weight in predict and evaluate."""

    def build(self, input_shape):
        self.seen = self.add_weight(shape=(), initializer="zeros", trainable=False, name="seen")

    def call(self, x, training=False):
        if not training:
            self.seen.assign_add(ops.sum(ops.ones_like(x[:, 0])))
        return x


@pytest.mark.parametrize("jit_compile", ["auto", False])
def test_a_layer_that_updates_a_weight_in_inference_keeps_its_updates(backend, jit_compile):
    """Inference steps are compiled expecting the weights to be only read (JAX passes them in and not back);
    a layer that does assign one in predict or evaluate still has every update kept."""
    x, y = regression_data(40)
    counter = _CountsInference()
    model = hl.Sequential([hl.Input((6,)), counter, hl.layers.Dense(1)])  # (the symbolic build counts nothing)
    model(x[:1])  # one sample seen
    model.compile(optimizer="sgd", loss="mse", jit_compile=jit_compile)
    pred = model.predict(x, batch_size=16, verbose=0)
    assert float(counter.seen.numpy()) == 41.0
    model.predict(x, batch_size=16, verbose=0)
    assert float(counter.seen.numpy()) == 81.0
    model.evaluate(x, y, batch_size=16, verbose=0)  # (its first call also runs a batch to build the loss)
    seen = float(counter.seen.numpy())
    model.evaluate(x, y, batch_size=16, verbose=0)
    assert float(counter.seen.numpy()) == seen + 40.0
    np.testing.assert_allclose(model.predict(x, batch_size=16, verbose=0), pred, rtol=1e-6)


def test_a_custom_train_step_receives_x_itself_when_there_are_no_targets(backend):
    """As in Keras: ``fit(x)`` hands ``train_step`` the batch ``x`` itself, not ``(x,)``."""
    seen = []

    class Autoencoder(hl.Model):
        def __init__(self):
            super().__init__()
            self.dense = hl.layers.Dense(6)

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            seen.append(type(data))
            return super().train_step((data, data))

    x, _ = regression_data(32)
    model = Autoencoder()
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="mse", run_eagerly=True)
    history = model.fit(x, batch_size=16, epochs=4, verbose=0)
    assert seen and not any(issubclass(t, (tuple, list)) for t in seen), seen
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]


def test_a_train_step_may_use_optimizers_the_model_holds_besides_its_own(backend, step_mode):
    """A GAN's pattern: two networks, each with its own optimizer held as a model attribute and applied in a
    custom train_step; their slots are state of the (compiled) step, so both networks learn."""

    class TwoHeads(hl.Model):
        def __init__(self):
            super().__init__()
            self.a = hl.layers.Dense(1)
            self.b = hl.layers.Dense(1)
            self.opt_a = hl.optimizers.Adam(0.05)
            self.opt_b = hl.optimizers.Adam(0.05)

        def call(self, x):
            return self.a(x) + self.b(x)

        def train_step(self, data):
            x, y = data
            grad = hl.config.current_backend().variables_value_and_grad
            (loss_a, _), grads = grad(lambda: (ops.mean(ops.square(self.a(x) - y)), None), self.a.trainable_weights)
            self.opt_a.apply(grads, self.a.trainable_weights)
            (loss_b, _), grads = grad(lambda: (ops.mean(ops.square(self.b(x) - y)), None), self.b.trainable_weights)
            self.opt_b.apply(grads, self.b.trainable_weights)
            return {"loss_a": loss_a, "loss_b": loss_b}

    hl.utils.set_random_seed(2)
    x, y = regression_data(64)
    model = TwoHeads()
    model.compile(**step_mode)
    model(x[:1])
    model.opt_a.build(model.a.trainable_weights)
    model.opt_b.build(model.b.trainable_weights)
    history = model.fit(x, y, batch_size=16, epochs=6, verbose=0)
    for name in ("loss_a", "loss_b"):
        assert history.history[name][-1] < 0.5 * history.history[name][0], history.history
    assert int(np.asarray(ops.convert_to_numpy(model.opt_a.iterations))) == 6 * 4


def test_an_unbuilt_optimizer_first_applied_inside_a_step_builds_once(backend):
    """An optimizer first used inside a training step builds there; on an engine that records the step for
    replay, creating its slots stops the recording and the step runs again eagerly: the optimizer must not be
    left marked built without its slots."""

    class Model(hl.Model):
        def __init__(self):
            super().__init__()
            self.dense = hl.layers.Dense(1)
            self.own = hl.optimizers.Adam(0.05)

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            x, y = data
            (loss, _), grads = hl.config.current_backend().variables_value_and_grad(
                lambda: (ops.mean(ops.square(self(x) - y)), None), self.trainable_weights
            )
            self.own.apply(grads, self.trainable_weights)
            return {"loss": loss}

    hl.utils.set_random_seed(2)
    x, y = regression_data(64)
    model = Model()
    # Compiled the engine's way (the recorded replay on native and PyTorch); a jax.jit trace cannot create
    # variables at all, so there the step runs eagerly (build the optimizer before fit to compile it).
    model.compile(**({"run_eagerly": True} if backend.name == "jax" else {}))
    history = model.fit(x, y, batch_size=16, epochs=5, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    assert len(model.own.variables) == 2 + 2 * 2  # iterations, learning rate; two slots per weight
