"""Fixtures for the TensorFlow backend's own tests: skipped where tensorflow is not installed."""

import pytest

import highlevel as hl


@pytest.fixture(scope="session")
def tfb():
    """The TensorFlow backend instance (tests call its methods directly, no config switch needed)."""
    if "tensorflow" not in hl.backends.installed():
        pytest.skip("tensorflow is not installed")
    return hl.backends.get("tensorflow")


@pytest.fixture(scope="session")
def tf(tfb):
    import tensorflow

    return tensorflow
