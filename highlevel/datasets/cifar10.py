"""CIFAR-10: 60,000 color 32×32 images in 10 classes (50,000 for training, 10,000 for testing).

The labels: 0 airplane, 1 automobile, 2 bird, 3 cat, 4 deer, 5 dog, 6 frog, 7 horse, 8 ship, 9 truck. The
python version of the dataset (a 163 MB ``.tar.gz`` of pickled batches, from the address Keras uses) is
downloaded once and extracted into Keras's cache (``~/.keras/datasets/cifar-10-batches-py-target/``). The
batches are read with an unpickler that rebuilds only numpy arrays and plain values and refuses every other
name a pickle could call, so a tampered file cannot run code. CIFAR-10 is by Alex Krizhevsky, Vinod Nair and
Geoffrey Hinton.

>>> from highlevel.datasets import cifar10
>>> cifar10.SOURCES["cifar-10-batches-py-target"][0]
'https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz'
"""

import os

import numpy as np

from highlevel import config as _config
from highlevel.datasets._cifar import load_batch as _load_batch
from highlevel.utils.file_utils import get_file as _get_file

#: Where the archive comes from: ``{name in the cache: (URL, sha256)}``.
SOURCES = {
    "cifar-10-batches-py-target": (
        "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz",
        "6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce",
    ),
}


def load_data():
    """Loads CIFAR-10, downloading and extracting it on first use.

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: uint8 images of shape ``(50000, 32, 32, 3)`` and
        ``(10000, 32, 32, 3)`` (``(n, 3, 32, 32)`` when ``hl.config.image_data_format()`` is
        ``"channels_first"``), and uint8 labels 0–9 of shape ``(50000, 1)`` and ``(10000, 1)``.

    Raises:
        DownloadError: the archive is not cached and cannot be downloaded; the message names the URL and the
            path where it can be put by hand.
    """
    name = "cifar-10-batches-py-target"
    origin, file_hash = SOURCES[name]
    folder = os.path.join(
        _get_file(fname=name, origin=origin, extract=True, file_hash=file_hash), "cifar-10-batches-py"
    )
    parts = [_load_batch(os.path.join(folder, f"data_batch_{i}")) for i in range(1, 6)]
    x_train = np.concatenate([x for x, _ in parts]).astype(np.uint8, copy=False)
    y_train = np.concatenate([np.asarray(y, dtype=np.uint8) for _, y in parts]).reshape(-1, 1)
    x_test, y_test = _load_batch(os.path.join(folder, "test_batch"))
    x_test = x_test.astype(np.uint8, copy=False)
    y_test = np.asarray(y_test, dtype=np.uint8).reshape(-1, 1)
    if _config.image_data_format() == "channels_last":
        x_train, x_test = x_train.transpose(0, 2, 3, 1), x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test, y_test)
