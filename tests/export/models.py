"""Tiny models for the export round trips, and inputs for two batch sizes (a dynamic batch must serve both)."""

import numpy as np

import highlevel as hl

BATCHES = (3, 5)


def mlp():
    hl.utils.set_random_seed(1)
    return hl.Sequential([hl.Input((4,)), hl.layers.Dense(8, activation="relu"), hl.layers.Dense(3)])


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
