"""Text classification from raw strings: TextVectorization adapted on the training texts (standardization,
splitting, a vocabulary), then Embedding, pooling and Dense. A review is positive when it says so."""

import numpy as np

import highlevel as keras
from highlevel import layers

POSITIVE = ["great", "wonderful", "loved", "excellent"]
NEGATIVE = ["awful", "boring", "hated", "terrible"]
FILLER = ["the", "movie", "plot", "actors", "was", "and", "a", "film", "story", "it"]


def make_reviews(n, rng):
    texts, labels = [], []
    for _ in range(n):
        label = int(rng.integers(0, 2))
        words = list(rng.choice(FILLER, size=int(rng.integers(4, 9))))
        words.insert(int(rng.integers(0, len(words))), str(rng.choice(POSITIVE if label else NEGATIVE)).upper())
        texts.append(" ".join(words) + rng.choice([".", "!", "?"]))
        labels.append(label)
    return np.array(texts), np.array(labels)


def main():
    keras.utils.set_random_seed(24)
    rng = np.random.default_rng(24)
    texts, labels = make_reviews(320, rng)

    vectorize_layer = layers.TextVectorization(max_tokens=40, output_mode="int", output_sequence_length=10)
    vectorize_layer.adapt(texts[:256])
    vocabulary = vectorize_layer.get_vocabulary()
    assert vocabulary[:2] == ["", "[UNK]"] and "great" in vocabulary  # lower-cased, punctuation stripped
    x = keras.ops.convert_to_numpy(vectorize_layer(texts))
    assert x.shape == (320, 10)

    model = keras.Sequential(
        [
            keras.Input(shape=(10,), dtype="int64"),
            layers.Embedding(40, 8),
            layers.GlobalAveragePooling1D(),
            layers.Dense(1, activation="sigmoid"),
        ]
    )
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(x[:256], labels[:256], epochs=8, batch_size=32, verbose=0)
    logs = model.evaluate(x[256:], labels[256:], verbose=0, return_dict=True)

    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0], history.history["loss"]
    assert logs["accuracy"] > 0.9, logs
    return logs
