"""An end-to-end text model: TextVectorization inside the model, so that the exported model takes raw strings
(a `keras.Input(dtype="string")`). The label says whether a short review holds a positive word."""

import numpy as np

import highlevel as keras
from highlevel import layers


def main():
    keras.utils.set_random_seed(25)
    rng = np.random.default_rng(25)
    good, bad, filler = ["great", "loved"], ["awful", "boring"], ["the", "film", "was", "a", "story"]
    labels = rng.integers(0, 2, size=256)
    texts = np.array(
        [" ".join(list(rng.choice(filler, size=3)) + [str(rng.choice(good if y else bad))]) for y in labels]
    )

    vectorize = layers.TextVectorization(max_tokens=20, output_sequence_length=6)
    vectorize.adapt(texts)
    raw = keras.Input(shape=(1,), dtype="string")
    h = layers.Embedding(20, 8)(vectorize(raw))
    h = layers.GlobalAveragePooling1D()(h)
    model = keras.Model(raw, layers.Dense(1, activation="sigmoid")(h))
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(texts[:, None], labels, epochs=6, batch_size=32, verbose=0)
    probabilities = model.predict(np.array([["a great film"], ["a boring film"]]), verbose=0)
    assert probabilities[0, 0] > 0.5 > probabilities[1, 0], probabilities
    assert history.history["accuracy"][-1] > 0.9, history.history
    return {k: v[-1] for k, v in history.history.items()}
