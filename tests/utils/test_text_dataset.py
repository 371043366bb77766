"""``text_dataset_from_directory``: the same batches, files and splits as Keras, and a text model that learns
from it on every engine, as a ``tf.data.Dataset`` and as a ``PyDataset``."""

import numpy as np
import pytest

import highlevel as hl


def _elements(ds):
    batches = ds.as_numpy_iterator() if hasattr(ds, "as_numpy_iterator") else ds
    return [tuple(np.asarray(v) for v in (b if isinstance(b, tuple) else (b,))) for b in batches]


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"max_length": 9},
        {"label_mode": "binary"},
        {"label_mode": "categorical"},
        {"labels": None},
        {"batch_size": None},
        {"class_names": ["pos", "neg"]},
        {"labels": list(range(20)), "batch_size": 8},
    ],
)
def test_matches_keras(keras, text_dir, kwargs):
    kwargs = {"batch_size": 6, "shuffle": False, "verbose": False, **kwargs}
    theirs = _elements(keras.utils.text_dataset_from_directory(text_dir, **kwargs))
    for format in ("tf", "pydataset"):
        ours = hl.utils.text_dataset_from_directory(text_dir, format=format, **kwargs)
        mine = _elements(ours)
        assert len(mine) == len(theirs)
        for x, y in zip(theirs, mine):
            for u, v in zip(x, y, strict=True):
                assert u.shape == v.shape and u.dtype == v.dtype and u.tolist() == v.tolist()


def test_shuffled_validation_split_takes_the_same_files_as_keras(keras, text_dir):
    kwargs = {"validation_split": 0.3, "seed": 5, "verbose": False}
    theirs = keras.utils.text_dataset_from_directory(text_dir, subset="both", **kwargs)
    ours = hl.utils.text_dataset_from_directory(text_dir, subset="both", **kwargs)
    for a, b in zip(theirs, ours):
        assert sorted(np.concatenate([t for t, _ in _elements(a)]).tolist()) == sorted(
            np.concatenate([t for t, _ in _elements(b)]).tolist()
        )
    assert (
        ours[1].file_paths
        == hl.utils.text_dataset_from_directory(text_dir, subset="validation", format="pydataset", **kwargs).file_paths
    )


def test_errors(text_dir):
    with pytest.raises(ValueError, match="max_length"):
        hl.utils.text_dataset_from_directory(text_dir, max_length=-1)
    with pytest.raises(ValueError, match="labels"):
        hl.utils.text_dataset_from_directory(text_dir, labels="folders")
    with pytest.raises(ValueError, match="No text files"):
        hl.utils.text_dataset_from_directory(text_dir, class_names=[], verbose=False)


@pytest.mark.parametrize("format", ["tf", "pydataset"])
def test_a_text_model_learns_from_it(backend, text_dir, format):
    train = hl.utils.text_dataset_from_directory(
        text_dir, batch_size=8, seed=2, label_mode="binary", verbose=False, format=format
    )
    vectorize = hl.layers.TextVectorization(max_tokens=16, output_mode="multi_hot")
    vectorize.adapt(np.concatenate([texts for texts, _ in _elements(train)]))
    hl.utils.set_random_seed(0)
    model = hl.Sequential([vectorize, hl.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=hl.optimizers.Adam(0.1), loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(train, epochs=6, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    assert history.history["accuracy"][-1] >= 0.9
