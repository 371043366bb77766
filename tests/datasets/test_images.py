"""mnist, fashion_mnist, cifar10 and cifar100 read small files written in the real formats, into the same
arrays as Keras's loaders."""

import os

import numpy as np
import pytest

import highlevel as hl
from highlevel.datasets import cifar10, cifar100, fashion_mnist, mnist

from .files import cifar_batch, idx_gz, npz, place, tar_gz

RNG = np.random.default_rng(0)


def _images(n, shape):
    return RNG.integers(0, 256, size=(n,) + shape, dtype=np.uint8)


def _labels(n, classes=10):
    return RNG.integers(0, classes, size=n).astype(np.uint8)


def _assert_same(ours, theirs):
    for a, b in zip(_flat(ours), _flat(theirs)):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)


def _flat(result):
    (x_train, y_train), (x_test, y_test) = result
    return [x_train, y_train, x_test, y_test]


@pytest.fixture
def mnist_file(home, nowhere, monkeypatch):
    arrays = {
        "x_train": _images(6, (28, 28)),
        "y_train": _labels(6),
        "x_test": _images(3, (28, 28)),
        "y_test": _labels(3),
    }
    path = place(monkeypatch, mnist, "mnist.npz", npz(**arrays), home, nowhere)
    return path, arrays


def test_mnist(mnist_file, keras_loader):
    path, arrays = mnist_file
    (x_train, y_train), (x_test, y_test) = mnist.load_data()
    np.testing.assert_array_equal(x_train, arrays["x_train"])
    np.testing.assert_array_equal(y_test, arrays["y_test"])
    assert x_train.dtype == np.uint8 and x_train.shape == (6, 28, 28) and y_train.shape == (6,)
    _assert_same(mnist.load_data(), keras_loader("mnist", path).load_data())


def test_mnist_path_argument_names_the_cached_file(home, nowhere, monkeypatch):
    arrays = {
        "x_train": _images(2, (28, 28)),
        "y_train": _labels(2),
        "x_test": _images(1, (28, 28)),
        "y_test": _labels(1),
    }
    place(monkeypatch, mnist, "mnist.npz", npz(**arrays), home, nowhere, fname="my_mnist.npz")
    (x_train, _), _ = mnist.load_data(path="my_mnist.npz")
    np.testing.assert_array_equal(x_train, arrays["x_train"])


def test_a_corrupt_file_gets_a_clear_error(home, nowhere, monkeypatch):
    place(monkeypatch, mnist, "mnist.npz", b"not a zip file", home, nowhere)
    with pytest.raises(ValueError, match="not a valid dataset file.*Delete it"):
        mnist.load_data()
    place(monkeypatch, mnist, "mnist.npz", npz(x_train=_images(1, (28, 28))), home, nowhere)
    with pytest.raises(ValueError, match=r"lacks the arrays \['y_train', 'x_test', 'y_test'\]"):
        mnist.load_data()


def test_fashion_mnist(home, nowhere, monkeypatch, keras_loader):
    folder = os.path.join(home, "fashion-mnist")
    content = {
        "train-labels-idx1-ubyte.gz": _labels(5),
        "train-images-idx3-ubyte.gz": _images(5, (28, 28)),
        "t10k-labels-idx1-ubyte.gz": _labels(2),
        "t10k-images-idx3-ubyte.gz": _images(2, (28, 28)),
    }
    for name, array in content.items():
        place(monkeypatch, fashion_mnist, name, idx_gz(array), folder, nowhere)
    (x_train, y_train), (x_test, y_test) = fashion_mnist.load_data()
    np.testing.assert_array_equal(x_train, content["train-images-idx3-ubyte.gz"])
    np.testing.assert_array_equal(y_test, content["t10k-labels-idx1-ubyte.gz"])
    assert x_test.shape == (2, 28, 28) and x_test.dtype == np.uint8 and y_train.dtype == np.uint8
    _assert_same(fashion_mnist.load_data(), keras_loader("fashion_mnist", folder, per_file=True).load_data())


def test_fashion_mnist_truncated_file(home, nowhere, monkeypatch):
    folder = os.path.join(home, "fashion-mnist")
    for name in fashion_mnist.SOURCES:
        place(monkeypatch, fashion_mnist, name, idx_gz(_labels(4)), folder, nowhere)
    place(monkeypatch, fashion_mnist, "train-images-idx3-ubyte.gz", idx_gz(_images(4, (28, 28)))[:-40], folder, nowhere)
    with pytest.raises(ValueError, match="train-images-idx3-ubyte.gz"):
        fashion_mnist.load_data()


def _cifar10_archive(per_batch=3, n_test=2):
    train = [(_images(per_batch, (3, 32, 32)), _labels(per_batch)) for _ in range(5)]
    test = (_images(n_test, (3, 32, 32)), _labels(n_test))
    members = {f"cifar-10-batches-py/data_batch_{i + 1}": cifar_batch(x, labels=y) for i, (x, y) in enumerate(train)}
    members["cifar-10-batches-py/test_batch"] = cifar_batch(test[0], labels=test[1])
    members["cifar-10-batches-py/batches.meta"] = b"(not read)"
    return tar_gz(members), train, test


def test_cifar10_extracts_and_reads_python_2_batches(home, nowhere, monkeypatch, keras_loader):
    archive, train, test = _cifar10_archive()
    place(
        monkeypatch,
        cifar10,
        "cifar-10-batches-py-target",
        archive,
        home,
        nowhere,
        fname="cifar-10-batches-py-target_archive",
    )
    (x_train, y_train), (x_test, y_test) = cifar10.load_data()
    assert os.path.isdir(os.path.join(home, "cifar-10-batches-py-target", "cifar-10-batches-py"))
    assert x_train.shape == (15, 32, 32, 3) and x_train.dtype == np.uint8
    assert y_train.shape == (15, 1) and y_train.dtype == np.uint8 and y_test.shape == (2, 1)
    np.testing.assert_array_equal(x_train, np.concatenate([x for x, _ in train]).transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(y_train[:, 0], np.concatenate([y for _, y in train]))
    np.testing.assert_array_equal(x_test, test[0].transpose(0, 2, 3, 1))
    # the red channel of image 0 at row 1, column 2 is byte 1 * 32 + 2 of its row in the file
    assert x_test[0, 1, 2, 0] == test[0].reshape(2, 3072)[0, 34]
    # Keras reads 10,000 images per batch; its batch reader gives the same arrays on these files
    keras_cifar = keras_loader("cifar", home)
    folder = os.path.join(home, "cifar-10-batches-py-target", "cifar-10-batches-py")
    kx, ky = keras_cifar.load_batch(os.path.join(folder, "test_batch"))
    np.testing.assert_array_equal(kx.transpose(0, 2, 3, 1), x_test)
    np.testing.assert_array_equal(np.asarray(ky, np.uint8), y_test[:, 0])


def test_cifar10_channels_first(home, nowhere, monkeypatch):
    archive, train, test = _cifar10_archive(per_batch=1, n_test=1)
    place(
        monkeypatch,
        cifar10,
        "cifar-10-batches-py-target",
        archive,
        home,
        nowhere,
        fname="cifar-10-batches-py-target_archive",
    )
    hl.config.set_image_data_format("channels_first")
    try:
        (x_train, _), (x_test, _) = cifar10.load_data()
    finally:
        hl.config.set_image_data_format("channels_last")
    assert x_train.shape == (5, 3, 32, 32)
    np.testing.assert_array_equal(x_test, test[0])


@pytest.mark.parametrize("label_mode", ["fine", "coarse"])
def test_cifar100(home, nowhere, monkeypatch, keras_loader, label_mode):
    x_tr, x_te = _images(4, (3, 32, 32)), _images(2, (3, 32, 32))
    fine_tr, fine_te, coarse_tr, coarse_te = _labels(4, 100), _labels(2, 100), _labels(4, 20), _labels(2, 20)
    archive = tar_gz(
        {
            "cifar-100-python/train": cifar_batch(x_tr, fine_labels=fine_tr, coarse_labels=coarse_tr),
            "cifar-100-python/test": cifar_batch(x_te, fine_labels=fine_te, coarse_labels=coarse_te),
        }
    )
    place(
        monkeypatch,
        cifar100,
        "cifar-100-python-target",
        archive,
        home,
        nowhere,
        fname="cifar-100-python-target_archive",
    )
    (x_train, y_train), (x_test, y_test) = cifar100.load_data(label_mode=label_mode)
    np.testing.assert_array_equal(x_train, x_tr.transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(y_test[:, 0], fine_te if label_mode == "fine" else coarse_te)
    assert y_train.shape == (4, 1)
    theirs = keras_loader("cifar100", os.path.join(home, "cifar-100-python-target")).load_data(label_mode=label_mode)
    _assert_same(cifar100.load_data(label_mode=label_mode), theirs)


def test_cifar100_label_mode_is_checked_before_downloading():
    with pytest.raises(ValueError, match="label_mode must be 'fine' or 'coarse'; received label_mode='medium'"):
        cifar100.load_data(label_mode="medium")


def test_a_tampered_cifar_batch_runs_no_code(home, nowhere, monkeypatch, tmp_path):
    import pickle

    witness = tmp_path / "witness"

    class Gadget:
        def __reduce__(self):
            return os.mkdir, (str(witness),)

    archive = tar_gz(
        {
            "cifar-100-python/train": pickle.dumps({b"data": Gadget()}, protocol=2),
            "cifar-100-python/test": pickle.dumps({}, protocol=2),
        }
    )
    place(
        monkeypatch,
        cifar100,
        "cifar-100-python-target",
        archive,
        home,
        nowhere,
        fname="cifar-100-python-target_archive",
    )
    with pytest.raises(pickle.UnpicklingError, match="Refusing to load posix.mkdir|Refusing to load nt.mkdir"):
        cifar100.load_data()
    assert not witness.exists()
