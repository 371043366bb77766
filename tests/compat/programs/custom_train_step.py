"""Customizing fit(): a Model subclass overrides train_step and test_step and keeps its own metric trackers.

The gradient comes from the running engine through highlevel's backend-neutral ``variables_value_and_grad``
(Keras writes this step once per engine, with ``tf.GradientTape``, ``jax.grad`` or ``loss.backward()``).
"""

import numpy as np

import highlevel as keras
from highlevel import layers, ops


class CustomModel(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.hidden = layers.Dense(16, activation="relu")
        self.out = layers.Dense(1)
        self.loss_tracker = keras.metrics.Mean(name="loss")
        self.mae_metric = keras.metrics.MeanAbsoluteError(name="mae")

    def call(self, inputs):
        return self.out(self.hidden(inputs))

    @property
    def metrics(self):
        # Listed here, the trackers are reset at the start of each epoch and of each evaluate().
        return [self.loss_tracker, self.mae_metric]

    def train_step(self, data):
        x, y = data

        def forward():
            y_pred = self(x, training=True)
            return self.compute_loss(y=y, y_pred=y_pred), y_pred

        (loss, y_pred), grads = keras.config.current_backend().variables_value_and_grad(
            forward, self.trainable_variables
        )
        self.optimizer.apply(grads, self.trainable_variables)
        self.loss_tracker.update_state(loss)
        self.mae_metric.update_state(y, y_pred)
        return {"loss": self.loss_tracker.result(), "mae": self.mae_metric.result()}

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        self.loss_tracker.update_state(ops.mean(ops.square(y - y_pred)))
        self.mae_metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


def main():
    keras.utils.set_random_seed(6)
    rng = np.random.default_rng(6)
    x = rng.uniform(-1, 1, size=(256, 3)).astype("float32")
    y = (x[:, :1] * 3 - x[:, 1:2] ** 2).astype("float32")

    model = CustomModel()
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="mse")
    history = model.fit(x, y, batch_size=32, epochs=10, verbose=0)
    assert set(history.history) == {"loss", "mae"}, history.history
    assert history.history["loss"][-1] < 0.1 * history.history["loss"][0], history.history["loss"]
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert logs["mae"] < 0.25, logs
    return logs
