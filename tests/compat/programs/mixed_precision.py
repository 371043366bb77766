"""Mixed precision: a global dtype policy makes layers compute in float16 with float32 weights; the output
layer is kept in float32 for a numerically stable softmax, as the mixed-precision guide advises."""

import numpy as np

import highlevel as keras
from highlevel import layers


def main():
    keras.utils.set_random_seed(30)
    rng = np.random.default_rng(30)
    x = rng.normal(size=(256, 8)).astype("float32")
    y = (x[:, 0] * x[:, 1] > 0).astype("int32")

    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        inputs = keras.Input(shape=(8,))
        dense1 = layers.Dense(32, activation="relu")
        h = dense1(inputs)
        h = layers.Dense(32, activation="relu")(h)
        h = layers.Dense(2)(h)
        outputs = layers.Activation("softmax", dtype="float32")(h)
        model = keras.Model(inputs, outputs)
    finally:
        keras.mixed_precision.set_global_policy("float32")

    assert dense1.compute_dtype == "float16" and dense1.variable_dtype == "float32"
    assert dense1.kernel.dtype == "float32" and h.dtype == "float16" and outputs.dtype == "float32"
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=8, batch_size=32, verbose=0)
    assert model.predict(x[:4], verbose=0).dtype == np.float32
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0], history.history["loss"]
    assert history.history["accuracy"][-1] > 0.85, history.history["accuracy"]
    return {k: v[-1] for k, v in history.history.items()}
