"""Random byte mutations of a valid model file: loading succeeds or raises the library's error."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import highlevel as hl
import highlevel.saving  # noqa: F401
from highlevel.saving import InvalidFileError, UnsafeFileError

_CACHE = {}


def _mutated(data, original):
    """``original`` (a bytearray) with one to four bytes replaced and, sometimes, cut short."""
    edits = data.draw(
        st.lists(st.tuples(st.integers(0, len(original) - 1), st.integers(0, 255)), min_size=1, max_size=4)
    )
    for i, b in edits:
        original[i] = b
    cut = data.draw(st.one_of(st.none(), st.integers(0, len(original))))
    return original if cut is None else original[:cut]


def _valid_bytes(folder):
    if "data" not in _CACHE:
        with hl.config.backend_scope("native"):
            model = hl.Sequential(
                [hl.Input((2,)), hl.layers.Dense(1, name="fuzz_dense", kernel_initializer="ones")], name="fuzz_model"
            )
            model.save(folder / "valid.zip")
        _CACHE["data"] = (folder / "valid.zip").read_bytes()
    return _CACHE["data"]


@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(st.data())
def test_mutated_files_fail_cleanly(tmp_path_factory, data):
    folder = tmp_path_factory.getbasetemp()
    original = bytearray(_valid_bytes(folder))
    original = _mutated(data, original)
    payload = bytes(original)
    path = folder / "fuzz.zip"
    path.write_bytes(payload)
    with hl.config.backend_scope("native"):
        try:
            hl.saving.load_model(path)
        except (InvalidFileError, UnsafeFileError):
            pass


def _valid_keras_bytes(folder):
    if "keras" not in _CACHE:
        with hl.config.backend_scope("native"):
            model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1, name="fuzz_dense")], name="fuzz_model")
            model.compile(optimizer="adam", loss="mse")
            model.save(folder / "valid.keras")  # Keras 3's archive: JSON config and HDF5 weights
        _CACHE["keras"] = (folder / "valid.keras").read_bytes()
    return _CACHE["keras"]


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(st.data())
def test_mutated_keras_archives_fail_cleanly(tmp_path_factory, data):
    pytest.importorskip("h5py")
    folder = tmp_path_factory.getbasetemp()
    original = bytearray(_valid_keras_bytes(folder))
    original = _mutated(data, original)
    path = folder / "fuzz.keras"
    path.write_bytes(bytes(original))
    with hl.config.backend_scope("native"):
        try:
            hl.saving.load_model(path)
        except (InvalidFileError, UnsafeFileError):
            pass


def _valid_h5_bytes(folder):
    if "h5" not in _CACHE:
        with hl.config.backend_scope("native"):
            model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(3, name="fuzz_dense"), hl.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
            model.train_on_batch(
                np.array([[1.0, 2.0]], "float32"), np.array([[1.0]], "float32")
            )  # the optimizer's state goes in the file too
            model.save_weights(folder / "valid.weights.h5")  # Keras's HDF5 layout, uncompressed: edits reach h5py
        _CACHE["h5"] = (folder / "valid.weights.h5").read_bytes()
    return _CACHE["h5"]


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(st.data())
def test_mutated_weights_h5_files_fail_cleanly(tmp_path_factory, data):
    pytest.importorskip("h5py")
    folder = tmp_path_factory.getbasetemp()
    original = bytearray(_valid_h5_bytes(folder))
    original = _mutated(data, original)
    path = folder / "fuzz.weights.h5"
    path.write_bytes(bytes(original))
    with hl.config.backend_scope("native"):
        model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(3, name="fuzz_dense"), hl.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
        try:
            model.load_weights(path)
        except (InvalidFileError, UnsafeFileError):
            pass
