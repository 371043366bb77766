"""The trainer's steps have Keras's JAX signature ``(state, data)`` while a single argument stays the batch, so that
both ``train_step(self, data)`` and ``train_step(self, state, data)`` overrides work on every backend."""

import inspect

import numpy as np
import pytest

import highlevel as hl

RNG = np.random.default_rng(0)
X = RNG.normal(size=(32, 3)).astype("float32")
Y = X @ np.array([[1.0], [-2.0], [0.5]], "float32")


@pytest.mark.parametrize("name", ["train_step", "test_step", "predict_step"])
def test_signature_names_state_and_data(name):
    assert list(inspect.signature(getattr(hl.Model, name)).parameters) == ["self", "state", "data"]


class _ByKeyword(hl.Model):
    """The common override, calling the base step with ``data=``."""

    def __init__(self):
        super().__init__()
        self.dense = hl.layers.Dense(1)

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        return super().train_step(data=data)

    def test_step(self, data):
        return super().test_step(data)


def test_data_only_override_trains(backend):
    model = _ByKeyword()
    model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse")
    start = model.evaluate(X, Y, verbose=0)
    model.fit(X, Y, batch_size=8, epochs=5, verbose=0)
    assert model.evaluate(X, Y, verbose=0) < 0.5 * start


def test_step_without_a_batch_says_what_it_takes(backend):
    model = _ByKeyword()
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(TypeError, match=r"takes \(data\) or, in the stateless style, \(state, data\)"):
        hl.Model.train_step(model)
