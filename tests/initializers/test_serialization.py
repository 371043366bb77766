"""initializers.get / serialize / deserialize, aliases, get_config round trips."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import initializers as I


@pytest.mark.parametrize(
    "name,cls",
    [
        ("zeros", I.Zeros),
        ("Zeros", I.Zeros),
        ("zero", I.Zeros),
        ("ones", I.Ones),
        ("one", I.Ones),
        ("constant", I.Constant),
        ("identity", I.Identity),
        ("IdentityInitializer", I.Identity),
        ("random_normal", I.RandomNormal),
        ("normal", I.RandomNormal),
        ("random_uniform", I.RandomUniform),
        ("uniform", I.RandomUniform),
        ("truncated_normal", I.TruncatedNormal),
        ("variance_scaling", I.VarianceScaling),
        ("glorot_uniform", I.GlorotUniform),
        ("GlorotUniform", I.GlorotUniform),
        ("glorot_normal", I.GlorotNormal),
        ("he_uniform", I.HeUniform),
        ("he_normal", I.HeNormal),
        ("lecun_uniform", I.LecunUniform),
        ("lecun_normal", I.LecunNormal),
        ("orthogonal", I.Orthogonal),
        ("OrthogonalInitializer", I.Orthogonal),
    ],
)
def test_get_by_name(name, cls):
    assert type(I.get(name)) is cls


def test_lowercase_aliases_are_the_classes():
    assert I.glorot_uniform is I.GlorotUniform and I.he_normal is I.HeNormal and I.zeros is I.Zeros
    assert isinstance(I.glorot_uniform(seed=1), I.VarianceScaling)


def test_get_other_identifiers(backend):
    assert I.get(None) is None
    inst = I.HeNormal(seed=2)
    assert I.get(inst) is inst
    assert type(I.get(I.Ones)) is I.Ones
    fn = lambda shape, dtype=None: hl.ops.ones(shape, dtype)  # noqa: E731
    assert I.get(fn) is fn
    arr = np.arange(6.0).reshape(2, 3)
    from_array = I.get(arr)
    np.testing.assert_array_equal(np.asarray(hl.ops.convert_to_numpy(from_array((2, 3), "float32"))), arr)
    with pytest.raises(ValueError, match="shape"):
        from_array((3, 2))


def test_unknown_name_lists_valid_ones():
    with pytest.raises(ValueError, match="glorot_uniform"):
        I.get("glorot_unifrom")
    with pytest.raises(ValueError, match="Could not interpret"):
        I.get(42)


CONFIGS = [
    I.Zeros(),
    I.Ones(),
    I.Constant(3.0),
    I.Identity(2.0),
    I.RandomNormal(1.0, 0.5, seed=3),
    I.RandomUniform(-2.0, 2.0, seed=3),
    I.TruncatedNormal(0.0, 1.0, seed=None),
    I.VarianceScaling(2.0, "fan_out", "uniform", seed=4),
    I.GlorotUniform(seed=5),
    I.GlorotNormal(),
    I.HeUniform(seed=6),
    I.HeNormal(seed=7),
    I.LecunUniform(seed=8),
    I.LecunNormal(seed=9),
    I.Orthogonal(gain=1.5, seed=10),
]


@pytest.mark.parametrize("init", CONFIGS, ids=lambda i: type(i).__name__)
def test_round_trip(init):
    config = I.serialize(init)
    assert set(config) == {"class_name", "config"}
    import json

    json.dumps(config)
    again = I.deserialize(config)
    assert type(again) is type(init) and again.get_config() == init.get_config()
    clone = init.clone()
    assert type(clone) is type(init) and clone.get_config() == init.get_config()
    assert type(I.get(config)) is type(init)
    if init.get_config().get("seed") is not None:  # seeded: the clone draws the same values
        np.testing.assert_array_equal(
            np.asarray(hl.ops.convert_to_numpy(init((3, 4)))), np.asarray(hl.ops.convert_to_numpy(again((3, 4))))
        )


def test_deserialize_keras_style_dict_and_custom_objects():
    config = {"module": "keras.initializers", "class_name": "HeNormal", "config": {"seed": 1}, "registered_name": None}
    assert type(I.deserialize(config)) is I.HeNormal

    class Fives(I.Initializer):
        def __call__(self, shape, dtype=None):
            return hl.ops.full(shape, 5.0, dtype=dtype)

    cfg = I.serialize(Fives())
    # A class of the user's is named by its registered name too, as Keras writes it.
    assert cfg == {"class_name": "Fives", "config": {}, "registered_name": "Fives"}
    with pytest.raises(ValueError, match="custom_objects"):
        I.deserialize(cfg)
    assert type(I.deserialize(cfg, custom_objects={"Fives": Fives})) is Fives


def test_serialize_rejects_plain_function():
    assert I.serialize(None) is None
    with pytest.raises(TypeError, match="Initializer"):
        I.serialize(lambda shape, dtype=None: None)


def test_keras_configs_match():
    # The configs we write are the ones Keras 3 writes (apart from SeedGenerator seeds), so a Keras
    # config loads here and ours loads in Keras.
    import os

    os.environ.setdefault("KERAS_BACKEND", "jax")
    keras = pytest.importorskip("keras")
    pairs = [
        (
            I.VarianceScaling(2.0, "fan_out", "uniform", seed=4),
            keras.initializers.VarianceScaling(2.0, "fan_out", "uniform", seed=4),
        ),
        (I.GlorotUniform(seed=5), keras.initializers.GlorotUniform(seed=5)),
        (I.RandomNormal(1.0, 0.5, seed=3), keras.initializers.RandomNormal(1.0, 0.5, seed=3)),
        (I.RandomUniform(-2.0, 2.0, seed=3), keras.initializers.RandomUniform(-2.0, 2.0, seed=3)),
        (I.TruncatedNormal(0.0, 1.0, seed=3), keras.initializers.TruncatedNormal(0.0, 1.0, seed=3)),
        (I.Orthogonal(1.5, seed=10), keras.initializers.Orthogonal(1.5, seed=10)),
        (I.Constant(3.0), keras.initializers.Constant(3.0)),
    ]
    # (Keras' Identity writes an empty config, losing its gain; ours keeps {"gain": ...}.)
    for ours, theirs in pairs:
        assert ours.get_config() == theirs.get_config(), type(ours).__name__
        kc = keras.initializers.serialize(theirs)
        assert I.deserialize(kc).get_config() == theirs.get_config()
