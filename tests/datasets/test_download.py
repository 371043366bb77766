"""The loaders download through ``get_file`` into Keras's cache layout, and say what to do when offline."""

import hashlib
import os

import numpy as np
import pytest

from highlevel.datasets import cifar10, fashion_mnist, imdb, mnist
from highlevel.utils.file_utils import DownloadError
from tests.utils.local_server import serve

from .files import cifar_batch, idx_gz, npz, tar_gz


def test_mnist_is_downloaded_once_into_keras_home(home, monkeypatch):
    arrays = {
        "x_train": np.ones((2, 28, 28), np.uint8),
        "y_train": np.array([3, 4], np.uint8),
        "x_test": np.zeros((1, 28, 28), np.uint8),
        "y_test": np.array([7], np.uint8),
    }
    data = npz(**arrays)
    with serve({"/mnist.npz": data}) as server:
        monkeypatch.setitem(mnist.SOURCES, "mnist.npz", (server.url("/mnist.npz"), hashlib.sha256(data).hexdigest()))
        (_, y_train), (_, y_test) = mnist.load_data()
        mnist.load_data()
        assert server.hits == {"/mnist.npz": 1}
    assert os.listdir(home) == ["mnist.npz"]
    assert y_train.tolist() == [3, 4] and y_test.tolist() == [7]


def test_a_download_with_the_wrong_hash_is_not_kept(home, monkeypatch):
    with serve({"/mnist.npz": b"an error page"}) as server:
        monkeypatch.setitem(mnist.SOURCES, "mnist.npz", (server.url("/mnist.npz"), "0" * 64))
        with pytest.raises(ValueError, match="sha256 hash"):
            mnist.load_data()
    assert os.listdir(home) == []


def test_fashion_mnist_downloads_into_its_folder(home, monkeypatch):
    files = {
        name: idx_gz(np.zeros((2, 28, 28) if "images" in name else (2,), np.uint8)) for name in fashion_mnist.SOURCES
    }
    with serve({f"/{name}": data for name, data in files.items()}) as server:
        for name in files:
            monkeypatch.setitem(fashion_mnist.SOURCES, name, (server.url(f"/{name}"), None))
        (x_train, _), _ = fashion_mnist.load_data()
    assert sorted(os.listdir(os.path.join(home, "fashion-mnist"))) == sorted(files)
    assert x_train.shape == (2, 28, 28)


def test_cifar10_archive_is_downloaded_and_extracted(home, monkeypatch):
    batch = cifar_batch(np.zeros((1, 3, 32, 32), np.uint8), labels=[9])
    names = [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]
    archive = tar_gz({f"cifar-10-batches-py/{n}": batch for n in names})
    with serve({"/cifar-10-python.tar.gz": archive}) as server:
        monkeypatch.setitem(
            cifar10.SOURCES,
            "cifar-10-batches-py-target",
            (server.url("/cifar-10-python.tar.gz"), hashlib.sha256(archive).hexdigest()),
        )
        (_, y_train), _ = cifar10.load_data()
        cifar10.load_data()
        assert server.hits == {"/cifar-10-python.tar.gz": 1}
    assert sorted(os.listdir(home)) == ["cifar-10-batches-py-target", "cifar-10-batches-py-target_archive"]
    assert y_train.ravel().tolist() == [9] * 5


def test_offline_error_names_the_url_and_the_cache_path(home, nowhere, monkeypatch):
    url = nowhere + "/imdb.npz"
    monkeypatch.setitem(imdb.SOURCES, "imdb.npz", (url, imdb.SOURCES["imdb.npz"][1]))
    with pytest.raises(DownloadError) as info:
        imdb.load_data()
    message = str(info.value)
    assert url in message and os.path.join(home, "imdb.npz") in message and "put it at" in message
    assert os.listdir(home) == []


def test_real_sources_are_keras_addresses():
    # the addresses and hashes are Keras's, so one cache serves both libraries
    assert mnist.SOURCES["mnist.npz"] == (
        "https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz",
        "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1",
    )
    assert all(
        url.startswith("https://")
        for module in (mnist, fashion_mnist, cifar10, imdb)
        for url, _ in module.SOURCES.values()
    )
