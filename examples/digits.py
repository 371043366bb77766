"""Trains a small network on the 8×8 handwritten digits shipped with highlevel.

The README's main job. It runs on the native backend with no framework installed, and unchanged on any
other backend:

    HIGHLEVEL_BACKEND=jax python examples/digits.py

Exits with status 1 if the held-out accuracy is below 96%.
"""

import sys
import time

import highlevel as hl


def main(epochs=30, verbose=1):
    hl.utils.set_random_seed(0)
    (x_train, y_train), (x_test, y_test) = hl.datasets.digits.load_data(test_split=0.2)
    # Pixel counts are 0..16: scale them to [0, 1] and flatten each image to 64 features.
    x_train = x_train.reshape(len(x_train), 64).astype("float32") / 16.0
    x_test = x_test.reshape(len(x_test), 64).astype("float32") / 16.0

    model = hl.Sequential(
        [
            hl.Input(shape=(64,)),
            hl.layers.Dense(128, activation="relu"),
            hl.layers.Dropout(0.1),
            hl.layers.Dense(64, activation="relu"),
            hl.layers.Dense(10),
        ]
    )
    model.compile(
        optimizer=hl.optimizers.Adam(learning_rate=2e-3),
        loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    model.summary()
    start = time.perf_counter()
    model.fit(x_train, y_train, batch_size=32, epochs=epochs, validation_split=0.1, verbose=verbose)
    seconds = time.perf_counter() - start
    loss, accuracy = model.evaluate(x_test, y_test, verbose=0)
    print(
        f"backend {hl.config.backend()}: test accuracy {accuracy:.4f} (loss {loss:.4f}) "
        f"after {seconds:.1f} s of training"
    )
    return accuracy


if __name__ == "__main__":
    sys.exit(0 if main() >= 0.96 else 1)
