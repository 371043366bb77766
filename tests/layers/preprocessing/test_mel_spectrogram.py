"""MelSpectrogram: outputs vs Keras 3, the mel filters, shapes, config and save/load, argument errors, and a
small classifier on its output that learns to tell two tones apart, on every backend."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from highlevel.layers.preprocessing.mel_spectrogram import mel_weight_matrix
from tests.layers.core.keras_oracle import keras_module, to_numpy
from tests.layers.layer_test_helper import run_layer_test

S = np.random.default_rng(0).normal(size=(2, 1000)).astype("float32")
BASE = {"fft_length": 64, "sequence_stride": 32, "num_mel_bins": 10, "sampling_rate": 8000}
CONFIGS = [
    {},
    {"power_to_db": False, "mag_exp": 1.0, "window": None, "sequence_length": 48},
    {"top_db": 20.0, "ref_power": 10.0, "min_freq": 100.0, "max_freq": 3000.0, "window": "hamming"},
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(sorted(c)) or "default")
def test_matches_keras(backend, config):
    config = {**BASE, **config}
    ours = to_numpy(layers.MelSpectrogram(**config)(S))
    theirs = np.asarray(keras_module().layers.MelSpectrogram(**config)(S))
    assert ours.shape == theirs.shape == (2, 10, 32)
    np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-4 * np.abs(theirs).max())
    one = to_numpy(layers.MelSpectrogram(**config)(S[0]))  # an unbatched signal
    assert one.shape == (10, 32)


def test_mel_filters_are_triangles_on_the_mel_scale():
    m = mel_weight_matrix(4, 33, 8000, 0.0, 4000.0)
    assert m.shape == (33, 4) and np.all(m >= 0) and np.all(m[0] == 0)
    peaks = m.argmax(axis=0)
    assert np.all(np.diff(peaks) > 0)  # centres rise with the filter index
    assert np.all(np.diff(np.diff(peaks)) >= 0)  # and spread out (the mel scale is compressive)
    np.testing.assert_allclose(m.max(axis=0), 1.0, atol=0.2)


def test_symbolic_shape_config_and_save_load(backend, tmp_path):
    layer = layers.MelSpectrogram(**BASE)
    inp = hl.Input((1000,))
    out = layer(inp)
    assert out.shape == (None, 10, 32)
    config = layer.get_config()
    assert layers.MelSpectrogram.from_config(config).get_config() == config
    assert set(keras_module().layers.MelSpectrogram().get_config()) == set(config)
    model = hl.Model(inp, out)
    path = str(tmp_path / "m.keras")
    model.save(path)
    np.testing.assert_allclose(
        to_numpy(hl.saving.load_model(path).predict(S, verbose=0)), to_numpy(model.predict(S, verbose=0)), atol=1e-4
    )


def test_errors():
    with pytest.raises(ValueError, match="sequence_length"):
        layers.MelSpectrogram(fft_length=32, sequence_length=64)
    with pytest.raises(ValueError, match="sequence_stride"):
        layers.MelSpectrogram(sequence_stride=0)
    with pytest.raises(ValueError, match="num_mel_bins"):
        layers.MelSpectrogram(num_mel_bins=0)


def _tones(n, seed):
    """Noisy sines of 500 Hz (label 0) or 1500 Hz (label 1) at 8 kHz, 512 samples, random phase."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, size=n)
    t = np.arange(512) / 8000.0
    freq = np.where(y == 1, 1500.0, 500.0)[:, None]
    x = np.sin(2 * np.pi * freq * t + rng.uniform(0, 2 * np.pi, size=(n, 1))) + 0.3 * rng.normal(size=(n, 512))
    return x.astype("float32"), y.astype("float32")


def test_front_end_classifier_learns_two_tones(backend):
    hl.utils.set_random_seed(0)
    x, y = _tones(32, 0)
    model = hl.Sequential(
        [
            hl.Input((512,)),
            layers.MelSpectrogram(fft_length=64, sequence_stride=64, num_mel_bins=8, sampling_rate=8000, top_db=60.0),
            layers.Rescaling(1.0 / 60.0, offset=0.5),
            layers.GlobalAveragePooling1D(data_format="channels_first"),
            layers.Dense(1, activation="sigmoid"),
        ]
    )
    model.compile(optimizer=hl.optimizers.Adam(0.1), loss="binary_crossentropy", metrics=["accuracy"])
    start = model.evaluate(x, y, verbose=0, return_dict=True)
    model.fit(x, y, epochs=20, batch_size=16, verbose=0)
    end = model.evaluate(x, y, verbose=0, return_dict=True)
    assert end["loss"] < 0.5 * start["loss"], (start, end)
    assert end["accuracy"] == 1.0


def test_standard_layer_checks(backend):
    run_layer_test(
        layers.MelSpectrogram,
        {"fft_length": 16, "sequence_stride": 8, "num_mel_bins": 4, "sampling_rate": 8000},
        input_shape=(2, 64),
        expected_output_shape=(2, 4, 9),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        run_training_check=False,
        atol=1e-4,
        rtol=1e-4,
    )
