"""Fixtures of the ``hl.visualization`` tests: Keras as an oracle, matplotlib without a display."""

import os

import pytest


@pytest.fixture(scope="session")
def keras():
    os.environ.setdefault("KERAS_BACKEND", "jax")
    return pytest.importorskip("keras")


@pytest.fixture
def plt():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    pyplot.close("all")
    yield pyplot
    pyplot.close("all")
