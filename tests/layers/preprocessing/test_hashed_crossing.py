"""HashedCrossing: the same bins as Keras's layer (TensorFlow's ``tf.sparse.cross_hashed``), on every engine."""

import numpy as np
import pytest

import highlevel as hl


@pytest.fixture(scope="module")
def keras():
    import os

    os.environ.setdefault("KERAS_BACKEND", "jax")
    return pytest.importorskip("keras")


CASES = [
    (np.array([["a"], ["b"], ["hello"], ["zz"]]), np.array([[1], [2], [-5], [7]])),
    (np.array(["A", "B", "A"]), np.array([101, 102, 101])),
    (np.array([3, 4, 123456789012]), np.array([101, 102, 7])),
    (np.array(["x", "y"]), np.array(["p", "q"])),
    (np.array("A"), np.array(101)),
]


@pytest.mark.parametrize("output_mode", ["int", "one_hot"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_matches_keras(keras, backend, case, output_mode):
    inputs = CASES[case]
    ours = hl.layers.HashedCrossing(num_bins=17, output_mode=output_mode)(inputs)
    theirs = keras.layers.HashedCrossing(num_bins=17, output_mode=output_mode)(inputs)
    assert hl.ops.is_tensor(ours)
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(ours), keras.ops.convert_to_numpy(theirs))


def test_three_features_and_config(keras):
    inputs = (np.array([1, 2]), np.array(["a", "b"]), np.array([5, 5]))
    layer = hl.layers.HashedCrossing(num_bins=1000, name="cross")
    np.testing.assert_array_equal(
        hl.ops.convert_to_numpy(layer(inputs)),
        keras.ops.convert_to_numpy(keras.layers.HashedCrossing(num_bins=1000)(inputs)),
    )
    clone = hl.layers.HashedCrossing.from_config(layer.get_config())
    assert clone.num_bins == 1000 and clone.name == "cross"
    assert hl.layers.deserialize(hl.layers.serialize(layer)).num_bins == 1000


def test_errors():
    layer = hl.layers.HashedCrossing(num_bins=3)
    with pytest.raises(ValueError, match="at least 2 inputs"):
        layer(np.array([1, 2]))
    with pytest.raises(ValueError, match="same shape"):
        layer((np.array([1, 2]), np.array([1, 2, 3])))
    with pytest.raises(ValueError, match="one value per feature"):
        layer((np.ones((2, 2), "int64"), np.ones((2, 2), "int64")))
    with pytest.raises(ValueError, match="float input"):
        layer((np.array([1.5]), np.array([1])))
    with pytest.raises(ValueError, match="num_bins"):
        hl.layers.HashedCrossing(num_bins=0)
    with pytest.raises(ValueError, match="output_mode"):
        hl.layers.HashedCrossing(num_bins=3, output_mode="multi_hot")
