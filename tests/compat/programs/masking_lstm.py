"""Variable-length sequences padded with pad_sequences, an Embedding with mask_zero=True and an LSTM.

The label says whether token 1 occurs more often than token 2; the padding must not count.
"""

import numpy as np

import highlevel as keras
from highlevel import layers


def make_data(n, rng):
    sequences, labels = [], []
    for _ in range(n):
        length = int(rng.integers(3, 12))
        seq = rng.integers(1, 6, size=length)
        count1, count2 = int(np.sum(seq == 1)), int(np.sum(seq == 2))
        if count1 == count2:
            seq = np.append(seq, 1)
            count1 += 1
        sequences.append(seq.tolist())
        labels.append(int(count1 > count2))
    return sequences, np.array(labels)


def main():
    keras.utils.set_random_seed(13)
    rng = np.random.default_rng(13)
    sequences, y = make_data(320, rng)
    x = keras.utils.pad_sequences(sequences, maxlen=12, padding="post")
    assert x.shape == (320, 12) and x.dtype == np.int32
    assert list(x[0][: len(sequences[0])]) == sequences[0] and not x[0][len(sequences[0]) :].any()

    model = keras.Sequential(
        [
            keras.Input(shape=(None,), dtype="int32"),
            layers.Embedding(input_dim=6, output_dim=8, mask_zero=True),
            layers.LSTM(16),
            layers.Dense(1, activation="sigmoid"),
        ]
    )
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, batch_size=32, epochs=8, verbose=0)

    # With the mask, extra padding changes nothing.
    longer = keras.utils.pad_sequences(sequences[:16], maxlen=20, padding="post")
    np.testing.assert_allclose(model.predict(longer, verbose=0), model.predict(x[:16], verbose=0), atol=1e-5)
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert history.history["loss"][-1] < 0.6 * history.history["loss"][0], history.history["loss"]
    assert logs["accuracy"] > 0.8, logs
    return logs
