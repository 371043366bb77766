"""ConvLSTM1D/2D/3D: outputs and gradients vs Keras 3 with the same weights, masks, states, stateful use,
configs, save/load, argument errors, and a short fit that learns, on every backend."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.core.keras_oracle import assert_grads_match_keras, keras_module, to_numpy
from tests.layers.layer_test_helper import run_layer_test

RNG = np.random.default_rng(0)
INPUTS = {
    1: RNG.normal(size=(2, 4, 7, 2)).astype("float32"),
    2: RNG.normal(size=(2, 3, 5, 6, 2)).astype("float32"),
    3: RNG.normal(size=(1, 3, 4, 4, 5, 1)).astype("float32"),
}
MASK = np.array([[True, True, False, False], [False, True, True, True]])


def _pair(rank, **kwargs):
    keras = keras_module()
    x = INPUTS[rank]
    ours = getattr(layers, f"ConvLSTM{rank}D")(3, 3, **kwargs)
    theirs = getattr(keras.layers, f"ConvLSTM{rank}D")(3, 3, **kwargs)
    ours(x)
    theirs(x)
    theirs.set_weights(ours.get_weights())
    return ours, theirs


def _assert_same(ours, theirs, atol=1e-5):
    ours = ours if isinstance(ours, (list, tuple)) else [ours]
    theirs = theirs if isinstance(theirs, (list, tuple)) else [theirs]
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(to_numpy(a), np.asarray(b), atol=atol, rtol=atol)


CONFIGS = [
    {},
    {"padding": "same", "return_sequences": True, "return_state": True},
    {"go_backwards": True, "return_state": True, "strides": 2},
    {"dilation_rate": 2, "padding": "same", "use_bias": False, "activation": "relu"},
]


@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(sorted(c)) or "default")
def test_matches_keras(backend, rank, config):
    ours, theirs = _pair(rank, **config)
    x = INPUTS[rank]
    _assert_same(ours(x), theirs(x))


def test_mask_and_initial_state_match_keras(backend):
    ours, theirs = _pair(1, padding="same", return_sequences=True, return_state=True)
    x = INPUTS[1]
    _assert_same(ours(x, mask=hl.ops.convert_to_tensor(MASK)), theirs(x, mask=MASK))
    h0, c0 = (RNG.normal(size=(2, 7, 3)).astype("float32") for _ in range(2))
    _assert_same(ours(x, initial_state=[h0, c0]), theirs(x, initial_state=[h0, c0]))


def test_gradients_match_keras(backend):
    keras = keras_module()
    ours = layers.ConvLSTM2D(2, 3, padding="same", return_sequences=True)
    theirs = keras.layers.ConvLSTM2D(2, 3, padding="same", return_sequences=True)
    assert_grads_match_keras(ours, theirs, INPUTS[2], atol=1e-4)


def test_channels_first_equals_channels_last(backend):
    x = INPUTS[2]
    last = layers.ConvLSTM2D(3, 3, return_sequences=True)
    first = layers.ConvLSTM2D(3, 3, return_sequences=True, data_format="channels_first")
    last(x)
    first(np.moveaxis(x, -1, 2))
    first.set_weights(last.get_weights())
    got = to_numpy(first(np.moveaxis(x, -1, 2)))
    np.testing.assert_allclose(np.moveaxis(got, 2, -1), to_numpy(last(x)), atol=1e-5)


def test_weights_shapes_and_forget_bias():
    layer = layers.ConvLSTM2D(4, (3, 2))
    layer(INPUTS[2])
    assert [tuple(w.shape) for w in layer.weights] == [(3, 2, 2, 16), (3, 2, 4, 16), (16,)]
    np.testing.assert_array_equal(to_numpy(layer.cell.bias), [0] * 4 + [1] * 4 + [0] * 8)
    assert layer.filters == 4 and layer.kernel_size == (3, 2) and layer.padding == "valid"


def test_symbolic_shapes():
    inp = hl.Input((5, 8, 8, 3))
    out, h, c = layers.ConvLSTM2D(2, 3, strides=2, return_sequences=True, return_state=True)(inp)
    assert out.shape == (None, 5, 3, 3, 2) and h.shape == (None, 3, 3, 2) and c.shape == (None, 3, 3, 2)


def test_stateful_carries_states(backend):
    x = INPUTS[1]
    layer = layers.ConvLSTM1D(2, 3, padding="same", stateful=True)
    fresh = layers.ConvLSTM1D(2, 3, padding="same")
    first = to_numpy(layer(x))
    fresh(x)
    fresh.set_weights([to_numpy(v.value) for v in layer.trainable_weights])
    np.testing.assert_allclose(first, to_numpy(fresh(x)), atol=1e-5)
    second = to_numpy(layer(x))
    assert not np.allclose(first, second, atol=1e-4)  # started from the carried states
    layer.reset_state()
    np.testing.assert_allclose(to_numpy(layer(x)), first, atol=1e-5)


def test_dropout_in_training_only(backend):
    layer = layers.ConvLSTM1D(3, 3, dropout=0.5, recurrent_dropout=0.5, seed=1)
    x = INPUTS[1]
    a = to_numpy(layer(x))
    np.testing.assert_allclose(a, to_numpy(layer(x)), atol=1e-6)
    assert not np.allclose(a, to_numpy(layer(x, training=True)), atol=1e-4)


def test_config_round_trip_and_save_load(backend, tmp_path):
    layer = layers.ConvLSTM2D(2, 3, padding="same", return_sequences=True, dropout=0.1, seed=3)
    config = layer.get_config()
    again = layers.ConvLSTM2D.from_config(config)
    assert again.get_config() == config
    keras_config = keras_module().layers.ConvLSTM2D(2, 3).get_config()
    assert set(keras_config) <= set(config) | {"build_config"}
    model = hl.Sequential([hl.Input((3, 5, 6, 2)), layer, layers.GlobalAveragePooling3D()])
    path = str(tmp_path / "m.keras")
    model.save(path)
    loaded = hl.saving.load_model(path)
    np.testing.assert_allclose(
        to_numpy(loaded.predict(INPUTS[2], verbose=0)), to_numpy(model.predict(INPUTS[2], verbose=0)), atol=1e-6
    )


def test_errors():
    with pytest.raises(ValueError, match="rank 5"):
        layers.ConvLSTM2D(2, 3)(np.zeros((2, 3, 4, 4), "float32"))
    with pytest.raises(ValueError, match="filters"):
        layers.ConvLSTM2D(0, 3)
    with pytest.raises(ValueError, match="static spatial"):
        layers.ConvLSTM2D(2, 3)(hl.Input((3, None, 4, 1)))


def _moving_squares(n, seed):
    """Frames (n, 4, 6, 6, 1) of a 2x2 square moving right (label 1) or left (label 0)."""
    rng = np.random.default_rng(seed)
    x = np.zeros((n, 4, 6, 6, 1), "float32")
    y = rng.integers(0, 2, size=n)
    for i in range(n):
        row = rng.integers(0, 5)
        col = rng.integers(0, 3)
        for t in range(4):
            c = col + t if y[i] else col + 3 - t
            x[i, t, row : row + 2, c : c + 2 + 0, 0] = 1.0
    return x, y.astype("float32")


def test_fit_learns_motion_direction(backend):
    hl.utils.set_random_seed(0)
    x, y = _moving_squares(48, 0)
    model = hl.Sequential(
        [
            hl.Input((4, 6, 6, 1)),
            layers.ConvLSTM2D(4, 3, padding="same"),
            layers.GlobalAveragePooling2D(),
            layers.Dense(1, activation="sigmoid"),
        ]
    )
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="binary_crossentropy", metrics=["accuracy"])
    start = model.evaluate(x, y, verbose=0, return_dict=True)
    model.fit(x, y, epochs=25, batch_size=16, verbose=0)
    end = model.evaluate(x, y, verbose=0, return_dict=True)
    assert end["loss"] < 0.5 * start["loss"], (start, end)
    assert end["accuracy"] > 0.9


@pytest.mark.parametrize(
    "name, kwargs, input_shape, out_shape",
    [
        ("ConvLSTM1D", {"return_sequences": True}, (2, 3, 6, 2), (2, 3, 4, 3)),
        ("ConvLSTM2D", {"padding": "same"}, (2, 3, 4, 4, 2), (2, 4, 4, 3)),
        ("ConvLSTM3D", {}, (1, 2, 3, 3, 3, 1), (1, 1, 1, 1, 3)),
    ],
)
def test_standard_layer_checks(backend, name, kwargs, input_shape, out_shape):
    run_layer_test(
        getattr(layers, name),
        {"filters": 3, "kernel_size": 3, **kwargs},
        input_shape=input_shape,
        expected_output_shape=out_shape,
        expected_num_trainable_weights=3,
        expected_num_non_trainable_weights=0,
        supports_masking=True,
        atol=1e-5,
        rtol=1e-5,
    )
