"""``split_dataset``: the same two parts as Keras for the same seed, from every kind of dataset."""

import numpy as np
import pytest

import highlevel as hl

X = np.arange(40, dtype="float32").reshape(20, 2)
Y = np.arange(20)


def _rows(ds):
    batches = ds.as_numpy_iterator() if hasattr(ds, "as_numpy_iterator") else ds
    return [tuple(np.asarray(v).tolist() for v in (b if isinstance(b, tuple) else (b,))) for b in batches]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"left_size": 0.8},
        {"right_size": 3, "shuffle": True, "seed": 4},
        {"left_size": 4, "right_size": 3, "shuffle": True, "seed": 1},
        {"left_size": 0.25, "right_size": 0.5},
    ],
)
def test_matches_keras(keras, kwargs):
    for data in ((X, Y), X, [X, Y]):
        theirs = keras.utils.split_dataset(data, **kwargs)
        ours = hl.utils.split_dataset(data, **kwargs)
        for a, b in zip(theirs, ours, strict=True):
            assert _rows(a) == _rows(b)


def test_batched_tf_dataset_is_rebatched_like_keras(keras):
    tf = pytest.importorskip("tensorflow")
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(3)
    theirs = keras.utils.split_dataset(ds, left_size=0.5)
    ours = hl.utils.split_dataset(ds, left_size=0.5)
    for a, b in zip(theirs, ours):
        assert [r[0].shape for r in a.as_numpy_iterator()] == [r[0].shape for r in b.as_numpy_iterator()]
        assert _rows(a) == _rows(b)


def test_pydataset_in_and_out():
    data = hl.utils.timeseries_dataset_from_array(X, Y, sequence_length=1, batch_size=6, format="pydataset")
    left, right = hl.utils.split_dataset(data, right_size=5, preferred_backend="pydataset")
    assert isinstance(left, hl.utils.PyDataset) and left.batch_size == 6
    assert [len(b[1]) for b in left] == [6, 6, 3] and right[0][1].tolist() == [15, 16, 17, 18, 19]


def test_torch_out():
    torch = pytest.importorskip("torch")
    left, right = hl.utils.split_dataset((X, Y), left_size=0.5, preferred_backend="torch")
    assert isinstance(left, torch.utils.data.Dataset) and len(left) == len(right) == 10
    x, y = right[0]
    assert torch.is_tensor(x) and x.tolist() == [20.0, 21.0] and int(y) == 10
    source = torch.utils.data.TensorDataset(torch.arange(6.0))
    a, b = hl.utils.split_dataset(source, right_size=2)
    assert isinstance(a, torch.utils.data.Dataset) and [float(v[0]) for v in b] == [4.0, 5.0]


def test_errors():
    with pytest.raises(ValueError, match="left_size` or `right_size"):
        hl.utils.split_dataset(X)
    with pytest.raises(ValueError, match=r"in \(0, 1\)"):
        hl.utils.split_dataset(X, left_size=1.5)
    with pytest.raises(ValueError, match=r"\[1, 19\]"):
        hl.utils.split_dataset(X, left_size=20)
    with pytest.raises(ValueError, match="more than the 20 samples"):
        hl.utils.split_dataset(X, left_size=15, right_size=10)
    with pytest.raises(TypeError, match="int, a float or None"):
        hl.utils.split_dataset(X, left_size="half")
    with pytest.raises(ValueError, match="same number of samples"):
        hl.utils.split_dataset((X, Y[:5]), left_size=0.5)
    with pytest.raises(TypeError, match="numpy array"):
        hl.utils.split_dataset({"x": X}, left_size=0.5)


def test_fit_on_the_two_parts(backend):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(80, 3)).astype("float32")
    y = x @ np.array([[1.0], [-2.0], [0.5]], "float32")
    pytest.importorskip("tensorflow")
    train, test = hl.utils.split_dataset((x, y), left_size=0.75, shuffle=True, seed=0)
    train, test = train.batch(10), test.batch(10)  # tf.data datasets
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse")
    before = model.evaluate(test, verbose=0)
    model.fit(train, epochs=10, verbose=0)
    assert model.evaluate(test, verbose=0) < 0.01 * before


def test_importing_every_utils_module_keeps_the_function():
    """A submodule named like a function would replace the function on ``hl.utils`` once imported (as the
    docstring runner and the docs site import every module), so the implementation lives under another name."""
    import subprocess
    import sys

    code = (
        "import importlib, pkgutil, highlevel as hl\n"
        "for info in pkgutil.iter_modules(hl.utils.__path__, prefix='highlevel.utils.'):\n"
        "    importlib.import_module(info.name)\n"
        "import numpy as np\n"
        "left, right = hl.utils.split_dataset(np.arange(10), left_size=0.8, preferred_backend='pydataset')\n"
        "print(len(left), len(right))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split()[-2:] == ["8", "2"]
