"""SimpleRNN, LSTM, GRU, RNN over cells, StackedRNNCells: outputs, states and gradients vs Keras 3, masking,
standard layer checks, configs and argument errors, on every backend."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.core.keras_oracle import (
    assert_config_round_trip,
    assert_grads_match_keras,
    assert_symbolic_shape,
    keras_module,
    to_numpy,
)
from tests.layers.layer_test_helper import run_layer_test

RNG = np.random.default_rng(0)
X = RNG.normal(size=(3, 7, 4)).astype("float32")
MASK = np.ones((3, 7), bool)
MASK[0, 5:] = False  # trailing padding
MASK[1, :2] = False  # leading padding
RECURRENT = ("SimpleRNN", "LSTM", "GRU")


def _pair(name, **kwargs):
    """Our layer (built) and the Keras layer holding the same weights."""
    keras = keras_module()
    ours = getattr(layers, name)(5, **kwargs)
    theirs = getattr(keras.layers, name)(5, **kwargs)
    ours(X)
    theirs(X)
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
    {"return_sequences": True, "return_state": True},
    {"go_backwards": True, "return_state": True},
    {"return_sequences": True, "go_backwards": True},
    {"unroll": True, "return_sequences": True},
    {"activation": "relu", "use_bias": False},
]


@pytest.mark.parametrize("name", RECURRENT)
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(sorted(c)) or "default")
def test_matches_keras(backend, name, config):
    ours, theirs = _pair(name, **config)
    _assert_same(ours(X), theirs(X))
    _assert_same(ours(X, mask=hl.ops.convert_to_tensor(MASK)), theirs(X, mask=MASK))


@pytest.mark.parametrize("kwargs", [{"reset_after": False}, {"reset_after": False, "go_backwards": True}])
def test_gru_reset_before_matches_keras(backend, kwargs):
    ours, theirs = _pair("GRU", return_sequences=True, **kwargs)
    _assert_same(ours(X), theirs(X))
    _assert_same(ours(X, mask=hl.ops.convert_to_tensor(MASK)), theirs(X, mask=MASK))


def test_lstm_weights_and_defaults():
    layer = layers.LSTM(3)
    layer(X)
    assert [tuple(w.shape) for w in layer.weights] == [(4, 12), (3, 12), (12,)]
    assert [w.path.split("/")[-1] for w in layer.weights] == ["kernel", "recurrent_kernel", "bias"]
    # unit_forget_bias: the forget gate's block of the bias starts at 1
    np.testing.assert_array_equal(to_numpy(layer.cell.bias), [0] * 3 + [1] * 3 + [0] * 6)
    gru = layers.GRU(3)
    gru(X)
    assert gru.cell.reset_after is True and tuple(gru.cell.bias.shape) == (2, 9)


@pytest.mark.parametrize("name", RECURRENT)
def test_gradients_match_keras(backend, name):
    keras = keras_module()
    ours = getattr(layers, name)(4, return_sequences=True)
    assert_grads_match_keras(ours, getattr(keras.layers, name)(4, return_sequences=True), X, atol=1e-4)


def test_initial_state_matches_keras(backend):
    ours, theirs = _pair("LSTM", return_sequences=True, return_state=True)
    h0 = RNG.normal(size=(3, 5)).astype("float32")
    c0 = RNG.normal(size=(3, 5)).astype("float32")
    _assert_same(ours(X, initial_state=[h0, c0]), theirs(X, initial_state=[h0, c0]))
    # the [sequences, *states] input form
    _assert_same(ours([X, h0, c0]), theirs(X, initial_state=[h0, c0]))
    ours, theirs = _pair("GRU")
    _assert_same(ours(X, initial_state=h0), theirs(X, initial_state=[h0]))


@pytest.mark.parametrize("cell_name", ["SimpleRNNCell", "LSTMCell", "GRUCell"])
def test_rnn_over_cell_matches_keras(backend, cell_name):
    keras = keras_module()
    ours = layers.RNN(getattr(layers, cell_name)(4), return_sequences=True, return_state=True)
    theirs = keras.layers.RNN(getattr(keras.layers, cell_name)(4), return_sequences=True, return_state=True)
    ours(X)
    theirs(X)
    theirs.set_weights(ours.get_weights())
    _assert_same(ours(X), theirs(X))
    _assert_same(ours(X, mask=hl.ops.convert_to_tensor(MASK)), theirs(X, mask=MASK))


def test_stacked_cells_match_keras(backend):
    keras = keras_module()
    ours = layers.RNN([layers.LSTMCell(4), layers.GRUCell(3), layers.SimpleRNNCell(2)], return_state=True)
    theirs = keras.layers.RNN(
        [keras.layers.LSTMCell(4), keras.layers.GRUCell(3), keras.layers.SimpleRNNCell(2)], return_state=True
    )
    assert isinstance(ours.cell, layers.StackedRNNCells)
    ours(X)
    theirs(X)
    theirs.set_weights(ours.get_weights())
    out, *states = ours(X)
    k_out, *k_states = theirs(X)
    _assert_same(out, k_out)
    flat = lambda s: [t for group in s for t in (group if isinstance(group, (list, tuple)) else [group])]
    _assert_same(flat(states), flat(k_states))


class MinimalRNNCell(layers.Layer):
    """The custom cell of Keras' RNN documentation."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.state_size = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="uniform", name="kernel")
        self.recurrent_kernel = self.add_weight(
            shape=(self.units, self.units), initializer="uniform", name="recurrent_kernel"
        )

    def call(self, inputs, states):
        prev_output = states[0]
        h = hl.ops.matmul(inputs, self.kernel)
        output = h + hl.ops.matmul(prev_output, self.recurrent_kernel)
        return output, [output]

    def get_config(self):
        return {**super().get_config(), "units": self.units}


def test_rnn_over_custom_cell(backend):
    layer = layers.RNN(MinimalRNNCell(3), return_sequences=True)
    out = to_numpy(layer(X))
    k, u = (to_numpy(w) for w in layer.weights)
    h, want = np.zeros((3, 3), "float32"), []
    for t in range(X.shape[1]):
        h = X[:, t] @ k + h @ u
        want.append(h)
    np.testing.assert_allclose(out, np.stack(want, 1), atol=1e-5, rtol=1e-5)
    config = layers.serialize(layer)
    with hl.saving.custom_object_scope({"MinimalRNNCell": MinimalRNNCell}):
        again = layers.deserialize(config)
    assert isinstance(again.cell, MinimalRNNCell) and again.return_sequences


@pytest.mark.parametrize("name", RECURRENT)
@pytest.mark.parametrize("kwargs,out_shape", [({}, (2, 3)), ({"return_sequences": True}, (2, 5, 3))])
def test_run_layer_test(backend, name, kwargs, out_shape):
    run_layer_test(
        getattr(layers, name),
        {"units": 3, **kwargs},
        input_shape=(2, 5, 4),
        expected_output_shape=out_shape,
        expected_num_trainable_weights=3,
        expected_num_non_trainable_weights=0,
        supports_masking=True,
        atol=1e-5,
        rtol=1e-5,
    )


def test_run_layer_test_rnn_and_stacked(backend):
    run_layer_test(
        layers.RNN,
        {"cell": layers.GRUCell(3), "return_sequences": True},
        input_shape=(2, 5, 4),
        expected_output_shape=(2, 5, 3),
        expected_num_trainable_weights=3,
        atol=1e-5,
        rtol=1e-5,
        run_config_check=False,
    )  # the cell instance in init_kwargs is shared by the rebuilt layers


def test_masking_in_models_matches_keras(backend):
    """Embedding(mask_zero=True) -> LSTM and Masking -> GRU: the mask reaches the recurrent layer."""
    keras = keras_module()
    ids = np.array([[3, 1, 4, 0, 0], [0, 0, 2, 7, 1], [5, 0, 6, 2, 0]], "int32")
    ours = hl.Sequential(
        [
            layers.Input((5,), dtype="int32"),
            layers.Embedding(8, 4, mask_zero=True),
            layers.LSTM(3, return_sequences=True),
            layers.LSTM(2),
        ]
    )
    theirs = keras.Sequential(
        [
            keras.layers.Input((5,), dtype="int32"),
            keras.layers.Embedding(8, 4, mask_zero=True),
            keras.layers.LSTM(3, return_sequences=True),
            keras.layers.LSTM(2),
        ]
    )
    theirs.set_weights(ours.get_weights())
    _assert_same(ours(ids), theirs(ids))
    # the same through the functional API
    inp = layers.Input((5,), dtype="int32")
    model = hl.Model(inp, ours.layers[-1](ours.layers[-2](ours.layers[0](inp))))
    _assert_same(model(ids), theirs(ids))

    seq = X.copy()
    seq[0, 4:] = 0.0
    seq[2, :3] = 0.0
    ours = hl.Sequential([layers.Input((7, 4)), layers.Masking(0.0), layers.GRU(3, return_sequences=True)])
    theirs = keras.Sequential(
        [keras.layers.Input((7, 4)), keras.layers.Masking(0.0), keras.layers.GRU(3, return_sequences=True)]
    )
    theirs.set_weights(ours.get_weights())
    _assert_same(ours(seq), theirs(seq))


@pytest.mark.parametrize("name", RECURRENT)
def test_configs_and_symbolic_shapes(backend, name):
    layer = getattr(layers, name)(
        3, return_sequences=True, go_backwards=True, dropout=0.1, seed=2, kernel_regularizer="l2", name="r1"
    )
    config = layer.get_config()
    assert config["units"] == 3 and config["go_backwards"] is True and config["dropout"] == 0.1
    assert "cell" not in config
    assert_config_round_trip(layer, X)
    assert_symbolic_shape(getattr(layers, name)(3), (None, 7, 4))
    assert getattr(layers, name)(3, return_sequences=True).compute_output_shape((None, 7, 4)) == (None, 7, 3)
    shapes = getattr(layers, name)(3, return_state=True).compute_output_shape((2, 7, 4))
    assert shapes[0] == (2, 3) and all(s == (2, 3) for s in shapes[1:])


def test_rnn_config_round_trip(backend):
    layer = layers.RNN([layers.LSTMCell(3), layers.GRUCell(2, reset_after=False)], return_sequences=True)
    assert_config_round_trip(layer, X)
    assert_config_round_trip(layers.RNN(layers.SimpleRNNCell(2), go_backwards=True, unroll=True), X)


def test_regularizers_add_losses(backend):
    layer = layers.LSTM(3, kernel_regularizer="l2", recurrent_regularizer="l1", activity_regularizer="l2")
    layer(X)
    assert len(layer.losses) == 3


def test_dropout_masks_are_per_call_and_shared_over_steps(backend):
    layer = layers.SimpleRNN(4, dropout=0.5, recurrent_dropout=0.5, seed=1, return_sequences=True)
    infer = to_numpy(layer(X))
    assert not np.allclose(to_numpy(layer(X, training=True)), infer)
    np.testing.assert_allclose(to_numpy(layer(X, training=False)), infer)
    assert layer.cell._dropout_mask is None  # cleared after the call
    # with dropout on the input only, a zero input feature stays dropped at every step: check that one mask
    # (batch, features) serves all steps by comparing with the step-by-step recurrence
    layer = layers.SimpleRNN(3, dropout=0.5, seed=4, return_sequences=True, use_bias=False)
    layer(X)
    cell = layer.cell
    cell.prepare_dropout_masks(3, 4, "float32")
    mask = to_numpy(cell._dropout_mask)
    cell.reset_dropout_mask()
    assert set(np.unique(mask)) <= {0.0, 2.0}


def test_stateful(backend):
    layer = layers.GRU(3, stateful=True, return_sequences=True)
    full = layers.GRU(3, return_sequences=True)
    x = X[:2]
    layer(x[:, :3])
    full(x)
    full.set_weights([v.numpy() for v in layer.cell.weights])
    layer.reset_state()
    first = to_numpy(layer(x[:, :3]))
    second = to_numpy(layer(x[:, 3:]))  # continues from the states of the first call
    np.testing.assert_allclose(np.concatenate([first, second], 1), to_numpy(full(x)), atol=1e-5)
    layer.reset_state()
    np.testing.assert_allclose(to_numpy(layer(x[:, :3])), first, atol=1e-6)
    with pytest.raises(ValueError, match="static batch size"):
        layers.LSTM(2, stateful=True)(layers.Input((3, 4)))


def test_errors(backend):
    with pytest.raises(ValueError, match="expected a positive integer, got -3"):
        layers.LSTM(-3)
    with pytest.raises(ValueError, match="units"):
        layers.GRUCell(2.5)
    with pytest.raises(ValueError, match="dropout"):
        layers.SimpleRNN(2, dropout=1.5)
    with pytest.raises(ValueError, match="`call` method"):
        layers.RNN(object())
    with pytest.raises(ValueError, match="state_size"):
        layers.RNN(layers.Dense(3))
    with pytest.raises(ValueError, match=r"\(batch, timesteps, features\)"):
        layers.LSTM(2)(np.ones((2, 3), "float32"))
    with pytest.raises(ValueError, match="2 initial state"):
        layers.LSTM(2)(X, initial_state=[np.zeros((3, 2), "float32")])
