"""``hl.utils.FeatureSpace``: the same encoding as Keras's (eagerly and inside ``tf.data``), and models that
learn from it on every engine."""

import numpy as np
import pytest

import highlevel as hl

RNG = np.random.default_rng(0)
N = 48
DATA = {
    "age": RNG.uniform(18, 80, N).astype("float32"),
    "income": RNG.normal(50, 10, N).astype("float32"),
    "city": RNG.choice(["Paris", "Oslo", "Rome", "Lima"], N),
    "rooms": RNG.integers(1, 6, N).astype("int64"),
    "code": RNG.choice(["x", "y", "z"], N),
    "score": RNG.uniform(0, 1, N).astype("float32"),
    "zip": RNG.integers(1000, 1010, N),
}


def _space(lib, output_mode="concat"):
    fs = lib.utils.FeatureSpace
    features = {
        "age": "float_normalized",
        "income": fs.float_rescaled(scale=0.1, offset=-5.0),
        "city": "string_categorical",
        "rooms": "integer_categorical",
        "code": fs.string_hashed(num_bins=7),
        "score": fs.float_discretized(num_bins=4),
        "zip": fs.integer_hashed(num_bins=5),
    }
    return fs(
        features=features,
        crosses=[("city", "rooms"), fs.cross(("code", "zip"), crossing_dim=11)],
        output_mode=output_mode,
    )


@pytest.fixture(scope="module")
def spaces(keras):
    tf = pytest.importorskip("tensorflow")
    out = {}
    for mode in ("concat", "dict"):
        theirs, ours = _space(keras, mode), _space(hl, mode)
        theirs.adapt(tf.data.Dataset.from_tensor_slices(DATA))
        ours.adapt(DATA)
        out[mode] = theirs, ours
    return out


def test_concat_matches_keras(spaces, backend):
    theirs, ours = spaces["concat"]
    batch = {key: v[:6] for key, v in DATA.items()}
    out = ours(batch)
    assert hl.ops.is_tensor(out)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(out), np.asarray(theirs(batch)), atol=1e-5)
    one = {key: v[0] for key, v in DATA.items()}
    np.testing.assert_allclose(hl.ops.convert_to_numpy(ours(one)), np.asarray(theirs(one)), atol=1e-5)


def test_dict_matches_keras(spaces):
    theirs, ours = spaces["dict"]
    batch = {key: v[:5] for key, v in DATA.items()}
    a, b = theirs(batch), ours(batch)
    assert sorted(a) == sorted(b)
    for key in a:
        np.testing.assert_allclose(hl.ops.convert_to_numpy(b[key]), np.asarray(a[key]), atol=1e-5)


def test_inside_tf_data_matches_keras(spaces):
    tf = pytest.importorskip("tensorflow")
    theirs, ours = spaces["concat"]
    ds = tf.data.Dataset.from_tensor_slices((DATA, np.arange(N))).batch(10)
    a = np.concatenate([x for x, _ in ds.map(lambda x, y: (theirs(x), y)).as_numpy_iterator()])
    b = np.concatenate([x for x, _ in ds.map(lambda x, y: (ours(x), y)).as_numpy_iterator()])
    np.testing.assert_allclose(b, a, atol=1e-5)
    unbatched = tf.data.Dataset.from_tensor_slices(DATA).map(ours)
    assert unbatched.element_spec.shape == (a.shape[1],)
    np.testing.assert_allclose(next(iter(unbatched)).numpy(), a[0], atol=1e-5)


def test_adapt_takes_datasets_and_batches():
    tf = pytest.importorskip("tensorflow")
    batched = tf.data.Dataset.from_tensor_slices((DATA, np.zeros(N))).batch(7)
    from_tf, from_dict = _space(hl), _space(hl)
    from_tf.adapt(batched)
    from_dict.adapt(DATA)
    batch = {key: v[:4] for key, v in DATA.items()}
    np.testing.assert_allclose(hl.ops.convert_to_numpy(from_tf(batch)), hl.ops.convert_to_numpy(from_dict(batch)))
    from_list = _space(hl)
    from_list.adapt([{key: v[:20] for key, v in DATA.items()}, {key: v[20:] for key, v in DATA.items()}])
    np.testing.assert_allclose(hl.ops.convert_to_numpy(from_list(batch)), hl.ops.convert_to_numpy(from_dict(batch)))


def test_a_model_learns_from_the_encoded_features(backend):
    tf = pytest.importorskip("tensorflow")
    rng = np.random.default_rng(1)
    n = 96
    data = {"city": rng.choice(["a", "b", "c"], n), "size": rng.uniform(0, 10, n).astype("float32")}
    target = ((data["city"] == "a") | (data["size"] > 7)).astype("float32")
    space = hl.utils.FeatureSpace({"city": "string_categorical", "size": "float_normalized"})
    space.adapt(data)
    train = tf.data.Dataset.from_tensor_slices((data, target)).batch(16).map(lambda x, y: (space(x), y))
    hl.utils.set_random_seed(0)
    model = hl.Sequential(
        [hl.Input((5,)), hl.layers.Dense(8, activation="relu"), hl.layers.Dense(1, activation="sigmoid")]
    )
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(train, epochs=25, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    assert history.history["accuracy"][-1] > 0.9
    encoded = space(data)  # eagerly, the same encoding
    assert model.evaluate(encoded, target, verbose=0, return_dict=True)["accuracy"] > 0.9


def test_functional_model_on_numeric_features(backend):
    rng = np.random.default_rng(2)
    data = {"rooms": rng.integers(1, 5, 64), "area": rng.uniform(20, 200, 64).astype("float32")}
    target = (data["rooms"] * 10.0 + data["area"] * 0.1).astype("float32")
    space = hl.utils.FeatureSpace({"rooms": "integer_categorical", "area": "float_normalized"})
    space.adapt(data)
    inputs = space.get_inputs()
    model = hl.Model(inputs, hl.layers.Dense(1)(space.get_encoded_features()))
    model.compile(optimizer=hl.optimizers.Adam(0.2), loss="mse")
    x = {key: v[:, None] for key, v in data.items()}
    history = model.fit(x, target, epochs=60, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < 0.1 * history.history["loss"][0]


def test_config_round_trip_and_errors():
    space = _space(hl)
    clone = hl.utils.FeatureSpace.from_config(space.get_config())
    assert sorted(clone.features) == sorted(space.features) and [c.name for c in clone.crosses] == [
        "city_X_rooms",
        "code_X_zip",
    ]
    with pytest.raises(ValueError, match="adapt"):
        space({key: v[:2] for key, v in DATA.items()})
    space.adapt(DATA)
    with pytest.raises(ValueError, match="no column for the features"):
        space({"age": DATA["age"]})
    with pytest.raises(ValueError, match="dict"):
        space(DATA["age"])
    with pytest.raises(NotImplementedError, match="symbolic string inputs"):
        space.get_inputs()
    with pytest.raises(ValueError, match="Invalid feature type"):
        hl.utils.FeatureSpace({"a": "float_magic"})
    with pytest.raises(ValueError, match="not in `features`"):
        hl.utils.FeatureSpace({"a": "float"}, crosses=[("a", "b")])
    with pytest.raises(ValueError, match="output_mode"):
        hl.utils.FeatureSpace({"a": "float"}, output_mode="stack")
    with pytest.raises(ValueError, match="Cannot concatenate"):
        fs = hl.utils.FeatureSpace({"a": hl.utils.FeatureSpace.integer_categorical(output_mode="int")})
        fs.adapt({"a": np.array([1, 2])})
        fs({"a": np.array([1])})
