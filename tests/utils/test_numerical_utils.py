"""``to_categorical`` and ``normalize`` against Keras, on numpy and on every engine's tensors."""

import numpy as np
import pytest

import highlevel as hl


@pytest.mark.parametrize(
    "labels, num_classes",
    [
        ([0, 1, 2, 3], None),
        ([2, 0], 4),
        (np.array([[1], [0], [2]]), None),
        (np.array([[0, 1], [2, 2]]), 3),
        (np.array([1.0, 0.0]), None),
        (np.array([], dtype="int64"), 3),
    ],
)
def test_to_categorical_matches_keras(keras, labels, num_classes):
    ours = hl.utils.to_categorical(labels, num_classes=num_classes)
    theirs = keras.utils.to_categorical(labels, num_classes=num_classes)
    assert ours.dtype == theirs.dtype == np.float64
    np.testing.assert_array_equal(ours, theirs)


def test_to_categorical_on_tensors(backend):
    x = hl.ops.convert_to_tensor(np.array([[2], [0], [1]], "int32"))
    out = hl.utils.to_categorical(x)
    assert hl.ops.is_tensor(out)
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(out), np.eye(3)[[2, 0, 1]])
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(hl.utils.to_categorical(x, num_classes=5)).shape, (3, 5))


def test_to_categorical_trains_a_classifier(backend):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 2)).astype("float32")
    y = hl.utils.to_categorical((x[:, 0] > 0).astype("int64") + (x[:, 1] > 0))
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(3, activation="softmax")])
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=30, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < 0.6 * history.history["loss"][0]
    assert history.history["accuracy"][-1] > 0.7


def test_to_categorical_errors():
    with pytest.raises(ValueError, match="out of range for num_classes=2"):
        hl.utils.to_categorical([0, 2], num_classes=2)
    with pytest.raises(ValueError, match=">= 0"):
        hl.utils.to_categorical([-1, 0])
    with pytest.raises(ValueError, match="integer class indices"):
        hl.utils.to_categorical([0.5, 1.0])
    with pytest.raises(ValueError, match="num_classes"):
        hl.utils.to_categorical([0], num_classes=0)


X = np.array([[3.0, 4.0, 0.0], [0.0, 0.0, 0.0], [1.0, -2.0, 2.0]])


@pytest.mark.parametrize("axis, order", [(-1, 2), (1, 1), (-1, 3)])
def test_normalize_matches_keras(keras, axis, order):
    np.testing.assert_allclose(
        hl.utils.normalize(X, axis=axis, order=order), keras.utils.normalize(X, axis=axis, order=order), rtol=1e-12
    )


def test_normalize_along_axis_0():
    # Keras 3.15 divides by the norms along axis 0 but broadcasts them along the last axis (its `axis or -1`);
    # here each column is divided by its own norm.
    out = hl.utils.normalize(X, axis=0)
    np.testing.assert_allclose(out, X / np.linalg.norm(X, axis=0, keepdims=True), rtol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(out, axis=0), 1.0)


def test_normalize_on_tensors(backend):
    x = np.array([[3.0, 4.0], [0.0, 0.0], [-1.0, 1.0]], "float32")
    out = hl.utils.normalize(hl.ops.convert_to_tensor(x))
    assert hl.ops.is_tensor(out)
    expected = x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-30)
    expected[1] = 0.0
    np.testing.assert_allclose(hl.ops.convert_to_numpy(out), expected, rtol=1e-6)
    out = hl.utils.normalize(hl.ops.convert_to_tensor(x), axis=0, order=1)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(out), x / np.abs(x).sum(axis=0), rtol=1e-6)


def test_normalize_errors():
    with pytest.raises(ValueError, match="order"):
        hl.utils.normalize(np.ones((2, 2)), order=0)
    with pytest.raises(ValueError, match="out of range"):
        hl.utils.normalize(np.ones((2, 2)), axis=2)
