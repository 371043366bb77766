"""STFTSpectrogram: every mode and layout vs Keras 3 on the same signal, against numpy's FFT, gradients to
the trainable kernels, config and save/load, argument errors, on every backend."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.core.keras_oracle import assert_grads_match_keras, keras_module, to_numpy
from tests.layers.layer_test_helper import run_layer_test

X = np.random.default_rng(0).normal(size=(2, 100, 2)).astype("float32")

CONFIGS = [
    {},
    {"mode": "magnitude", "padding": "same", "window": "hamming", "periodic": True},
    {"mode": "psd", "fft_length": 32, "scaling": "spectrum"},
    {"mode": "real", "expand_dims": True, "window": None, "scaling": None},
    {"mode": "imag", "data_format": "channels_first"},
    {"mode": "stft", "data_format": "channels_first", "expand_dims": True, "frame_step": 5},
    {"mode": "angle"},
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()) or "default")
def test_matches_keras(backend, config):
    config = {"frame_length": 20, "frame_step": 10, **config}
    x = np.swapaxes(X, 1, 2) if config.get("data_format") == "channels_first" else X
    ours = to_numpy(layers.STFTSpectrogram(**config)(x))
    theirs = np.asarray(keras_module().layers.STFTSpectrogram(**config)(x))
    assert ours.shape == theirs.shape
    if config.get("mode") == "angle":  # phases equal up to the +-pi branch cut of bins with a zero imaginary part
        ours, theirs = np.exp(1j * ours), np.exp(1j * theirs)
    np.testing.assert_allclose(ours, theirs, atol=2e-4, rtol=1e-4)


def test_equals_numpy_fft(backend):
    """Without a window the kernels are the DFT: each frame's bins equal numpy's rfft of that frame."""
    x = X[:1, :64, :1]
    out = to_numpy(layers.STFTSpectrogram("stft", frame_length=16, frame_step=16, window=None, scaling=None)(x))
    frames = x[0, :, 0].reshape(4, 16)
    want = np.fft.rfft(frames, axis=-1)
    np.testing.assert_allclose(out[0], np.concatenate([want.real, want.imag], axis=-1), atol=1e-4)


def test_kernels_are_trainable_and_gradients_match_keras(backend):
    layer = layers.STFTSpectrogram("magnitude", frame_length=16, frame_step=8)
    layer(X)
    assert [w.path.split("/")[-1] for w in layer.trainable_weights] == ["real_kernel", "imag_kernel"]
    assert_grads_match_keras(
        layer, keras_module().layers.STFTSpectrogram("magnitude", frame_length=16, frame_step=8), X, atol=2e-4
    )


def test_symbolic_shape_config_and_save_load(backend, tmp_path):
    layer = layers.STFTSpectrogram("log", frame_length=16, frame_step=8, expand_dims=True)
    inp = hl.Input((64, 2))
    out = layer(inp)
    assert out.shape == (None, 7, 9, 2)
    config = layer.get_config()
    assert layers.STFTSpectrogram.from_config(config).get_config() == config
    assert set(keras_module().layers.STFTSpectrogram().get_config()) == set(config)
    model = hl.Model(inp, out)
    path = str(tmp_path / "m.keras")
    model.save(path)
    loaded = hl.saving.load_model(path)
    np.testing.assert_allclose(
        to_numpy(loaded.predict(X[:, :64], verbose=0)), to_numpy(model.predict(X[:, :64], verbose=0))
    )


def test_errors():
    with pytest.raises(ValueError, match="frame_step"):
        layers.STFTSpectrogram(frame_length=8, frame_step=9)
    with pytest.raises(ValueError, match="fft_length"):
        layers.STFTSpectrogram(frame_length=16, fft_length=8)
    with pytest.raises(ValueError, match="mode"):
        layers.STFTSpectrogram(mode="power")
    with pytest.raises(ValueError, match="padding"):
        layers.STFTSpectrogram(padding="causal")
    with pytest.raises(TypeError, match="float"):
        layers.STFTSpectrogram(frame_length=8)(np.ones((1, 32, 1), "int32"))
    with pytest.warns(UserWarning, match="power of two"):
        layers.STFTSpectrogram(frame_length=8, fft_length=12)


def test_standard_layer_checks(backend):
    run_layer_test(
        layers.STFTSpectrogram,
        {"mode": "magnitude", "frame_length": 8, "frame_step": 4},
        input_shape=(2, 32, 1),
        expected_output_shape=(2, 7, 5),
        expected_num_trainable_weights=2,
        expected_num_non_trainable_weights=0,
        atol=1e-5,
        rtol=1e-5,
    )
