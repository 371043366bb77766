"""Keras as an oracle for the ``hl.distillation`` tests."""

import os

import pytest


@pytest.fixture(scope="session")
def keras():
    os.environ.setdefault("KERAS_BACKEND", "jax")
    return pytest.importorskip("keras")
