"""A small Keras-style CNN built from the convolution, pooling and spatial reshaping layers trains on every
backend, and its saved configuration rebuilds it."""

import numpy as np

import highlevel as hl
from highlevel import layers


def _model():
    return hl.Sequential(
        [
            hl.Input((8, 8, 1)),
            layers.ZeroPadding2D(1),
            layers.Conv2D(4, 3, activation="relu"),
            layers.MaxPooling2D(),
            layers.SeparableConv2D(4, 3, padding="same", activation="relu"),
            layers.UpSampling2D(),
            layers.Cropping2D(1),
            layers.Conv2DTranspose(3, 2, strides=2),
            layers.AveragePooling2D(2),
            layers.DepthwiseConv2D(2),
            layers.GlobalAveragePooling2D(),
            layers.Dense(2),
        ]
    )


def test_cnn_trains_and_round_trips(backend):
    hl.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(8, 8, 8, 1)).astype("float32")
    y = (x.mean(axis=(1, 2, 3)) > 0).astype("int32")
    model = _model()
    assert model.output_shape == (None, 2)
    model.compile(
        optimizer="adam", loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True), jit_compile=False
    )  # keeps the first TensorFlow fit shorter on CPU
    history = model.fit(x, y, batch_size=8, epochs=3, verbose=0)
    losses = history.history["loss"]
    assert np.all(np.isfinite(losses)) and losses[-1] < losses[0]
    clone = hl.Sequential.from_config(model.get_config())
    clone.set_weights(model.get_weights())
    np.testing.assert_allclose(hl.ops.convert_to_numpy(clone(x[:2])), hl.ops.convert_to_numpy(model(x[:2])), atol=1e-5)
