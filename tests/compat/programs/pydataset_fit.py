"""Model.fit on a keras.utils.PyDataset subclass that builds its batches on the fly (here: noisy copies of
prototypes), with a second PyDataset for validation."""

import math

import numpy as np

import highlevel as keras
from highlevel import layers


class NoisyPrototypes(keras.utils.PyDataset):
    def __init__(self, prototypes, n, batch_size, seed, **kwargs):
        super().__init__(**kwargs)
        self.prototypes, self.n, self.batch_size = prototypes, n, batch_size
        rng = np.random.default_rng(seed)
        self.labels = rng.integers(0, len(prototypes), size=n)
        self.noise = rng.normal(scale=0.6, size=(n, prototypes.shape[1])).astype("float32")

    def __len__(self):
        return math.ceil(self.n / self.batch_size)

    def __getitem__(self, idx):
        low = idx * self.batch_size
        high = min(low + self.batch_size, self.n)
        labels = self.labels[low:high]
        return self.prototypes[labels] + self.noise[low:high], labels


def main():
    keras.utils.set_random_seed(32)
    prototypes = np.random.default_rng(32).normal(size=(4, 10)).astype("float32")
    train = NoisyPrototypes(prototypes, 256, 32, seed=1)
    val = NoisyPrototypes(prototypes, 64, 32, seed=2)
    assert len(train) == 8

    model = keras.Sequential(
        [keras.Input((10,)), layers.Dense(16, activation="relu"), layers.Dense(4, activation="softmax")]
    )
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(train, validation_data=val, epochs=5, verbose=0)
    predictions = model.predict(val, verbose=0)
    assert predictions.shape == (64, 4)
    assert history.history["loss"][-1] < 0.3 * history.history["loss"][0], history.history["loss"]
    assert history.history["val_accuracy"][-1] > 0.9, history.history["val_accuracy"]
    return {k: v[-1] for k, v in history.history.items()}
