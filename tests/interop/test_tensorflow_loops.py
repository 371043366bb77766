"""TensorFlow's own tools on highlevel models: the tape, ``tf.function``, checkpoints, and ``train_step`` written
the TensorFlow way, as the Keras guides teach them (tensorflow backend only)."""

import numpy as np
import pytest

import highlevel as keras
from tests.conftest import selected_backends


@pytest.fixture
def tf():
    if "tensorflow" not in selected_backends():
        pytest.skip("the tensorflow backend is not selected")
    if "tensorflow" not in keras.backends.installed():
        pytest.skip("tensorflow is not installed")
    import tensorflow

    with keras.config.backend_scope("tensorflow"):
        yield tensorflow


def _data(n=250, seed=0):
    """Three separable classes in 4 features (250 rows: the last batch of 32 is short, so a step traces twice)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, size=n)
    centers = np.array([[2.0, 0, 0, 1], [0, 2.0, 0, -1], [0, 0, 2.0, 0]], dtype="float32")
    x = centers[y] + 0.3 * rng.standard_normal((n, 4)).astype("float32")
    return x.astype("float32"), y.astype("int32")


def _model():
    keras.utils.set_random_seed(1)
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(3)])


def test_tape_watches_variables(tf):
    v = keras.Variable(np.array([1.0, -2.0, 3.0], dtype="float32"))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v) + keras.ops.sum(v)
    grad = tape.gradient(y, v)
    np.testing.assert_allclose(grad.numpy(), [3.0, -3.0, 7.0])


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "tf_function"])
@pytest.mark.parametrize("update", ["apply", "apply_gradients"])
def test_guide_training_loop_learns_and_saves(tf, tmp_path, compiled, update):
    x, y = _data()
    model = _model()
    optimizer = keras.optimizers.Adam(learning_rate=0.01)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    train_acc = keras.metrics.SparseCategoricalAccuracy()
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)

    def train_step(xb, yb):
        with tf.GradientTape() as tape:
            logits = model(xb, training=True)
            loss_value = loss_fn(yb, logits)
        grads = tape.gradient(loss_value, model.trainable_weights)
        if update == "apply":
            optimizer.apply(grads, model.trainable_weights)
        else:
            optimizer.apply_gradients(zip(grads, model.trainable_weights))
        train_acc.update_state(yb, logits)
        return loss_value

    if compiled:
        train_step = tf.function(train_step)

    first_loss = float(loss_fn(y, model(x)))
    accuracies = []
    for _ in range(4):
        for xb, yb in dataset:
            train_step(xb, yb)
        accuracies.append(float(train_acc.result()))
        train_acc.reset_state()
    last_loss = float(loss_fn(y, model(x)))
    assert last_loss < 0.5 * first_loss, (first_loss, last_loss)
    assert accuracies[-1] > 0.9 and float(train_acc.result()) == 0.0

    path = tmp_path / "model.keras"
    model.save(path)
    loaded = keras.models.load_model(path)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-5, atol=1e-5)


def _checkpoint_round_trip(tf, tmp_path, root_kwargs, model):
    checkpoint = tf.train.Checkpoint(**root_kwargs)
    path = checkpoint.save(str(tmp_path / "ckpt"))
    saved = [w.numpy().copy() for w in model.weights]
    for w in model.weights:
        w.assign(np.zeros(w.shape, dtype="float32"))
    tf.train.Checkpoint(**root_kwargs).restore(path).assert_consumed()
    for before, w in zip(saved, model.weights):
        np.testing.assert_array_equal(w.numpy(), before)
    return path


def test_checkpoint_saves_and_restores_model_weights(tf, tmp_path):
    model = _model()
    path = _checkpoint_round_trip(tf, tmp_path, {"model": model}, model)
    stored = [name for name, _ in tf.train.list_variables(path) if name.startswith("model/")]
    assert len(stored) == len(model.weights) == 4


def test_model_inside_tf_module_is_tracked(tf, tmp_path):
    model = _model()
    module = tf.Module()
    module.net = model
    path = _checkpoint_round_trip(tf, tmp_path, {"module": module}, model)
    assert sum(name.startswith("module/net/") for name, _ in tf.train.list_variables(path)) == 4
    # A fresh model of the same architecture takes the weights from the checkpoint.
    other = _model()
    for w in other.weights:
        w.assign(np.ones(w.shape, dtype="float32"))
    holder = tf.Module()
    holder.net = other
    tf.train.Checkpoint(module=holder).restore(path).assert_existing_objects_matched()
    x, _ = _data(8)
    np.testing.assert_allclose(other.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)


def test_variable_in_tf_function(tf):
    v = keras.Variable(np.zeros(3, dtype="float32"))

    @tf.function
    def step(delta):
        v.assign_add(delta)
        return tf.reduce_sum(v)

    step(tf.ones(3))
    total = step(tf.ones(3))
    assert float(total) == 6.0
    np.testing.assert_array_equal(v.numpy(), [2.0, 2.0, 2.0])


class _TapeModel(keras.Model):
    """``train_step`` and ``test_step`` written as the TensorFlow version of the Keras guide writes them."""

    def train_step(self, data):
        import tensorflow as tf

        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply(gradients, trainable_vars)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        loss = self.compute_loss(y=y, y_pred=y_pred)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        logs = {m.name: m.result() for m in self.metrics}
        logs["max_abs_error"] = keras.ops.max(keras.ops.abs(y - y_pred))  # a key only this test_step reports
        return logs


def _regression(n=128, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 8)).astype("float32")
    w = rng.standard_normal((8, 1)).astype("float32")
    return x, (x @ w + 0.5).astype("float32")


@pytest.mark.parametrize("run_eagerly", [False, True], ids=["tf_function", "eager"])
def test_custom_train_step_with_tape_under_fit(tf, tmp_path, run_eagerly):
    keras.utils.set_random_seed(2)
    x, y = _regression()
    inputs = keras.Input(shape=(8,))
    outputs = keras.layers.Dense(1)(inputs)
    model = _TapeModel(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"], run_eagerly=run_eagerly)
    history = model.fit(x, y, batch_size=32, epochs=8, verbose=0)
    losses = history.history["loss"]
    assert set(history.history) >= {"loss", "mae"}
    assert losses[-1] < 0.5 * losses[0], losses
    assert history.history["mae"][-1] < history.history["mae"][0]

    results = model.evaluate(x, y, batch_size=32, verbose=0, return_dict=True)
    pred = model.predict(x, verbose=0)
    assert results["loss"] == pytest.approx(float(np.mean((pred - y) ** 2)), rel=1e-4)
    assert results["mae"] == pytest.approx(float(np.mean(np.abs(pred - y))), rel=1e-4)
    assert 0 < results["max_abs_error"] <= float(np.max(np.abs(pred - y))) + 1e-5

    path = tmp_path / "tape_model.keras"
    model.save(path)
    loaded = keras.models.load_model(path, custom_objects={"_TapeModel": _TapeModel})
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-5, atol=1e-5)


class _TrackedLossModel(keras.Model):
    """The guide's variant that keeps its own loss tracker and lists its metrics itself (compile without a loss)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.loss_tracker = keras.metrics.Mean(name="loss")
        self.mae_metric = keras.metrics.MeanAbsoluteError(name="mae")
        self.loss_fn = keras.losses.MeanSquaredError()

    def train_step(self, data):
        import tensorflow as tf

        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.loss_fn(y, y_pred)
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        self.mae_metric.update_state(y, y_pred)
        return {"loss": self.loss_tracker.result(), "mae": self.mae_metric.result()}

    @property
    def metrics(self):
        return [self.loss_tracker, self.mae_metric]


@pytest.mark.parametrize("run_eagerly", [False, True], ids=["tf_function", "eager"])
def test_custom_train_step_with_own_metrics(tf, run_eagerly):
    keras.utils.set_random_seed(3)
    x, y = _regression(seed=1)
    inputs = keras.Input(shape=(8,))
    model = _TrackedLossModel(inputs, keras.layers.Dense(1)(inputs))
    model.compile(optimizer=keras.optimizers.SGD(0.05), run_eagerly=run_eagerly)
    history = model.fit(x, y, batch_size=32, epochs=6, verbose=0)
    losses = history.history["loss"]
    assert losses[-1] < 0.5 * losses[0], losses
    # The trackers are reset at each epoch: the last epoch's mean loss is that epoch's alone.
    assert float(model.loss_tracker.count.numpy()) == pytest.approx(4.0)


class _GAN(keras.Model):
    """The guide's GAN: two tapes and two optimizers in one ``train_step``, its own loss trackers."""

    def __init__(self, discriminator, generator, latent_dim):
        super().__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.latent_dim = latent_dim
        self.seed_generator = keras.random.SeedGenerator(1337)
        self.d_loss_tracker = keras.metrics.Mean(name="d_loss")
        self.g_loss_tracker = keras.metrics.Mean(name="g_loss")

    @property
    def metrics(self):
        return [self.d_loss_tracker, self.g_loss_tracker]

    def compile(self, d_optimizer, g_optimizer, loss_fn, **kwargs):
        super().compile(**kwargs)
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer
        self.loss_fn = loss_fn

    def train_step(self, real):
        import tensorflow as tf

        if isinstance(real, tuple):
            real = real[0]
        batch_size = tf.shape(real)[0]
        # The discriminator learns to tell generated points (label 1) from real ones (label 0), noisy labels.
        latent = keras.random.normal(shape=(batch_size, self.latent_dim), seed=self.seed_generator)
        combined = tf.concat([self.generator(latent), real], axis=0)
        labels = tf.concat([tf.ones((batch_size, 1)), tf.zeros((batch_size, 1))], axis=0)
        labels += 0.05 * keras.random.uniform(tf.shape(labels), seed=self.seed_generator)
        with tf.GradientTape() as tape:
            d_loss = self.loss_fn(labels, self.discriminator(combined))
        grads = tape.gradient(d_loss, self.discriminator.trainable_weights)
        self.d_optimizer.apply_gradients(zip(grads, self.discriminator.trainable_weights))
        # The generator learns to make the discriminator call its points real.
        latent = keras.random.normal(shape=(batch_size, self.latent_dim), seed=self.seed_generator)
        with tf.GradientTape() as tape:
            g_loss = self.loss_fn(tf.zeros((batch_size, 1)), self.discriminator(self.generator(latent)))
        grads = tape.gradient(g_loss, self.generator.trainable_weights)
        self.g_optimizer.apply_gradients(zip(grads, self.generator.trainable_weights))
        self.d_loss_tracker.update_state(d_loss)
        self.g_loss_tracker.update_state(g_loss)
        return {"d_loss": self.d_loss_tracker.result(), "g_loss": self.g_loss_tracker.result()}


@pytest.mark.parametrize("run_eagerly", [False, True], ids=["tf_function", "eager"])
def test_gan_train_step_with_two_optimizers(tf, tmp_path, run_eagerly):
    keras.utils.set_random_seed(0)
    target = np.array([2.0, -1.0], dtype="float32")
    real = (target + 0.2 * np.random.default_rng(0).standard_normal((512, 2))).astype("float32")
    generator = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2)])
    discriminator = keras.Sequential(
        [keras.Input((2,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)]
    )
    gan = _GAN(discriminator, generator, latent_dim=2)
    d_optimizer, g_optimizer = keras.optimizers.Adam(0.01), keras.optimizers.Adam(0.01)
    gan.compile(d_optimizer, g_optimizer, keras.losses.BinaryCrossentropy(from_logits=True), run_eagerly=run_eagerly)
    latent = np.random.default_rng(1).standard_normal((256, 2)).astype("float32")
    start = np.linalg.norm(generator.predict(latent, verbose=0).mean(axis=0) - target)
    history = gan.fit(real, batch_size=64, epochs=16, verbose=0)
    end = np.linalg.norm(generator.predict(latent, verbose=0).mean(axis=0) - target)
    # The generated points move to the real ones: their mean gets much closer to the real mean.
    assert end < 0.4 * start, (start, end)
    assert set(history.history) == {"d_loss", "g_loss"}
    assert int(d_optimizer.iterations.numpy()) == int(g_optimizer.iterations.numpy()) == 16 * 8

    path = tmp_path / "generator.keras"
    generator.save(path)
    loaded = keras.models.load_model(path)
    np.testing.assert_allclose(loaded.predict(latent, verbose=0), generator.predict(latent, verbose=0), rtol=1e-6)


def _saved_affine(tf, path):
    """A SavedModel written with plain TensorFlow: ``x @ w + b``, its ``serve`` function and signature."""

    class Affine(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(np.arange(12, dtype="float32").reshape(4, 3) / 10)
            self.b = tf.Variable(np.ones(3, dtype="float32"))

        @tf.function(input_signature=[tf.TensorSpec((None, 4), tf.float32)])
        def serve(self, x):
            return tf.matmul(x, self.w) + self.b

    module = Affine()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.serve})
    return module.w.numpy(), module.b.numpy()


def test_tfsm_layer_calls_the_saved_model_and_shares_its_variables(tf, tmp_path):
    w, b = _saved_affine(tf, tmp_path / "affine")
    layer = keras.layers.TFSMLayer(tmp_path / "affine", call_endpoint="serve")
    x = np.random.default_rng(0).standard_normal((5, 4)).astype("float32")
    np.testing.assert_allclose(keras.ops.convert_to_numpy(layer(x)), x @ w + b, rtol=1e-5)
    assert [tuple(v.shape) for v in layer.trainable_weights] == [(4, 3), (3,)]
    layer.trainable_weights[1].assign(np.zeros(3, dtype="float32"))  # the SavedModel's own bias changes
    np.testing.assert_allclose(keras.ops.convert_to_numpy(layer(x)), x @ w, rtol=1e-5)
    by_signature = keras.layers.TFSMLayer(tmp_path / "affine", call_endpoint="serving_default")
    np.testing.assert_allclose(keras.ops.convert_to_numpy(by_signature(x)["output_0"]), x @ w + b, rtol=1e-5)
    with pytest.raises(ValueError, match=r"no endpoint 'predict'.*serving_default"):
        keras.layers.TFSMLayer(tmp_path / "affine", call_endpoint="predict")
    with pytest.raises(ValueError, match=r"call_endpoint must be an endpoint name.*received 3"):
        keras.layers.TFSMLayer(tmp_path / "affine", call_endpoint=3)


def test_tfsm_layer_fine_tunes_in_a_model_and_saves(tf, tmp_path):
    _saved_affine(tf, tmp_path / "affine")
    keras.utils.set_random_seed(4)
    inputs = keras.Input((4,))
    outputs = keras.layers.Dense(1)(keras.layers.TFSMLayer(tmp_path / "affine", call_endpoint="serve")(inputs))
    model = keras.Model(inputs, outputs)
    assert model.output_shape == (None, 1)
    x = np.random.default_rng(1).standard_normal((128, 4)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5], [0.0]], dtype="float32")).astype("float32")
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
    losses = model.fit(x, y, batch_size=32, epochs=10, verbose=0).history["loss"]
    assert losses[-1] < 0.5 * losses[0], losses

    path = tmp_path / "tuned.keras"
    model.save(path)
    with pytest.raises(ValueError, match="safe mode"):
        keras.models.load_model(path)
    loaded = keras.models.load_model(path, safe_mode=False)
    # The loaded model reads the SavedModel again and takes the fine-tuned weights from the .keras file.
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-5, atol=1e-5)


def test_tfsm_layer_needs_the_tensorflow_backend(tf, tmp_path):
    _saved_affine(tf, tmp_path / "affine")
    with keras.config.backend_scope("native"):
        with pytest.raises(ValueError, match="needs the tensorflow backend.*'native'"):
            keras.layers.TFSMLayer(tmp_path / "affine")


def test_model_exports_through_tf_saved_model_and_comes_back_as_tfsm_layer(tf, tmp_path):
    model = _model()
    module = tf.Module()
    module.net = model
    module.serve = tf.function(lambda x: model(x), input_signature=[tf.TensorSpec((None, 4), tf.float32)])
    tf.saved_model.save(module, str(tmp_path / "exported"))
    x, _ = _data(16)
    expected = model.predict(x, verbose=0)
    restored = tf.saved_model.load(str(tmp_path / "exported"))
    np.testing.assert_allclose(restored.serve(x).numpy(), expected, rtol=1e-6)
    layer = keras.layers.TFSMLayer(tmp_path / "exported", call_endpoint="serve")
    assert sorted(tuple(w.shape) for w in layer.weights) == sorted(tuple(w.shape) for w in model.weights)
    np.testing.assert_allclose(keras.ops.convert_to_numpy(layer(x)), expected, rtol=1e-6)
