"""boston_housing and california_housing: the same shuffles and splits as Keras on the same files."""

import numpy as np
import pytest

from highlevel.datasets import boston_housing, california_housing

from .files import npz, place

RNG = np.random.default_rng(2)


def _assert_same(ours, theirs):
    (a, b), (c, d) = ours
    (e, f), (g, h) = theirs
    for x, y in ((a, e), (b, f), (c, g), (d, h)):
        assert x.dtype == y.dtype and x.shape == y.shape
        np.testing.assert_array_equal(x, y)


@pytest.fixture
def boston_file(home, nowhere, monkeypatch):
    x, y = RNG.normal(size=(31, 13)), RNG.uniform(5, 50, size=31)
    return place(monkeypatch, boston_housing, "boston_housing.npz", npz(x=x, y=y), home, nowhere), x, y


@pytest.mark.parametrize("kwargs", [{}, {"test_split": 0.5, "seed": 1}, {"test_split": 0.0}])
def test_boston_housing_matches_keras(boston_file, keras_loader, kwargs):
    path, x, y = boston_file
    ours = boston_housing.load_data(**kwargs)
    _assert_same(ours, keras_loader("boston_housing", path).load_data(**kwargs))
    (x_train, y_train), (x_test, _) = ours
    assert len(x_train) == int(31 * (1 - kwargs.get("test_split", 0.2))) and x_train.shape[1] == 13
    # a shuffle of the rows, each attribute row still paired with its price
    row = np.flatnonzero((x == x_train[0]).all(axis=1))[0]
    assert y[row] == y_train[0]


def test_boston_housing_bad_split(boston_file):
    with pytest.raises(ValueError, match=r"test_split must be a fraction in \[0, 1\); received test_split=1"):
        boston_housing.load_data(test_split=1)


@pytest.fixture
def california_file(home, nowhere, monkeypatch):
    x, y = RNG.normal(size=(650, 8)).astype("float32"), RNG.uniform(1e4, 5e5, size=650).astype("float32")
    return place(monkeypatch, california_housing, "california_housing.npz", npz(x=x, y=y), home, nowhere), x, y


@pytest.mark.parametrize("kwargs", [{}, {"version": "small"}, {"version": "small", "test_split": 0.1, "seed": 5}])
def test_california_housing_matches_keras(california_file, keras_loader, kwargs):
    path, x, _ = california_file
    ours = california_housing.load_data(**kwargs)
    _assert_same(ours, keras_loader("california_housing", path).load_data(**kwargs))
    (x_train, _), (x_test, _) = ours
    n = 600 if kwargs.get("version") == "small" else 650
    assert len(x_train) + len(x_test) == n
    if n == 600:  # the small version is the file's first 600 districts
        assert not np.isin(x[600:, 0], np.concatenate([x_train[:, 0], x_test[:, 0]])).any()


def test_california_housing_bad_version():
    with pytest.raises(ValueError, match="version must be 'small' or 'large'; received version='medium'"):
        california_housing.load_data(version="medium")
