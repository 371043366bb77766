import os

import numpy as np
import pytest

import highlevel as hl
import highlevel.saving  # noqa: F401

from .helpers import build, data, numpy_vars, outputs


@pytest.mark.parametrize("kind", ["sequential", "functional"])
def test_save_load_predict_and_continue_fit(backend, kind, tmp_path):
    # The functional case runs compiled steps (jax.jit / tf.function); the Sequential one eagerly, for speed.
    model = build(kind, run_eagerly=kind == "sequential")
    x, y = data(kind)
    model.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
    path = tmp_path / "m.hl.zip"
    model.save(path)
    loaded = hl.models.load_model(path)
    assert type(loaded) is type(model)
    for a, b in zip(outputs(model, x), outputs(loaded, x)):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    for a, b in zip(numpy_vars(model.optimizer.variables), numpy_vars(loaded.optimizer.variables)):
        np.testing.assert_array_equal(a, b)
    tracker = numpy_vars(model.metrics[0].variables)  # the loss tracker's state comes back too
    for a, b in zip(tracker, numpy_vars(loaded.metrics[0].variables)):
        np.testing.assert_array_equal(a, b)
    model.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
    loaded.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
    # Same computation on the same state; only thread-count-dependent reduction order (torch under load)
    # may differ, hence the float32-epsilon tolerance instead of bitwise equality.
    for a, b in zip(numpy_vars(model.variables), numpy_vars(loaded.variables)):
        np.testing.assert_allclose(a, b, rtol=2e-7, atol=1e-7)


def test_archive_members_and_metadata(backend, tmp_path):
    import json
    import zipfile

    model = build("sequential")
    path = tmp_path / "m.zip"
    model.save(path)
    with zipfile.ZipFile(path) as zf:
        assert sorted(zf.namelist()) == ["config.json", "metadata.json", "model.weights.safetensors"]
        meta = json.loads(zf.read("metadata.json"))
        config = json.loads(zf.read("config.json"))
    assert meta["backend"] == hl.config.backend()
    assert meta["format_version"] == 1 and meta["highlevel_version"] == hl.__version__
    assert config["compile_config"]["optimizer"]["class_name"] == "Adam"
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_load_without_compile(backend, tmp_path):
    model = build("sequential")
    model.save(tmp_path / "m.zip")
    loaded = hl.saving.load_model(tmp_path / "m.zip", compile=False)
    assert not loaded._compiled


def test_save_weights_roundtrip_and_mismatch(backend, tmp_path):
    model = build("sequential")
    path = tmp_path / "w.safetensors"
    model.save_weights(path)
    other = build("sequential")
    other.load_weights(path)
    for a, b in zip(numpy_vars(model.variables), numpy_vars(other.variables)):
        np.testing.assert_array_equal(a, b)
    wider = hl.Sequential([hl.Input((3,)), hl.layers.Dense(5, name="wide"), hl.layers.Dense(2)])
    with pytest.raises(ValueError, match=r"layer 'wide'.*kernel.*\(3, 5\).*\(3, 4\)"):
        wider.load_weights(path)
    before = numpy_vars(wider.variables)
    wider.load_weights(path, skip_mismatch=True)
    np.testing.assert_array_equal(before[0], numpy_vars(wider.variables)[0])


def test_custom_objects_registry_and_scope(tmp_path):
    class Scale(hl.layers.Layer):
        def __init__(self, factor=2.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, x):
            return x * self.factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}

    model = hl.Sequential([hl.Input((3,)), Scale(3.0), hl.layers.Dense(2)])
    path = tmp_path / "c.zip"
    model.save(path)
    with pytest.raises(hl.saving.UnsafeFileError, match="Scale"):
        hl.saving.load_model(path)
    assert hl.saving.load_model(path, custom_objects={"Scale": Scale}).layers[0].factor == 3.0
    with hl.saving.custom_object_scope({"Scale": Scale}):
        assert hl.saving.load_model(path).layers[0].factor == 3.0
    hl.saving.register_serializable(package="tests_saving")(Scale)
    assert hl.saving.load_model(path).layers[0].factor == 3.0


def test_failed_write_raises_and_leaves_nothing(tmp_path):
    from highlevel.saving import archive

    def boom(f):
        f.write(b"partial")
        raise OSError("disk full")

    target = tmp_path / "x.bin"
    target.write_bytes(b"old")
    with pytest.raises(OSError, match="disk full"):
        archive.atomic_write(target, boom)
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["x.bin"]
    with pytest.raises(FileNotFoundError):
        archive.atomic_write(tmp_path / "missing" / "x.bin", b"data")
