"""EarlyStopping on a validation loss that stops improving, with restore_best_weights."""

import numpy as np

import highlevel as keras
from highlevel import layers


def main():
    keras.utils.set_random_seed(9)
    rng = np.random.default_rng(9)
    x = rng.normal(size=(200, 4)).astype("float32")
    y = (x[:, :1] - x[:, 1:2]).astype("float32")
    x_val = rng.normal(size=(64, 4)).astype("float32")
    y_val = (x_val[:, :1] - x_val[:, 1:2]).astype("float32")

    model = keras.Sequential([keras.Input((4,)), layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    stopper = keras.callbacks.EarlyStopping(monitor="val_loss", min_delta=1e-3, patience=2, restore_best_weights=True)
    history = model.fit(x, y, validation_data=(x_val, y_val), epochs=100, batch_size=32, callbacks=[stopper], verbose=0)

    epochs_run = len(history.history["loss"])
    assert epochs_run < 100, "the linear task is solved long before 100 epochs"
    assert stopper.stopped_epoch == epochs_run - 1
    # The best epoch is the last one that improved by at least min_delta: `patience` epochs before the stop.
    best = history.history["val_loss"][epochs_run - 1 - 2]
    restored = model.evaluate(x_val, y_val, verbose=0)
    assert abs(restored - best) <= 1e-6 + 1e-4 * best, (restored, best)  # the best epoch's weights came back
    assert best < 1e-2 < history.history["val_loss"][0]
    return {"val_loss": restored, "epochs": epochs_run}
