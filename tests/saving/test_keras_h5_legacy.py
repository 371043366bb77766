"""Keras 2's by-layer HDF5 weights layout (the files ``keras.applications`` publishes): a file written by real
Keras's own legacy writer loads into highlevel's model on every backend and predicts the same; files that do not
fit, or that a safe loader must refuse, raise before anything is assigned."""

import os

import numpy as np
import pytest

import highlevel as hl
from highlevel.saving import InvalidFileError, UnsafeFileError

h5py = pytest.importorskip("h5py")
pytest.importorskip("keras")
os.environ.setdefault("KERAS_BACKEND", "jax")


def _branched(lib):
    """A small branched model (two paths meet in an Add), the same in Keras and highlevel."""
    inp = lib.Input((6, 6, 2))
    a = lib.layers.Conv2D(3, 3, padding="same", name="a_conv")(inp)
    a = lib.layers.BatchNormalization(name="a_bn")(a)
    b = lib.layers.Conv2D(3, 1, name="b_conv")(inp)
    x = lib.layers.Add(name="add")([a, b])
    x = lib.layers.GlobalAveragePooling2D(name="pool")(x)
    return lib.Model(inp, lib.layers.Dense(4, name="out")(x))


@pytest.fixture(scope="module")
def keras_file(tmp_path_factory):
    import keras
    from keras.src.legacy.saving import legacy_h5_format

    keras.utils.set_random_seed(1)
    model = _branched(keras)
    rng = np.random.default_rng(0)
    for v in model.weights:
        v.assign(rng.uniform(0.5, 1.5, tuple(v.shape)).astype("float32"))
    path = str(tmp_path_factory.mktemp("legacy") / "weights.h5")
    with h5py.File(path, "w") as f:
        legacy_h5_format.save_weights_to_hdf5_group(f, model)
    images = rng.standard_normal((2, 6, 6, 2)).astype("float32")
    return path, images, np.asarray(model(images, training=False))


def test_keras_legacy_file_loads_and_predicts_the_same(backend, keras_file):
    path, images, want = keras_file
    model = _branched(hl)
    model.load_weights(path)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(model(images, training=False)), want, rtol=1e-5, atol=1e-5)


def test_layers_are_matched_by_name_whatever_their_order(tmp_path, keras_file):
    path, images, want = keras_file
    inp = hl.Input((6, 6, 2))
    b = hl.layers.Conv2D(3, 1, name="b_conv")(inp)  # created first here: another position in model.layers
    a = hl.layers.Conv2D(3, 3, padding="same", name="a_conv")(inp)
    a = hl.layers.BatchNormalization(name="a_bn")(a)
    x = hl.layers.GlobalAveragePooling2D()(hl.layers.Add()([b, a]))
    model = hl.Model(inp, hl.layers.Dense(4, name="out")(x))
    model.load_weights(path)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(model(images)), want, rtol=1e-5, atol=1e-5)


def _copy(src, dst, edit):
    with h5py.File(src, "r") as f, h5py.File(dst, "w") as g:
        for key, value in f.attrs.items():
            g.attrs[key] = value
        for name in f:
            f.copy(name, g)
        edit(g)
    return dst


def test_a_shape_mismatch_names_layer_weight_and_shapes_and_assigns_nothing(tmp_path, keras_file):
    path = keras_file[0]
    model = _branched(hl)
    before = [v.numpy().copy() for v in model.weights]

    def edit(g):
        key = [k for k in g["out"].attrs["weight_names"]][0]
        key = key.decode() if isinstance(key, bytes) else key
        del g["out"][key]
        g["out"].create_dataset(key, data=np.zeros((5, 4), "float32"))

    bad = _copy(path, str(tmp_path / "bad.h5"), edit)
    with pytest.raises(InvalidFileError, match=r"layer 'out', weight '.*kernel.*': the model expects shape \(3, 4\)"):
        model.load_weights(bad)
    assert all(np.array_equal(a, v.numpy()) for a, v in zip(before, model.weights))
    model.load_weights(bad, skip_mismatch=True)  # loads the rest
    assert np.array_equal(before[-2], model.weights[-2].numpy())
    assert not np.array_equal(before[0], model.weights[0].numpy())


def test_another_architecture_is_refused_with_both_layer_lists(tmp_path, keras_file):
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, name="only")])
    with pytest.raises(InvalidFileError, match=r"holds the weights of 4 layers .*'a_conv'.* has 1 layers"):
        model.load_weights(keras_file[0])


def test_a_soft_link_is_refused(tmp_path, keras_file):
    def edit(g):
        g["sneaky"] = h5py.SoftLink("/out")

    bad = _copy(keras_file[0], str(tmp_path / "link.h5"), edit)
    with pytest.raises(UnsafeFileError, match="soft link"):
        _branched(hl).load_weights(bad)


def test_a_listed_weight_missing_from_the_file_is_named(tmp_path, keras_file):
    def edit(g):
        names = [n if isinstance(n, bytes) else n.encode() for n in g["a_bn"].attrs["weight_names"]]
        g["a_bn"].attrs["weight_names"] = np.array(names[:-1] + [b"a_bn/not_there:0"])

    bad = _copy(keras_file[0], str(tmp_path / "missing.h5"), edit)
    with pytest.raises(InvalidFileError, match="'a_bn/a_bn/not_there:0', listed in the file's weight_names"):
        _branched(hl).load_weights(bad)
