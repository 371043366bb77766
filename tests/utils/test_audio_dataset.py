"""``audio_dataset_from_directory``: the same batches as Keras, the WAV encodings it reads, resampling, and a
model that learns from it on every engine."""

import numpy as np
import pytest

import highlevel as hl
from highlevel.utils.audio_dataset import read_wav, resample

from .conftest import write_wav


def _elements(ds):
    batches = ds.as_numpy_iterator() if hasattr(ds, "as_numpy_iterator") else ds
    return [tuple(b if isinstance(b, tuple) else (b,)) for b in batches]


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"output_sequence_length": 30},
        {"output_sequence_length": 70, "label_mode": "categorical"},
        {"labels": None},
        {"ragged": True},
        {"batch_size": None},
        {"label_mode": "binary"},
    ],
)
def test_matches_keras(keras, wav_dir, kwargs):
    kwargs = {"batch_size": 4, "shuffle": False, "verbose": False, **kwargs}
    theirs = _elements(keras.utils.audio_dataset_from_directory(wav_dir, **kwargs))
    for format in ("tf", "pydataset"):
        mine = _elements(hl.utils.audio_dataset_from_directory(wav_dir, format=format, **kwargs))
        assert len(mine) == len(theirs)
        for x, y in zip(theirs, mine):
            for u, v in zip(x, y, strict=True):
                if kwargs.get("ragged") and np.asarray(u).dtype == object:  # tf.data's ragged batch: arrays
                    assert all(np.array_equal(p, q) for p, q in zip(u, v, strict=True))
                    continue
                u, v = np.asarray(u), np.asarray(v)
                assert u.shape == v.shape and u.dtype == v.dtype
                np.testing.assert_array_equal(u, v)


@pytest.mark.parametrize("width", [1, 2, 4])
def test_reads_pcm_widths(tmp_path, width):
    rng = np.random.default_rng(0)
    full = {1: 256, 2: 1 << 16, 4: 1 << 32}[width]
    ints = rng.integers(0, full, (20, 2)) - (0 if width == 1 else full // 2)
    write_wav(tmp_path / "a.wav", ints, rate=16000, sample_width=width)
    clip, rate = read_wav(tmp_path / "a.wav")
    assert rate == 16000 and clip.shape == (20, 2) and clip.dtype == np.float32
    expected = (ints - 128) / 128.0 if width == 1 else ints / float(full // 2)
    np.testing.assert_allclose(clip, expected, atol=1e-6)


def test_reads_24_bit_and_float_wav(tmp_path):
    import struct

    def write(path, fmt_tag, bits, payload, channels=1):
        block = channels * bits // 8
        fmt = struct.pack("<HHIIHH", fmt_tag, channels, 8000, 8000 * block, block, bits)
        body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(payload))
        path.write_bytes(b"RIFF" + struct.pack("<I", len(body) + len(payload)) + body + payload)

    values = np.array([0.5, -0.25, 0.0, -1.0], "float32")
    write(tmp_path / "f.wav", 3, 32, values.tobytes())
    np.testing.assert_array_equal(read_wav(tmp_path / "f.wav")[0][:, 0], values)
    ints = (values * (1 << 23)).astype("int64")
    payload = b"".join(int(v).to_bytes(3, "little", signed=True) for v in ints)
    write(tmp_path / "i24.wav", 1, 24, payload)
    np.testing.assert_allclose(read_wav(tmp_path / "i24.wav")[0][:, 0], values, atol=1e-7)
    (tmp_path / "bad.wav").write_bytes(b"not a wav file at all")
    with pytest.raises(ValueError, match="not a WAV file"):
        read_wav(tmp_path / "bad.wav")
    write(tmp_path / "alaw.wav", 6, 8, b"\x00\x01")
    with pytest.raises(ValueError, match="unsupported WAV encoding"):
        read_wav(tmp_path / "alaw.wav")


def test_resampling_keeps_the_pitch(tmp_path):
    rate, seconds = 8000, 0.5
    t = np.arange(int(rate * seconds)) / rate
    (tmp_path / "tones").mkdir()
    write_wav(tmp_path / "tones" / "a.wav", (np.sin(2 * np.pi * 440 * t) * 20000)[:, None], rate=rate)
    clips = hl.utils.audio_dataset_from_directory(tmp_path, sampling_rate=16000, verbose=False, format="pydataset")
    clip = clips[0][0][0, :, 0]
    assert clip.shape == (8000,)
    spectrum = np.abs(np.fft.rfft(clip))
    assert abs(np.argmax(spectrum) * 16000 / len(clip) - 440) < 3
    np.testing.assert_allclose(np.abs(clip).max(), 20000 / 32768, rtol=0.02)
    same = resample(np.ones((10, 1), "float32"), 100, 100)
    assert same.shape == (10, 1)


def test_errors(wav_dir):
    with pytest.raises(ValueError, match="cannot be used together"):
        hl.utils.audio_dataset_from_directory(wav_dir, ragged=True, output_sequence_length=10)
    with pytest.raises(ValueError, match="sampling_rate"):
        hl.utils.audio_dataset_from_directory(wav_dir, sampling_rate=0)
    with pytest.raises(ValueError, match="sampling_rate"):
        hl.utils.audio_dataset_from_directory(wav_dir, sampling_rate=16000.0)
    with pytest.raises(ValueError, match="output_sequence_length"):
        hl.utils.audio_dataset_from_directory(wav_dir, output_sequence_length=0)


def test_a_model_learns_from_it(backend, wav_dir):
    train = hl.utils.audio_dataset_from_directory(
        wav_dir, batch_size=4, output_sequence_length=64, seed=0, verbose=False
    )
    hl.utils.set_random_seed(0)
    model = hl.Sequential(
        [
            hl.Input((64, 1)),
            hl.layers.Lambda(lambda x: 10.0 * hl.ops.abs(x)),
            hl.layers.GlobalAveragePooling1D(),
            hl.layers.Dense(2, activation="softmax"),
        ]
    )
    model.compile(optimizer=hl.optimizers.Adam(0.2), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(train, epochs=15, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    assert history.history["accuracy"][-1] == 1.0
