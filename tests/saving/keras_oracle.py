"""Real Keras's half of the ``.keras`` round trips, run as its own process (Keras picks its engine at import).

``python keras_oracle.py FOLDER [FOLDER ...]`` (with ``KERAS_BACKEND`` set) reads each ``FOLDER/data.npz`` and, for
each model kind:

* loads ``hl-<kind>.keras`` (written by highlevel) with ``keras.saving.load_model``, records its predictions,
  its compile state, then its weights after one ``train_on_batch``;
* builds the same model in Keras (:func:`models`), trains it one step, saves ``keras-<kind>.keras``, and records
  its predictions and its weights after one more ``train_on_batch``.

Everything recorded goes to ``FOLDER/results-<backend>.npz``. One process serves several folders (one per
highlevel engine), so Keras and its framework are imported once, not once per folder. Keras's own models are made
once per kind and data: a folder with the same ``data.npz`` as an earlier one gets a copy of that file and those
records (every highlevel engine then loads the same Keras file), which spares Keras tracing and compiling the same
steps again for each engine. :func:`models` builds the models with either
library, since highlevel follows Keras's API: the test builds highlevel's with the same code.
"""

import os
import shutil
import sys

import numpy as np

KINDS = ("sequential", "functional", "subclassed")
_CLASSES = {}


def subclassed_class(lib):
    """``TwoDense``, registered as ``hl_oracle>TwoDense`` with ``lib`` (keras or highlevel)."""
    if lib.__name__ not in _CLASSES:

        @lib.saving.register_keras_serializable(package="hl_oracle", name="TwoDense")
        class TwoDense(lib.Model):
            def __init__(self, units=4, **kwargs):
                super().__init__(**kwargs)
                self.units = units
                self.d1 = lib.layers.Dense(units, activation="relu")
                self.d2 = lib.layers.Dense(2)

            def call(self, x):
                return self.d2(self.d1(x))

            def get_config(self):
                return {"name": self.name, "units": self.units}

        _CLASSES[lib.__name__] = TwoDense
    return _CLASSES[lib.__name__]


def models(lib, kind):
    """A compiled model of ``kind`` (see :data:`KINDS`) built with ``lib``."""
    if kind == "sequential":
        model = lib.Sequential([lib.Input((3,)), lib.layers.Dense(4, activation="tanh"), lib.layers.Dense(2)])
    elif kind == "functional":
        a, b = lib.Input((3,), name="a"), lib.Input((3,), name="b")
        shared = lib.layers.Dense(3, activation="relu", name="shared")
        merged = lib.layers.Concatenate(name="merge")([shared(a), shared(b)])
        model = lib.Model([a, b], lib.layers.Dense(2, name="head")(merged))
    else:
        model = subclassed_class(lib)(units=4, name="two_dense")
    model.compile(optimizer=lib.optimizers.Adam(learning_rate=0.01), loss="mse", metrics=["mae"])
    return model


def inputs(data, kind):
    return [data["x"], data["x2"]] if kind == "functional" else data["x"]


def _numpy(values):
    return [np.asarray(v) for v in values]


def main(folders):
    import keras

    subclassed_class(keras)  # registered before loading, as a Keras user's program would
    own_made = {}
    for folder in folders:
        run_folder(keras, folder, own_made)


def _data_key(data):
    return tuple((name, data[name].dtype.str, data[name].shape, data[name].tobytes()) for name in sorted(data))


def run_folder(keras, folder, own_made):
    """Records ``folder``'s results; ``own_made`` maps ``(data, kind)`` to the folder that holds Keras's own model of
    that kind for that data, and the records made with it."""
    data = dict(np.load(os.path.join(folder, "data.npz")))
    backend = keras.backend.backend()
    out = {}
    for kind in KINDS:
        x, y = inputs(data, kind), data["y"]
        loaded = keras.saving.load_model(os.path.join(folder, f"hl-{kind}.keras"))
        out[f"{kind}/loaded_pred"] = np.asarray(loaded.predict(x, verbose=0))
        out[f"{kind}/loaded_compiled"] = np.asarray(
            [bool(loaded.compiled), type(loaded.optimizer).__name__ == "Adam", float(loaded.optimizer.iterations)]
        )
        out[f"{kind}/loaded_lr"] = np.asarray(float(loaded.optimizer.learning_rate))
        loaded.train_on_batch(x, y)
        for i, w in enumerate(_numpy(loaded.get_weights())):
            out[f"{kind}/loaded_after_step/{i}"] = w

        key = (_data_key(data), kind)
        if key in own_made:
            source, records = own_made[key]
            shutil.copyfile(os.path.join(source, f"keras-{kind}.keras"), os.path.join(folder, f"keras-{kind}.keras"))
            out.update(records)
            continue
        own = models(keras, kind)
        own.train_on_batch(x, y)
        own.save(os.path.join(folder, f"keras-{kind}.keras"))
        records = {f"{kind}/own_pred": np.asarray(own.predict(x, verbose=0))}
        own.train_on_batch(x, y)
        for i, w in enumerate(_numpy(own.get_weights())):
            records[f"{kind}/own_after_step/{i}"] = w
        own_made[key] = (folder, records)
        out.update(records)
    np.savez(os.path.join(folder, f"results-{backend}.npz"), **out)


if __name__ == "__main__":
    main(sys.argv[1:])
