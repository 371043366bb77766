"""An MLP on keras.datasets-style arrays: uint8 images of the Fashion-MNIST shapes ((n, 28, 28), labels in
0..9), flattened and rescaled inside the model. The classes are synthetic (a class = a bright column band)."""

import numpy as np

import highlevel as keras
from highlevel import layers


def load_data(rng, n_train=400, n_test=100):
    """Like keras.datasets.fashion_mnist.load_data(): ((x_train, y_train), (x_test, y_test)), uint8 images."""

    def make(n):
        y = rng.integers(0, 10, size=n).astype("uint8")
        x = rng.integers(0, 60, size=(n, 28, 28)).astype("uint8")
        for i, c in enumerate(y):
            x[i, :, 2 + 2 * c : 4 + 2 * c] = 220
        return x, y

    return make(n_train), make(n_test)


def main():
    keras.utils.set_random_seed(39)
    (x_train, y_train), (x_test, y_test) = load_data(np.random.default_rng(39))
    assert x_train.shape == (400, 28, 28) and x_train.dtype == np.uint8 and y_train.shape == (400,)

    model = keras.Sequential(
        [
            keras.Input(shape=(28, 28)),
            layers.Rescaling(1.0 / 255),
            layers.Flatten(),
            layers.Dense(32, activation="relu"),
            layers.Dense(10),
        ]
    )
    model.compile(
        optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"]
    )
    history = model.fit(x_train, y_train, epochs=5, batch_size=32, verbose=0)
    test_loss, test_acc = model.evaluate(x_test, y_test, verbose=0)
    probability_model = keras.Sequential([model, layers.Softmax()])
    predictions = probability_model.predict(x_test[:5], verbose=0)
    assert predictions.shape == (5, 10) and np.allclose(predictions.sum(axis=1), 1.0, atol=1e-5)
    assert history.history["loss"][-1] < 0.2 * history.history["loss"][0], history.history["loss"]
    assert test_acc > 0.9, test_acc
    return {"loss": test_loss, "accuracy": test_acc}
