"""The quantization functions inside models on every engine: in compiled training and prediction steps, not only
eagerly."""

import numpy as np

import highlevel as hl
from highlevel import quantizers as Q


class FakeQuantDense(hl.layers.Layer):
    """A Dense layer trained with its kernel fake-quantized to 4 bits on a trainable range."""

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], 1), initializer="zeros")
        self.low = self.add_weight(shape=(), initializer=hl.initializers.Constant(-0.1))
        self.high = self.add_weight(shape=(), initializer=hl.initializers.Constant(0.1))

    def call(self, x):
        kernel = Q.fake_quant_with_min_max_vars(self.kernel, self.low, self.high, num_bits=4)
        return hl.ops.matmul(x, kernel)


def test_fake_quant_layer_learns_in_fit(backend):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype("float32")
    y = x @ np.array([[1.5], [-2.0], [0.5]], "float32")
    model = hl.Sequential([hl.Input((3,)), FakeQuantDense()])
    model.compile(optimizer=hl.optimizers.Adam(0.1), loss="mse")
    history = model.fit(x, y, epochs=30, batch_size=16, verbose=0).history["loss"]
    assert history[-1] < 0.1 * history[0]
    layer = model.layers[-1]
    # The range grew to hold the kernel: the straight-through gradient reached min and max.
    assert float(hl.ops.convert_to_numpy(layer.high)) > 1.0 and float(hl.ops.convert_to_numpy(layer.low)) < -1.0


class PackedInt4Dense(hl.layers.Layer):
    """A Dense layer whose kernel is stored int4-packed with one scale per output column."""

    def __init__(self, kernel, **kwargs):
        super().__init__(**kwargs)
        quantized, scale = Q.abs_max_quantize(kernel, axis=0, value_range=(-8, 7))
        packed, _, self.rows = Q.pack_int4(quantized)
        self.packed = self.add_weight(shape=tuple(packed.shape), dtype="int8", trainable=False, initializer="zeros")
        self.packed.assign(packed)
        self.scale = self.add_weight(shape=tuple(scale.shape), trainable=False, initializer="zeros")
        self.scale.assign(scale)

    def call(self, x):
        kernel = hl.ops.cast(Q.unpack_int4(self.packed, self.rows), "float32")
        return hl.ops.matmul(x, kernel / self.scale)


def test_packed_int4_layer_predicts_in_compiled_step(backend):
    rng = np.random.default_rng(1)
    kernel = rng.normal(size=(5, 3)).astype("float32")
    x = rng.normal(size=(8, 5)).astype("float32")
    layer = PackedInt4Dense(kernel)
    assert tuple(layer.packed.shape) == (3, 3) and hl.ops.dtype(layer.packed) == "int8"
    model = hl.Sequential([hl.Input((5,)), layer])
    predicted = model.predict(x, verbose=0)
    scale = 7.0 / (np.abs(kernel).max(axis=0, keepdims=True) + 1e-7)
    expected = x @ (np.clip(np.round(kernel * scale), -8, 7) / scale)
    np.testing.assert_allclose(predicted, expected, rtol=1e-5, atol=1e-5)
    # int4 keeps the float result close: within the rounding of 15 levels.
    assert np.abs(predicted - x @ kernel).max() < 0.2 * np.abs(x @ kernel).max()
