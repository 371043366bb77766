"""GroupQueryAttention vs Keras 3: outputs and scores with every mask source, the gate and key != value;
configs, errors, and a model that learns and reloads."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers

from ..core.keras_oracle import keras_module

RNG = np.random.default_rng(11)


def _pair(keras, **kwargs):
    ours = layers.GroupQueryAttention(**kwargs)
    theirs = keras.layers.GroupQueryAttention(**kwargs)
    return ours, theirs


def _sync(ours, theirs):
    """Random weights, the same on both sides (matched by path, as the orders may differ)."""
    theirs_by_path = {"/".join(w.path.split("/")[-2:]): w for w in theirs.weights}
    for w in ours.weights:
        value = RNG.normal(scale=0.5, size=tuple(w.shape)).astype("float32")
        w.assign(value)
        theirs_by_path["/".join(w.path.split("/")[-2:])].assign(value)


CASES = [
    ({"head_dim": 4, "num_query_heads": 4, "num_key_value_heads": 2}, {}),
    ({"head_dim": 3, "num_query_heads": 6, "num_key_value_heads": 1, "use_bias": False}, {"use_causal_mask": True}),
    ({"head_dim": 4, "num_query_heads": 2, "num_key_value_heads": 2, "use_gate": True}, {"with_key": True}),
    ({"head_dim": 2, "num_query_heads": 4, "num_key_value_heads": 2, "sliding_window": 2}, {"use_causal_mask": True}),
    ({"head_dim": 4, "num_query_heads": 4, "num_key_value_heads": 1}, {"attention_mask": True}),
    ({"head_dim": 4, "num_query_heads": 4, "num_key_value_heads": 2}, {"value_mask": True}),
]


@pytest.mark.parametrize("kwargs,call", CASES, ids=[str(i) for i in range(len(CASES))])
def test_matches_keras(backend, kwargs, call):
    keras = keras_module()
    query = RNG.normal(size=(2, 4, 6)).astype("float32")
    value = query if call.get("use_causal_mask") else RNG.normal(size=(2, 5, 6)).astype("float32")
    key = RNG.normal(size=value.shape[:2] + (3,)).astype("float32") if call.get("with_key") else None
    ours, theirs = _pair(keras, **kwargs)
    extra = {}
    if call.get("use_causal_mask"):
        extra["use_causal_mask"] = True
    if call.get("attention_mask"):
        extra["attention_mask"] = RNG.integers(0, 2, size=(2, 4, value.shape[1])).astype("bool")
        extra["attention_mask"][:, :, 0] = True
    if call.get("value_mask"):
        extra["value_mask"] = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], bool)
    args = (query, value) if key is None else (query, value, key)
    ours(*[hl.ops.convert_to_tensor(a) for a in args])
    theirs(*args)
    _sync(ours, theirs)
    ours_extra = {k: hl.ops.convert_to_tensor(v) if isinstance(v, np.ndarray) else v for k, v in extra.items()}
    out, scores = ours(*[hl.ops.convert_to_tensor(a) for a in args], return_attention_scores=True, **ours_extra)
    want_out, want_scores = theirs(*args, return_attention_scores=True, **extra)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(out), np.asarray(want_out), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(scores), np.asarray(want_scores), rtol=1e-4, atol=1e-6)


def test_groups_share_key_value_heads(backend):
    layer = layers.GroupQueryAttention(head_dim=2, num_query_heads=6, num_key_value_heads=3)
    x = hl.ops.convert_to_tensor(RNG.normal(size=(1, 3, 4)).astype("float32"))
    layer(x, x)
    kernels = {w.path.split("/")[-2]: tuple(w.shape) for w in layer.weights if w.path.endswith("kernel")}
    assert kernels == {"query": (4, 6, 2), "key": (4, 3, 2), "value": (4, 3, 2), "attention_output": (6, 2, 4)}
    symbolic, scores = layer(hl.Input((7, 4)), hl.Input((5, 4)), return_attention_scores=True)
    assert tuple(symbolic.shape) == (None, 7, 4) and tuple(scores.shape) == (None, 6, 7, 5)


def test_config_and_errors(backend):
    layer = layers.GroupQueryAttention(4, 4, 2, dropout=0.1, sliding_window=3, use_gate=True, seed=2)
    config = layer.get_config()
    assert (config["num_query_heads"], config["num_key_value_heads"], config["sliding_window"]) == (4, 2, 3)
    x = np.ones((1, 3, 5), "float32")
    again = layers.GroupQueryAttention.from_config(config)
    assert again.get_config() == config
    small = layers.GroupQueryAttention(2, 2, 1)
    copy = layers.GroupQueryAttention.from_config(small.get_config())
    small(x, x)
    copy(x, x)
    copy.set_weights(small.get_weights())
    np.testing.assert_allclose(hl.ops.convert_to_numpy(copy(x, x)), hl.ops.convert_to_numpy(small(x, x)), rtol=1e-6)
    with pytest.raises(ValueError, match="multiple of"):
        layers.GroupQueryAttention(4, 3, 2)
    with pytest.raises(ValueError, match="sliding_window"):
        layers.GroupQueryAttention(4, 2, 1, sliding_window=0)
    with pytest.raises(ValueError, match="value"):
        layers.GroupQueryAttention(4, 2, 1)(hl.ops.ones((1, 2, 3)))
    with pytest.raises(ValueError, match="flash_attention"):
        layers.GroupQueryAttention(4, 2, 1, dropout=0.2, flash_attention=True)


def test_fit_learns_and_reloads(backend, tmp_path):
    """Each output position must copy the first token's feature: only attention can carry it."""
    hl.utils.set_random_seed(0)
    x = RNG.normal(size=(64, 5, 4)).astype("float32")
    y = np.repeat(x[:, :1, :1], 5, axis=1)
    inputs = hl.Input((5, 4))
    h = layers.GroupQueryAttention(head_dim=4, num_query_heads=4, num_key_value_heads=2)(inputs, inputs)
    model = hl.Model(inputs, layers.Dense(1)(h))
    model.compile(optimizer=hl.optimizers.Adam(0.02), loss="mse")
    start = float(model.evaluate(x, y, verbose=0))
    model.fit(x, y, batch_size=16, epochs=25, verbose=0)
    assert float(model.evaluate(x, y, verbose=0)) < 0.5 * start
    path = str(tmp_path / "gqa.keras")
    model.save(path)
    loaded = hl.saving.load_model(path)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-5, atol=1e-6)
