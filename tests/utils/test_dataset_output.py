"""``HostDataset`` and the formats the dataset builders hand out: ``tf.data`` (when TensorFlow is installed)
and ``PyDataset``, with the same batches, reshuffled every epoch."""

import numpy as np
import pytest

import highlevel as hl
from highlevel.utils import dataset_output
from highlevel.utils.dataset_output import HostDataset, SampleSpec


def _squares(n=10, **kwargs):
    spec = (SampleSpec((2,), "float32"), SampleSpec((), "int64"))
    return HostDataset(n, lambda i: (np.full((2,), i, "float32"), np.int64(i * i)), spec, **kwargs)


def test_batches_and_len():
    ds = _squares(batch_size=4)
    assert len(ds) == 3 and isinstance(ds, hl.utils.PyDataset)
    batches = list(ds)
    assert [b[0].shape for b in batches] == [(4, 2), (4, 2), (2, 2)]
    assert np.concatenate([b[1] for b in batches]).tolist() == [i * i for i in range(10)]
    assert ds[-1][1].tolist() == [64, 81]
    with pytest.raises(IndexError, match="out of range"):
        ds[3]


def test_unbatched():
    ds = _squares(n=3, batch_size=None)
    assert len(ds) == 3 and ds[2][1] == 4


def test_shuffle_draws_a_new_order_every_epoch_from_the_seed():
    ds = _squares(n=20, batch_size=5, shuffle=True, seed=3)
    first = np.concatenate([b[1] for b in ds])
    second = np.concatenate([b[1] for b in ds])
    assert sorted(first.tolist()) == sorted(second.tolist()) == [i * i for i in range(20)]
    assert first.tolist() != second.tolist()
    again = _squares(n=20, batch_size=5, shuffle=True, seed=3)
    assert np.concatenate([b[1] for b in again]).tolist() == first.tolist()


def test_padding_and_strings():
    spec = (SampleSpec((None,), "float32"), SampleSpec((), "string"))
    ds = HostDataset(3, lambda i: (np.ones(i + 1, "float32"), b"x" * i), spec, batch_size=3)
    x, text = ds[0]
    assert x.tolist() == [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    assert text.dtype == object and text.tolist() == [b"", b"x", b"xx"]
    ragged = HostDataset(
        2, lambda i: np.ones((i + 1, 2), "float32"), SampleSpec((None, 2), "float32"), batch_size=2, batching="ragged"
    )
    assert [a.shape for a in ragged[0]] == [(1, 2), (2, 2)]


def test_tf_dataset_yields_the_same_batches():
    tf = pytest.importorskip("tensorflow")
    host = _squares(n=20, batch_size=6, shuffle=True, seed=1)
    ds = dataset_output.finish(host, "tf")
    assert isinstance(ds, tf.data.Dataset) and len(ds) == 4
    tf_epoch = [tuple(np.asarray(v) for v in b) for b in ds.as_numpy_iterator()]
    reference = _squares(n=20, batch_size=6, shuffle=True, seed=1)
    for (a, b), (c, d) in zip(tf_epoch, reference, strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    second = np.concatenate([b[1] for b in ds.as_numpy_iterator()])
    assert second.tolist() != np.concatenate([b[1] for b in tf_epoch]).tolist()  # reshuffled


def test_without_tensorflow_the_builders_hand_out_a_pydataset(monkeypatch):
    monkeypatch.setitem(dataset_output._FORMAT_BUILDERS, "tf", ("nowhere:nothing", "a_module_that_is_not_installed"))
    ds = hl.utils.timeseries_dataset_from_array(np.arange(10), None, sequence_length=3, batch_size=4)
    assert isinstance(ds, HostDataset)
    assert [b.tolist() for b in ds][0] == [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5]]


def test_format_errors():
    with pytest.raises(ValueError, match="Grain"):
        dataset_output.check_format("grain")
    with pytest.raises(ValueError, match="`format` must be one of"):
        hl.utils.timeseries_dataset_from_array(np.arange(10), None, sequence_length=3, format="torch")
    with pytest.raises(ValueError, match="batch_size"):
        _squares(batch_size=0)
