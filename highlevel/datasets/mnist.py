"""MNIST: 70,000 grayscale 28×28 images of handwritten digits 0–9 (60,000 for training, 10,000 for testing).

Downloaded once (11 MB) from the address Keras uses into Keras's cache (``~/.keras/datasets/mnist.npz``, or
under ``$KERAS_HOME``); offline, put the file there by hand. MNIST is by Yann LeCun and Corinna Cortes,
from NIST's data, under the Creative Commons Attribution-Share Alike 3.0 license.

>>> from highlevel.datasets import mnist
>>> mnist.SOURCES["mnist.npz"][0]
'https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz'
"""

from highlevel.datasets._npz import read_arrays as _read_arrays
from highlevel.utils.file_utils import get_file as _get_file

#: Where each file comes from: ``{file name: (URL, sha256)}``.
SOURCES = {
    "mnist.npz": (
        "https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz",
        "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1",
    ),
}


def load_data(path="mnist.npz"):
    """Loads MNIST, downloading it on first use.

    Args:
        path: the file's name in the cache folder (``~/.keras/datasets``).

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: uint8 images of shape ``(60000, 28, 28)`` and
        ``(10000, 28, 28)`` with values 0–255, and uint8 labels 0–9 of shape ``(60000,)`` and ``(10000,)``.

    Raises:
        DownloadError: the file is not cached and cannot be downloaded; the message names the URL and the
            path where the file can be put by hand.
    """
    origin, file_hash = SOURCES["mnist.npz"]
    path = _get_file(fname=path, origin=origin, file_hash=file_hash)
    f = _read_arrays(path, ("x_train", "y_train", "x_test", "y_test"))
    return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
