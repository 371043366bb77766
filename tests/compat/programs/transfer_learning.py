"""Transfer learning: a pretrained base (here trained on a related task first) is frozen, a new head is trained,
then the base is unfrozen and the whole model fine-tuned at a low learning rate, with the base's
BatchNormalization kept in inference mode (training=False) throughout.
"""

import numpy as np

import highlevel as keras
from highlevel import layers


def make_base():
    return keras.Sequential(
        [
            keras.Input((8,)),
            layers.Dense(16),
            layers.BatchNormalization(),
            layers.Activation("relu"),
            layers.Dense(16, activation="relu"),
        ],
        name="base",
    )


def main():
    keras.utils.set_random_seed(21)
    rng = np.random.default_rng(21)
    x = rng.normal(size=(384, 8)).astype("float32")
    signal = x[:, 0] + x[:, 1] - x[:, 2]

    # "Pretraining" on a source task: regression of the signal.
    base_model = make_base()
    source = keras.Sequential([base_model, layers.Dense(1)])
    source.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    source.fit(x, signal[:, None], epochs=4, batch_size=32, verbose=0)

    # Target task: the sign of the signal, with few labelled samples.
    x_new, y_new = x[:128], (signal[:128] > 0).astype("float32")
    base_model.trainable = False
    inputs = keras.Input(shape=(8,))
    h = base_model(inputs, training=False)  # BatchNormalization stays in inference mode, even when unfrozen
    h = layers.Dropout(0.2)(h)
    outputs = layers.Dense(1, activation="sigmoid")(h)
    model = keras.Model(inputs, outputs)
    assert len(model.trainable_weights) == 2  # only the new head

    frozen_before = [w.copy() for w in base_model.get_weights()]
    model.compile(
        optimizer=keras.optimizers.Adam(0.02),
        loss=keras.losses.BinaryCrossentropy(),
        metrics=[keras.metrics.BinaryAccuracy()],
    )
    head = model.fit(x_new, y_new, epochs=6, batch_size=32, verbose=0)
    for before, after in zip(frozen_before, base_model.get_weights()):
        np.testing.assert_array_equal(before, after)  # frozen: weights and BN statistics untouched

    base_model.trainable = True
    model.compile(
        optimizer=keras.optimizers.Adam(1e-4),
        loss=keras.losses.BinaryCrossentropy(),
        metrics=[keras.metrics.BinaryAccuracy()],
    )  # recompile after changing `trainable`
    moving_mean = base_model.layers[1].moving_mean.numpy().copy()
    tuned = model.fit(x_new, y_new, epochs=2, batch_size=32, verbose=0)
    np.testing.assert_array_equal(base_model.layers[1].moving_mean.numpy(), moving_mean)  # inference-mode BN
    assert not np.array_equal(base_model.get_weights()[0], frozen_before[0])  # the base is being fine-tuned

    results = model.evaluate(x[128:], (signal[128:] > 0).astype("float32"), verbose=0, return_dict=True)
    assert head.history["loss"][-1] < 0.6 * head.history["loss"][0], head.history["loss"]
    assert tuned.history["loss"][-1] <= head.history["loss"][-1] * 1.05
    assert results["binary_accuracy"] > 0.85, results
    return results
