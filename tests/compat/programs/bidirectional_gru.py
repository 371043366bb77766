"""A bidirectional GRU stack (return_sequences into a second recurrent layer) for sequence classification.

The label is the first token of the sequence, which a backward pass over a long sequence reaches last.
"""

import numpy as np

import highlevel as keras
from highlevel import layers


def main():
    keras.utils.set_random_seed(14)
    rng = np.random.default_rng(14)
    x = rng.integers(1, 10, size=(256, 8))
    y = (x[:, 0] > 5).astype("int32")

    inputs = keras.Input(shape=(None,), dtype="int32")
    h = layers.Embedding(10, 8)(inputs)
    h = layers.Bidirectional(layers.GRU(8, return_sequences=True))(h)
    h = layers.Bidirectional(layers.GRU(8))(h)
    outputs = layers.Dense(2, activation="softmax")(h)
    model = keras.Model(inputs, outputs)
    assert model.layers[2].output.shape == (None, None, 16)

    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, batch_size=64, epochs=8, verbose=0)
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0], history.history["loss"]
    assert logs["accuracy"] > 0.9, logs
    return logs
