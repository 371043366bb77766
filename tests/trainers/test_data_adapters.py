"""Data adapters: arrays, generators, PyDataset, a torch DataLoader and a tf.data.Dataset."""

import numpy as np
import pytest

import highlevel as hl
from highlevel.trainers.data_adapters import get_data_adapter
from highlevel.trainers.data_adapters.utils import train_validation_split


def batches(adapter):
    return list(adapter.get_numpy_iterator())


def test_array_batches_partial_last_and_shuffle_from_host_stream():
    x = np.arange(10).reshape(10, 1).astype("float32")
    y = np.arange(10)
    plain = batches(get_data_adapter(x, y, batch_size=4))
    assert [len(b[0]) for b in plain] == [4, 4, 2]
    np.testing.assert_array_equal(np.concatenate([b[1] for b in plain]), y)
    hl.utils.set_random_seed(5)
    a = np.concatenate([b[1] for b in batches(get_data_adapter(x, y, batch_size=4, shuffle=True))])
    hl.utils.set_random_seed(5)
    b = np.concatenate([b[1] for b in batches(get_data_adapter(x, y, batch_size=4, shuffle=True))])
    np.testing.assert_array_equal(a, b)
    assert sorted(a.tolist()) == list(range(10)) and a.tolist() != list(range(10))


def test_dict_and_list_inputs_are_sliced_together():
    x = {"a": np.arange(6).reshape(6, 1), "b": np.arange(6).reshape(6, 1) * 10}
    out = batches(get_data_adapter(x, np.arange(6), batch_size=4))
    assert out[0][0]["b"][:, 0].tolist() == [0, 10, 20, 30]


def test_validation_split_keeps_the_tail():
    (tx, ty), (vx, vy) = train_validation_split((np.arange(10), np.arange(10) * 2), 0.2)
    assert tx.tolist() == list(range(8)) and vy.tolist() == [16, 18]
    with pytest.raises(ValueError, match="validation_split"):
        train_validation_split((np.arange(10),), 1.5)


def test_class_weight_becomes_sample_weight():
    y = np.array([0, 1, 1, 2])
    ((_, _, sw),) = batches(get_data_adapter(np.zeros((4, 1)), y, batch_size=4, class_weight={1: 3.0}))
    assert sw.tolist() == [1.0, 3.0, 3.0, 1.0]


def test_one_shot_generator_needs_steps_for_several_epochs():
    gen = ((np.ones((2, 1)), np.ones((2, 1))) for _ in range(3))
    adapter = get_data_adapter(gen)
    assert len(batches(adapter)) == 3
    with pytest.raises(ValueError, match="yielded no batches"):
        batches(adapter)


def test_torch_dataloader_is_read_without_the_front_end_importing_torch():
    torch = pytest.importorskip("torch")
    data = torch.utils.data.TensorDataset(torch.arange(10.0).reshape(10, 1), torch.arange(10))
    loader = torch.utils.data.DataLoader(data, batch_size=4)
    out = batches(get_data_adapter(loader))
    assert [b[0].shape for b in out] == [(4, 1), (4, 1), (2, 1)]
    assert isinstance(out[0][0], np.ndarray) and out[2][1].tolist() == [8, 9]
    assert len(batches(get_data_adapter(loader))) == 3  # re-iterable every epoch


def test_tf_data_dataset():
    tf = pytest.importorskip("tensorflow")
    ds = tf.data.Dataset.from_tensor_slices((np.arange(6.0).reshape(6, 1), np.arange(6))).batch(4)
    out = batches(get_data_adapter(ds))
    assert [len(b[1]) for b in out] == [4, 2] and isinstance(out[0][0], np.ndarray)


def test_fit_on_framework_datasets(backend):
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(0).normal(size=(32, 3)).astype("float32")
    y = x.sum(axis=1, keepdims=True)
    loader = torch.utils.data.DataLoader(
        torch.utils.data.TensorDataset(torch.from_numpy(x), torch.from_numpy(y)), batch_size=8
    )
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    assert len(model.fit(loader, epochs=2, verbose=0).history["loss"]) == 2


def test_unsupported_data_type_is_explained():
    with pytest.raises(TypeError, match="Unsupported data type"):
        get_data_adapter(object())
    with pytest.raises(ValueError, match="x is None|`x` is None"):
        get_data_adapter(None)
