"""SpectralNormalization (and the Wrapper base) vs Keras 3: the training call's normalized kernel and output,
inference, configs, errors, and a model that learns and reloads."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers

from ..core.keras_oracle import assert_config_round_trip, keras_module

RNG = np.random.default_rng(5)


def _by_name(layer):
    return {w.path.split("/")[-1]: w for w in layer.weights}


@pytest.mark.parametrize(
    "make,shape,iterations,token_ids",
    [
        (lambda m: m.layers.Dense(4), (3, 5), 1, False),
        (lambda m: m.layers.Dense(3, use_bias=False), (2, 6), 3, False),
        (lambda m: m.layers.Conv2D(2, 3), (1, 5, 5, 2), 2, False),
        (lambda m: m.layers.Embedding(7, 4), (2, 3), 1, True),
    ],
)
def test_matches_keras(backend, make, shape, iterations, token_ids):
    keras = keras_module()
    x = RNG.integers(0, 7, size=shape).astype("int32") if token_ids else RNG.normal(size=shape).astype("float32")
    ours = layers.SpectralNormalization(make(hl), power_iterations=iterations)
    theirs = keras.layers.SpectralNormalization(make(keras), power_iterations=iterations)
    ours(hl.ops.convert_to_tensor(x))
    theirs(x)
    for name, w in _by_name(ours).items():
        w.assign(RNG.normal(size=tuple(w.shape)).astype("float32"))
        _by_name(theirs)[name].assign(np.asarray(hl.ops.convert_to_numpy(w.value)))
    got = hl.ops.convert_to_numpy(ours(hl.ops.convert_to_tensor(x), training=True))
    want = np.asarray(theirs(x, training=True))
    if token_ids:  # Keras casts the looked-up vectors to the ids' integer dtype; highlevel keeps floats
        assert got.dtype == np.float32
        want = np.asarray(theirs.layer.embeddings.numpy())[x]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    for name, w in _by_name(ours).items():
        np.testing.assert_allclose(
            hl.ops.convert_to_numpy(w.value), np.asarray(_by_name(theirs)[name].numpy()), rtol=1e-4, atol=1e-6
        )


def test_training_normalizes_and_inference_does_not(backend):
    dense = layers.Dense(5, kernel_initializer=hl.initializers.RandomNormal(stddev=2.0, seed=1))
    layer = layers.SpectralNormalization(dense, power_iterations=30)
    x = hl.ops.ones((2, 4))
    layer(x)
    before = hl.ops.convert_to_numpy(dense.kernel.value)
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(layer(x)), hl.ops.convert_to_numpy(dense(x)))
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(dense.kernel.value), before)
    layer(x, training=True)
    after = hl.ops.convert_to_numpy(dense.kernel.value)
    np.testing.assert_allclose(np.linalg.svd(after, compute_uv=False)[0], 1.0, rtol=1e-4)
    np.testing.assert_allclose(after * np.linalg.svd(before, compute_uv=False)[0], before, rtol=1e-3, atol=1e-5)


def test_zero_kernel_is_left_alone(backend):
    dense = layers.Dense(3, kernel_initializer="zeros")
    layer = layers.SpectralNormalization(dense)
    layer(hl.ops.ones((1, 2)), training=True)
    assert not np.isnan(hl.ops.convert_to_numpy(dense.kernel.value)).any()
    assert (hl.ops.convert_to_numpy(dense.kernel.value) == 0).all()


def test_config_and_errors(backend):
    layer = layers.SpectralNormalization(layers.Dense(2, name="inner"), power_iterations=2)
    config = layer.get_config()
    assert config["power_iterations"] == 2 and config["layer"]["class_name"] == "Dense"
    assert_config_round_trip(layer, np.ones((2, 3), "float32"))
    assert len(layer.trainable_weights) == 2 and [w.path.split("/")[-1] for w in layer.non_trainable_weights] == [
        "vector_u"
    ]
    with pytest.raises(ValueError, match="power_iterations"):
        layers.SpectralNormalization(layers.Dense(2), power_iterations=0)
    with pytest.raises(ValueError, match="kernel"):
        layers.SpectralNormalization(layers.Flatten())(hl.ops.ones((1, 2)))
    with pytest.raises(ValueError, match="wraps a layer"):
        layers.SpectralNormalization("dense")


def test_wrapper_subclass_round_trips(backend):
    class Negated(layers.Wrapper):
        def call(self, inputs):
            return -self.layer(inputs)

    layer = Negated(layers.Dense(2, kernel_initializer="ones"))
    y = hl.ops.convert_to_numpy(layer(hl.ops.ones((1, 3))))
    assert y.tolist() == [[-3.0, -3.0]] and layer.compute_output_shape((1, 3)) == (1, 2)
    again = Negated.from_config(layer.get_config())
    assert isinstance(again.layer, layers.Dense) and again.layer.units == 2


def test_fit_learns_and_reloads(backend, tmp_path):
    hl.utils.set_random_seed(0)
    x = RNG.normal(size=(64, 4)).astype("float32")
    y = (x[:, :1] - 0.5 * x[:, 1:2] > 0).astype("float32")
    model = hl.Sequential(
        [
            hl.Input((4,)),
            layers.SpectralNormalization(layers.Dense(16, activation="relu")),
            layers.Dense(1, activation="sigmoid"),
        ]
    )
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="binary_crossentropy")
    start = float(model.evaluate(x, y, verbose=0))
    model.fit(x, y, batch_size=16, epochs=20, verbose=0)
    assert float(model.evaluate(x, y, verbose=0)) < 0.5 * start
    path = str(tmp_path / "sn.keras")
    model.save(path)
    loaded = hl.saving.load_model(path)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6, atol=1e-7)
