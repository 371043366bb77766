"""Ftrl, Lamb, Muon and ScheduleFreeAdamW train a small model with ``fit``, and a model saved mid-training
with its optimizer continues exactly as the original."""

import numpy as np
import pytest

import highlevel as hl

CASES = [
    ("Ftrl", {"learning_rate": 0.5}),
    ("Lamb", {"learning_rate": 0.05}),
    ("Muon", {"learning_rate": 0.05}),
    ("ScheduleFreeAdamW", {"learning_rate": 0.05}),
]


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5], [3.0]], "float32") + 0.5).astype("float32")
    return x, y


def _model(cls, kwargs):
    hl.utils.set_random_seed(1)
    model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(8, activation="tanh"), hl.layers.Dense(1)])
    model.compile(optimizer=getattr(hl.optimizers, cls)(**kwargs), loss="mse")
    return model


@pytest.mark.parametrize("cls,kwargs", CASES, ids=[c for c, _ in CASES])
def test_fit_learns_and_resumes_after_save(backend, cls, kwargs, tmp_path):
    x, y = _data()
    model = _model(cls, kwargs)
    start = float(model.evaluate(x, y, verbose=0))
    model.fit(x, y, batch_size=16, epochs=15, verbose=0)
    trained = float(model.evaluate(x, y, verbose=0))
    assert trained < 0.5 * start, (cls, start, trained)

    path = str(tmp_path / "model.keras")
    model.save(path)
    loaded = hl.saving.load_model(path)
    assert type(loaded.optimizer) is type(model.optimizer)
    assert loaded.optimizer.get_config() == model.optimizer.get_config()
    for a, b in zip(model.optimizer.variables, loaded.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    model.fit(x, y, batch_size=16, epochs=1, verbose=0, shuffle=False)
    loaded.fit(x, y, batch_size=16, epochs=1, verbose=0, shuffle=False)
    for a, b in zip(model.get_weights(), loaded.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
