"""The architectures the ``.weights.h5`` tests move between highlevel and Keras: each builder takes the API
module (``keras`` or ``highlevel``, which share their public names) and returns a compiled model, with its data."""

import numpy as np

#: Optimizers other than Adam, each trained on the MLP: their slots move in Keras's order too.
OPTIMIZERS = {
    "sgd": lambda api: api.optimizers.SGD(learning_rate=0.05, momentum=0.9),
    "rmsprop": lambda api: api.optimizers.RMSprop(learning_rate=0.01, momentum=0.5, centered=True),
    "nadam": lambda api: api.optimizers.Nadam(learning_rate=0.01),
    "adadelta": lambda api: api.optimizers.Adadelta(learning_rate=0.5),
    "ftrl": lambda api: api.optimizers.Ftrl(learning_rate=0.05),
    "adamw_amsgrad": lambda api: api.optimizers.AdamW(learning_rate=0.01, amsgrad=True),
    "loss_scale": lambda api: api.optimizers.LossScaleOptimizer(api.optimizers.Adam(learning_rate=0.01)),
}

NAMES = ("mlp", "two_branches", "cnn_bn", "rnn", "attention", "subclassed") + tuple(f"mlp_{o}" for o in OPTIMIZERS)


def _layout_only(api):
    layers = api.layers

    def seq(shape, *stack):
        return api.Sequential([api.Input(shape), *stack])

    return {
        "bidirectional": lambda: seq(
            (5, 3), layers.Bidirectional(layers.LSTM(4, return_sequences=True)), layers.Bidirectional(layers.GRU(2))
        ),
        "stacked_cells": lambda: seq((5, 3), layers.RNN([layers.LSTMCell(3), layers.GRUCell(2)]), layers.Dense(1)),
        "wrappers": lambda: seq((5, 3), layers.TimeDistributed(layers.Dense(2)), layers.SimpleRNN(3)),
        "convolutions": lambda: seq(
            (8, 8, 2),
            layers.SeparableConv2D(3, 3),
            layers.DepthwiseConv2D(3),
            layers.Conv2DTranspose(2, 3),
            layers.GroupNormalization(2),
        ),
        "nested": lambda: seq((4,), seq((4,), layers.Dense(3), layers.PReLU()), layers.Dense(1)),
        "conv_lstm": lambda: seq((3, 6, 6, 1), layers.ConvLSTM2D(2, 3)),
        "bfloat16": lambda: seq((3,), layers.Dense(4, dtype="bfloat16"), layers.Dense(2, dtype="float16")),
    }


#: Architectures whose layout alone (paths and shapes) is compared: ``build_layout_only(api, name)``.
LAYOUT_ONLY = ("bidirectional", "stacked_cells", "wrappers", "convolutions", "nested", "conv_lstm", "bfloat16")


def build_layout_only(api, name):
    """The built (uncompiled) model ``name`` of :data:`LAYOUT_ONLY` written with ``api``."""
    return _layout_only(api)[name]()


def data(name):
    """``(x, y)``: a small fixed batch for ``name``."""
    rng = np.random.default_rng(7)
    if name.startswith("mlp"):
        return rng.normal(size=(6, 4)).astype("float32"), rng.normal(size=(6, 2)).astype("float32")
    if name == "two_branches":
        return rng.normal(size=(6, 4)).astype("float32"), rng.normal(size=(6, 1)).astype("float32")
    if name == "cnn_bn":
        return rng.normal(size=(6, 8, 8, 1)).astype("float32"), rng.normal(size=(6, 2)).astype("float32")
    if name == "rnn":
        return rng.normal(size=(6, 5, 3)).astype("float32"), rng.normal(size=(6, 2)).astype("float32")
    if name == "attention":
        return rng.integers(0, 10, size=(6, 6)).astype("int32"), rng.normal(size=(6, 1)).astype("float32")
    if name == "subclassed":
        return rng.normal(size=(6, 4)).astype("float32"), rng.normal(size=(6, 2)).astype("float32")
    raise KeyError(name)


_SUBCLASSES = {}


def _subclass(api):
    """A registered subclassed model (attributes, a list of layers, a private attribute) for ``api``."""
    if api not in _SUBCLASSES:

        @api.saving.register_keras_serializable(package="h5_tests")
        class Tower(api.Model):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.stem = api.layers.Dense(5, activation="tanh")
                self._mid = api.layers.Dense(4)
                self.blocks = [api.layers.Dense(4, activation="relu"), api.layers.Dense(3, activation="tanh")]
                self.norm = api.layers.BatchNormalization()
                self.head = api.layers.Dense(2)

            def call(self, x, training=None):
                x = self._mid(self.stem(x))
                for block in self.blocks:
                    x = block(x)
                return self.head(self.norm(x, training=training))

        _SUBCLASSES[api] = Tower
    return _SUBCLASSES[api]


def build(api, name):
    """The compiled, built model ``name`` written with ``api``."""
    layers = api.layers
    optimizer = api.optimizers.Adam(learning_rate=0.01)
    if name.startswith("mlp_"):
        optimizer = OPTIMIZERS[name[4:]](api)
    if name.startswith("mlp"):
        model = api.Sequential([api.Input((4,)), layers.Dense(5, activation="relu"), layers.Dense(2)])
    elif name == "two_branches":
        inputs = api.Input((4,))
        left = layers.Dense(3, activation="tanh")(inputs)
        right = layers.Dense(3)(inputs)
        merged = layers.Concatenate()([left, right])
        model = api.Model(inputs, layers.Dense(1)(merged))
    elif name == "cnn_bn":
        model = api.Sequential(
            [
                api.Input((8, 8, 1)),
                layers.Conv2D(3, 3, use_bias=False),  # BatchNormalization cancels a bias
                layers.BatchNormalization(),
                layers.Activation("relu"),
                layers.Flatten(),
                layers.Dense(2),
            ]
        )
    elif name == "rnn":
        model = api.Sequential([api.Input((5, 3)), layers.LSTM(4, return_sequences=True), layers.GRU(2)])
    elif name == "attention":
        tokens = api.Input((6,), dtype="int32")
        embedded = layers.Embedding(10, 8)(tokens)
        attended = layers.MultiHeadAttention(num_heads=2, key_dim=4)(embedded, embedded)
        normed = layers.LayerNormalization()(layers.Add()([attended, embedded]))
        model = api.Model(tokens, layers.Dense(1)(layers.GlobalAveragePooling1D()(normed)))
    elif name == "subclassed":
        model = _subclass(api)()
        model(np.zeros((1, 4), "float32"))
    else:
        raise KeyError(name)
    model.compile(optimizer=optimizer, loss="mse")
    return model
