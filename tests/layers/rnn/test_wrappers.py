"""Bidirectional and TimeDistributed vs Keras 3, their standard checks, configs and errors, on every backend."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.core.keras_oracle import (
    assert_config_round_trip,
    assert_grads_match_keras,
    assert_matches_keras,
    assert_symbolic_shape,
    keras_module,
    to_numpy,
)
from tests.layers.layer_test_helper import run_layer_test

RNG = np.random.default_rng(1)
X = RNG.normal(size=(3, 6, 4)).astype("float32")
MASK = np.ones((3, 6), bool)
MASK[0, 4:] = False
MASK[2, :1] = False


def _assert_same(ours, theirs, atol=1e-5):
    ours = ours if isinstance(ours, (list, tuple)) else [ours]
    theirs = theirs if isinstance(theirs, (list, tuple)) else [theirs]
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(to_numpy(a), np.asarray(b), atol=atol, rtol=atol)


@pytest.mark.parametrize("merge_mode", ["concat", "sum", "mul", "ave", None])
@pytest.mark.parametrize("return_sequences", [True, False])
def test_bidirectional_matches_keras(backend, merge_mode, return_sequences):
    keras = keras_module()
    ours = layers.Bidirectional(layers.LSTM(3, return_sequences=return_sequences), merge_mode=merge_mode)
    theirs = keras.layers.Bidirectional(keras.layers.LSTM(3, return_sequences=return_sequences), merge_mode=merge_mode)
    ours(X)
    theirs(X)
    theirs.set_weights(ours.get_weights())
    _assert_same(ours(X), theirs(X))
    _assert_same(ours(X, mask=hl.ops.convert_to_tensor(MASK)), theirs(X, mask=MASK))


@pytest.mark.parametrize("inner", ["GRU", "SimpleRNN"])
def test_bidirectional_states_and_initial_state_match_keras(backend, inner):
    keras = keras_module()
    ours = layers.Bidirectional(getattr(layers, inner)(3, return_sequences=True, return_state=True))
    theirs = keras.layers.Bidirectional(getattr(keras.layers, inner)(3, return_sequences=True, return_state=True))
    ours(X)
    theirs(X)
    theirs.set_weights(ours.get_weights())
    _assert_same(ours(X), theirs(X))
    states = [RNG.normal(size=(3, 3)).astype("float32") for _ in range(2)]
    _assert_same(ours(X, initial_state=states), theirs(X, initial_state=states))


def test_bidirectional_gradients_and_backward_layer(backend):
    keras = keras_module()
    assert_grads_match_keras(
        layers.Bidirectional(layers.GRU(3, return_sequences=True)),
        keras.layers.Bidirectional(keras.layers.GRU(3, return_sequences=True)),
        X,
    )
    ours = layers.Bidirectional(layers.LSTM(3), backward_layer=layers.GRU(2, go_backwards=True))
    theirs = keras.layers.Bidirectional(keras.layers.LSTM(3), backward_layer=keras.layers.GRU(2, go_backwards=True))
    out = assert_matches_keras(ours, theirs, X)
    assert out.shape == (3, 5)


def test_bidirectional_standard_checks_and_config(backend):
    run_layer_test(
        layers.Bidirectional,
        {"layer": layers.LSTM(3, return_sequences=True)},
        input_shape=(2, 5, 4),
        expected_output_shape=(2, 5, 6),
        expected_num_trainable_weights=6,
        supports_masking=True,
        atol=1e-5,
        rtol=1e-5,
    )
    layer = layers.Bidirectional(layers.GRU(2), merge_mode="sum")
    names = [l.name for l in (layer.forward_layer, layer.backward_layer)]
    assert names[0].startswith("forward_") and names[1].startswith("backward_")
    assert layer.backward_layer.go_backwards and not layer.forward_layer.go_backwards
    clone = assert_config_round_trip(layer, X)
    assert clone.forward_layer.name == layer.forward_layer.name
    assert_symbolic_shape(layers.Bidirectional(layers.LSTM(3, return_sequences=True)), (None, 6, 4))


def test_bidirectional_in_model_with_embedding_mask(backend):
    keras = keras_module()
    ids = np.array([[1, 2, 3, 0], [4, 0, 0, 0]], "int32")
    ours = hl.Sequential(
        [
            layers.Input((4,), dtype="int32"),
            layers.Embedding(6, 3, mask_zero=True),
            layers.Bidirectional(layers.LSTM(2, return_sequences=True)),
            layers.LSTM(2),
        ]
    )
    theirs = keras.Sequential(
        [
            keras.layers.Input((4,), dtype="int32"),
            keras.layers.Embedding(6, 3, mask_zero=True),
            keras.layers.Bidirectional(keras.layers.LSTM(2, return_sequences=True)),
            keras.layers.LSTM(2),
        ]
    )
    theirs.set_weights(ours.get_weights())
    _assert_same(ours(ids), theirs(ids))


def test_bidirectional_errors():
    with pytest.raises(ValueError, match="recurrent `Layer` instance"):
        layers.Bidirectional(layers.Dense(3))
    with pytest.raises(ValueError, match="Invalid merge mode"):
        layers.Bidirectional(layers.LSTM(3), merge_mode="max")
    with pytest.raises(ValueError, match="different `go_backwards`"):
        layers.Bidirectional(layers.LSTM(3), backward_layer=layers.LSTM(3))
    with pytest.raises(ValueError, match="return_sequences"):
        layers.Bidirectional(layers.LSTM(3), backward_layer=layers.LSTM(3, go_backwards=True, return_sequences=True))


@pytest.mark.parametrize("inner,shape", [("Dense", (2, 5, 4)), ("Conv2D", (2, 3, 6, 6, 2))])
def test_time_distributed_matches_keras(backend, inner, shape):
    keras = keras_module()
    kwargs = {"units": 3} if inner == "Dense" else {"filters": 3, "kernel_size": 3}
    x = RNG.normal(size=shape).astype("float32")
    ours = layers.TimeDistributed(getattr(layers, inner)(**kwargs))
    theirs = keras.layers.TimeDistributed(getattr(keras.layers, inner)(**kwargs))
    assert_matches_keras(ours, theirs, x)
    assert_grads_match_keras(
        layers.TimeDistributed(getattr(layers, inner)(**kwargs)),
        keras.layers.TimeDistributed(getattr(keras.layers, inner)(**kwargs)),
        x,
    )


def test_time_distributed_standard_checks_and_config(backend):
    run_layer_test(
        layers.TimeDistributed,
        {"layer": layers.Dense(3)},
        input_shape=(2, 5, 4),
        expected_output_shape=(2, 5, 3),
        expected_num_trainable_weights=2,
        supports_masking=True,
        atol=1e-5,
        rtol=1e-5,
    )
    assert_config_round_trip(layers.TimeDistributed(layers.Dense(2, activation="relu")), X)
    assert layers.TimeDistributed(layers.Dense(2)).compute_output_shape((None, 6, 4)) == (None, 6, 2)
    assert_symbolic_shape(layers.TimeDistributed(layers.Dense(2)), (None, 6, 4))


def test_time_distributed_passes_the_mask_to_an_rnn_stack(backend):
    keras = keras_module()
    ids = np.array([[1, 2, 0], [3, 0, 0]], "int32")
    ours = hl.Sequential(
        [
            layers.Input((3,), dtype="int32"),
            layers.Embedding(5, 4, mask_zero=True),
            layers.TimeDistributed(layers.Dense(3)),
            layers.GRU(2),
        ]
    )
    theirs = keras.Sequential(
        [
            keras.layers.Input((3,), dtype="int32"),
            keras.layers.Embedding(5, 4, mask_zero=True),
            keras.layers.TimeDistributed(keras.layers.Dense(3)),
            keras.layers.GRU(2),
        ]
    )
    theirs.set_weights(ours.get_weights())
    _assert_same(ours(ids), theirs(ids))


def test_time_distributed_errors():
    with pytest.raises(ValueError, match="`keras.layers.Layer` instance"):
        layers.TimeDistributed(object())
    with pytest.raises(ValueError, match="at least 3 dimensions"):
        layers.TimeDistributed(layers.Dense(2))(np.ones((2, 3), "float32"))
    with pytest.raises(ValueError, match="incompatible with the input"):
        layers.TimeDistributed(layers.Dense(2))(np.ones((2, 3, 4), "float32"), mask=np.ones((2, 5), bool))


@pytest.mark.parametrize("merge_mode", ["concat", "sum", "mul", "ave", None])
@pytest.mark.parametrize("return_sequences", [True, False])
@pytest.mark.parametrize("return_state", [True, False])
def test_bidirectional_output_shapes_match_keras(merge_mode, return_sequences, return_state):
    keras = keras_module()
    kwargs = {"return_sequences": return_sequences, "return_state": return_state}
    ours = layers.Bidirectional(layers.LSTM(3, **kwargs), merge_mode=merge_mode)
    theirs = keras.layers.Bidirectional(keras.layers.LSTM(3, **kwargs), merge_mode=merge_mode)
    # As in Keras, Bidirectional is a plain Layer (it holds forward_layer and backward_layer, no `layer`).
    assert isinstance(ours, layers.Wrapper) == isinstance(theirs, keras.layers.Wrapper) == False  # noqa: E712
    expected = theirs.compute_output_shape((None, 6, 4))
    got = ours.compute_output_shape((None, 6, 4))
    assert got == expected


def test_time_distributed_is_a_wrapper_and_keeps_its_shape():
    keras = keras_module()
    ours = layers.TimeDistributed(layers.Dense(2))
    assert isinstance(ours, layers.Wrapper) and isinstance(ours.layer, layers.Dense)
    assert ours.compute_output_shape((None, 6, 4)) == tuple(
        keras.layers.TimeDistributed(keras.layers.Dense(2)).compute_output_shape((None, 6, 4))
    )
    # An old config (no new keys) still loads.
    old = {"name": "td", "trainable": True, "dtype": "float32", "layer": layers.serialize(layers.Dense(2))}
    assert isinstance(layers.TimeDistributed.from_config(old).layer, layers.Dense)


@pytest.mark.parametrize("wrapper", ["Bidirectional", "TimeDistributed"])
def test_wrappers_still_train(backend, wrapper):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 5, 3)).astype("float32")
    y = x.sum(axis=(1, 2))[:, None].astype("float32") / 3.0
    if wrapper == "Bidirectional":
        body = [layers.Bidirectional(layers.GRU(4), merge_mode="concat")]
    else:
        body = [layers.TimeDistributed(layers.Dense(4)), layers.Flatten()]
    model = hl.Sequential([layers.Input((5, 3)), *body, layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="mse")
    history = model.fit(x, y, epochs=30, batch_size=32, verbose=0, shuffle=False)
    losses = history.history["loss"]
    assert losses[-1] < 0.5 * losses[0], losses


def test_bidirectional_saves_and_loads(backend, tmp_path):
    model = hl.Sequential([layers.Input((6, 4)), layers.Bidirectional(layers.LSTM(2), merge_mode="ave")])
    path = str(tmp_path / "bidi.keras")
    model.save(path)
    loaded = hl.saving.load_model(path)
    assert isinstance(loaded.layers[0], layers.Bidirectional)
    np.testing.assert_allclose(to_numpy(loaded(X)), to_numpy(model(X)), atol=1e-6)
