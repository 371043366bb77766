"""Helpers of the categorical/text preprocessing layer tests: our output and Keras 3's (TensorFlow backend,
in-process) as numpy, compared exactly (integers) or to 1e-6 (floats)."""

import numpy as np

import highlevel as hl


def keras_module():
    import keras

    return keras


def ours(out):
    """Our layer's output as numpy (tensors of any backend, or host string arrays)."""
    if hl.ops.is_tensor(out):
        return np.asarray(hl.ops.convert_to_numpy(out))
    return np.asarray(out)


def theirs(out):
    """A Keras output as numpy; string outputs decoded to ``str``."""
    arr = np.asarray(out)
    if arr.dtype.kind in "SO":
        arr = np.vectorize(lambda v: v.decode() if isinstance(v, bytes) else str(v), otypes=[str])(arr)
    return arr


def assert_same(got, want, what=""):
    """Same shape and values; float outputs to 1e-6, integer and string outputs exactly."""
    got, want = ours(got), theirs(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape}, Keras {want.shape}"
    if got.dtype.kind == "f" or want.dtype.kind == "f":
        np.testing.assert_allclose(got, want.astype(got.dtype), rtol=1e-6, atol=1e-6, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


def save_and_load(model, tmp_path):
    """``model.save`` then ``hl.saving.load_model`` in ``tmp_path``."""
    path = tmp_path / "model.hl.zip"
    model.save(str(path))
    return hl.saving.load_model(str(path))
