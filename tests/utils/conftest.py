"""Fixtures of the ``hl.utils`` tests: Keras as an oracle, and small directories of image, text and WAV files."""

import os
import wave

import numpy as np
import pytest


@pytest.fixture(scope="session")
def keras():
    os.environ.setdefault("KERAS_BACKEND", "jax")
    return pytest.importorskip("keras")


def write_wav(path, samples, rate=8000, sample_width=2):
    """Writes int PCM samples of shape (frames, channels) to a WAV file with the standard library."""
    samples = np.asarray(samples)
    with wave.open(str(path), "wb") as f:
        f.setnchannels(samples.shape[1])
        f.setsampwidth(sample_width)
        f.setframerate(rate)
        dtype = {1: "u1", 2: "<i2", 4: "<i4"}[sample_width]
        f.writeframes(samples.astype(dtype).tobytes())


@pytest.fixture(scope="session")
def image_dir(tmp_path_factory):
    """Two classes of 6 small PNG images of different sizes; "bright" images are much lighter than "dark" ones."""
    pil = pytest.importorskip("PIL.Image")
    root = tmp_path_factory.mktemp("images")
    rng = np.random.default_rng(0)
    for label, base in (("bright", 170), ("dark", 20)):
        (root / label).mkdir()
        for i in range(6):
            pixels = np.clip(base + rng.integers(-20, 60, (6 + i % 3, 8 + i % 2, 3)), 0, 255).astype("uint8")
            pil.fromarray(pixels).save(root / label / f"{i}.png")
    (root / "notes.md").write_text("not an image")
    return root


@pytest.fixture(scope="session")
def text_dir(tmp_path_factory):
    """Two classes of 10 short reviews each, told apart by their words."""
    root = tmp_path_factory.mktemp("texts")
    rng = np.random.default_rng(1)
    vocab = {"neg": ["bad", "awful", "boring", "poor"], "pos": ["good", "great", "lovely", "fine"]}
    for label, words in vocab.items():
        (root / label).mkdir()
        for i in range(10):
            text = " ".join(rng.choice(words + ["the", "a", "film", "was"], 6))
            (root / label / f"{i:02d}.txt").write_text(text)
    return root


@pytest.fixture(scope="session")
def wav_dir(tmp_path_factory):
    """Two classes of 16-bit mono clips of different lengths: loud noise ("loud") and near silence ("quiet")."""
    root = tmp_path_factory.mktemp("audio")
    rng = np.random.default_rng(2)
    for label, amplitude in (("loud", 20000), ("quiet", 300)):
        (root / label).mkdir()
        for i in range(6):
            write_wav(root / label / f"{i}.wav", rng.integers(-amplitude, amplitude, (40 + 5 * i, 1)))
    return root
