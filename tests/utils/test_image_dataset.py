"""``image_dataset_from_directory``: the same batches, files and splits as Keras, and a model that learns from
it on every engine, as a ``tf.data.Dataset`` and as a ``PyDataset``."""

import numpy as np
import pytest

import highlevel as hl

pytest.importorskip("PIL")


def _elements(ds):
    out = []
    for batch in ds.as_numpy_iterator() if hasattr(ds, "as_numpy_iterator") else ds:
        out.append(tuple(np.asarray(v) for v in (batch if isinstance(batch, tuple) else (batch,))))
    return out


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"interpolation": "area"},
        {"interpolation": "bicubic"},
        {"crop_to_aspect_ratio": True},
        {"pad_to_aspect_ratio": True},
        {"label_mode": "categorical", "color_mode": "rgba"},
        {"label_mode": "binary", "data_format": "channels_first"},
        {"labels": None},
        {"labels": [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2], "label_mode": "categorical"},
        {"batch_size": None},
        {"class_names": ["dark", "bright"]},
        {"image_size": 5, "interpolation": "mitchellcubic"},
    ],
)
def test_matches_keras(keras, image_dir, kwargs):
    kwargs = {"image_size": (5, 6), "batch_size": 5, "shuffle": False, "verbose": False, **kwargs}
    theirs = keras.utils.image_dataset_from_directory(image_dir, **kwargs)
    for format in ("tf", "pydataset"):
        ours = hl.utils.image_dataset_from_directory(image_dir, format=format, **kwargs)
        assert ours.class_names == theirs.class_names and ours.file_paths == theirs.file_paths
        a, b = _elements(theirs), _elements(ours)
        assert len(a) == len(b)
        for x, y in zip(a, b):
            for u, v in zip(x, y, strict=True):
                assert u.shape == v.shape and u.dtype == v.dtype
                np.testing.assert_allclose(v, u, atol=1e-3)


def test_grayscale_is_within_one_unit_of_keras(keras, image_dir):
    # Pillow's and libpng's RGB-to-gray conversions round differently.
    kwargs = {"image_size": (5, 6), "batch_size": 12, "shuffle": False, "verbose": False, "color_mode": "grayscale"}
    theirs = next(iter(keras.utils.image_dataset_from_directory(image_dir, **kwargs)))[0].numpy()
    ours = hl.utils.image_dataset_from_directory(image_dir, format="pydataset", **kwargs)[0][0]
    assert ours.shape == theirs.shape == (12, 5, 6, 1)
    np.testing.assert_allclose(ours, theirs, atol=1.01)


def test_validation_split_takes_the_same_files_as_keras(keras, image_dir):
    kwargs = {"image_size": (4, 4), "validation_split": 0.25, "seed": 11, "verbose": False}
    theirs = keras.utils.image_dataset_from_directory(image_dir, subset="both", **kwargs)
    ours = hl.utils.image_dataset_from_directory(image_dir, subset="both", **kwargs)
    assert [d.file_paths for d in ours] == [d.file_paths for d in theirs]
    assert len(ours[0].file_paths) == 9 and not set(ours[0].file_paths) & set(ours[1].file_paths)
    train = hl.utils.image_dataset_from_directory(image_dir, subset="training", format="pydataset", **kwargs)
    assert train.file_paths == ours[0].file_paths
    x, y = train[0]
    assert x.shape == (9, 4, 4, 3) and sorted(y.tolist()) == sorted(
        [0 if "bright" in p else 1 for p in train.file_paths]
    )


def test_prints_what_it_found(image_dir, capsys):
    hl.utils.image_dataset_from_directory(
        image_dir, validation_split=0.5, subset="validation", seed=1, format="pydataset"
    )
    assert capsys.readouterr().out == "Found 12 files belonging to 2 classes.\nUsing 6 files for validation.\n"


def test_errors(image_dir, tmp_path):
    def build(**kwargs):
        return hl.utils.image_dataset_from_directory(image_dir, verbose=False, format="pydataset", **kwargs)

    with pytest.raises(ValueError, match="seed"):
        build(validation_split=0.2, subset="training")
    with pytest.raises(ValueError, match="go together"):
        build(validation_split=0.2)
    with pytest.raises(ValueError, match='"training", "validation", "both"'):
        build(validation_split=0.2, subset="test", seed=1)
    with pytest.raises(ValueError, match="label_mode"):
        build(label_mode="sparse")
    with pytest.raises(ValueError, match="color_mode"):
        build(color_mode="cmyk")
    with pytest.raises(ValueError, match="image_size"):
        build(image_size=(0, 3))
    with pytest.raises(ValueError, match="interpolation"):
        build(interpolation="cubic")
    with pytest.raises(ValueError, match="Only one of"):
        build(crop_to_aspect_ratio=True, pad_to_aspect_ratio=True)
    with pytest.raises(ValueError, match="not: \\['cow'\\]"):
        build(class_names=["cow"])
    with pytest.raises(ValueError, match="one label per file"):
        build(labels=[0, 1])
    with pytest.raises(ValueError, match="class_names` can only be given"):
        build(labels=[0] * 12, class_names=["a"])
    with pytest.raises(ValueError, match="does not exist"):
        hl.utils.image_dataset_from_directory(tmp_path / "missing")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "c").mkdir()
    with pytest.raises(ValueError, match="No images found"):
        hl.utils.image_dataset_from_directory(tmp_path, verbose=False)
    with pytest.raises(ValueError, match="exactly 2 classes"):
        hl.utils.image_dataset_from_directory(tmp_path, label_mode="binary", verbose=False)


@pytest.mark.parametrize("format", ["tf", "pydataset"])
def test_a_model_learns_from_it(backend, image_dir, format):
    train = hl.utils.image_dataset_from_directory(
        image_dir, image_size=(8, 8), batch_size=4, seed=0, label_mode="binary", verbose=False, format=format
    )
    hl.utils.set_random_seed(0)
    model = hl.Sequential(
        [
            hl.Input((8, 8, 3)),
            hl.layers.Rescaling(1 / 255.0),
            hl.layers.Conv2D(2, 3),
            hl.layers.GlobalAveragePooling2D(),
            hl.layers.Dense(1, activation="sigmoid"),
        ]
    )
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(train, epochs=12, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    assert history.history["accuracy"][-1] == 1.0
    predictions = model.predict(train, verbose=0)
    assert predictions.shape == (12, 1)
