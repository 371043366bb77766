"""A Sequential classifier that starts with an Input: to_categorical labels, fit, evaluate, predict, History."""

import numpy as np

import highlevel as keras
from highlevel import layers


def main():
    keras.utils.set_random_seed(1)
    rng = np.random.default_rng(1)
    x = rng.normal(size=(300, 8)).astype("float32")
    labels = (x[:, 0] > 0).astype("int64") + (x[:, 1] > 0).astype("int64")  # 3 classes
    y = keras.utils.to_categorical(labels, num_classes=3)

    model = keras.Sequential(
        [
            keras.Input(shape=(8,)),
            layers.Dense(32, activation="relu"),
            layers.Dense(3, activation="softmax"),
        ]
    )
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x[:240], y[:240], batch_size=32, epochs=10, validation_split=0.2, verbose=0)

    assert isinstance(history, keras.callbacks.History)
    assert set(history.history) >= {"loss", "accuracy", "val_loss", "val_accuracy"}
    assert len(history.history["loss"]) == 10
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0], history.history["loss"]

    loss, accuracy = model.evaluate(x[240:], y[240:], verbose=0)
    probabilities = model.predict(x[240:], verbose=0)
    assert probabilities.shape == (60, 3)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, rtol=1e-5)
    assert accuracy > 0.75, accuracy
    return {"loss": loss, "accuracy": accuracy}
