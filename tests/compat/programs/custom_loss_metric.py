"""A custom Loss subclass (with its own argument and get_config) and a custom stateful Metric subclass."""

import numpy as np

import highlevel as keras
from highlevel import ops


class HuberLike(keras.losses.Loss):
    def __init__(self, delta=1.0, name="huber_like", **kwargs):
        super().__init__(name=name, **kwargs)
        self.delta = delta

    def call(self, y_true, y_pred):
        error = ops.abs(y_true - y_pred)
        quadratic = ops.minimum(error, self.delta)
        return ops.mean(0.5 * quadratic**2 + self.delta * (error - quadratic), axis=-1)

    def get_config(self):
        return {**super().get_config(), "delta": self.delta}


class FractionWithin(keras.metrics.Metric):
    """The fraction of predictions within ``tolerance`` of the target."""

    def __init__(self, tolerance=0.25, name="within", **kwargs):
        super().__init__(name=name, **kwargs)
        self.tolerance = tolerance
        self.hits = self.add_variable(shape=(), initializer="zeros", name="hits")
        self.total = self.add_variable(shape=(), initializer="zeros", name="total")

    def update_state(self, y_true, y_pred, sample_weight=None):
        close = ops.cast(ops.abs(y_true - y_pred) <= self.tolerance, "float32")
        self.hits.assign(self.hits + ops.sum(close))
        self.total.assign(self.total + ops.cast(ops.size(close), "float32"))

    def result(self):
        return self.hits / ops.maximum(self.total, 1.0)

    def reset_state(self):
        self.hits.assign(0.0)
        self.total.assign(0.0)


def main():
    keras.utils.set_random_seed(8)
    rng = np.random.default_rng(8)
    x = rng.uniform(-2, 2, size=(256, 2)).astype("float32")
    y = (np.sin(x[:, :1]) + 0.5 * x[:, 1:]).astype("float32")
    y[::50] += 4.0  # a few outliers, which the Huber-style loss tolerates

    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(32, activation="tanh"), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss=HuberLike(delta=0.5), metrics=[FractionWithin(0.3)])
    history = model.fit(x, y, batch_size=32, epochs=12, verbose=0)

    assert HuberLike.from_config(HuberLike(delta=0.5).get_config()).delta == 0.5
    loss = HuberLike(delta=1.0)
    assert abs(float(loss(np.array([[0.0]]), np.array([[3.0]]))) - 2.5) < 1e-6  # 0.5 + 1 * 2
    assert history.history["loss"][-1] < 0.4 * history.history["loss"][0], history.history["loss"]
    assert history.history["within"][-1] > 0.8, history.history["within"]
    return {"loss": history.history["loss"][-1], "within": history.history["within"][-1]}
