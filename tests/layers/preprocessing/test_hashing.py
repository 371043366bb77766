"""Hashing vs Keras 3: FarmHash / SipHash bins of strings, ints and floats (bit-exact hashes), masks, output
modes, config; and the pure-Python hashes against TensorFlow's on many inputs."""

import random
import string

import numpy as np
import pytest

from highlevel import layers
from highlevel.layers.preprocessing._fingerprint import fingerprint64, hash_bucket_fast, hash_bucket_strong
from tests.layers.layer_test_helper import run_layer_test

from .categorical_oracle import assert_same, keras_module, ours


def _random_strings(n, seed=0):
    rng = random.Random(seed)
    alphabet = string.printable + "éü漢字😀"
    lengths = list(range(0, 150)) + [rng.randint(150, 400) for _ in range(n - 150)]
    return ["".join(rng.choice(alphabet) for _ in range(k)) for k in lengths]


def test_hashes_equal_tensorflow_on_many_inputs():
    import tensorflow as tf

    strings = _random_strings(400)
    ints = np.random.default_rng(0).integers(-(2**62), 2**62, size=300, dtype=np.int64)
    for buckets in (2, 7, 1000, 2**62):
        np.testing.assert_array_equal(
            hash_bucket_fast(np.array(strings, dtype=object), buckets),
            tf.strings.to_hash_bucket_fast(strings, buckets).numpy(),
        )
        np.testing.assert_array_equal(
            hash_bucket_strong(np.array(strings, dtype=object), buckets, (3, 2**40)),
            tf.strings.to_hash_bucket_strong(strings, buckets, [3, 2**40]).numpy(),
        )
        np.testing.assert_array_equal(
            hash_bucket_fast(ints, buckets), tf.strings.to_hash_bucket_fast(tf.as_string(ints), buckets).numpy()
        )
    assert fingerprint64(b"") == 0x9AE16A3B2F90404F


STRINGS = np.array([["A", "B"], ["C", "D"], ["", "hello world"], ["é", "a longer token of text"]])
INTS = np.array([[0, 1, -1], [42, 2**40, 7]], dtype="int64")
FLOATS = np.array([[0.5, 1.7, -2.3], [42.0, 1e6, 7.9]], dtype="float32")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_bins": 3},
        {"num_bins": 1},
        {"num_bins": 5, "mask_value": ""},
        {"num_bins": 4, "salt": 133},
        {"num_bins": 6, "salt": [1, 2]},
        {"num_bins": 5, "output_mode": "multi_hot"},
        {"num_bins": 5, "output_mode": "count", "salt": 9},
        {"num_bins": 5, "output_mode": "one_hot"},
    ],
)
def test_strings_match_keras(backend, kwargs):
    keras = keras_module()
    x = STRINGS[:, :1] if kwargs.get("output_mode") == "one_hot" else STRINGS
    assert_same(layers.Hashing(**kwargs)(x), keras.layers.Hashing(**kwargs)(x), str(kwargs))
    assert_same(layers.Hashing(**kwargs)(list(map(list, x))), keras.layers.Hashing(**kwargs)(x), "list input")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_bins": 7},
        {"num_bins": 7, "mask_value": 0},
        {"num_bins": 3, "salt": 5},
        {"num_bins": 4, "output_mode": "count"},
    ],
)
def test_numbers_match_keras(backend, kwargs):
    keras = keras_module()
    for x in (INTS, INTS.astype("int32"), FLOATS):
        assert_same(layers.Hashing(**kwargs)(x), keras.layers.Hashing(**kwargs)(x), f"{kwargs} {x.dtype}")


def test_bytes_and_dtype(backend):
    keras = keras_module()
    x = np.array([b"a", b"b", "é".encode()], dtype=object)
    assert_same(layers.Hashing(11)(x), keras.layers.Hashing(11)(x))
    assert ours(layers.Hashing(11)(x)).dtype == np.int64
    assert ours(layers.Hashing(11, dtype="int32")(x)).dtype == np.int32
    assert ours(layers.Hashing(11, output_mode="count")(x)).dtype == np.float32


def test_standard_checks_on_ints(backend):
    run_layer_test(
        layers.Hashing,
        {"num_bins": 4, "salt": 3},
        input_shape=(3, 2),
        input_dtype="int32",
        expected_output_shape=(3, 2),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="int64",
    )
    run_layer_test(
        layers.Hashing,
        {"num_bins": 4, "output_mode": "multi_hot"},
        input_shape=(3, 2),
        input_dtype="int32",
        expected_output_shape=(3, 4),
        expected_output_dtype="float32",
    )


def test_errors():
    with pytest.raises(ValueError, match="num_bins"):
        layers.Hashing(0)
    with pytest.raises(ValueError, match="salt"):
        layers.Hashing(3, salt="x")
    with pytest.raises(ValueError, match="output_mode"):
        layers.Hashing(3, output_mode="tf_idf")
    with pytest.raises(ValueError, match="dtype"):
        layers.Hashing(3, dtype="float32")
    assert layers.Hashing(3, salt=7).get_config()["salt"] == [7, 7]
