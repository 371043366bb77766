"""Tiny models for the export round trips, and inputs for two batch sizes (a dynamic batch must serve both)."""

import numpy as np

import highlevel as hl

BATCHES = (3, 5)

#: The engines that write each format themselves (a SavedModel from native or PyTorch is written by rebuilding the
#: model on TensorFlow). Engine-specific tests run on these; test_export_api checks the table against the engines.
WRITERS = {"tf_saved_model": ("tensorflow", "jax"), "jax_export": ("jax",), "torch": ("torch",)}
ENGINES = ("native", "jax", "torch", "tensorflow")


def writers(format):
    return WRITERS[format]


def others(format):
    return tuple(e for e in ENGINES if e not in WRITERS[format])


def mlp():
    """Dense, BatchNormalization (its moving statistics set away from 0 and 1), Dropout, Dense: an export must
    run them as inference does, with the statistics, without the dropout."""
    hl.utils.set_random_seed(1)
    model = hl.Sequential(
        [
            hl.Input((4,)),
            hl.layers.Dense(8, activation="relu"),
            hl.layers.BatchNormalization(),
            hl.layers.Dropout(0.5),
            hl.layers.Dense(3),
        ]
    )
    norm = model.layers[1]
    norm.moving_mean.assign(np.linspace(0.1, 0.8, 8).astype("float32"))
    norm.moving_variance.assign(np.linspace(0.5, 2.0, 8).astype("float32"))
    return model


def cnn():
    hl.utils.set_random_seed(2)
    return hl.Sequential(
        [
            hl.Input((6, 6, 2)),
            hl.layers.Conv2D(3, 3, activation="relu"),
            hl.layers.MaxPooling2D(2),
            hl.layers.Flatten(),
            hl.layers.Dense(2),
        ]
    )


def two_inputs():
    hl.utils.set_random_seed(3)
    a = hl.Input((4,), name="a")
    b = hl.Input((2,), name="b")
    h = hl.layers.Concatenate()([hl.layers.Dense(5, activation="tanh")(a), b])
    return hl.Model([a, b], hl.layers.Dense(2)(h))


MODELS = {"mlp": mlp, "cnn": cnn, "two_inputs": two_inputs}


def inputs(name, batch, seed=0):
    """The model's positional arguments for ``batch`` rows: ``[x]`` or ``[[a, b]]``."""
    rng = np.random.default_rng(seed + batch)
    if name == "mlp":
        return [rng.standard_normal((batch, 4)).astype("float32")]
    if name == "cnn":
        return [rng.standard_normal((batch, 6, 6, 2)).astype("float32")]
    return [[rng.standard_normal((batch, 4)).astype("float32"), rng.standard_normal((batch, 2)).astype("float32")]]


def expected(model, args):
    """``model.predict`` on the arguments an artifact is called with."""
    return np.asarray(model.predict(args[0], verbose=0))
