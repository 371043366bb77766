"""Sample weights and class weights: an imbalanced task where weighting the rare class raises its recall, and
per-sample weights that ignore corrupted labels."""

import numpy as np

import highlevel as keras
from highlevel import layers


def build():
    model = keras.Sequential(
        [keras.Input((2,)), layers.Dense(8, activation="relu"), layers.Dense(1, activation="sigmoid")]
    )
    model.compile(
        optimizer=keras.optimizers.Adam(0.02), loss="binary_crossentropy", metrics=[keras.metrics.Recall(name="recall")]
    )
    return model


def main():
    rng = np.random.default_rng(31)
    n = 320
    x = rng.normal(size=(n, 2)).astype("float32")
    # Rare positives (about 10%), overlapping the negatives.
    y = (x[:, 0] + 0.5 * rng.normal(size=n) > 1.3).astype("float32")

    keras.utils.set_random_seed(31)
    plain = build()
    plain.fit(x, y, epochs=6, batch_size=32, verbose=0)
    keras.utils.set_random_seed(31)
    weighted = build()
    weighted.fit(x, y, epochs=6, batch_size=32, verbose=0, class_weight={0: 1.0, 1: 8.0})
    plain_recall = plain.evaluate(x, y, verbose=0, return_dict=True)["recall"]
    weighted_recall = weighted.evaluate(x, y, verbose=0, return_dict=True)["recall"]
    assert weighted_recall > plain_recall + 0.1, (plain_recall, weighted_recall)

    # Sample weights: a quarter of the labels are flipped, and given weight 0.
    noisy = y.copy()
    flipped = rng.random(n) < 0.25
    noisy[flipped] = 1 - noisy[flipped]
    clean_task = (x[:, 0] > 0).astype("float32")
    noisy_task = clean_task.copy()
    noisy_task[flipped] = 1 - noisy_task[flipped]
    keras.utils.set_random_seed(31)
    model = keras.Sequential([keras.Input((2,)), layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(x, noisy_task, sample_weight=(~flipped).astype("float32"), epochs=8, batch_size=32, verbose=0)
    accuracy = model.evaluate(x, clean_task, verbose=0, return_dict=True)["accuracy"]
    assert accuracy > 0.9, accuracy
    assert history.history["loss"][-1] < 0.6 * history.history["loss"][0], history.history["loss"]
    return {"plain_recall": plain_recall, "weighted_recall": weighted_recall, "clean_accuracy": accuracy}
