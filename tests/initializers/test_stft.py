"""The STFT initializer: Keras 3's kernels, configs, errors, and a convolution with it finds a sine's frequency."""

import numpy as np
import pytest

import highlevel as hl

#: (side, window, scaling, periodic); shapes are small so that Keras's float32 angles are exact enough.
CASES = [
    ("real", "hann", "density", False),
    ("imag", "hann", "density", True),
    ("real", "hamming", "spectrum", True),
    ("imag", "blackman", None, False),
    ("real", "bartlett", "density", True),
    ("imag", "boxcar", "spectrum", False),
    ("real", None, None, False),
    ("imag", [0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.25], "density", False),
    ("real", "triang", "spectrum", True),  # a window only scipy makes
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[1] if isinstance(c[1], str) else 'array'}" for c in CASES])
def test_matches_keras(backend, case):
    keras = pytest.importorskip("keras")
    side, window, scaling, periodic = case
    shape = (8, 1, 5)
    want = np.asarray(keras.initializers.STFT(side, window, scaling, periodic)(shape=shape))
    got = hl.ops.convert_to_numpy(hl.initializers.STFT(side, window, scaling, periodic)(shape=shape))
    assert got.dtype == np.float32 and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_aliases_config_and_get():
    assert hl.initializers.STFTInitializer is hl.initializers.STFT is hl.initializers.stft
    init = hl.initializers.STFT("imag", np.array([1.0, 2.0, 1.0]), "spectrum", True)
    config = hl.initializers.serialize(init)
    assert config == {
        "class_name": "STFT",
        "config": {"side": "imag", "window": [1.0, 2.0, 1.0], "periodic": True, "scaling": "spectrum"},
    }
    again = hl.initializers.deserialize(config)
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(again((3, 1, 4))), hl.ops.convert_to_numpy(init((3, 1, 4))))
    assert type(hl.initializers.get("stft")) is hl.initializers.STFT


@pytest.mark.parametrize(
    "kwargs,shape,match",
    [
        ({"side": "complex"}, (4, 1, 3), "side"),
        ({"scaling": "l2"}, (4, 1, 3), "scaling"),
        ({"window": "no-such-window"}, (4, 1, 3), "window"),
        ({"window": [[1.0, 2.0]]}, (4, 1, 3), "1-D"),
        ({"window": [1.0, 2.0]}, (4, 1, 3), "frame_length"),
        ({}, (4, 3), "frame_length, channels, bins"),
        ({}, (4, 1, 1), "2 frequency bins"),
    ],
)
def test_errors(kwargs, shape, match):
    with pytest.raises(ValueError, match=match):
        hl.initializers.STFT(**kwargs)(shape)


def test_convolution_with_it_finds_the_frequency(backend):
    """A strided Conv1D with the real and imaginary kernels is a framed DFT: the power peaks at the sine's bin."""
    frame, bins = 32, 17
    t = np.arange(4 * frame)
    signal = np.sin(2 * np.pi * 5 * t / frame).astype("float32").reshape(1, -1, 1)  # 5 cycles per frame
    powers = 0.0
    for side in ("real", "imag"):
        conv = hl.layers.Conv1D(
            bins,
            frame,
            strides=frame,
            use_bias=False,
            kernel_initializer=hl.initializers.STFT(side, "hann", "density", periodic=True),
        )
        powers = powers + np.square(hl.ops.convert_to_numpy(conv(signal)))
    assert powers.shape == (1, 4, bins)
    assert (np.argmax(powers, axis=-1) == 5).all()
    assert (powers[..., 5] > 10 * np.delete(powers, [4, 5, 6], axis=-1).max(axis=-1)).all()
