"""Model.fit, evaluate and predict on tf.data.Dataset pipelines (from_tensor_slices, map, shuffle, batch,
prefetch), whatever the backend, as Keras 3 allows."""

import numpy as np
import tensorflow as tf

import highlevel as keras
from highlevel import layers


def main():
    keras.utils.set_random_seed(33)
    rng = np.random.default_rng(33)
    x = rng.uniform(0, 255, size=(320, 6)).astype("float32")
    y = (x[:, 0] > x[:, 1]).astype("int32")

    def scale(features, label):
        return features / 255.0, label

    train = (
        tf.data.Dataset.from_tensor_slices((x[:256], y[:256]))
        .map(scale)
        .shuffle(256, seed=33)
        .batch(32)
        .prefetch(tf.data.AUTOTUNE)
    )
    test = tf.data.Dataset.from_tensor_slices((x[256:], y[256:])).map(scale).batch(32)

    model = keras.Sequential(
        [keras.Input((6,)), layers.Dense(16, activation="relu"), layers.Dense(2, activation="softmax")]
    )
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(train, epochs=8, validation_data=test, verbose=0)
    logs = model.evaluate(test, verbose=0, return_dict=True)
    predictions = model.predict(test.map(lambda features, label: features), verbose=0)
    assert predictions.shape == (64, 2)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0], history.history["loss"]
    assert logs["accuracy"] > 0.9, logs
    return logs
