"""CIFAR-100: 60,000 color 32×32 images in 100 classes grouped into 20 superclasses (50,000 for training,
10,000 for testing).

The python version of the dataset (a 161 MB ``.tar.gz`` of pickled batches, from the address Keras uses) is
downloaded once and extracted into Keras's cache (``~/.keras/datasets/cifar-100-python-target/``). The
batches are read with an unpickler that rebuilds only numpy arrays and plain values and refuses every other
name a pickle could call, so a tampered file cannot run code. CIFAR-100 is by Alex Krizhevsky, Vinod Nair
and Geoffrey Hinton.

>>> from highlevel.datasets import cifar100
>>> cifar100.SOURCES["cifar-100-python-target"][0]
'https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz'
"""

import os

import numpy as np

from highlevel import config as _config
from highlevel.datasets._cifar import load_batch as _load_batch
from highlevel.utils.file_utils import get_file as _get_file

#: Where the archive comes from: ``{name in the cache: (URL, sha256)}``.
SOURCES = {
    "cifar-100-python-target": (
        "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz",
        "85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7",
    ),
}


def load_data(label_mode="fine"):
    """Loads CIFAR-100, downloading and extracting it on first use.

    Args:
        label_mode: ``"fine"`` for the 100 classes, ``"coarse"`` for the 20 superclasses.

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: uint8 images of shape ``(50000, 32, 32, 3)`` and
        ``(10000, 32, 32, 3)`` (``(n, 3, 32, 32)`` when ``hl.config.image_data_format()`` is
        ``"channels_first"``), and int64 labels of shape ``(50000, 1)`` and ``(10000, 1)`` (the dtype Keras
        returns).

    Raises:
        DownloadError: the archive is not cached and cannot be downloaded; the message names the URL and the
            path where it can be put by hand.
    """
    if label_mode not in ("fine", "coarse"):
        raise ValueError(
            f"cifar100.load_data: label_mode must be 'fine' or 'coarse'; received label_mode={label_mode!r}."
        )
    name = "cifar-100-python-target"
    origin, file_hash = SOURCES[name]
    folder = os.path.join(_get_file(fname=name, origin=origin, extract=True, file_hash=file_hash), "cifar-100-python")
    key = f"{label_mode}_labels"
    x_train, y_train = _load_batch(os.path.join(folder, "train"), label_key=key)
    x_test, y_test = _load_batch(os.path.join(folder, "test"), label_key=key)
    y_train = np.asarray(y_train, dtype=np.int64).reshape(-1, 1)
    y_test = np.asarray(y_test, dtype=np.int64).reshape(-1, 1)
    if _config.image_data_format() == "channels_last":
        x_train, x_test = x_train.transpose(0, 2, 3, 1), x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test, y_test)
