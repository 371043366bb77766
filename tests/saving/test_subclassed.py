"""Subclassed models: built on load from the saved input shapes, refused (with the fix) when not registered."""

import json
import zipfile

import numpy as np
import pytest

import highlevel as hl
import highlevel.saving  # noqa: F401
from highlevel.backends.contract.interop import front_class
from highlevel.saving import InvalidFileError, UnsafeFileError
from highlevel.saving.weights_io import model_variables

from .helpers import SubclassedModel, build, data, numpy_vars, outputs


def test_subclassed_roundtrip_and_continue_fit(backend, tmp_path):
    model = build("subclassed", run_eagerly=True)  # compiled steps are tested elsewhere; eager is fast
    x, y = data("subclassed")
    model.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
    path = tmp_path / "sub.hl.zip"
    model.save(path)
    with zipfile.ZipFile(path) as zf:
        assert json.loads(zf.read("config.json"))["build_config"] == {"input_shape": [None, 3]}
    loaded = hl.saving.load_model(path)
    assert front_class(type(loaded)) is SubclassedModel and loaded.built
    for a, b in zip(numpy_vars(model_variables(model)), numpy_vars(model_variables(loaded))):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(numpy_vars(model.optimizer.variables), numpy_vars(loaded.optimizer.variables)):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(outputs(model, x), outputs(loaded, x)):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    loaded.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)  # the optimizer state is usable


def test_unbuilt_subclassed_model_saves_without_build_config(tmp_path):
    model = SubclassedModel(hidden=3, outputs=1)
    model.save(tmp_path / "u.zip")
    with zipfile.ZipFile(tmp_path / "u.zip") as zf:
        assert "build_config" not in json.loads(zf.read("config.json"))
    loaded = hl.saving.load_model(tmp_path / "u.zip")
    assert not loaded.built and loaded.hidden_units == 3
    assert tuple(loaded(np.ones((2, 5), "float32")).shape) == (2, 1)  # builds on its first call, as before


def test_unregistered_subclassed_model_error_says_how_to_register(tmp_path):
    class Unregistered(hl.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.dense = hl.layers.Dense(2)

        def call(self, x):
            return self.dense(x)

    model = Unregistered()
    model(np.ones((1, 3), "float32"))
    path = tmp_path / "unregistered.zip"
    model.save(path)
    with pytest.raises(UnsafeFileError) as info:
        hl.saving.load_model(path)
    message = str(info.value)
    assert "Unregistered" in message
    assert "register_serializable" in message and "custom_objects" in message
    loaded = hl.saving.load_model(path, custom_objects={"Unregistered": Unregistered})  # the fix it names
    np.testing.assert_array_equal(numpy_vars(loaded.variables)[0], numpy_vars(model.variables)[0])


@pytest.mark.parametrize(
    "build_config",
    [
        "not a dict",
        {"input_shape": [None, 3], "extra": 1},
        {"input_shape": "(None, 3)"},
        {"input_shape": [None, -3]},
        {"input_shape": [None, 3.5]},
        {"input_shape": []},
        {"input_shape": {"a": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[None]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}},
        {"input_shape": [None, 7]},  # well formed, but the saved weights expect 3 features
    ],
)
def test_malformed_build_config_is_refused(tmp_path, build_config):
    model = build("subclassed", run_eagerly=True)
    model(np.ones((2, 3), "float32"))
    path = tmp_path / "sub.zip"
    model.save(path)
    with zipfile.ZipFile(path) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    config = json.loads(members["config.json"])
    config["build_config"] = build_config
    members["config.json"] = json.dumps(config).encode()
    with zipfile.ZipFile(path, "w") as zf:
        for name, payload in members.items():
            zf.writestr(name, payload)
    with pytest.raises((InvalidFileError, ValueError)) as info:
        hl.saving.load_model(path)
    assert str(path) in str(info.value) or "shape" in str(info.value)


def test_sequential_without_input_is_built_on_load(tmp_path):
    # Built by its first call, like a subclassed model: the file's input shapes build it again.
    model = hl.Sequential([hl.layers.Dense(3), hl.layers.Dense(1)])
    x = np.ones((2, 4), "float32")
    model(x)
    model.save(tmp_path / "deferred.zip")
    loaded = hl.saving.load_model(tmp_path / "deferred.zip")
    assert loaded.built
    np.testing.assert_array_equal(outputs(loaded, x)[0], outputs(model, x)[0])
