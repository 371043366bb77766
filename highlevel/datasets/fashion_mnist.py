"""Fashion-MNIST: 70,000 grayscale 28×28 images of clothing in 10 classes (60,000 for training, 10,000 for
testing), a drop-in replacement for MNIST.

The labels: 0 T-shirt/top, 1 trouser, 2 pullover, 3 dress, 4 coat, 5 sandal, 6 shirt, 7 sneaker, 8 bag,
9 ankle boot. Four gzip-compressed IDX files are downloaded once from the address Keras uses into Keras's
cache (``~/.keras/datasets/fashion-mnist/``). Fashion-MNIST is by Zalando SE, under the MIT license.

>>> from highlevel.datasets import fashion_mnist
>>> sorted(fashion_mnist.SOURCES)[0]
't10k-images-idx3-ubyte.gz'
"""

import os

from highlevel.datasets._idx import read_idx as _read_idx
from highlevel.utils.file_utils import get_file as _get_file

_BASE = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
_FILES = (
    "train-labels-idx1-ubyte.gz",
    "train-images-idx3-ubyte.gz",
    "t10k-labels-idx1-ubyte.gz",
    "t10k-images-idx3-ubyte.gz",
)
#: Where each file comes from: ``{file name: (URL, sha256 or None)}`` (Keras checks no hash for these).
SOURCES = {name: (_BASE + name, None) for name in _FILES}
_CACHE_SUBDIR = os.path.join("datasets", "fashion-mnist")


def load_data():
    """Loads Fashion-MNIST, downloading it on first use.

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: uint8 images of shape ``(60000, 28, 28)`` and
        ``(10000, 28, 28)``, and uint8 labels 0–9 of shape ``(60000,)`` and ``(10000,)``.

    Raises:
        DownloadError: a file is not cached and cannot be downloaded; the message names the URL and the path
            where the file can be put by hand.
    """
    arrays = []
    for name in _FILES:
        origin, file_hash = SOURCES[name]
        path = _get_file(name, origin=origin, file_hash=file_hash, cache_subdir=_CACHE_SUBDIR)
        arrays.append(_read_idx(path, path))
    y_train, x_train, y_test, x_test = arrays
    for x, y, part in ((x_train, y_train, "train"), (x_test, y_test, "t10k")):
        if x.ndim != 3 or y.ndim != 1 or len(x) != len(y):
            raise ValueError(
                f"Fashion-MNIST's {part} files do not match: images of shape {x.shape} and labels of "
                f"shape {y.shape}. Delete them so that they are downloaded again."
            )
    return (x_train, y_train), (x_test, y_test)
