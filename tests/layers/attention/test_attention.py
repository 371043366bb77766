"""Attention and AdditiveAttention: the standard layer checks, and outputs/scores/gradients against Keras 3
with value masks, query masks, causal masks and a separate key, on every backend."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.attention._oracle import assert_close, data, keras, padding_mask, to_numpy
from tests.layers.core.keras_oracle import assert_grads_match_keras
from tests.layers.layer_test_helper import run_layer_test

CONFIGS = [
    ("dot", layers.Attention, {}, 0),
    ("dot_scale", layers.Attention, {"use_scale": True}, 1),
    ("concat", layers.Attention, {"score_mode": "concat"}, 1),
    ("concat_scale", layers.Attention, {"score_mode": "concat", "use_scale": True}, 2),
    ("additive", layers.AdditiveAttention, {}, 1),
    ("additive_no_scale", layers.AdditiveAttention, {"use_scale": False}, 0),
]
IDS = [c[0] for c in CONFIGS]


def _random_weights(layer, seed=5):
    rng = np.random.default_rng(seed)
    layer.set_weights([(rng.uniform(0.5, 1.5, size=w.shape)).astype("float32") for w in layer.get_weights()])


@pytest.mark.parametrize("name,cls,kwargs,n_weights", CONFIGS, ids=IDS)
def test_run_layer_test(backend, name, cls, kwargs, n_weights):
    run_layer_test(
        cls,
        kwargs,
        input_shape=[(2, 3, 4), (2, 5, 4)],
        expected_output_shape=(2, 3, 4),
        expected_num_trainable_weights=n_weights,
        expected_num_non_trainable_weights=0,
        supports_masking=True,
        atol=1e-5,
        rtol=1e-5,
    )


@pytest.mark.parametrize("name,cls,kwargs,n_weights", CONFIGS[:3], ids=IDS[:3])
def test_run_layer_test_with_key_and_scores(backend, name, cls, kwargs, n_weights):
    # No expected_output_shape: compute_output_shape (Keras' signature) describes the call without scores.
    layer = run_layer_test(
        cls,
        kwargs,
        input_shape=[(2, 3, 4), (2, 5, 6), (2, 5, 4)],
        call_kwargs={"return_attention_scores": True, "use_causal_mask": True},
        expected_num_trainable_weights=n_weights,
        atol=1e-5,
        rtol=1e-5,
    )
    out, scores = layer(
        [hl.ops.ones((2, 3, 4)), hl.ops.ones((2, 5, 6)), hl.ops.ones((2, 5, 4))], return_attention_scores=True
    )
    assert hl.ops.shape(out) == (2, 3, 6) and hl.ops.shape(scores) == (2, 3, 5)


MASKS = ["none", "value_mask", "query_and_value_mask", "causal", "causal_and_value_mask", "key"]


def _inputs_and_kwargs(scenario):
    q, v = data(2, 4, 3, seed=1), data(2, 5, 3, seed=2)
    inputs = [q, v]
    kwargs = {}
    v_mask = padding_mask(2, 5, [5, 3])
    q_mask = padding_mask(2, 4, [2, 4])
    if scenario == "value_mask":
        kwargs["mask"] = [None, v_mask]
    elif scenario == "query_and_value_mask":
        kwargs["mask"] = [q_mask, v_mask]
    elif scenario == "causal":
        kwargs["use_causal_mask"] = True
    elif scenario == "causal_and_value_mask":
        kwargs.update(use_causal_mask=True, mask=[None, v_mask])
    elif scenario == "key":
        inputs = [q, data(2, 5, 6, seed=3), v]
    return inputs, kwargs


@pytest.mark.parametrize("scenario", MASKS)
@pytest.mark.parametrize("name,cls,kwargs,n_weights", CONFIGS, ids=IDS)
def test_matches_keras(backend, name, cls, kwargs, n_weights, scenario):
    """Outputs and attention scores equal Keras' within 1e-5, with the same weights."""
    inputs, call_kwargs = _inputs_and_kwargs(scenario)
    layer = cls(**kwargs)
    layer([hl.ops.convert_to_tensor(x) for x in inputs])
    _random_weights(layer)
    k_layer = getattr(keras().layers, cls.__name__)(**kwargs)
    k_layer(inputs)
    k_layer.set_weights(layer.get_weights())

    def ours_kw():
        out = dict(call_kwargs)
        if "mask" in out:
            out["mask"] = [None if m is None else hl.ops.convert_to_tensor(m) for m in out["mask"]]
        return out

    ours = to_numpy(layer([hl.ops.convert_to_tensor(x) for x in inputs], return_attention_scores=True, **ours_kw()))
    theirs = [np.asarray(t) for t in k_layer(inputs, return_attention_scores=True, **call_kwargs)]
    assert_close(ours[0], theirs[0], f"{name}/{scenario}: output")
    assert_close(ours[1], theirs[1], f"{name}/{scenario}: scores")
    plain = to_numpy(layer([hl.ops.convert_to_tensor(x) for x in inputs], **ours_kw()))
    assert_close(plain, ours[0], f"{name}/{scenario}: output without scores")
    if scenario == "causal":  # nothing attends to the future
        assert np.all(np.triu(ours[1], k=1)[:, :, :] == 0)
    if scenario == "query_and_value_mask":
        assert np.all(ours[0][0, 2:] == 0), "rows of masked queries must be 0"


@pytest.mark.parametrize("name,cls,kwargs,n_weights", [c for c in CONFIGS if c[3]], ids=[c[0] for c in CONFIGS if c[3]])
def test_gradients_match_keras(backend, name, cls, kwargs, n_weights):
    inputs = [data(2, 4, 3, seed=1), data(2, 5, 3, seed=2)]
    layer = cls(**kwargs)
    layer([hl.ops.convert_to_tensor(x) for x in inputs])
    _random_weights(layer)
    assert_grads_match_keras(layer, getattr(keras().layers, cls.__name__)(**kwargs), inputs, atol=1e-4)


def test_implicit_masks_in_a_functional_model_match_keras(backend):
    """Embedding(mask_zero=True) masks flow into Attention in a functional model, as in Keras."""
    tokens = np.array([[3, 1, 4, 0, 0], [2, 7, 1, 8, 0]], dtype="int32")

    def build(lib):
        q_in = lib.Input((5,), dtype="int32")
        emb = lib.layers.Embedding(10, 4, mask_zero=True)
        x = emb(q_in)
        att = lib.layers.Attention(use_scale=True)
        out, scores = att([x, x], return_attention_scores=True)
        return lib.Model(q_in, [out, scores]), emb, att

    model, emb, att = build(hl)
    k_model, k_emb, k_att = build(keras())
    k_emb.set_weights([data(10, 4, seed=4)])
    k_att.set_weights([np.array(0.8, "float32")])
    model(tokens)
    emb.set_weights(k_emb.get_weights())
    att.set_weights(k_att.get_weights())
    ours = to_numpy(model(hl.ops.convert_to_tensor(tokens)))
    theirs = [np.asarray(t) for t in k_model(tokens)]
    assert_close(ours[0], theirs[0], "output")
    assert_close(ours[1], theirs[1], "scores")
    assert np.all(ours[1][0, :, 3:] == 0), "padding keys get no attention"


def test_compute_mask_is_the_query_mask(backend):
    layer = layers.Attention()
    q, v = hl.ops.ones((2, 3, 4)), hl.ops.ones((2, 5, 4))
    assert layer.compute_mask([q, v]) is None
    assert layer.compute_mask([q, v], [None, padding_mask(2, 5, [1, 2])]) is None
    m = to_numpy(layer.compute_mask([q, v], [padding_mask(2, 3, [1, 3]), None]))
    np.testing.assert_array_equal(m, padding_mask(2, 3, [1, 3]))


def test_dropout_only_in_training(backend):
    layer = layers.Attention(dropout=0.5, seed=3)
    inputs = [hl.ops.convert_to_tensor(data(4, 6, 5, seed=1)), hl.ops.convert_to_tensor(data(4, 7, 5, seed=2))]
    a = to_numpy(layer(inputs))
    np.testing.assert_allclose(a, to_numpy(layer(inputs, training=False)))
    out, scores = to_numpy(layer(inputs, training=True, return_attention_scores=True))
    assert not np.allclose(out, a), "dropout changed nothing in training"
    # The returned scores are the softmax weights before dropout: rows sum to 1.
    np.testing.assert_allclose(scores.sum(-1), 1.0, atol=1e-5)
    assert not np.allclose(to_numpy(layer(inputs, training=True)), out), "each training call draws a new mask"


def test_symbolic_call_with_scores(backend):
    q, v = hl.Input((3, 4)), hl.Input((5, 6))
    k = hl.Input((5, 4))
    out, scores = layers.Attention()([q, v, k], return_attention_scores=True)
    assert tuple(out.shape) == (None, 3, 6) and tuple(scores.shape) == (None, 3, 5)
    model = hl.Model([q, v, k], [out, scores])
    res = to_numpy(model([data(2, 3, 4), data(2, 5, 6), data(2, 5, 4)]))
    assert res[0].shape == (2, 3, 6) and res[1].shape == (2, 3, 5)


def test_bad_arguments():
    with pytest.raises(ValueError, match="score_mode"):
        layers.Attention(score_mode="add")
    with pytest.raises(ValueError, match="dropout"):
        layers.Attention(dropout=1.5)
    with pytest.raises(ValueError, match="list of inputs"):
        layers.Attention()(hl.ops.ones((2, 3, 4)))
    with pytest.raises(ValueError, match="length 2 or 3"):
        layers.Attention()([hl.ops.ones((2, 3, 4))])
    with pytest.raises(ValueError, match="mask must be a list"):
        layers.Attention()([hl.ops.ones((2, 3, 4)), hl.ops.ones((2, 3, 4))], mask=hl.ops.ones((2, 3)))
    with pytest.raises(ValueError, match="same last dimension"):
        layers.Attention()([hl.ops.ones((2, 3, 4)), hl.ops.ones((2, 5, 3))])


def test_config_round_trip():
    layer = layers.AdditiveAttention(use_scale=False, dropout=0.25, seed=7, name="add_att")
    config = layer.get_config()
    assert "score_mode" not in config and config["dropout"] == 0.25 and config["seed"] == 7
    assert layers.deserialize(layers.serialize(layer)).get_config() == config
    assert (
        keras()
        .layers.AdditiveAttention.from_config({k: v for k, v in config.items() if k != "dtype"})
        .get_config()["use_scale"]
        is False
    )
