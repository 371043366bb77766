"""Every pooling layer against real Keras 3 on every backend (outputs and input gradients), over pool sizes,
strides, "same" padding, keepdims and channels_first; GlobalAveragePooling1D with a mask."""

import numpy as np
import pytest

import highlevel as hl
from tests.layers.convolutional.keras_reference import assert_matches_keras

CF = "channels_first"

CASES = [
    ("MaxPooling1D", {}, (2, 7, 3)),
    ("MaxPooling1D", {"pool_size": 3, "strides": 2, "padding": "same", "data_format": CF}, (2, 3, 8)),
    ("MaxPooling2D", {"pool_size": 3, "strides": 2, "padding": "same"}, (1, 5, 7, 2)),
    ("MaxPooling2D", {"pool_size": (2, 1), "data_format": CF}, (1, 2, 6, 4)),
    ("MaxPooling3D", {}, (1, 4, 4, 4, 2)),
    ("MaxPooling3D", {"pool_size": 2, "strides": 1, "padding": "same", "data_format": CF}, (1, 2, 3, 3, 3)),
    ("AveragePooling1D", {"pool_size": 3, "strides": 1, "padding": "same"}, (1, 5, 2)),
    ("AveragePooling1D", {"pool_size": 2, "data_format": CF}, (2, 3, 7)),
    ("AveragePooling2D", {"pool_size": 2}, (2, 6, 5, 2)),
    ("AveragePooling2D", {"pool_size": 3, "strides": 2, "padding": "same", "data_format": CF}, (1, 2, 5, 7)),
    ("AveragePooling3D", {"pool_size": 2, "padding": "same"}, (1, 3, 3, 3, 2)),
    ("AveragePooling3D", {"pool_size": (1, 2, 2), "data_format": CF}, (1, 2, 2, 4, 4)),
    ("GlobalMaxPooling1D", {}, (2, 5, 3)),
    ("GlobalMaxPooling1D", {"keepdims": True, "data_format": CF}, (2, 3, 5)),
    ("GlobalMaxPooling2D", {"keepdims": True}, (2, 3, 4, 2)),
    ("GlobalMaxPooling3D", {"data_format": CF}, (2, 2, 3, 2, 2)),
    ("GlobalAveragePooling1D", {"data_format": CF}, (2, 3, 5)),
    ("GlobalAveragePooling2D", {"keepdims": True, "data_format": CF}, (2, 3, 4, 5)),
    ("GlobalAveragePooling2D", {}, (2, 3, 4, 5)),
    ("GlobalAveragePooling3D", {"keepdims": True}, (2, 2, 3, 2, 2)),
    ("AdaptiveAveragePooling1D", {"output_size": 3}, (2, 7, 3)),
    ("AdaptiveAveragePooling1D", {"output_size": 5, "data_format": CF}, (2, 3, 4)),
    ("AdaptiveAveragePooling2D", {"output_size": (2, 3)}, (1, 5, 7, 2)),
    ("AdaptiveAveragePooling2D", {"output_size": 4, "data_format": CF}, (1, 2, 6, 9)),
    ("AdaptiveAveragePooling3D", {"output_size": (2, 1, 3)}, (1, 4, 3, 5, 2)),
    ("AdaptiveMaxPooling1D", {"output_size": 4}, (2, 9, 3)),
    ("AdaptiveMaxPooling2D", {"output_size": (3, 2), "data_format": CF}, (1, 2, 7, 5)),
    ("AdaptiveMaxPooling2D", {"output_size": 3}, (2, 6, 6, 1)),
    ("AdaptiveMaxPooling3D", {"output_size": 2, "data_format": CF}, (1, 2, 5, 3, 4)),
]


def _id(case):
    name, kwargs, _ = case
    return name + "-" + "-".join(f"{k}={v}" for k, v in kwargs.items()).replace(" ", "")


@pytest.mark.parametrize("name,kwargs,shape", CASES, ids=[_id(c) for c in CASES])
def test_matches_keras(backend, name, kwargs, shape):
    layer, out = assert_matches_keras(name, kwargs, shape, atol=1e-5)
    assert out.shape == layer.compute_output_shape(shape)


@pytest.mark.parametrize("data_format,keepdims", [("channels_last", False), (CF, True)])
def test_global_average_pooling1d_mask(backend, data_format, keepdims):
    import keras

    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 5, 4)).astype("float32")
    if data_format == CF:
        x = np.moveaxis(x, -1, 1).copy()
    mask = np.array([[1, 1, 0, 1, 0], [1, 0, 0, 0, 0], [1, 1, 1, 1, 1]], dtype=bool)
    layer = hl.layers.GlobalAveragePooling1D(data_format=data_format, keepdims=keepdims)
    assert layer.supports_masking
    out = np.asarray(hl.ops.convert_to_numpy(layer(hl.ops.convert_to_tensor(x), mask=hl.ops.convert_to_tensor(mask))))
    want = np.asarray(keras.layers.GlobalAveragePooling1D(data_format=data_format, keepdims=keepdims)(x, mask=mask))
    np.testing.assert_allclose(out, want, atol=1e-6)
    assert layer.compute_mask(hl.ops.convert_to_tensor(x), hl.ops.convert_to_tensor(mask)) is None

    def loss(inputs):
        return hl.ops.sum(layer(inputs, mask=hl.ops.convert_to_tensor(mask)))

    grad = np.asarray(hl.ops.convert_to_numpy(hl.ops.value_and_grad(loss)(hl.ops.convert_to_tensor(x))[1]))
    steps = mask.sum(axis=1, keepdims=True)
    expected = (mask / steps)[:, :, None] if data_format != CF else (mask / steps)[:, None, :]
    np.testing.assert_allclose(grad, np.broadcast_to(expected, x.shape), atol=1e-6)


def test_mask_flows_from_embedding_in_a_model(backend):
    """The Keras pattern Embedding(mask_zero=True) -> GlobalAveragePooling1D averages the real tokens only."""
    tokens = np.array([[3, 1, 0, 0], [2, 2, 2, 0]], dtype="int32")
    emb = hl.layers.Embedding(5, 2, mask_zero=True)
    pooled = hl.layers.GlobalAveragePooling1D()
    x = hl.ops.convert_to_tensor(tokens)
    vectors = emb(x)
    out = np.asarray(hl.ops.convert_to_numpy(pooled(vectors, mask=emb.compute_mask(x))))
    table = np.asarray(emb.get_weights()[0])
    want = np.stack([table[[3, 1]].mean(0), table[[2, 2, 2]].mean(0)])
    np.testing.assert_allclose(out, want, atol=1e-6)
