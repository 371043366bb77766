"""Runs real Keras (its backend from ``KERAS_BACKEND``) for the ``.weights.h5`` tests, in its own process.

``python keras_h5_worker.py write FOLDER``: for each architecture, trains one step, writes ``<name>.weights.h5``
and the predictions, then trains one more step and writes ``<name>.step.weights.h5``; and the untrained
``layout_<name>.weights.h5`` of the architectures whose layout alone is compared.
``python keras_h5_worker.py read FOLDER...``: for each ``<name>.from_hl.weights.h5`` in each folder, loads it into a fresh
model, writes the predictions and, after one more training step, ``<name>.from_hl.step.weights.h5``.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import keras  # noqa: E402
import keras_h5_models as models  # noqa: E402


def main(mode, folder):
    if mode == "write":
        for name in models.LAYOUT_ONLY:
            models.build_layout_only(keras, name).save_weights(os.path.join(folder, f"layout_{name}.weights.h5"))
    for name in models.NAMES:
        x, y = models.data(name)
        model = models.build(keras, name)
        if mode == "write":
            model.train_on_batch(x, y)
            model.save_weights(os.path.join(folder, f"{name}.weights.h5"))
            np.save(os.path.join(folder, f"{name}.predictions.npy"), np.asarray(model.predict(x, verbose=0)))
            model.train_on_batch(x, y)
            model.save_weights(os.path.join(folder, f"{name}.step.weights.h5"))
        else:
            source = os.path.join(folder, f"{name}.from_hl.weights.h5")
            if not os.path.exists(source):
                continue
            model.optimizer.build(model.trainable_variables)
            model.load_weights(source)
            np.save(os.path.join(folder, f"{name}.from_hl.predictions.npy"), np.asarray(model.predict(x, verbose=0)))
            model.train_on_batch(x, y)
            model.save_weights(os.path.join(folder, f"{name}.from_hl.step.weights.h5"))


if __name__ == "__main__":
    for target in sys.argv[2:]:
        main(sys.argv[1], target)
