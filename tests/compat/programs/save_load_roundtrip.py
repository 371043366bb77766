"""Saving and loading: the whole model in a .keras file (architecture, weights, optimizer state, compile
arguments) with keras.models.load_model, and the weights alone with save_weights / load_weights, under the
`.weights.h5` name Keras requires."""

import numpy as np

import highlevel as keras
from highlevel import layers


def build():
    inputs = keras.Input((5,), name="features")
    h = layers.Dense(12, activation="relu", name="hidden")(inputs)
    h = layers.BatchNormalization(name="norm")(h)
    outputs = layers.Dense(3, activation="softmax", name="probabilities")(h)
    return keras.Model(inputs, outputs, name="classifier")


def main():
    keras.utils.set_random_seed(27)
    rng = np.random.default_rng(27)
    x = rng.normal(size=(256, 5)).astype("float32")
    y = np.argmax(x[:, :3], axis=1)

    model = build()
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=6, batch_size=32, verbose=0)
    expected = model.predict(x, verbose=0)

    model.save("classifier.keras")
    restored = keras.models.load_model("classifier.keras")
    assert restored.name == "classifier" and [l.name for l in restored.layers] == [l.name for l in model.layers]
    np.testing.assert_allclose(restored.predict(x, verbose=0), expected, rtol=1e-5, atol=1e-6)
    # The optimizer state and compile arguments came too: training goes on from where it stopped.
    assert int(keras.ops.convert_to_numpy(restored.optimizer.iterations)) == 6 * 8
    logs = restored.evaluate(x, y, verbose=0, return_dict=True)
    restored.fit(x, y, epochs=1, batch_size=32, verbose=0)

    model.save_weights("classifier.weights.h5")
    fresh = build()
    assert not np.allclose(fresh.predict(x, verbose=0), expected)
    fresh.load_weights("classifier.weights.h5")
    np.testing.assert_allclose(fresh.predict(x, verbose=0), expected, rtol=1e-5, atol=1e-6)

    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0], history.history["loss"]
    assert logs["accuracy"] > 0.85, logs
    return logs
