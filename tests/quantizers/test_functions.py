"""The quantization functions of ``hl.quantizers`` on every engine, checked against Keras's same functions on the
same inputs (Keras runs in this process on its own engine; only numbers are compared)."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import quantizers as Q

RNG = np.random.default_rng(0)
X = RNG.normal(size=(7, 5)).astype("float32")
INT4 = RNG.integers(-8, 8, size=(5, 3, 4)).astype("int8")


def out(t):
    return np.asarray(hl.ops.convert_to_numpy(t))


def theirs(keras, t):
    return np.asarray(keras.ops.convert_to_numpy(t))


@pytest.mark.parametrize("axis", [0, -1, (0, 1)])
@pytest.mark.parametrize("to_numpy", [False, True])
def test_abs_max_quantize_matches_keras(backend, keras, axis, to_numpy):
    q, scale = Q.abs_max_quantize(X, axis=axis, to_numpy=to_numpy)
    kq, kscale = keras.quantizers.abs_max_quantize(X, axis=axis)
    assert out(q).dtype == np.int8 and out(scale).dtype == np.float32
    np.testing.assert_array_equal(out(q), theirs(keras, kq))
    np.testing.assert_allclose(out(scale), theirs(keras, kscale), rtol=1e-6)
    # The round trip is within half a quantization step of each value.
    assert np.all(np.abs(out(q) / out(scale) - X) <= 0.5 / out(scale) + 1e-6)


def test_abs_max_quantizer_matches_keras(backend, keras):
    ours = Q.AbsMaxQuantizer(value_range=(-8, 7))
    kq, kscale = keras.quantizers.AbsMaxQuantizer(value_range=(-8, 7))(X, axis=0)
    q, scale = ours(X, axis=0)
    np.testing.assert_array_equal(out(q), theirs(keras, kq))
    assert out(q).min() >= -8 and out(q).max() <= 7
    # The constructor's axis is the default of the call.
    np.testing.assert_array_equal(out(Q.AbsMaxQuantizer(axis=0, value_range=(-8, 7))(X)[0]), out(q))


@pytest.mark.parametrize("block_size", [2, 3, 7, 16])
@pytest.mark.parametrize("to_numpy", [False, True])
def test_grouped_quantize_matches_keras(backend, keras, block_size, to_numpy):
    ours = Q.abs_max_quantize_grouped_with_zero_point(X, block_size, to_numpy=to_numpy)
    expected = keras.quantizers.abs_max_quantize_grouped_with_zero_point(X, block_size)
    n_groups = -(-7 // block_size)
    assert [tuple(t.shape) for t in ours] == [(7, 5), (n_groups, 5), (n_groups, 5)]
    for mine, keras_value in zip(ours, expected):
        assert out(mine).dtype == theirs(keras, keras_value).dtype
        np.testing.assert_allclose(out(mine), theirs(keras, keras_value), rtol=1e-6)
    q, scale, zero = (out(t) for t in ours)
    rows = np.arange(7) // block_size
    back = (q.astype("float32") - zero[rows]) * scale[rows]
    # Where a group's range spans zero its zero point is not clipped: every value comes back within half a step.
    padded = np.concatenate([X, np.zeros((-(-7 // block_size) * block_size - 7, 5), "float32")])
    groups = padded.reshape(-1, block_size, 5) if n_groups > 1 else X[None]
    spans_zero = (groups.min(axis=1) <= 0) & (groups.max(axis=1) >= 0)
    assert spans_zero.any()
    exact = spans_zero[rows]
    assert np.all(np.abs(back - X)[exact] <= 0.5 * scale[rows][exact] * 1.001 + 1e-6)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_pack_int4_matches_keras_and_round_trips(backend, keras, axis):
    packed, shape, length = Q.pack_int4(INT4, axis=axis)
    kpacked, kshape, klength = keras.quantizers.pack_int4(INT4, axis=axis)
    np.testing.assert_array_equal(out(packed), theirs(keras, kpacked))
    assert (shape, length) == (tuple(kshape), klength) and out(packed).dtype == np.int8
    assert shape[axis] == -(-INT4.shape[axis] // 2)
    unpacked = Q.unpack_int4(packed, length, axis=axis)
    assert out(unpacked).dtype == np.int8
    np.testing.assert_array_equal(out(unpacked), INT4)
    np.testing.assert_array_equal(out(unpacked), theirs(keras, keras.quantizers.unpack_int4(kpacked, klength, axis)))


def test_int4_unsigned_round_trip(backend):
    values = RNG.integers(0, 16, size=(5, 3)).astype("uint8")
    packed, _, length = Q.pack_int4(hl.ops.convert_to_tensor(values), dtype="uint8")
    assert out(packed).dtype == np.uint8
    np.testing.assert_array_equal(out(Q.unpack_int4(packed, length, dtype="uint8")), values)


def test_int4_bad_input(backend):
    with pytest.raises(TypeError, match="int8 tensor.*float32"):
        Q.pack_int4(X)
    with pytest.raises(ValueError, match="'int8' or 'uint8'.*int16"):
        Q.pack_int4(INT4, dtype="int16")
    with pytest.raises(TypeError, match="int8 or uint8.*float32"):
        Q.unpack_int4(X, 7)


@pytest.mark.parametrize("fmt", ["float8_e4m3fn", "float8_e5m2"])
@pytest.mark.parametrize("scale", [1.0, 0.01, 3.7])
def test_float8_quantize_and_dequantize_matches_keras(backend, keras, fmt, scale):
    # Wide values (overflowing the format and down to its subnormals) hit every rounding path.
    values = np.concatenate(
        [RNG.normal(size=400) * 100, RNG.normal(size=200) * 1e-3, [0.0, 1e6, -1e6, 2.0**-9, 2.0**-17]]
    ).astype("float32")
    ours = out(Q.quantize_and_dequantize(values, scale, fmt, "float32"))
    np.testing.assert_array_equal(
        ours, theirs(keras, keras.quantizers.quantize_and_dequantize(values, scale, fmt, "float32"))
    )
    # Idempotent: a float8 value comes back unchanged.
    np.testing.assert_array_equal(out(Q.quantize_and_dequantize(ours, scale, fmt, "float32")), ours)


def test_float8_bad_dtype(backend):
    with pytest.raises(ValueError, match="float8_e4m3fn.*'int8'"):
        Q.quantize_and_dequantize(X, 1.0, "int8", "float32")


def test_float8_scaling_matches_keras(backend, keras):
    history = np.array([1.0, 5.0, 2.0, 0.0], "float32")
    new_history = out(Q.compute_float8_amax_history(X, history))
    expected = theirs(keras, keras.quantizers.compute_float8_amax_history(X, keras.ops.convert_to_tensor(history)))
    np.testing.assert_array_equal(new_history, expected)
    assert new_history[0] == np.abs(X).max()
    for amax in (3.0, 0.0, np.inf):
        args = (np.float32(amax), np.float32(2.0), 448.0, 1)
        np.testing.assert_allclose(
            out(Q.compute_float8_scale(*args)), theirs(keras, keras.quantizers.compute_float8_scale(*args)), rtol=1e-6
        )


# Ranges whose zero point is not at a rounding tie (where engines' division may round either way).
MIN_VALS = np.array([-1.0, -0.77, -0.5, -0.33, -0.21], "float32")
MAX_VALS = np.array([0.9, 1.1, 1.3, 0.7, 1.7], "float32")


@pytest.mark.parametrize("num_bits,narrow_range", [(8, False), (4, True), (2, False)])
def test_fake_quant_matches_keras(backend, keras, num_bits, narrow_range):
    per_tensor = out(Q.fake_quant_with_min_max_vars(X, -0.7, 1.3, num_bits, narrow_range))
    expected = theirs(keras, keras.quantizers.fake_quant_with_min_max_vars(X, -0.7, 1.3, num_bits, narrow_range))
    np.testing.assert_allclose(per_tensor, expected, atol=1e-6)
    assert len(np.unique(per_tensor)) <= 2**num_bits - narrow_range
    per_channel = Q.fake_quant_with_min_max_vars(X, MIN_VALS, MAX_VALS, num_bits, narrow_range, axis=1)
    expected = keras.quantizers.fake_quant_with_min_max_vars(X, MIN_VALS, MAX_VALS, num_bits, narrow_range, axis=1)
    np.testing.assert_allclose(out(per_channel), theirs(keras, expected), atol=1e-6)
    # Per channel along axis 0 is the same computation transposed.
    transposed = Q.fake_quant_with_min_max_vars(X.T, MIN_VALS, MAX_VALS, num_bits, narrow_range, axis=0)
    np.testing.assert_allclose(out(transposed), out(per_channel).T, atol=1e-6)


def test_fake_quant_gradients_are_straight_through(backend):
    x = hl.ops.convert_to_tensor(np.array([[-2.0, -0.5, 0.0], [0.4, 1.0, 3.0]], "float32"))
    upstream = hl.ops.convert_to_tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float32"))

    def loss(x, low, high):
        return hl.ops.sum(hl.ops.multiply(Q.fake_quant_with_min_max_vars(x, low, high), upstream))

    # min=-1, max=1.2 with 8 bits nudges to [-1.0008, 1.1992]: -2 is below, 3.0 above, the others inside.
    d_x, d_low, d_high = hl.ops.grad(loss, argnums=(0, 1, 2))(
        x, hl.ops.convert_to_tensor(-1.0), hl.ops.convert_to_tensor(1.2)
    )
    np.testing.assert_array_equal(out(d_x), [[0.0, 2.0, 3.0], [4.0, 5.0, 0.0]])
    assert float(out(d_low)) == 1.0 and float(out(d_high)) == 6.0
    # Per channel (axis 1): each channel's ends get only their own column's gradient.
    low = hl.ops.convert_to_tensor(np.array([-1.0, -0.25, -1.0], "float32"))
    high = hl.ops.convert_to_tensor(np.array([1.0, 0.9, 0.5], "float32"))

    def channel_loss(x, low, high):
        return hl.ops.sum(hl.ops.multiply(Q.fake_quant_with_min_max_vars(x, low, high, axis=1), upstream))

    d_x, d_low, d_high = hl.ops.grad(channel_loss, argnums=(0, 1, 2))(x, low, high)
    np.testing.assert_array_equal(out(d_x), [[0.0, 0.0, 3.0], [4.0, 0.0, 0.0]])
    np.testing.assert_array_equal(out(d_low), [1.0, 2.0, 0.0])
    np.testing.assert_array_equal(out(d_high), [0.0, 5.0, 6.0])


def test_fake_quant_range_learns(backend):
    """Training only the range through the straight-through gradients moves it onto the data: the error falls."""
    data = hl.ops.convert_to_tensor(np.linspace(-3.0, 3.0, 64).astype("float32"))
    low, high = hl.ops.convert_to_tensor(-0.5), hl.ops.convert_to_tensor(0.5)

    def error(low, high):
        return hl.ops.mean(hl.ops.square(Q.fake_quant_with_min_max_vars(data, low, high, num_bits=4) - data))

    first = float(out(error(low, high)))
    for _ in range(40):
        d_low, d_high = hl.ops.grad(error, argnums=(0, 1))(low, high)
        low, high = low - 0.5 * d_low, high - 0.5 * d_high
    assert float(out(error(low, high))) < 0.2 * first


def test_fake_quant_bad_arguments(backend):
    with pytest.raises(ValueError, match="num_bits.*1"):
        Q.fake_quant_with_min_max_vars(X, 0.0, 1.0, num_bits=1)
    with pytest.raises(ValueError, match="axis=2.*rank 2"):
        Q.fake_quant_with_min_max_vars(X, MIN_VALS, MAX_VALS, axis=2)


def test_abs_max_bad_value_range(backend):
    with pytest.raises(ValueError, match=r"min < max.*\(7, -8\)"):
        Q.abs_max_quantize(X, axis=0, value_range=(7, -8))
    with pytest.raises(ValueError, match="block_size.*0"):
        Q.abs_max_quantize_grouped_with_zero_point(X, 0)
    with pytest.raises(ValueError, match="2-D.*\\(7,\\)"):
        Q.abs_max_quantize_grouped_with_zero_point(X[:, 0], 2)
