"""``timeseries_dataset_from_array``: Keras's windows for every argument, reshuffling, and a forecaster that
learns from it on every engine."""

import numpy as np
import pytest

import highlevel as hl

DATA = np.arange(100 * 2).reshape(100, 2).astype("float32")
TARGETS = np.arange(100) * 10


def _elements(ds):
    batches = ds.as_numpy_iterator() if hasattr(ds, "as_numpy_iterator") else ds
    return [tuple(np.asarray(v) for v in (b if isinstance(b, tuple) else (b,))) for b in batches]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"targets": None, "sequence_length": 10, "sampling_rate": 2, "sequence_stride": 3, "batch_size": 7},
        {"targets": TARGETS, "sequence_length": 5, "batch_size": 16, "start_index": 10, "end_index": 60},
        {"targets": TARGETS[:30], "sequence_length": 4, "batch_size": None},
        {
            "targets": TARGETS,
            "sequence_length": 4,
            "batch_size": 8,
            "sequence_stride": 5,
            "sampling_rate": 3,
            "end_index": 90,
        },
        {"targets": TARGETS.astype("float64"), "sequence_length": 1, "batch_size": 128},
    ],
)
def test_matches_keras(keras, kwargs):
    theirs = _elements(keras.utils.timeseries_dataset_from_array(DATA, **kwargs))
    for format in ("tf", "pydataset"):
        mine = _elements(hl.utils.timeseries_dataset_from_array(DATA, format=format, **kwargs))
        assert len(mine) == len(theirs)
        for x, y in zip(theirs, mine):
            for u, v in zip(x, y, strict=True):
                assert u.dtype == v.dtype
                np.testing.assert_array_equal(u, v)


def test_shuffle_covers_every_window_in_a_new_order_each_epoch():
    ds = hl.utils.timeseries_dataset_from_array(
        DATA, TARGETS, sequence_length=5, batch_size=16, shuffle=True, seed=1, format="pydataset"
    )
    first = np.concatenate([y for _, y in ds])
    second = np.concatenate([y for _, y in ds])
    assert sorted(first.tolist()) == sorted(second.tolist()) == (np.arange(96) * 10).tolist()
    assert first.tolist() != second.tolist()
    for windows, targets in ds:
        np.testing.assert_array_equal(windows[:, 0, 0] * 5, targets)  # each window still has its own target


def test_accepts_tensors(backend):
    ds = hl.utils.timeseries_dataset_from_array(
        hl.ops.convert_to_tensor(DATA), None, sequence_length=3, batch_size=4, format="pydataset"
    )
    assert ds[0].shape == (4, 3, 2)


def test_errors():
    def build(**kwargs):
        return hl.utils.timeseries_dataset_from_array(DATA, None, **{"sequence_length": 3, **kwargs})

    for kwargs, match in [
        ({"start_index": -1}, "start_index"),
        ({"start_index": 100}, "start_index"),
        ({"start_index": 10, "end_index": 5}, "greater than `start_index`"),
        ({"end_index": 100}, "end_index"),
        ({"sampling_rate": 0}, "sampling_rate"),
        ({"sampling_rate": 100}, "sampling_rate"),
        ({"sequence_stride": 0}, "sequence_stride"),
        ({"sequence_stride": 100}, "sequence_stride"),
        ({"sequence_length": 0}, "sequence_length"),
        ({"sequence_length": 2.5}, "sequence_length"),
        ({"batch_size": -2}, "batch_size"),
    ]:
        with pytest.raises(ValueError, match=match):
            build(**kwargs)
    with pytest.raises(ValueError, match="scalar"):
        hl.utils.timeseries_dataset_from_array(3.0, None, sequence_length=1)


def test_a_forecaster_learns_from_it(backend):
    t = np.arange(400, dtype="float32")
    series = np.sin(t / 8.0)[:, None]
    train = hl.utils.timeseries_dataset_from_array(
        series[:-8], series[8:, 0], sequence_length=8, batch_size=32, shuffle=True, seed=0
    )
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((8, 1)), hl.layers.Flatten(), hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="mse")
    history = model.fit(train, epochs=8, verbose=0)
    assert history.history["loss"][-1] < 0.05 * history.history["loss"][0]
