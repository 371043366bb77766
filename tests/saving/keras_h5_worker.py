"""Runs real Keras (its backend from ``KERAS_BACKEND``) for the ``.weights.h5`` tests, in its own process.

``python keras_h5_worker.py write FOLDER``: for each architecture, trains one step, writes ``<name>.weights.h5``
and the predictions, then trains one more step and writes ``<name>.step.weights.h5``; and the untrained
``layout_<name>.weights.h5`` of the architectures whose layout alone is compared.
``python keras_h5_worker.py read FOLDER...``: for each ``<name>.from_hl.weights.h5`` in each folder, loads it into a
model, writes the predictions and, after one more training step, ``<name>.from_hl.step.weights.h5``.

In ``read`` mode one Keras model per architecture serves every folder: each file holds every variable of the model
and of its optimizer (the layout tests check the paths), so loading it sets the whole state a prediction and a
step depend on, whatever an earlier folder left. The model's compiled steps (a ``tf.function`` on TensorFlow,
``jax.jit`` on JAX) are then traced once per architecture instead of once per folder, most of this process's time.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import keras  # noqa: E402
import keras_h5_models as models  # noqa: E402


def write(folder):
    for name in models.LAYOUT_ONLY:
        models.build_layout_only(keras, name).save_weights(os.path.join(folder, f"layout_{name}.weights.h5"))
    for name in models.NAMES:
        x, y = models.data(name)
        model = models.build(keras, name)
        model.train_on_batch(x, y)
        model.save_weights(os.path.join(folder, f"{name}.weights.h5"))
        np.save(os.path.join(folder, f"{name}.predictions.npy"), np.asarray(model.predict(x, verbose=0)))
        model.train_on_batch(x, y)
        model.save_weights(os.path.join(folder, f"{name}.step.weights.h5"))


def read(folders):
    for name in models.NAMES:
        x, y = models.data(name)
        model = None
        for folder in folders:
            source = os.path.join(folder, f"{name}.from_hl.weights.h5")
            if not os.path.exists(source):
                continue
            if model is None:
                model = models.build(keras, name)
                model.optimizer.build(model.trainable_variables)
            model.load_weights(source)
            np.save(os.path.join(folder, f"{name}.from_hl.predictions.npy"), np.asarray(model.predict(x, verbose=0)))
            model.train_on_batch(x, y)
            model.save_weights(os.path.join(folder, f"{name}.from_hl.step.weights.h5"))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        for target in sys.argv[2:]:
            write(target)
    else:
        read(sys.argv[2:])
