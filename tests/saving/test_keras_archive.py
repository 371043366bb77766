"""The ``.keras`` archive both ways with real Keras 3 as the oracle, highlevel's own archive (``.hl.zip``, and
``.keras`` files earlier versions wrote), and hostile archives."""

import importlib.util
import io
import json
import os
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import highlevel as hl
from tests.conftest import selected_backends

from .keras_oracle import KINDS, inputs, models

ORACLE = os.path.join(os.path.dirname(__file__), "keras_oracle.py")
KERAS_BACKENDS = ("torch", "jax", "tensorflow")  # real Keras on each of its backends

needs_h5py = pytest.mark.skipif(importlib.util.find_spec("h5py") is None, reason="h5py is not installed")
needs_keras = pytest.mark.skipif(
    importlib.util.find_spec("keras") is None or importlib.util.find_spec("h5py") is None,
    reason="the Keras oracle (keras, h5py) is not installed",
)


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(8, 3)).astype("float32")
    return {"x": x, "x2": rng.normal(size=(8, 3)).astype("float32"), "y": rng.normal(size=(8, 2)).astype("float32")}


def _weights(model):
    return [np.asarray(hl.ops.convert_to_numpy(w)) for w in model.get_weights()]


def _saved(results, prefix):
    return [results[f"{prefix}/{i}"] for i in range(sum(k.startswith(prefix + "/") for k in results))]


def _run_keras(folders, keras_backend):
    """Real Keras on ``keras_backend`` over every folder, in one process; its results per folder."""
    env = dict(os.environ, KERAS_BACKEND=keras_backend, CUDA_VISIBLE_DEVICES="", TF_CPP_MIN_LOG_LEVEL="3")
    done = subprocess.run(
        [sys.executable, ORACLE, *map(str, folders)], env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return [dict(np.load(folder / f"results-{keras_backend}.npz")) for folder in folders]


def _write_highlevel_files(folder, data):
    """Saves each kind of model after one training step; returns its predictions and its weights one step on."""
    np.savez(folder / "data.npz", **data)
    expected = {}
    for kind in KINDS:
        x, y = inputs(data, kind), data["y"]
        model = models(hl, kind)
        model.train_on_batch(x, y)  # the optimizer holds state worth moving
        model.save(folder / f"hl-{kind}.keras")
        prediction = np.asarray(model.predict(x, verbose=0))
        model.train_on_batch(x, y)
        expected[kind] = (prediction, _weights(model))
    return expected


_ROUND_TRIPS = {}


@pytest.fixture(scope="module", params=KERAS_BACKENDS)
def keras_round_trip(request, tmp_path_factory):
    """Per real-Keras backend: ``({engine: (folder, expected, results)}, {engine: error})`` for the matrix.

    Each engine's files go to a folder of their own, and one Keras process reads them all: Keras and its
    framework are imported once per Keras backend, not once per (engine, Keras backend) pair.
    """
    keras_backend = request.param
    if keras_backend not in _ROUND_TRIPS:  # pytest may set a parametrized module fixture up more than once
        engines = [n for n in selected_backends() if n in hl.backends.installed()]
        folders, expected = [], {}
        failed = {}
        for name in engines:
            folder = tmp_path_factory.mktemp(f"archive-{name}-{keras_backend}")
            try:
                with hl.config.backend_scope(name):
                    expected[name] = _write_highlevel_files(folder, _data())
                folders.append(folder)
            except Exception as e:  # that engine's test fails with it; the others still run
                failed[name] = e
        results = _run_keras(folders, keras_backend) if folders else []
        done = {n: (f, expected[n], r) for n, f, r in zip(expected, folders, results)}
        _ROUND_TRIPS[keras_backend] = (done, failed)
    return _ROUND_TRIPS[keras_backend]


@needs_keras
def test_models_move_between_highlevel_and_real_keras(backend, keras_round_trip):
    data = _data()
    done, failed = keras_round_trip
    if backend.name in failed:
        raise failed[backend.name]
    tmp_path, expected, results = done[backend.name]
    for kind in KINDS:
        x, y = inputs(data, kind), data["y"]
        prediction, after_step = expected[kind]
        # highlevel -> Keras: same predictions, compiled with Adam one step in, and the same next step.
        np.testing.assert_allclose(results[f"{kind}/loaded_pred"], prediction, rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(results[f"{kind}/loaded_compiled"], [1.0, 1.0, 1.0])
        np.testing.assert_allclose(results[f"{kind}/loaded_lr"], 0.01, rtol=1e-6)
        keras_step = _saved(results, f"{kind}/loaded_after_step")
        assert len(keras_step) == len(after_step)
        for got, want in zip(keras_step, after_step):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)

        # Keras -> highlevel: the same in the other direction.
        loaded = hl.saving.load_model(tmp_path / f"keras-{kind}.keras")
        assert loaded.compiled and type(loaded.optimizer).__name__ == "Adam"
        assert int(hl.ops.convert_to_numpy(loaded.optimizer.iterations)) == 1
        np.testing.assert_allclose(float(hl.ops.convert_to_numpy(loaded.optimizer.learning_rate)), 0.01, rtol=1e-6)
        np.testing.assert_allclose(loaded.predict(x, verbose=0), results[f"{kind}/own_pred"], rtol=1e-5, atol=1e-5)
        loaded.train_on_batch(x, y)
        keras_step = _saved(results, f"{kind}/own_after_step")
        assert len(keras_step) == len(_weights(loaded))
        for got, want in zip(_weights(loaded), keras_step):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def _sequential():
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, name="d")])
    model.compile(optimizer="adam", loss="mse")
    return model


@needs_h5py
def test_keras_name_writes_keras_format_and_hl_zip_writes_highlevels(backend, tmp_path):
    model = _sequential()
    model.save(tmp_path / "m.keras")
    model.save(tmp_path / "m.hl.zip")
    model.save(tmp_path / "forced.keras", save_format="highlevel")
    with zipfile.ZipFile(tmp_path / "m.keras") as zf:
        assert set(zf.namelist()) == {"config.json", "metadata.json", "model.weights.h5"}
        config = json.loads(zf.read("config.json"))
        metadata = json.loads(zf.read("metadata.json"))
    assert (config["module"], config["class_name"]) == ("keras", "Sequential")
    dense = config["config"]["layers"][1]
    assert (dense["module"], dense["class_name"], dense["registered_name"]) == ("keras.layers", "Dense", None)
    assert dense["config"]["dtype"]["class_name"] == "DTypePolicy"
    assert dense["config"]["kernel_initializer"]["module"] == "keras.initializers"
    assert config["compile_config"]["optimizer"]["module"] == "keras.optimizers"
    assert {"keras_version", "date_saved"} <= set(metadata)
    for name in ("m.hl.zip", "forced.keras"):
        with zipfile.ZipFile(tmp_path / name) as zf:
            assert "model.weights.safetensors" in zf.namelist()
    x = np.ones((2, 3), "float32")
    for name in ("m.keras", "m.hl.zip", "forced.keras"):
        np.testing.assert_allclose(hl.saving.load_model(tmp_path / name).predict(x, verbose=0), model.predict(x))
    with pytest.raises(ValueError, match="save_format='pickle'"):
        model.save(tmp_path / "m2.keras", save_format="pickle")


@needs_h5py
def test_files_earlier_versions_wrote_as_keras_still_load(backend, tmp_path):
    model = _sequential()
    x = np.random.default_rng(1).normal(size=(4, 3)).astype("float32")
    model.fit(x, np.ones((4, 2), "float32"), epochs=1, verbose=0)
    path = tmp_path / "old.keras"
    # What highlevel wrote for a .keras name before it wrote Keras's format: its own archive.
    hl.saving.save_model(model, path, save_format="highlevel")
    with zipfile.ZipFile(path) as zf:
        assert sorted(zf.namelist()) == ["config.json", "metadata.json", "model.weights.safetensors"]
    loaded = hl.saving.load_model(path)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6, atol=1e-6)
    assert int(hl.ops.convert_to_numpy(loaded.optimizer.iterations)) == 1


@needs_h5py
def test_a_file_whose_format_does_not_match_its_name_is_named(backend, tmp_path):
    model = _sequential()
    model.save(tmp_path / "m.keras")
    os.replace(tmp_path / "m.keras", tmp_path / "renamed.hl.zip")
    with pytest.raises(hl.saving.InvalidFileError, match="holds Keras 3's archive format"):
        hl.saving.load_model(tmp_path / "renamed.hl.zip")
    model.save_weights(tmp_path / "w.safetensors")
    with pytest.raises(hl.saving.InvalidFileError, match="safetensors weights file"):
        hl.saving.load_model(tmp_path / "w.safetensors")
    with zipfile.ZipFile(tmp_path / "renamed.hl.zip") as zf:
        (tmp_path / "w.h5").write_bytes(zf.read("model.weights.h5"))
    with pytest.raises(hl.saving.InvalidFileError, match="HDF5 file"):
        hl.saving.load_model(tmp_path / "w.h5")


# Hostile archives ------------------------------------------------------------------------------------------------


def _members(path):
    with zipfile.ZipFile(path) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def _write(path, members, compress=zipfile.ZIP_STORED):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compress) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    path.write_bytes(buffer.getvalue())
    return path


def _edited(tmp_path, edit, name="hostile.keras"):
    model = _sequential()
    model.save(tmp_path / "good.keras")
    members = _members(tmp_path / "good.keras")
    config = json.loads(members["config.json"])
    edit(config)
    members["config.json"] = json.dumps(config).encode()
    return _write(tmp_path / name, members)


@needs_h5py
def test_hostile_keras_archives_are_refused(backend, tmp_path):
    def unknown_class(config):
        config["config"]["layers"][1]["class_name"] = "Exfiltrate"

    with pytest.raises(hl.saving.UnsafeFileError, match="Exfiltrate"):
        hl.saving.load_model(_edited(tmp_path, unknown_class))

    def foreign_module(config):
        config["config"]["layers"][1]["module"] = "os"

    with pytest.raises(hl.saving.UnsafeFileError, match="'os.Dense'"):
        hl.saving.load_model(_edited(tmp_path, foreign_module))

    def lambda_bytecode(config):
        config["config"]["layers"][1] = {
            "module": "keras.layers",
            "class_name": "Lambda",
            "config": {
                "name": "evil",
                "function": {
                    "class_name": "__lambda__",
                    "config": {"code": "4wEAAAAAAAAA", "defaults": None, "closure": None},
                },
            },
            "registered_name": None,
        }

    for safe_mode in (True, False):
        with pytest.raises(hl.saving.UnsafeFileError, match="lambda|Lambda"):
            hl.saving.load_model(_edited(tmp_path, lambda_bytecode), safe_mode=safe_mode)


@needs_h5py
def test_zip_bomb_member_is_refused(backend, tmp_path):
    model = _sequential()
    model.save(tmp_path / "good.keras")
    members = _members(tmp_path / "good.keras")
    members["model.weights.h5"] = bytes(8 * 1024**2)  # compresses about a thousandfold
    path = _write(tmp_path / "bomb.keras", members, compress=zipfile.ZIP_DEFLATED)
    with pytest.raises(hl.saving.UnsafeFileError, match="zip bomb"):
        hl.saving.load_model(path)


@needs_h5py
def test_weights_whose_shapes_disagree_with_the_config_are_refused(backend, tmp_path):
    small = _sequential()
    wide = hl.Sequential([hl.Input((3,)), hl.layers.Dense(5, name="d")])
    small.save(tmp_path / "small.keras")
    wide.save(tmp_path / "wide.keras")
    members = _members(tmp_path / "small.keras")
    members["model.weights.h5"] = _members(tmp_path / "wide.keras")["model.weights.h5"]
    path = _write(tmp_path / "mixed.keras", members)
    with pytest.raises(hl.saving.InvalidFileError, match=r"shape \(3, 2\).*\(3, 5\)"):
        hl.saving.load_model(path)


def test_keras_only_arguments_are_read_at_their_unused_value_and_refused_otherwise(monkeypatch):
    from highlevel.saving import keras_config

    monkeypatch.setitem(keras_config._KERAS_ONLY, "Dense", {"quantization_config": None})
    dense = {
        "module": "keras.layers",
        "class_name": "Dense",
        "config": {"units": 2, "quantization_config": None},
        "registered_name": None,
    }
    assert "quantization_config" not in keras_config.object_from_keras(dense)["config"]
    dense["config"]["quantization_config"] = {"mode": "int8"}
    with pytest.raises(hl.saving.InvalidFileError, match="quantization_config"):
        keras_config.object_from_keras(dense)


def test_a_registered_class_is_found_by_its_registered_name_whatever_module_keras_wrote(backend):
    from highlevel.saving import config_io

    from .keras_oracle import subclassed_class

    subclassed_class(hl)
    # Keras writes the module the saving program defined the class in (often its __main__).
    config = {"module": "__main__", "class_name": "TwoDense", "config": {"name": "t", "units": 3}}
    model = config_io.deserialize_model(dict(config, registered_name="hl_oracle>TwoDense"))
    assert type(model).__name__ == "TwoDense" and model.units == 3
    with pytest.raises(hl.saving.UnsafeFileError, match="unexpected module"):
        config_io.deserialize_model(dict(config, registered_name="elsewhere>TwoDense"))
