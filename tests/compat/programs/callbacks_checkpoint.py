"""ModelCheckpoint keeps the best model in a .keras file; load_model brings it back with the same predictions."""

import os

import numpy as np

import highlevel as keras
from highlevel import layers


def main():
    keras.utils.set_random_seed(10)
    rng = np.random.default_rng(10)
    x = rng.normal(size=(240, 6)).astype("float32")
    y = (x[:, 0] + x[:, 1] - x[:, 2] > 0).astype("float32")

    model = keras.Sequential(
        [keras.Input((6,)), layers.Dense(16, activation="relu"), layers.Dense(1, activation="sigmoid")]
    )
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="binary_crossentropy", metrics=["accuracy"])
    checkpoint = keras.callbacks.ModelCheckpoint("best.keras", monitor="val_accuracy", mode="max", save_best_only=True)
    per_epoch = keras.callbacks.ModelCheckpoint("ckpt-{epoch:02d}.keras")
    history = model.fit(
        x, y, validation_split=0.25, epochs=6, batch_size=32, callbacks=[checkpoint, per_epoch], verbose=0
    )

    assert os.path.exists("best.keras")
    assert sorted(f for f in os.listdir(".") if f.startswith("ckpt-")) == [f"ckpt-{e:02d}.keras" for e in range(1, 7)]
    best = keras.models.load_model("best.keras")
    best_epoch_accuracy = max(history.history["val_accuracy"])
    _, accuracy = best.evaluate(x[180:], y[180:], verbose=0)
    assert abs(accuracy - best_epoch_accuracy) < 1e-6, (accuracy, best_epoch_accuracy)

    # The last epoch's file holds the final model.
    last = keras.models.load_model("ckpt-06.keras")
    np.testing.assert_allclose(last.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6, atol=1e-6)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert best_epoch_accuracy > 0.85, history.history["val_accuracy"]
    return {"val_accuracy": accuracy}
