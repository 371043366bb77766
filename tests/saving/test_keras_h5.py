"""Keras's ``.weights.h5`` files, both ways, with real Keras 3 (in its own process, on two of its backends) as the
oracle: the same paths and shapes as Keras writes, the same predictions after the move, and the same weights and
optimizer state after one more training step on either side. Then the files a safe loader must refuse."""

import io
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

import highlevel as hl
from highlevel.saving import InvalidFileError, UnsafeFileError, keras_h5
from tests.disk_cache import cache_key, cached_folder

from . import keras_h5_models as models

h5py = pytest.importorskip("h5py")
pytest.importorskip("keras")

HERE = os.path.dirname(os.path.abspath(__file__))
KERAS_BACKENDS = ("torch", "jax", "tensorflow")  # real Keras on each of its backends
ATOL = 2e-5
# What Keras's files depend on, on each of its backends (the cache's key).
_PACKAGES = {
    name: ("keras", "numpy", "h5py", "ml-dtypes") + framework
    for name, framework in {
        "torch": ("torch",),
        "jax": ("jax", "jaxlib"),
        "tensorflow": ("tensorflow", "tensorflow-cpu"),
    }.items()
}
_WRITTEN = {}


def _run_keras(keras_backend, mode, folders):
    env = dict(os.environ, KERAS_BACKEND=keras_backend, CUDA_VISIBLE_DEVICES="", TF_CPP_MIN_LOG_LEVEL="3")
    done = subprocess.run(
        [sys.executable, os.path.join(HERE, "keras_h5_worker.py"), mode, *map(str, folders)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]


@pytest.fixture(scope="module", params=KERAS_BACKENDS)
def keras_files(request):
    """``(keras backend, folder)``: the files Keras wrote on that backend (see ``keras_h5_worker.py``), written
    once into the suite's cache on disk (``tests/disk_cache.py``) for every xdist worker and later run."""
    if request.param not in _WRITTEN:  # pytest may set a parametrized module fixture up more than once
        sources = [os.path.join(HERE, "keras_h5_worker.py"), os.path.join(HERE, "keras_h5_models.py")]
        key = cache_key(["write", request.param], files=sources, packages=_PACKAGES[request.param])
        folder = cached_folder(f"keras_h5_{request.param}", key, lambda f: _run_keras(request.param, "write", [f]))
        _WRITTEN[request.param] = pathlib.Path(folder)
    return request.param, _WRITTEN[request.param]


def _datasets(source):
    out = {}
    with h5py.File(source, "r") as f:
        f.visititems(lambda path, item: out.__setitem__(path, item[()]) if isinstance(item, h5py.Dataset) else None)
    return out


def _keras_steps_embeddings_its_own_way(keras_backend, ours):
    """The paths whose values after a training step real Keras on TensorFlow computes differently from Keras on
    JAX and PyTorch (and from highlevel on every engine): an Embedding's table and its Adam slots. Its gradient
    there is a tf.IndexedSlices and Keras's TensorFlow optimizer updates its rows sparsely; three Adam steps on
    the same model and data leave the used rows up to 0.05 apart between Keras's own TensorFlow and JAX backends.
    highlevel follows the dense update of Keras's JAX and PyTorch backends; these paths are checked against
    those."""
    table = "layers/embedding/vars/0"
    if keras_backend != "tensorflow" or table not in ours:
        return set()
    shape = np.shape(ours[table])
    return {table} | {p for p in ours if p.startswith("optimizer/") and np.shape(ours[p]) == shape}


def _assert_same_state(ours, theirs, what, keras_backend=None):
    assert sorted(ours) == sorted(theirs), f"{what}: paths differ: {sorted(set(ours) ^ set(theirs))}"
    differ_in_keras = _keras_steps_embeddings_its_own_way(keras_backend, ours)
    for path in ours:
        if path in differ_in_keras:
            continue
        a, b = np.asarray(ours[path], "float64"), np.asarray(theirs[path], "float64")
        assert a.shape == b.shape, f"{what}: {path} has shape {a.shape}, Keras {b.shape}"
        np.testing.assert_allclose(a, b, atol=ATOL, rtol=ATOL, err_msg=f"{what}: {path}")


def _hl_state(model):
    buffer = io.BytesIO()
    keras_h5.write_keras_h5(model, buffer)
    buffer.seek(0)
    return _datasets(buffer)


_OUR_LAYOUTS = {}


def _our_layout(backend, name):
    """The paths, shapes and dtype kinds of architecture ``name``'s file on ``backend`` after one step: the same
    whichever Keras backend's file it is compared with, so made once per highlevel backend and architecture."""
    if (backend.name, name) not in _OUR_LAYOUTS:
        model = models.build(hl, name)
        x, y = models.data(name)
        model.train_on_batch(x, y)  # builds the optimizer: its slots are part of the layout
        _OUR_LAYOUTS[backend.name, name] = {p: (a.shape, a.dtype.kind) for p, a in _hl_state(model).items()}
    return _OUR_LAYOUTS[backend.name, name]


@pytest.mark.parametrize("name", models.NAMES)
def test_layout_matches_the_file_keras_writes(backend, keras_files, name):
    _, folder = keras_files
    ours = _our_layout(backend, name)
    theirs = {p: (a.shape, a.dtype.kind) for p, a in _datasets(folder / f"{name}.weights.h5").items()}
    assert ours == theirs


@pytest.mark.parametrize("name", models.LAYOUT_ONLY)
def test_more_layouts_match_keras(backend, keras_files, name):
    """Wrappers (Bidirectional, TimeDistributed), stacked cells, nested models, more convolutions, bfloat16 and
    float16 weights (bfloat16 is stored as Keras stores it: raw 2-byte values tagged ``dtype="bfloat16"``)."""
    _, folder = keras_files
    model = models.build_layout_only(hl, name)
    ours = {p: a.shape for p, a in _hl_state(model).items()}
    theirs = {p: a.shape for p, a in _datasets(folder / f"layout_{name}.weights.h5").items()}
    assert ours == theirs
    fresh = models.build_layout_only(hl, name)
    fresh.load_weights(folder / f"layout_{name}.weights.h5")  # Keras's values, checked and assigned
    assert {p: a.tolist() for p, a in _hl_state(fresh).items()} == {
        p: a.tolist() for p, a in _datasets(folder / f"layout_{name}.weights.h5").items()
    }


@pytest.mark.parametrize("name", models.NAMES)
def test_keras_file_loads_and_trains_on(backend, keras_files, name):
    keras_backend, folder = keras_files
    model = models.build(hl, name)
    x, y = models.data(name)
    before = np.asarray(model.predict(x, verbose=0))
    model.load_weights(folder / f"{name}.weights.h5")
    predicted = np.asarray(model.predict(x, verbose=0))
    keras_predicted = np.load(folder / f"{name}.predictions.npy")
    assert not np.allclose(before, keras_predicted, atol=1e-3)  # the load changed something
    np.testing.assert_allclose(predicted, keras_predicted, atol=ATOL, rtol=ATOL)
    assert int(hl.ops.convert_to_numpy(model.optimizer.iterations)) == 1  # the step count came along
    model.train_on_batch(x, y)
    expected = _datasets(folder / f"{name}.step.weights.h5")
    _assert_same_state(_hl_state(model), expected, f"{name}, one step after Keras ({keras_backend})", keras_backend)


@pytest.fixture(scope="module")
def highlevel_files(tmp_path_factory):
    """``{backend: folder}`` and ``{(backend, architecture): (prediction, state)}``: every selected highlevel
    backend writes each architecture after one step (``<name>.from_hl.weights.h5``) and records its prediction and
    its state after one more step. Written once per module: the files and figures do not depend on which Keras
    backend reads them."""
    from tests.conftest import selected_backends

    root = tmp_path_factory.mktemp("from_highlevel")
    folders, expected = {}, {}
    for name in selected_backends():
        if name not in hl.backends.installed():
            continue
        folders[name] = folder = root / name
        folder.mkdir()
        with hl.config.backend_scope(name):
            for arch in models.NAMES:
                model = models.build(hl, arch)
                x, y = models.data(arch)
                model.train_on_batch(x, y)
                model.save_weights(folder / f"{arch}.from_hl.weights.h5")
                prediction = np.asarray(model.predict(x, verbose=0))
                model.train_on_batch(x, y)
                expected[(name, arch)] = (prediction, _hl_state(model))
    return folders, expected


def test_highlevel_files_load_in_keras(keras_files, highlevel_files, tmp_path):
    """Every selected highlevel backend writes each architecture after one step; Keras loads the files, predicts
    the same, and one more step on each side gives the same weights and optimizer state."""
    keras_backend, _ = keras_files
    written, expected = highlevel_files
    folders = []
    for name, source in written.items():  # a folder per reading Keras backend: it writes its results beside
        folders.append(tmp_path / name)
        shutil.copytree(source, folders[-1])
    _run_keras(keras_backend, "read", folders)
    for (name, arch), (prediction, state) in expected.items():
        folder = tmp_path / name
        what = f"{arch} from highlevel ({name}) in Keras ({keras_backend})"
        np.testing.assert_allclose(
            np.load(folder / f"{arch}.from_hl.predictions.npy"), prediction, atol=ATOL, rtol=ATOL, err_msg=what
        )
        _assert_same_state(state, _datasets(folder / f"{arch}.from_hl.step.weights.h5"), what, keras_backend)


# ------------------------------------------------------------------ the file format by name and content
def _mlp():
    return models.build(hl, "mlp")


def test_save_weights_picks_the_format_by_extension(backend, tmp_path):
    model = _mlp()
    x, _ = models.data("mlp")
    model.save_weights(tmp_path / "a.weights.h5")
    model.save_weights(tmp_path / "a.weights.safetensors")
    assert (tmp_path / "a.weights.h5").read_bytes()[:8] == keras_h5.HDF5_MAGIC
    assert (tmp_path / "a.weights.safetensors").read_bytes()[:8] != keras_h5.HDF5_MAGIC
    for file in ("a.weights.h5", "a.weights.safetensors"):
        fresh = _mlp()
        fresh.load_weights(tmp_path / file)
        np.testing.assert_array_equal(fresh.predict(x, verbose=0), model.predict(x, verbose=0))


def test_a_safetensors_file_named_h5_still_loads(backend, tmp_path):
    """Earlier versions wrote safetensors under ``.weights.h5`` names: those files load by their content."""
    model = _mlp()
    x, _ = models.data("mlp")
    model.save_weights(tmp_path / "a.weights.safetensors")
    os.rename(tmp_path / "a.weights.safetensors", tmp_path / "old.weights.h5")
    fresh = _mlp()
    fresh.load_weights(tmp_path / "old.weights.h5")
    np.testing.assert_array_equal(fresh.predict(x, verbose=0), model.predict(x, verbose=0))


def test_content_that_does_not_match_the_name_is_named(backend, tmp_path):
    model = _mlp()
    model.save_weights(tmp_path / "a.weights.h5")
    os.rename(tmp_path / "a.weights.h5", tmp_path / "b.weights.safetensors")
    with pytest.raises(InvalidFileError, match="holds HDF5"):
        model.load_weights(tmp_path / "b.weights.safetensors")
    model.save(tmp_path / "m.keras")
    os.rename(tmp_path / "m.keras", tmp_path / "m.weights.h5")
    with pytest.raises(InvalidFileError, match="zip archive"):
        model.load_weights(tmp_path / "m.weights.h5")


# ------------------------------------------------------------------------------------ hostile files
def _valid_file(path):
    model = _mlp()
    model.save_weights(path)
    return model


def _edit(path, change):
    with h5py.File(path, "a") as f:
        change(f)


def test_truncated_file_is_refused(backend, tmp_path):
    path = tmp_path / "w.weights.h5"
    model = _valid_file(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    before = model.layers[0].kernel.numpy().copy()
    with pytest.raises(InvalidFileError, match="truncated or corrupt"):
        model.load_weights(path)
    np.testing.assert_array_equal(model.layers[0].kernel.numpy(), before)  # nothing half-loaded


def test_wrong_shape_names_the_path_and_both_shapes(backend, tmp_path):
    path = tmp_path / "w.weights.h5"
    model = _valid_file(path)

    def change(f):
        del f["layers/dense/vars/0"]
        f["layers/dense/vars/0"] = np.zeros((4, 7), "float32")

    _edit(path, change)
    with pytest.raises(
        InvalidFileError, match=r"'layers/dense/vars/0': the object expects shape \(4, 5\) but the file"
    ):
        model.load_weights(path)


def test_missing_and_unexpected_paths_are_listed(backend, tmp_path):
    path = tmp_path / "w.weights.h5"
    model = _valid_file(path)

    def change(f):
        f.move("layers/dense_1", "layers/dense_9")

    _edit(path, change)
    with pytest.raises(InvalidFileError) as raised:
        model.load_weights(path)
    message = str(raised.value)
    assert "missing from the file: ['layers/dense_1/vars/0', 'layers/dense_1/vars/1']" in message
    assert "not expected: ['layers/dense_9/vars/0', 'layers/dense_9/vars/1']" in message


def test_skip_mismatch_loads_what_fits(backend, tmp_path):
    path = tmp_path / "w.weights.h5"
    source = _valid_file(path)
    _edit(path, lambda f: f.move("layers/dense_1", "layers/dense_9"))
    model = _mlp()
    model.load_weights(path, skip_mismatch=True)
    np.testing.assert_array_equal(model.layers[0].kernel.numpy(), source.layers[0].kernel.numpy())
    assert not np.array_equal(model.layers[1].kernel.numpy(), source.layers[1].kernel.numpy())


@pytest.mark.parametrize(
    "value, words",
    [
        (np.array([b"abcd"] * 5, dtype="S4"), "not numeric"),
        (np.zeros((4, 5), dtype=[("a", "f4"), ("b", "f4")]), "not numeric"),
    ],
    ids=["strings", "compound"],
)
def test_non_numeric_dtype_is_refused(backend, tmp_path, value, words):
    path = tmp_path / "w.weights.h5"
    model = _valid_file(path)

    def change(f):
        del f["layers/dense/vars/1"]
        f["layers/dense/vars/1"] = value

    _edit(path, change)
    with pytest.raises(InvalidFileError, match=f"'layers/dense/vars/1' has dtype .*{words}"):
        model.load_weights(path)


def test_object_references_are_refused(backend, tmp_path):
    path = tmp_path / "w.weights.h5"
    model = _valid_file(path)

    def change(f):
        refs = f.create_dataset("layers/dense/vars/2", (1,), dtype=h5py.ref_dtype)
        refs[0] = f["layers/dense/vars/0"].ref

    _edit(path, change)
    with pytest.raises(UnsafeFileError, match="object references"):
        model.load_weights(path)


@pytest.mark.parametrize("where", ["layers/dense/vars/0", "extra/vars/0"], ids=["expected_path", "other_path"])
def test_huge_declared_shape_is_refused_before_reading(backend, tmp_path, where):
    path = tmp_path / "w.weights.h5"
    model = _valid_file(path)

    def change(f):
        if where in f:
            del f[where]
        f.create_dataset(where, shape=(2**20, 2**20), dtype="float32", chunks=(1, 16))  # 4 TiB, never written

    _edit(path, change)
    assert os.path.getsize(path) < 1e6
    with pytest.raises((InvalidFileError, UnsafeFileError), match=r"1048576, 1048576"):
        model.load_weights(path)


def test_external_and_soft_links_are_refused(backend, tmp_path):
    outside = tmp_path / "outside.h5"
    with h5py.File(outside, "w") as f:
        f["secret"] = np.zeros((4, 5), "float32")
    path = tmp_path / "w.weights.h5"
    model = _valid_file(path)

    def external(f):
        del f["layers/dense/vars/0"]
        f["layers/dense/vars/0"] = h5py.ExternalLink(str(outside), "/secret")

    _edit(path, external)
    with pytest.raises(UnsafeFileError, match="external link"):
        model.load_weights(path)
    _valid_file(path)

    def soft(f):
        del f["layers/dense/vars/1"]
        f["layers/dense/vars/1"] = h5py.SoftLink("/layers/dense_1/vars/1")

    _edit(path, soft)
    with pytest.raises(UnsafeFileError, match="soft link"):
        model.load_weights(path)


def test_virtual_dataset_is_refused(backend, tmp_path):
    outside = tmp_path / "outside.h5"
    with h5py.File(outside, "w") as f:
        f["data"] = np.ones((4, 5), "float32")
    path = tmp_path / "w.weights.h5"
    model = _valid_file(path)

    def change(f):
        layout = h5py.VirtualLayout(shape=(4, 5), dtype="float32")
        layout[:] = h5py.VirtualSource(str(outside), "data", shape=(4, 5))
        del f["layers/dense/vars/0"]
        f["layers/dense/vars"].create_virtual_dataset("0", layout)

    _edit(path, change)
    with pytest.raises(UnsafeFileError, match="virtual dataset"):
        model.load_weights(path)


def test_not_hdf5_is_refused(backend):
    model = _mlp()
    with pytest.raises(InvalidFileError, match="not an HDF5 file"):
        keras_h5.read_keras_h5(model, io.BytesIO(b"not an hdf5 file at all"))


def test_another_optimizer_state_is_skipped_with_a_warning(backend, tmp_path):
    """As in Keras: the model's weights load, the optimizer's state stays, and a warning says why."""
    source = models.build(hl, "mlp_sgd")
    x, y = models.data("mlp")
    source.train_on_batch(x, y)
    source.save_weights(tmp_path / "w.weights.h5")
    model = models.build(hl, "mlp")  # Adam
    model.train_on_batch(x, y)
    with pytest.warns(UserWarning, match=r"'optimizer/vars' was not loaded: the file holds 6 variables"):
        model.load_weights(tmp_path / "w.weights.h5")
    np.testing.assert_array_equal(model.predict(x, verbose=0), source.predict(x, verbose=0))
    uncompiled = hl.Sequential([hl.Input((4,)), hl.layers.Dense(5, activation="relu"), hl.layers.Dense(2)])
    uncompiled.load_weights(tmp_path / "w.weights.h5")  # no optimizer: its state in the file is not needed
    np.testing.assert_array_equal(uncompiled.predict(x, verbose=0), source.predict(x, verbose=0))


def test_an_unbuilt_optimizer_is_built_to_take_the_state(backend, tmp_path):
    source = models.build(hl, "mlp")
    x, y = models.data("mlp")
    for _ in range(3):
        source.train_on_batch(x, y)
    source.save_weights(tmp_path / "w.weights.h5")
    model = models.build(hl, "mlp")
    model.load_weights(tmp_path / "w.weights.h5")
    assert int(hl.ops.convert_to_numpy(model.optimizer.iterations)) == 3
    source.train_on_batch(x, y)
    model.train_on_batch(x, y)
    np.testing.assert_allclose(model.predict(x, verbose=0), source.predict(x, verbose=0), atol=1e-6)


def test_hard_link_cycles_and_fan_outs_are_bounded(backend, tmp_path, monkeypatch):
    # The walk stops at the entries bound whatever its value: a lower one here stops it after 2,000 entries
    # rather than 200,000 (seconds of h5py calls per backend), and the fan-out below still exceeds it by far.
    monkeypatch.setattr(keras_h5, "MAX_ENTRIES", 2_000)
    path = tmp_path / "w.weights.h5"
    model = _valid_file(path)
    _edit(path, lambda f: f["layers/dense"].__setitem__("loop", f["layers"]))  # a group inside itself
    with pytest.raises(UnsafeFileError, match="groups deep"):
        model.load_weights(path)
    _valid_file(path)

    def fan_out(f):
        # 20 levels, each reaching the next by two paths: a million routes to one dataset.
        f.create_group("g0")
        for i in range(1, 21):
            f.create_group(f"g{i}")
            f[f"g{i - 1}"]["a"] = f[f"g{i}"]
            f[f"g{i - 1}"]["b"] = f[f"g{i}"]
        f["g20"]["x"] = np.zeros(1, "float32")

    _edit(path, fan_out)
    with pytest.raises(UnsafeFileError, match="over 2000 entries"):
        model.load_weights(path)


@hl.saving.register_keras_serializable(package="h5_tests")
class Scaled(hl.layers.Layer):
    """Keeps its state its own way: one array under its own key, as a Keras layer overriding the hooks does."""

    def build(self, input_shape):
        self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="scale")

    def call(self, x):
        return x * self.scale

    def save_own_variables(self, store):
        store["scale"] = self.scale.numpy()

    def load_own_variables(self, store):
        self.scale.assign(store["scale"])


def test_a_layer_with_its_own_hooks_keeps_its_keys(backend, tmp_path):
    def build():
        return hl.Sequential([hl.Input((3,)), Scaled(), hl.layers.Dense(2)])

    model = build()
    model.layers[0].scale.assign(np.array([1.0, 2.0, 3.0], "float32"))
    model.save_weights(tmp_path / "w.weights.h5")
    with h5py.File(tmp_path / "w.weights.h5", "r") as f:
        np.testing.assert_array_equal(f["layers/scaled/vars/scale"][()], [1.0, 2.0, 3.0])
    fresh = build()
    fresh.load_weights(tmp_path / "w.weights.h5")
    x = np.ones((2, 3), "float32")
    np.testing.assert_array_equal(fresh.predict(x, verbose=0), model.predict(x, verbose=0))
