"""A subclassed Model with its own call(): layers created in __init__, a residual path and training-only dropout."""

import numpy as np

import highlevel as keras
from highlevel import layers, ops


class ResidualMLP(keras.Model):
    def __init__(self, hidden=16, num_classes=2, **kwargs):
        super().__init__(**kwargs)
        self.project = layers.Dense(hidden)
        self.block = layers.Dense(hidden, activation="relu")
        self.dropout = layers.Dropout(0.1)
        self.classifier = layers.Dense(num_classes)

    def call(self, inputs, training=False):
        h = self.project(inputs)
        h = h + self.block(h)
        h = self.dropout(h, training=training)
        return self.classifier(ops.relu(h))


def main():
    keras.utils.set_random_seed(5)
    rng = np.random.default_rng(5)
    x = rng.normal(size=(256, 6)).astype("float32")
    y = (np.sum(x[:, :3] ** 2, axis=1) > 3).astype("int32")  # inside or outside a sphere

    model = ResidualMLP()
    model.compile(
        optimizer=keras.optimizers.Adam(0.01),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[keras.metrics.SparseCategoricalAccuracy(name="acc")],
    )
    history = model.fit(x, y, batch_size=32, epochs=12, verbose=0)
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert len(model.trainable_weights) == 6
    assert history.history["loss"][-1] < 0.6 * history.history["loss"][0], history.history["loss"]
    assert logs["acc"] > 0.85, logs
    return logs
