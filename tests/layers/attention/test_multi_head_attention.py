"""MultiHeadAttention: the standard layer checks, Keras weight layout, and outputs/scores against Keras 3
(weights copied over) with attention masks, causal masks, padding masks, attention axes, gates and sliding
windows, on every backend."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.attention._oracle import assert_close, data, keras, padding_mask, random_attention_mask, to_numpy
from tests.layers.layer_test_helper import run_layer_test

MHA = layers.MultiHeadAttention


def _randomize(layer, seed=11):
    rng = np.random.default_rng(seed)
    layer.set_weights([(rng.normal(size=w.shape) * 0.5).astype("float32") for w in layer.get_weights()])


def _t(x):
    return None if x is None else hl.ops.convert_to_tensor(x)


# ------------------------------------------------------------------------------------- standard checks
RUN_CASES = [
    ("self", {"num_heads": 2, "key_dim": 3}, (2, 4, 6), (2, 4, 6), 8),
    ("cross_value_dim", {"num_heads": 3, "key_dim": 2, "value_dim": 4, "output_shape": 5}, (2, 5, 6), (2, 4, 5), 8),
    ("no_bias_gate", {"num_heads": 2, "key_dim": 2, "use_bias": False, "use_gate": True}, (2, 3, 4), (2, 3, 4), 5),
    ("axes_2d", {"num_heads": 2, "key_dim": 2, "attention_axes": (1, 2)}, (2, 3, 2, 4), (2, 3, 2, 4), 8),
]


@pytest.mark.parametrize("name,kwargs,value_shape,out_shape,n_weights", RUN_CASES, ids=[c[0] for c in RUN_CASES])
def test_run_layer_test(backend, name, kwargs, value_shape, out_shape, n_weights):
    query_shape = value_shape if name != "cross_value_dim" else (2, 4, 6)
    query = data(*query_shape, seed=1)
    value = query if name != "cross_value_dim" else data(*value_shape, seed=2)
    # The value travels as a call argument (the helper's input is the query); the functional check then
    # holds it as a constant of the graph.
    run_layer_test(
        MHA,
        kwargs,
        input_data=query,
        call_kwargs={"value": value},
        expected_output_shape=out_shape if name != "cross_value_dim" else None,
        expected_num_trainable_weights=n_weights,
        expected_num_non_trainable_weights=0,
        supports_masking=True,
        atol=1e-5,
        rtol=1e-5,
    )


def test_weight_layout_is_keras(backend):
    layer = MHA(num_heads=3, key_dim=4, value_dim=5, output_shape=(2, 7))
    q, v = data(2, 6, 8), data(2, 9, 10, seed=1)
    layer(_t(q), _t(v))
    k_layer = keras().layers.MultiHeadAttention(num_heads=3, key_dim=4, value_dim=5, output_shape=(2, 7))
    k_layer(q, v)
    assert [w.path.split("/")[-2:] for w in layer.weights] == [w.path.split("/")[-2:] for w in k_layer.weights]
    assert [tuple(w.shape) for w in layer.weights] == [tuple(w.shape) for w in k_layer.weights]
    assert layer.query_dense.equation == k_layer.query_dense.equation
    assert layer.output_dense.equation == k_layer.output_dense.equation


# ---------------------------------------------------------------------------------- against Keras
KERAS_CONFIGS = [
    ("basic", {"num_heads": 2, "key_dim": 3}),
    ("value_dim_output_shape", {"num_heads": 2, "key_dim": 3, "value_dim": 5, "output_shape": 4}),
    ("output_shape_2d", {"num_heads": 1, "key_dim": 4, "output_shape": (2, 3)}),
    ("no_bias", {"num_heads": 4, "key_dim": 2, "use_bias": False}),
    ("gate", {"num_heads": 2, "key_dim": 3, "use_gate": True}),
    ("sliding_window", {"num_heads": 2, "key_dim": 3, "sliding_window": 2}),
]
SCENARIOS = ["none", "attention_mask", "causal", "causal_and_attention_mask", "value_and_key_mask", "key"]


def _scenario(scenario, self_attention):
    q = data(2, 5, 6, seed=1)
    v = q if self_attention else data(2, 5, 6, seed=2)
    args, kwargs = [q, v], {}
    if scenario == "attention_mask":
        kwargs["attention_mask"] = random_attention_mask(2, 5, 5, seed=3)
    elif scenario == "causal":
        kwargs["use_causal_mask"] = True
    elif scenario == "causal_and_attention_mask":
        kwargs.update(use_causal_mask=True, attention_mask=random_attention_mask(2, 5, 5, seed=4))
    elif scenario == "value_and_key_mask":
        kwargs.update(value_mask=padding_mask(2, 5, [5, 3]), key_mask=padding_mask(2, 5, [4, 5]))
    elif scenario == "key":
        args.append(data(2, 5, 3, seed=5))
    return args, kwargs


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("name,kwargs", KERAS_CONFIGS, ids=[c[0] for c in KERAS_CONFIGS])
def test_matches_keras(backend, name, kwargs, scenario):
    """Our layer given Keras' weights gives Keras' outputs and scores within 1e-5."""
    args, call_kwargs = _scenario(scenario, self_attention=name != "basic")
    k_layer = keras().layers.MultiHeadAttention(**kwargs)
    k_layer(*args)
    _randomize(k_layer)
    layer = MHA(**kwargs)
    layer(*[_t(a) for a in args])
    layer.set_weights(k_layer.get_weights())  # Keras -> ours: same layout
    ours_kwargs = {k: _t(v) if isinstance(v, np.ndarray) else v for k, v in call_kwargs.items()}
    ours = to_numpy(layer(*[_t(a) for a in args], return_attention_scores=True, **ours_kwargs))
    theirs = [np.asarray(t) for t in k_layer(*args, return_attention_scores=True, **call_kwargs)]
    assert_close(ours[0], theirs[0], f"{name}/{scenario}: output")
    assert_close(ours[1], theirs[1], f"{name}/{scenario}: scores")
    # Without scores Keras takes its fused dot_product_attention path, which gives a query row with nothing to
    # attend to uniform weights instead of zeros: compare the rows that have something to attend to.
    plain = to_numpy(layer(*[_t(a) for a in args], **ours_kwargs))
    k_plain = np.asarray(k_layer(*args, **call_kwargs))
    live = np.all(np.abs(ours[1].sum(-1) - 1.0) < 1e-4, axis=1)  # (batch, T): every head attends somewhere
    assert_close(plain[live], k_plain[live], f"{name}/{scenario}: output without scores")
    if "causal" in scenario:
        assert np.all(np.triu(ours[1], k=1) == 0), "a position attended to the future"


def test_attention_axes_match_keras(backend):
    """Attention over two axes of a (batch, H, W, C) input, and over one chosen axis."""
    x = data(2, 3, 4, 5, seed=1)
    for axes in [(1, 2), (2,), -2]:
        k_layer = keras().layers.MultiHeadAttention(num_heads=2, key_dim=3, attention_axes=axes)
        k_layer(x, x)
        _randomize(k_layer)
        layer = MHA(num_heads=2, key_dim=3, attention_axes=axes)
        layer(_t(x), _t(x))
        layer.set_weights(k_layer.get_weights())
        ours = to_numpy(layer(_t(x), _t(x), return_attention_scores=True))
        theirs = [np.asarray(t) for t in k_layer(x, x, return_attention_scores=True)]
        assert_close(ours[0], theirs[0], f"axes={axes}: output")
        assert_close(ours[1], theirs[1], f"axes={axes}: scores")


def test_query_mask_zeroes_attention_rows(backend):
    """A masked query row attends to nothing (all-zero weights, as Keras' softmax path gives)."""
    x = data(2, 4, 6)
    layer = MHA(num_heads=2, key_dim=3)
    q_mask = padding_mask(2, 4, [2, 4])
    out, scores = to_numpy(layer(_t(x), _t(x), query_mask=_t(q_mask), return_attention_scores=True))
    assert np.all(scores[0, :, 2:] == 0)
    np.testing.assert_allclose(scores[1].sum(-1), 1.0, atol=1e-5)
    # The same as an attention_mask of shape (B, T, 1).
    again = to_numpy(layer(_t(x), _t(x), attention_mask=_t(q_mask[:, :, None]), return_attention_scores=True))
    assert_close(again[1], scores, "query_mask vs attention_mask")


def test_implicit_masks_in_a_functional_model_match_keras(backend):
    """Embedding(mask_zero=True) masks reach MultiHeadAttention as query/value masks, as in Keras."""
    tokens = np.array([[3, 1, 4, 0, 0], [2, 7, 1, 8, 0]], dtype="int32")

    def build(lib):
        inp = lib.Input((5,), dtype="int32")
        emb = lib.layers.Embedding(10, 6, mask_zero=True)
        x = emb(inp)
        mha = lib.layers.MultiHeadAttention(num_heads=2, key_dim=3)
        out, scores = mha(x, x, return_attention_scores=True)
        return lib.Model(inp, [out, scores]), emb, mha

    model, emb, mha = build(hl)
    k_model, k_emb, k_mha = build(keras())
    k_emb.set_weights([data(10, 6, seed=4)])
    _randomize(k_mha)
    model(tokens)
    emb.set_weights(k_emb.get_weights())
    mha.set_weights(k_mha.get_weights())
    ours = to_numpy(model(_t(tokens)))
    theirs = [np.asarray(t) for t in k_model(tokens)]
    assert_close(ours[0], theirs[0], "output")
    assert_close(ours[1], theirs[1], "scores")
    assert np.all(ours[1][0, :, :, 3:] == 0), "padding keys get no attention"
    assert np.all(ours[1][0, :, 3:, :] == 0), "padding queries attend to nothing"


def test_gradients_match_keras(backend):
    import tensorflow as tf

    q, v = data(2, 4, 6, seed=1), data(2, 5, 6, seed=2)
    mask = random_attention_mask(2, 4, 5, seed=3)
    k_layer = keras().layers.MultiHeadAttention(num_heads=2, key_dim=3)
    k_layer(q, v)
    _randomize(k_layer)
    layer = MHA(num_heads=2, key_dim=3)
    layer(_t(q), _t(v))
    layer.set_weights(k_layer.get_weights())
    cot = data(2, 4, 6, seed=9)

    def loss(weights):
        out, _ = layer.stateless_call(weights, [], _t(q), _t(v), attention_mask=_t(mask), use_causal_mask=True)
        return hl.ops.sum(hl.ops.multiply(out, _t(cot)))

    _, grads = hl.ops.value_and_grad(loss)([w.value for w in layer.trainable_variables])
    with tf.GradientTape() as tape:
        k_loss = tf.reduce_sum(k_layer(q, v, attention_mask=mask, use_causal_mask=True) * cot)
    k_grads = tape.gradient(k_loss, k_layer.trainable_weights)
    for w, g, kg in zip(layer.trainable_variables, grads, k_grads):
        assert_close(to_numpy(g), np.asarray(kg), f"gradient of {w.path}", atol=1e-4)


# -------------------------------------------------------------------------------- behaviour details
def test_dropout_only_in_training(backend):
    layer = MHA(num_heads=2, key_dim=4, dropout=0.5, seed=1)
    x = _t(data(3, 6, 8))
    a = to_numpy(layer(x, x))
    np.testing.assert_allclose(to_numpy(layer(x, x, training=False)), a)
    out, scores = to_numpy(layer(x, x, training=True, return_attention_scores=True))
    assert not np.allclose(out, a)
    np.testing.assert_allclose(scores.sum(-1), 1.0, atol=1e-5)  # scores are returned before dropout


def test_symbolic_calls_and_functional_model(backend):
    q_in, v_in = hl.Input((4, 6)), hl.Input((7, 5))
    layer = MHA(num_heads=3, key_dim=2, output_shape=(2, 4))
    out, scores = layer(q_in, v_in, return_attention_scores=True)
    assert tuple(out.shape) == (None, 4, 2, 4) and tuple(scores.shape) == (None, 3, 4, 7)
    model = hl.Model([q_in, v_in], [out, scores])
    res = to_numpy(model([data(2, 4, 6), data(2, 7, 5)]))
    assert res[0].shape == (2, 4, 2, 4) and res[1].shape == (2, 3, 4, 7)
    assert layer.compute_output_shape((None, 4, 6), (None, 7, 5)) == (None, 4, 2, 4)


def test_regularizers_add_losses_per_projection(backend):
    layer = MHA(num_heads=2, key_dim=2, kernel_regularizer="l2", activity_regularizer="l1")
    x = _t(data(2, 3, 4))
    layer(x, x)
    assert len(layer.losses) == 4 + 4  # four kernels, four projection outputs


def test_config_round_trip_keeps_every_argument():
    layer = MHA(
        num_heads=2,
        key_dim=3,
        value_dim=4,
        dropout=0.1,
        use_bias=False,
        output_shape=5,
        attention_axes=1,
        sliding_window=3,
        kernel_initializer="he_normal",
        bias_initializer="ones",
        kernel_regularizer="l2",
        bias_regularizer="l1",
        activity_regularizer="l2",
        kernel_constraint="non_neg",
        bias_constraint="unit_norm",
        use_gate=True,
        seed=4,
        name="mha",
    )
    config = layer.get_config()
    assert config["output_shape"] == (5,) and config["attention_axes"] == (1,) and config["value_dim"] == 4
    assert MHA.from_config(config).get_config() == config
    assert layers.deserialize(layers.serialize(layer)).get_config() == config
    k_config = (
        keras()
        .layers.MultiHeadAttention(
            num_heads=2,
            key_dim=3,
            value_dim=4,
            dropout=0.1,
            use_bias=False,
            output_shape=5,
            attention_axes=1,
            sliding_window=3,
            use_gate=True,
            seed=4,
        )
        .get_config()
    )
    missing = set(k_config) - set(config)
    assert not missing, f"config keys Keras has and we lack: {missing}"


def test_bad_arguments():
    with pytest.raises(ValueError, match="num_heads"):
        MHA(num_heads=0, key_dim=2)
    with pytest.raises(ValueError, match="key_dim"):
        MHA(num_heads=2, key_dim=-1)
    with pytest.raises(ValueError, match="value_dim"):
        MHA(num_heads=2, key_dim=2, value_dim=2.5)
    with pytest.raises(ValueError, match="attention_axes"):
        MHA(num_heads=2, key_dim=2, attention_axes="time")
    with pytest.raises(ValueError, match="flash attention"):
        MHA(num_heads=2, key_dim=2, dropout=0.1, flash_attention=True)
    with pytest.raises(ValueError, match="needs a `value`"):
        MHA(num_heads=2, key_dim=2)(hl.ops.ones((2, 3, 4)))
    with pytest.raises(ValueError, match="except the last one"):
        MHA(num_heads=2, key_dim=2)(hl.ops.ones((2, 3, 4)), hl.ops.ones((2, 5, 4)), hl.ops.ones((2, 6, 4)))
    with pytest.raises(ValueError, match="rank >= 3"):
        MHA(num_heads=2, key_dim=2)(hl.ops.ones((2, 4)), hl.ops.ones((2, 4)))
