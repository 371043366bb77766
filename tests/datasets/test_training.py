"""A model learns from what the loaders return, on every backend."""

import numpy as np

import highlevel as hl
from highlevel.datasets import imdb, mnist

from .files import npz, place


def _digit_like_images(rng, n):
    # class k lights up row block k: learnable from a few samples
    y = rng.integers(0, 10, n).astype(np.uint8)
    x = rng.integers(0, 40, (n, 28, 28)).astype(np.uint8)
    for i, k in enumerate(y):
        x[i, 2 * k : 2 * k + 3] = 250
    return x, y


def test_a_model_learns_mnist_as_loaded(backend, home, nowhere, monkeypatch):
    rng = np.random.default_rng(0)
    (xa, ya), (xb, yb) = _digit_like_images(rng, 64), _digit_like_images(rng, 32)
    place(monkeypatch, mnist, "mnist.npz", npz(x_train=xa, y_train=ya, x_test=xb, y_test=yb), home, nowhere)
    (x_train, y_train), (x_test, y_test) = mnist.load_data()
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((28, 28)), hl.layers.Flatten(), hl.layers.Dense(10, activation="softmax")])
    model.compile(optimizer=hl.optimizers.Adam(0.01), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    before = model.evaluate(x_test / 255.0, y_test, verbose=0)
    model.fit(x_train / 255.0, y_train, epochs=15, batch_size=16, verbose=0)
    after = model.evaluate(x_test / 255.0, y_test, verbose=0)
    assert after[0] < 0.5 * before[0] and after[1] >= 0.9


def test_a_model_learns_imdb_as_loaded(backend, home, nowhere, monkeypatch):
    # positive reviews use words 1-9, negative ones words 10-19 (before index_from shifts them up by 3)
    rng = np.random.default_rng(1)

    def reviews(n):
        y = rng.integers(0, 2, n)
        x = np.empty(n, dtype=object)
        for i, label in enumerate(y):
            low = 1 if label else 10
            x[i] = [int(w) for w in rng.integers(low, low + 9, int(rng.integers(3, 9)))]
        return x, y

    (xa, ya), (xb, yb) = reviews(64), reviews(32)
    place(monkeypatch, imdb, "imdb.npz", npz(x_train=xa, y_train=ya, x_test=xb, y_test=yb), home, nowhere)
    (x_train, y_train), (x_test, y_test) = imdb.load_data(num_words=30, maxlen=10)

    def pad(seqs):
        out = np.zeros((len(seqs), 10), "int32")
        for i, s in enumerate(seqs):
            out[i, -len(s) :] = s
        return out

    hl.utils.set_random_seed(0)
    model = hl.Sequential(
        [
            hl.Input((10,), dtype="int32"),
            hl.layers.Embedding(30, 8),
            hl.layers.GlobalAveragePooling1D(),
            hl.layers.Dense(1, activation="sigmoid"),
        ]
    )
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="binary_crossentropy", metrics=["accuracy"])
    before = model.evaluate(pad(x_test), y_test, verbose=0)
    model.fit(pad(x_train), y_train, epochs=15, batch_size=16, verbose=0)
    after = model.evaluate(pad(x_test), y_test, verbose=0)
    assert after[0] < 0.5 * before[0] and after[1] >= 0.9
