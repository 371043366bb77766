"""A 1-D convolutional text classifier on token ids: Embedding, Conv1D, global max pooling, Dense.

Positive documents hold the bigram (7, 3) somewhere; a width-2 filter finds it wherever it is.
"""

import numpy as np

import highlevel as keras
from highlevel import layers


def main():
    keras.utils.set_random_seed(15)
    rng = np.random.default_rng(15)
    n, length = 320, 20
    x = rng.integers(1, 20, size=(n, length))
    x[:, :-1][(x[:, :-1] == 7) & (x[:, 1:] == 3)] = 8  # no accidental bigrams: clear them first
    y = rng.integers(0, 2, size=n)
    for i in np.flatnonzero(y):
        start = rng.integers(0, length - 1)
        x[i, start : start + 2] = (7, 3)

    inputs = keras.Input(shape=(None,), dtype="int64")
    h = layers.Embedding(20, 16)(inputs)
    h = layers.Dropout(0.1)(h)
    h = layers.Conv1D(16, 2, padding="valid", activation="relu", strides=1)(h)
    h = layers.GlobalMaxPooling1D()(h)
    h = layers.Dense(16, activation="relu")(h)
    predictions = layers.Dense(1, activation="sigmoid", name="predictions")(h)
    model = keras.Model(inputs, predictions)
    model.compile(loss="binary_crossentropy", optimizer=keras.optimizers.Adam(0.01), metrics=["accuracy"])
    history = model.fit(x[:256], y[:256], validation_data=(x[256:], y[256:]), epochs=10, batch_size=32, verbose=0)
    assert history.history["loss"][-1] < 0.4 * history.history["loss"][0], history.history["loss"]
    assert history.history["val_accuracy"][-1] > 0.85, history.history["val_accuracy"]
    return {k: v[-1] for k, v in history.history.items()}
