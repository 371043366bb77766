"""A custom layer registered with keras.saving.register_keras_serializable: the model that uses it is saved to a
.keras file and loaded without custom_objects, with the same predictions."""

import numpy as np

import highlevel as keras
from highlevel import layers


@keras.saving.register_keras_serializable(package="compat")
class ScaledResidual(layers.Layer):
    def __init__(self, units, scale=0.5, **kwargs):
        super().__init__(**kwargs)
        self.units, self.scale = units, scale
        self.dense = layers.Dense(units, activation="tanh")

    def call(self, inputs):
        return inputs + self.scale * self.dense(inputs)

    def get_config(self):
        return {**super().get_config(), "units": self.units, "scale": self.scale}


def main():
    keras.utils.set_random_seed(41)
    rng = np.random.default_rng(41)
    x = rng.normal(size=(192, 6)).astype("float32")
    y = (np.tanh(x[:, :1]) + x[:, 1:2]).astype("float32")

    model = keras.Sequential([keras.Input((6,)), ScaledResidual(6), layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="mse")
    history = model.fit(x, y, epochs=6, batch_size=32, verbose=0)
    model.save("residual.keras")
    restored = keras.models.load_model("residual.keras")
    assert isinstance(restored.layers[0], ScaledResidual) and restored.layers[0].scale == 0.5
    np.testing.assert_allclose(restored.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-5, atol=1e-6)
    assert keras.saving.get_registered_name(ScaledResidual) == "compat>ScaledResidual"
    assert history.history["loss"][-1] < 0.3 * history.history["loss"][0], history.history["loss"]
    return {"loss": history.history["loss"][-1]}
