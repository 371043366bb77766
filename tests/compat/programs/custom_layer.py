"""Custom layers: weights created in build() with add_weight, a non-trainable counter, and get_config()."""

import numpy as np

import highlevel as keras
from highlevel import layers, ops


class Linear(layers.Layer):
    def __init__(self, units=32, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(
            shape=(input_shape[-1], self.units), initializer="glorot_uniform", trainable=True, name="kernel"
        )
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", trainable=True, name="bias")

    def call(self, inputs):
        return ops.matmul(inputs, self.w) + self.b

    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units})
        return config


class CountCalls(layers.Layer):
    """Counts the samples it has seen in training, in a weight that is not trained."""

    def build(self, input_shape):
        self.seen = self.add_weight(shape=(), initializer="zeros", trainable=False, name="seen")

    def call(self, inputs, training=False):
        if training:
            self.seen.assign(self.seen + ops.cast(ops.shape(inputs)[0], "float32"))
        return inputs


def main():
    keras.utils.set_random_seed(7)
    rng = np.random.default_rng(7)
    x = rng.normal(size=(192, 5)).astype("float32")
    y = (x @ np.array([1.0, -2.0, 0.5, 0.0, 1.5], "float32"))[:, None] + 0.3

    counter = CountCalls()
    model = keras.Sequential([keras.Input(shape=(5,)), Linear(8), layers.Activation("relu"), counter, Linear(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.03), loss="mse")
    history = model.fit(x, y, batch_size=32, epochs=10, verbose=0)

    first = model.layers[0]
    assert [w.shape for w in first.trainable_weights] == [(5, 8), (8,)]
    assert len(counter.non_trainable_weights) == 1 and not counter.trainable_weights
    assert float(ops.convert_to_numpy(counter.seen)) == 192 * 10
    config = first.get_config()
    assert config["units"] == 8
    clone = Linear.from_config(config)
    assert clone.units == 8 and clone.name == first.name
    assert history.history["loss"][-1] < 0.05 * history.history["loss"][0], history.history["loss"]
    return {"loss": history.history["loss"][-1]}
