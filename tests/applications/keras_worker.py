"""Runs real Keras (its engine from ``KERAS_BACKEND``) for the applications oracle, in its own process.

``python keras_worker.py SPEC.json FOLDER`` reads the spec ``{"model": name, "kwargs": {...}, "legacy": bool,
"describe": [[name, kwargs], ...]}`` and writes into FOLDER:

- ``model.weights.h5``: the model's weights (Keras 3 layout), after every batch-norm statistic, gamma, beta and
  bias was set to seeded random values (so that a wrong load of any of them shows in the outputs);
- ``legacy.h5`` with ``"legacy": true``: the same weights in Keras 2's by-layer layout, by Keras's own writer;
- ``images.npy`` and ``outputs.npy``: seeded images and the model's inference outputs on them;
- ``describe.json``: for each ``describe`` entry, the parameter count, the names of the layers with weights,
  the weights' shapes and the names of all layers (built only, never run).
"""

import json
import os
import sys

import numpy as np


def _randomize(model, rng):
    for v in model.weights:
        name = v.path.rsplit("/", 1)[-1]
        shape = tuple(v.shape)
        if name in ("moving_variance", "gamma"):
            v.assign(rng.uniform(0.5, 1.5, shape).astype("float32"))
        elif name in ("moving_mean", "beta", "bias"):
            v.assign((0.1 * rng.standard_normal(shape)).astype("float32"))


def main(spec_path, folder):
    import keras
    from keras.src.legacy.saving import legacy_h5_format

    with open(spec_path) as f:
        spec = json.load(f)
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    build = getattr(keras.applications, spec["model"])
    model = build(weights=None, **spec["kwargs"])
    _randomize(model, rng)
    model.save_weights(os.path.join(folder, "model.weights.h5"))
    if spec.get("legacy"):
        import h5py

        with h5py.File(os.path.join(folder, "legacy.h5"), "w") as f:
            legacy_h5_format.save_weights_to_hdf5_group(f, model)
    shape = (2,) + tuple(model.input_shape[1:])
    images = rng.uniform(-1.0, 1.0, shape).astype("float32")
    np.save(os.path.join(folder, "images.npy"), images)
    np.save(os.path.join(folder, "outputs.npy"), np.asarray(model(images, training=False)))
    described = {}
    for name, kwargs in spec.get("describe", []):
        # Each from a fresh session, as a user's first model is: its unnamed layers then get their first names.
        keras.backend.clear_session()
        other = getattr(keras.applications, name)(weights=None, **kwargs)
        described[name] = {
            "params": int(other.count_params()),
            "layers": [layer.name for layer in other.layers if layer.weights],
            "shapes": [list(v.shape) for v in other.weights],
            "names": [layer.name for layer in other.layers],
        }
        del other
    with open(os.path.join(folder, "describe.json"), "w") as f:
        json.dump(described, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
