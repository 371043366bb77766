"""``fit(steps_per_epoch=...)`` goes through all of the data: each epoch takes the batches after the previous
epoch's, and a new pass starts when one ends (as Keras's iterator does). Before, every epoch started the data
again, so with ``shuffle=False`` (or a dataset that does not shuffle) the batches past the first
``steps_per_epoch`` were never trained on. And a ``PyDataset`` is visited in a new random order each pass when
``shuffle=True``, as in Keras.
"""

import numpy as np
import pytest

import highlevel as hl
from highlevel.trainers.data_adapters import EpochIterator, get_data_adapter

RNG = np.random.default_rng(0)
X = RNG.normal(size=(8, 3)).astype("float32")
Y = RNG.normal(size=(8, 1)).astype("float32")


def sgd_update(weights, lr, x, y):
    kernel, bias = (w.astype("float64") for w in weights)
    residual = 2.0 * (x @ kernel + bias - y) / y.size
    return [kernel - lr * (x.T @ residual), bias - lr * residual.sum(axis=0)]


def test_epochs_train_on_the_next_batches(backend):
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse")
    start = model.get_weights()
    history = model.fit(X, Y, batch_size=4, steps_per_epoch=1, epochs=3, shuffle=False, verbose=0)
    assert len(history.epoch) == 3
    want = start
    for rows in (slice(0, 4), slice(4, 8), slice(0, 4)):  # epoch 1 trains on the second half, epoch 2 starts over
        want = sgd_update(want, 0.1, X[rows], Y[rows])
    for got, w in zip(model.get_weights(), want):
        np.testing.assert_allclose(got, w, rtol=1e-5, atol=1e-6)


def first_values(batches):
    return [int((b[0] if isinstance(b, tuple) else b)[0, 0]) for b in batches]  # (x, ...) or x alone, as in Keras


def test_epoch_iterator_over_arrays():
    x = np.arange(8).reshape(8, 1)
    epochs = EpochIterator(get_data_adapter(x, batch_size=2), steps_per_epoch=3)
    assert epochs.num_batches == 3
    assert [first_values(epochs.epoch()) for _ in range(3)] == [[0, 2, 4], [6, 0, 2], [4, 6, 0]]
    # more steps than batches: the epoch goes on into the next pass
    assert first_values(EpochIterator(get_data_adapter(x, batch_size=4), 3).epoch()) == [0, 4, 0]
    # without steps_per_epoch, an epoch is one pass
    whole = EpochIterator(get_data_adapter(x, batch_size=3))
    assert whole.num_batches == 3 and [first_values(whole.epoch()) for _ in range(2)] == [[0, 3, 6]] * 2
    # shuffled: each pass a new permutation, so two epochs of half a pass see every sample once
    hl.utils.set_random_seed(3)
    shuffled = EpochIterator(get_data_adapter(x, batch_size=2, shuffle=True), steps_per_epoch=2)
    seen = [np.concatenate([b[:, 0] for b in shuffled.epoch()]) for _ in range(4)]  # x alone: no targets
    assert sorted(np.concatenate(seen[:2]).tolist()) == list(range(8))
    assert sorted(np.concatenate(seen[2:]).tolist()) == list(range(8))
    assert np.concatenate(seen[:2]).tolist() != np.concatenate(seen[2:]).tolist()
    with pytest.raises(ValueError, match="steps_per_epoch"):
        EpochIterator(get_data_adapter(x), steps_per_epoch=0)


class Indexed(hl.utils.PyDataset):
    """Four batches of two samples; records the indices asked for and the passes completed."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.asked, self.passes = [], 0

    def __len__(self):
        return 4

    def __getitem__(self, i):
        self.asked.append(i)
        return X[2 * i : 2 * i + 2], Y[2 * i : 2 * i + 2]

    def on_epoch_end(self):
        self.passes += 1


def test_py_dataset_continues_across_epochs_and_is_shuffled_as_fit_asks():
    ordered = Indexed()
    epochs = EpochIterator(get_data_adapter(ordered, steps=None), steps_per_epoch=3)
    for _ in range(3):
        list(epochs.epoch())
    assert ordered.asked == [0, 1, 2, 3, 0, 1, 2, 3, 0] and ordered.passes == 2
    epochs.close()  # the unfinished pass ends when fit does
    assert ordered.passes == 3

    with hl.config.backend_scope("native"):
        model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(1)])
        model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse")
        hl.utils.set_random_seed(1)
        shuffled = Indexed()
        model.fit(shuffled, epochs=3, verbose=0)  # shuffle=True by default
        passes = [shuffled.asked[i : i + 4] for i in (0, 4, 8)]
        assert all(sorted(p) == [0, 1, 2, 3] for p in passes) and passes != [[0, 1, 2, 3]] * 3
        assert shuffled.passes == 3
        in_order = Indexed()
        model.fit(in_order, epochs=2, shuffle=False, verbose=0)
        assert in_order.asked == [0, 1, 2, 3] * 2

    def shuffled_pass(workers):  # loaded by worker threads, the batches come in the same shuffled order
        hl.utils.set_random_seed(4)
        return [b[0] for b in get_data_adapter(Indexed(workers=workers), shuffle=True).get_numpy_iterator()]

    one, two = shuffled_pass(1), shuffled_pass(2)
    assert all(np.array_equal(a, b) for a, b in zip(one, two)) and not np.array_equal(one[0], X[:2])


def test_a_dataset_that_restarts_continues_across_epochs():
    tf = pytest.importorskip("tensorflow")
    data = tf.data.Dataset.from_tensor_slices(np.arange(8).reshape(8, 1)).batch(2)
    epochs = EpochIterator(get_data_adapter(data), steps_per_epoch=3)
    assert [first_values(epochs.epoch()) for _ in range(2)] == [[0, 2, 4], [6, 0, 2]]
