"""California housing prices: 20,640 districts of the 1990 California census, each with 8 attributes and the
median house value (in $), the target of a regression.

Downloaded once (743 kB, from the address Keras uses) into Keras's cache
(``~/.keras/datasets/california_housing.npz``). The data come from R. Kelley Pace and Ronald Barry, "Sparse
Spatial Autoregressions" (1997), through the StatLib repository.

>>> from highlevel.datasets import california_housing
>>> california_housing.SOURCES["california_housing.npz"][0]
'https://storage.googleapis.com/tensorflow/tf-keras-datasets/california_housing.npz'
"""

from highlevel.datasets._npz import read_arrays as _read_arrays
from highlevel.datasets._split import check as _check
from highlevel.datasets._split import shuffle_split as _shuffle_split
from highlevel.utils.file_utils import get_file as _get_file

#: Where the file comes from: ``{file name: (URL, sha256)}``.
SOURCES = {
    "california_housing.npz": (
        "https://storage.googleapis.com/tensorflow/tf-keras-datasets/california_housing.npz",
        "1a2e3a52e0398de6463aebe6f4a8da34fb21fbb6b934cf88c3425e766f2a1a6f",
    ),
}

_SMALL = 600  # the "small" version: the first 600 districts of the file


def load_data(version="large", path="california_housing.npz", test_split=0.2, seed=113):
    """Loads the California housing data, downloading them on first use.

    Args:
        version: ``"large"`` for all 20,640 districts, ``"small"`` for the first 600 of the file (quick
            experiments).
        path: the file's name in the cache folder (``~/.keras/datasets``).
        test_split: the fraction of samples in the test set, in [0, 1).
        seed: the seed of the shuffle before the split (the same seed gives Keras's split).

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: attributes of shape ``(n, 8)`` and house values of shape
        ``(n,)``, in the file's float dtype (16,512 training and 4,128 test samples by default; 480 and 120
        for ``"small"``).

    Raises:
        DownloadError: the file is not cached and cannot be downloaded; the message names the URL and the path
            where the file can be put by hand.
    """
    if version not in ("large", "small"):
        raise ValueError(
            f"california_housing.load_data: version must be 'small' or 'large'; received version={version!r}."
        )
    _check(test_split, seed, "california_housing")
    origin, file_hash = SOURCES["california_housing.npz"]
    path = _get_file(path, origin=origin, file_hash=file_hash)
    f = _read_arrays(path, ("x", "y"))
    x, y = f["x"], f["y"]
    if version == "small":
        x, y = x[:_SMALL], y[:_SMALL]
    return _shuffle_split(x, y, test_split, seed)
