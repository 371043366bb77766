"""Class labels and embedding indices out of range: a clear error before the step that would use them, on every
backend, compiled or eager; ``ignore_class`` still works."""

import numpy as np
import pytest

import highlevel as hl


def _classifier(loss="sparse_categorical_crossentropy", metrics=None, run_eagerly=False, optimizer="sgd"):
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(3)])
    model.compile(optimizer=optimizer, loss=loss, metrics=metrics, run_eagerly=run_eagerly)
    return model


def _data(n=24):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 4)).astype("float32")
    return x, (x[:, 0] > 0).astype("int64") + (x[:, 1] > 0).astype("int64")


def _same(model, before):
    for a, b in zip(before, model.get_weights()):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("bad", [7, 3, -1])
@pytest.mark.parametrize("run_eagerly", [False, True])
def test_fit_refuses_a_label_out_of_range_in_any_batch(backend, bad, run_eagerly):
    x, y = _data()
    model = _classifier(run_eagerly=run_eagerly)
    y_first = y.copy()
    y_first[2] = bad  # in the first batch: nothing may be trained
    before = model.get_weights()
    with pytest.raises(ValueError, match=rf"hold class {bad}, .*\[0, 3\).*ignore_class"):
        model.fit(x, y_first, batch_size=8, shuffle=False, verbose=0)
    _same(model, before)
    y_last = y.copy()
    y_last[-1] = bad  # in the last batch, after two good steps
    with pytest.raises(ValueError, match=rf"hold class {bad}"):
        model.fit(x, y_last, batch_size=8, shuffle=False, verbose=0)
    with pytest.raises(ValueError, match=rf"hold class {bad}"):
        model.evaluate(x, y_last, batch_size=8, verbose=0)
    with pytest.raises(ValueError, match=rf"hold class {bad}"):
        model.train_on_batch(x[:8], y_first[:8])
    # the refused calls left a usable model: it still trains on good labels
    history = model.fit(x, y, batch_size=8, epochs=3, verbose=0).history
    assert np.isfinite(history["loss"]).all()


def test_fractional_labels_are_refused_and_whole_float_labels_accepted(backend):
    x, y = _data()
    model = _classifier()
    model.fit(x, y.astype("float32"), batch_size=8, verbose=0)
    y_frac = y.astype("float32")
    y_frac[5] = 1.5
    with pytest.raises(ValueError, match=r"hold class 1.5"):
        model.fit(x, y_frac, batch_size=8, verbose=0)


def test_ignore_class_label_is_accepted_and_the_model_learns(backend):
    x, y = _data(48)
    y = y.copy()
    y[::4] = 255  # "void" entries
    model = _classifier(
        loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=255),
        metrics=["sparse_categorical_accuracy"],
        optimizer=hl.optimizers.Adam(0.1),
    )
    history = model.fit(x, y, batch_size=8, epochs=15, verbose=0).history
    assert history["loss"][-1] < 0.5 * history["loss"][0]
    y[1] = 4  # not the ignored label: still refused
    with pytest.raises(ValueError, match=r"hold class 4"):
        model.fit(x, y, batch_size=8, verbose=0)


def test_sparse_metrics_check_labels_under_other_losses(backend):
    x, y = _data()

    def my_loss(y_true, y_pred):
        return hl.ops.mean(hl.ops.square(y_pred), axis=-1)

    for metric in ["sparse_categorical_accuracy", hl.metrics.SparseTopKCategoricalAccuracy(k=2)]:
        model = _classifier(loss=my_loss, metrics=[metric])
        y_bad = y.copy()
        y_bad[9] = 5
        with pytest.raises(ValueError, match=r"hold class 5, but sparse_(top_k_)?categorical_accuracy needs"):
            model.fit(x, y_bad, batch_size=8, verbose=0)


def _embedder(run_eagerly=False):
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((2,), dtype="int32"), hl.layers.Embedding(5, 3), hl.layers.Flatten()])
    model.compile(optimizer="sgd", loss="mse", run_eagerly=run_eagerly)
    return model


@pytest.mark.parametrize("bad", [9, 5, -1])
@pytest.mark.parametrize("run_eagerly", [False, True])
def test_embedding_indices_out_of_range_are_refused(backend, bad, run_eagerly):
    model = _embedder(run_eagerly)
    xi = np.tile(np.arange(4, dtype="int32")[:, None], (4, 2))[:16]
    targets = np.zeros((16, 6), "float32")
    model.fit(xi, targets, batch_size=8, verbose=0)
    before = model.get_weights()
    x_bad = xi.copy()
    x_bad[12, 1] = bad
    with pytest.raises((ValueError, IndexError), match=r"input_dim.*5|\[0, 5\)"):
        model.fit(x_bad, targets, batch_size=8, shuffle=False, verbose=0)
    x_first = xi.copy()
    x_first[0, 0] = bad
    with pytest.raises((ValueError, IndexError), match=r"input_dim.*5|\[0, 5\)"):
        model.fit(x_first, targets, batch_size=8, shuffle=False, verbose=0)
    with pytest.raises((ValueError, IndexError), match=r"input_dim.*5|\[0, 5\)"):
        model.predict(x_bad, batch_size=8, verbose=0)
    with pytest.raises((ValueError, IndexError), match=r"input_dim.*5|\[0, 5\)"):
        model(hl.ops.convert_to_tensor(x_first))  # eager, a device tensor
    model.fit(xi, targets, batch_size=8, verbose=0)  # still usable
    assert np.isfinite(model.predict(xi, verbose=0)).all()
    assert not all(np.array_equal(a, b) for a, b in zip(before, model.get_weights()))


def test_take_refuses_concrete_indices_out_of_range(backend):
    table = hl.ops.convert_to_tensor(np.arange(6, dtype="float32").reshape(3, 2))
    np.testing.assert_array_equal(
        hl.ops.convert_to_numpy(hl.ops.take(table, np.array([2, -3]), axis=0)), [[4, 5], [0, 1]]
    )
    with pytest.raises(IndexError, match=r"take: indices must be in \[-3, 3\) for axis 0.*from 0 to 5"):
        hl.ops.take(table, hl.ops.convert_to_tensor(np.array([0, 5])), axis=0)
    with pytest.raises(IndexError, match=r"\[-6, 6\) for the flattened input"):
        hl.ops.take(table, np.array([-7]))


def test_loss_function_refuses_labels_eagerly_on_device_tensors(backend):
    y_pred = hl.ops.convert_to_tensor(np.full((2, 3), 1 / 3, "float32"))
    with pytest.raises(ValueError, match=r"labels from 0 to 3, out of range for 3 classes"):
        hl.losses.sparse_categorical_crossentropy(hl.ops.convert_to_tensor(np.array([0, 3])), y_pred)
    value = hl.losses.SparseCategoricalCrossentropy(ignore_class=-1)(np.array([0, -1]), y_pred)
    assert abs(float(hl.ops.convert_to_numpy(value)) - np.log(3)) < 1e-5
