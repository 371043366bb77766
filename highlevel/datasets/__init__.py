"""``highlevel.datasets``: Keras's datasets, read from the same files, and a small dataset shipped inside.

Each of ``mnist``, ``fashion_mnist``, ``cifar10``, ``cifar100``, ``imdb``, ``reuters``, ``boston_housing``
and ``california_housing`` downloads its files once, from the address Keras uses, into Keras's cache
(``~/.keras/datasets``, or under ``$KERAS_HOME``), and returns what ``keras.datasets`` returns: the same
splits, dtypes and shapes. Offline, the error names the URL and the path where the file can be put by hand.
``digits`` ships inside the package and needs no download.

>>> from highlevel import datasets
>>> datasets.digits.NUM_SAMPLES
1797
"""

from . import (
    boston_housing,
    california_housing,
    cifar10,
    cifar100,
    digits,
    fashion_mnist,
    imdb,
    mnist,
    reuters,
)

__all__ = [
    "boston_housing",
    "california_housing",
    "cifar10",
    "cifar100",
    "digits",
    "fashion_mnist",
    "imdb",
    "mnist",
    "reuters",
]
