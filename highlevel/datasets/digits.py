"""The 8×8 handwritten digits, shipped inside the package (no download).

1,797 grayscale images of the digits 0–9 with pixel counts 0–16, from "Optical Recognition of Handwritten
Digits" (E. Alpaydin, C. Kaynak), UCI Machine Learning Repository, CC BY 4.0.

>>> from highlevel.datasets import digits
>>> (x_train, y_train), (x_test, y_test) = digits.load_data()
>>> x_train.shape, x_test.shape, int(y_train.max())
((1438, 8, 8), (359, 8, 8), 9)
"""

import importlib.resources

import numpy as np

NUM_SAMPLES = 1797


def load_data(test_split=0.2, seed=113):
    """Returns ``(x_train, y_train), (x_test, y_test)``: uint8 images (N, 8, 8) and uint8 labels (N,).

    Args:
        test_split: the fraction of samples held out for testing (the last part of a fixed shuffle).
        seed: the seed of that shuffle; the default gives the same split everywhere.
    """
    if not 0.0 <= test_split < 1.0:
        raise ValueError(f"test_split must be in [0, 1); received test_split={test_split}.")
    with importlib.resources.files(__package__).joinpath("data/digits.npz").open("rb") as f:
        with np.load(f) as data:
            images, labels = data["images"], data["labels"]
    order = np.random.Generator(np.random.Philox(key=seed)).permutation(len(images))
    images, labels = images[order], labels[order]
    n_test = int(round(len(images) * test_split))
    split = len(images) - n_test
    return (images[:split], labels[:split]), (images[split:], labels[split:])
