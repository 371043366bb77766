import importlib
import os

import pytest

from tests.utils.local_server import unreachable_url


@pytest.fixture
def home(tmp_path, monkeypatch):
    """An empty Keras home (``$KERAS_HOME``) for the test; returns its ``datasets`` folder."""
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "keras_home"))
    return str(tmp_path / "keras_home" / "datasets")


@pytest.fixture
def nowhere():
    """A URL where nothing listens: a loader that tried to download would fail at once, not reach the network."""
    return unreachable_url("/not-here")


@pytest.fixture
def keras_loader(monkeypatch):
    """``keras_loader(name, path)``: Keras's own module ``keras.src.datasets.<name>``, made to read the file or
    folder at ``path`` (its ``get_file`` answers ``path``, or ``path/<fname>`` when ``path`` is a folder of
    files), so both libraries read the same bytes. A module without ``get_file`` is returned as it is."""
    os.environ.setdefault("KERAS_BACKEND", "jax")
    pytest.importorskip("keras")

    def load(name, path, per_file=False):
        module = importlib.import_module(f"keras.src.datasets.{name}")

        def fake_get_file(fname=None, origin=None, **kwargs):
            return os.path.join(path, fname) if per_file else path

        if hasattr(module, "get_file"):
            monkeypatch.setattr(module, "get_file", fake_get_file)
        return module

    return load
