"""The "customizing fit" pattern on a functional model: a Model subclass constructed with inputs= and outputs=
that overrides train_step."""

import numpy as np

import highlevel as keras
from highlevel import layers


class CustomModel(keras.Model):
    def train_step(self, data):
        x, y = data

        def forward():
            y_pred = self(x, training=True)
            return self.compute_loss(y=y, y_pred=y_pred), y_pred

        (loss, y_pred), grads = keras.config.current_backend().variables_value_and_grad(
            forward, self.trainable_variables
        )
        self.optimizer.apply(grads, self.trainable_variables)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


def main():
    keras.utils.set_random_seed(40)
    rng = np.random.default_rng(40)
    x = rng.normal(size=(256, 4)).astype("float32")
    y = (x[:, :1] - 2 * x[:, 1:2]).astype("float32")

    inputs = keras.Input(shape=(4,))
    outputs = layers.Dense(1)(layers.Dense(8, activation="relu")(inputs))
    model = CustomModel(inputs=inputs, outputs=outputs)
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="mse", metrics=["mae"])
    history = model.fit(x, y, epochs=8, batch_size=32, verbose=0)
    assert history.history["loss"][-1] < 0.1 * history.history["loss"][0], history.history["loss"]
    return {k: v[-1] for k, v in history.history.items()}
