"""Boston housing prices: 506 Boston suburbs of the late 1970s, each with 13 attributes and the median value
of its homes (in k$), the target of a regression.

Downloaded once (57 kB, from the address Keras uses) into Keras's cache
(``~/.keras/datasets/boston_housing.npz``). The data come from the StatLib library of Carnegie Mellon
University. Note that the dataset has an ethical problem: one of its attributes encodes the proportion of
Black residents, built on the assumption that racial self-segregation raised house prices; prefer
:mod:`highlevel.datasets.california_housing` for new work.

>>> from highlevel.datasets import boston_housing
>>> boston_housing.SOURCES["boston_housing.npz"][0]
'https://storage.googleapis.com/tensorflow/tf-keras-datasets/boston_housing.npz'
"""

from highlevel.datasets._npz import read_arrays as _read_arrays
from highlevel.datasets._split import check as _check
from highlevel.datasets._split import shuffle_split as _shuffle_split
from highlevel.utils.file_utils import get_file as _get_file

#: Where the file comes from: ``{file name: (URL, sha256)}``.
SOURCES = {
    "boston_housing.npz": (
        "https://storage.googleapis.com/tensorflow/tf-keras-datasets/boston_housing.npz",
        "f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5",
    ),
}


def load_data(path="boston_housing.npz", test_split=0.2, seed=113):
    """Loads the Boston housing data, downloading them on first use.

    Args:
        path: the file's name in the cache folder (``~/.keras/datasets``).
        test_split: the fraction of samples in the test set, in [0, 1).
        seed: the seed of the shuffle before the split (the same seed gives Keras's split).

    Returns:
        ``(x_train, y_train), (x_test, y_test)``: float64 attributes of shape ``(n, 13)`` and float64 prices
        of shape ``(n,)`` (404 training and 102 test samples by default).

    Raises:
        DownloadError: the file is not cached and cannot be downloaded; the message names the URL and the path
            where the file can be put by hand.
    """
    _check(test_split, seed, "boston_housing")
    origin, file_hash = SOURCES["boston_housing.npz"]
    path = _get_file(path, origin=origin, file_hash=file_hash)
    f = _read_arrays(path, ("x", "y"))
    return _shuffle_split(f["x"], f["y"], test_split, seed)
