"""Fixtures of the ``hl.quantizers`` tests: Keras as an oracle."""

import os

import pytest


@pytest.fixture(scope="session")
def keras():
    os.environ.setdefault("KERAS_BACKEND", "jax")
    return pytest.importorskip("keras")
