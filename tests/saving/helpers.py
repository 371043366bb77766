"""Tiny models shared by the saving tests."""

import numpy as np

import highlevel as hl


def sequential_model(run_eagerly=False):
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(4, activation="relu"), hl.layers.Dense(2)])
    model.compile(optimizer="adam", loss="mse", metrics=["mae"], run_eagerly=run_eagerly)
    return model


def functional_model(run_eagerly=False):
    """Two inputs, two outputs, a shared layer and a nested Sequential model."""
    a = hl.Input((3,), name="a")
    b = hl.Input((3,), name="b")
    shared = hl.layers.Dense(4, activation="tanh", name="shared")
    inner = hl.Sequential([hl.Input((4,)), hl.layers.Dense(4, name="inner_dense")], name="inner")
    ha, hb = shared(a), shared(b)
    merged = hl.layers.Add()([inner(ha), hb])
    out1 = hl.layers.Dense(2, name="out1")(merged)
    out2 = hl.layers.Dense(1, name="out2")(ha)
    model = hl.Model([a, b], [out1, out2])
    model.compile(optimizer="adam", loss=["mse", "mse"], run_eagerly=run_eagerly)
    return model


@hl.saving.register_serializable(package="tests_saving")
class SubclassedModel(hl.Model):
    """A subclassed model: sub-layers as attributes (trainable and non-trainable state), a custom
    get_config/from_config whose config is not just the constructor's keyword arguments."""

    def __init__(self, hidden=4, outputs=2, **kwargs):
        super().__init__(**kwargs)
        self.hidden_units, self.output_units = hidden, outputs
        self.hidden = hl.layers.Dense(hidden, activation="tanh", name="hidden")
        self.norm = hl.layers.BatchNormalization(name="norm")
        self.head = hl.layers.Dense(outputs, name="head")

    def call(self, x, training=None):
        return self.head(self.norm(self.hidden(x), training=training))

    def get_config(self):
        config = super().get_config()
        config["sizes"] = [self.hidden_units, self.output_units]
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        hidden, outputs = config.pop("sizes")
        return cls(hidden=hidden, outputs=outputs, **config)


def subclassed_model(run_eagerly=False):
    model = SubclassedModel(hidden=5, outputs=2, name="sub")
    model.compile(optimizer="adam", loss="mse", metrics=["mae"], run_eagerly=run_eagerly)
    return model


def data(kind, n=8):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3)).astype("float32")
    if kind in ("sequential", "subclassed"):
        return x, rng.normal(size=(n, 2)).astype("float32")
    x2 = rng.normal(size=(n, 3)).astype("float32")
    return [x, x2], [rng.normal(size=(n, 2)).astype("float32"), rng.normal(size=(n, 1)).astype("float32")]


def build(kind, run_eagerly=False):
    """``kind`` is ``"sequential"``, ``"functional"`` or ``"subclassed"``."""
    makers = {"sequential": sequential_model, "functional": functional_model, "subclassed": subclassed_model}
    return makers[kind](run_eagerly)


def outputs(model, x):
    out = model(x)
    if isinstance(out, (list, tuple)):
        return [hl.ops.convert_to_numpy(o) for o in out]
    return [hl.ops.convert_to_numpy(out)]


def numpy_vars(variables):
    return [np.asarray(hl.ops.convert_to_numpy(v.value)) for v in variables]
