"""Labels and indices that the host never sees (device tensors, a custom loss, indices computed inside the
model): checked in eager execution and ``run_eagerly=True`` always, inside compiled steps when
``hl.config.enable_index_checks()`` is on; a failed check stops the step before any weight changes, with our
message, on every backend."""

import numpy as np
import pytest

import highlevel as hl
from highlevel.index_range import IndexRangeError


@pytest.fixture
def index_checks():
    hl.config.enable_index_checks()
    yield
    hl.config.disable_index_checks()


def _data(n=32):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 4)).astype("float32")
    return x, 1 + (x[:, 0] > 0).astype("int32") + (x[:, 1] > 0).astype("int32")  # labels 1..3


def one_based_loss(y_true, y_pred):
    """A user's loss for labels counted from 1: the host cannot know its valid range."""
    return hl.losses.sparse_categorical_crossentropy(y_true - 1, y_pred, from_logits=True)


def _classifier(run_eagerly=False):
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(3)])
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss=one_based_loss, run_eagerly=run_eagerly)
    return model


def _unchanged(model, before):
    return all(np.array_equal(a, b) for a, b in zip(before, model.get_weights()))


@pytest.mark.parametrize("mode", ["compiled_with_switch", "run_eagerly"])
def test_a_label_out_of_range_inside_a_custom_loss_stops_the_step(backend, mode, request):
    if mode == "compiled_with_switch":
        request.getfixturevalue("index_checks")
    x, y = _data()
    model = _classifier(run_eagerly=mode == "run_eagerly")
    before = model.get_weights()
    with pytest.raises(IndexRangeError, match=r"y_true holds labels from -1 to [12], out of range for 3 classes"):
        model.fit(x, y - 1, batch_size=8, shuffle=False, verbose=0)  # 0-based by mistake: -1 in every batch
    assert _unchanged(model, before)
    assert isinstance(IndexRangeError("x"), ValueError)
    # the model is usable and learns from valid labels, the check still on
    history = model.fit(x, y, batch_size=8, epochs=15, verbose=0).history
    assert history["loss"][-1] < 0.5 * history["loss"][0]
    with pytest.raises(IndexRangeError, match=r"labels from [01] to 4"):
        model.evaluate(x, np.where(y == 3, 5, y), batch_size=8, verbose=0)


def test_switching_checks_on_remakes_an_existing_compiled_step(backend):
    assert not hl.config.is_index_checks_enabled()
    x, y = _data()
    model = _classifier()
    model.fit(x, y, batch_size=8, epochs=1, verbose=0)  # compiles (and records) the step with valid labels
    hl.config.enable_index_checks()
    try:
        with pytest.raises(IndexRangeError, match=r"from -1 to \d"):
            model.fit(x, y - 1, batch_size=8, verbose=0)
    finally:
        hl.config.disable_index_checks()


def _embedder(run_eagerly=False):
    hl.utils.set_random_seed(0)
    inputs = hl.Input((2,), dtype="int32")
    shifted = hl.layers.Lambda(lambda t: t + 2)(inputs)  # indices computed in the model: the host check misses them
    outputs = hl.layers.Flatten()(hl.layers.Embedding(5, 3)(shifted))
    model = hl.Model(inputs, outputs)
    model.compile(optimizer="sgd", loss="mse", run_eagerly=run_eagerly)
    return model


@pytest.mark.parametrize("mode", ["compiled_with_switch", "run_eagerly"])
def test_embedding_indices_computed_inside_the_model_are_checked(backend, mode, request):
    if mode == "compiled_with_switch":
        request.getfixturevalue("index_checks")
    model = _embedder(run_eagerly=mode == "run_eagerly")
    xi = np.tile(np.arange(3, dtype="int32")[:, None], (6, 2))[:16]
    targets = np.ones((16, 6), "float32")
    model.fit(xi, targets, batch_size=8, verbose=0)  # indices 2..4: valid
    before = model.get_weights()
    bad = xi.copy()
    bad[3, 0] = 4  # becomes 6
    with pytest.raises(IndexRangeError, match=r"Embedding\) has input_dim=5.*received indices from 2 to 6"):
        model.fit(bad, targets, batch_size=8, shuffle=False, verbose=0)
    assert _unchanged(model, before)
    with pytest.raises(IndexError, match=r"from 2 to 6"):
        model.predict(bad, batch_size=8, verbose=0)
    assert np.isfinite(model.predict(xi, verbose=0)).all()


def test_sparse_metric_functions_refuse_device_labels_out_of_range(backend):
    y_pred = hl.ops.convert_to_tensor(np.eye(3, dtype="float32"))
    for fn in (hl.metrics.sparse_categorical_accuracy, hl.metrics.sparse_top_k_categorical_accuracy):
        good = fn(hl.ops.convert_to_tensor(np.array([0, 1, 2])), y_pred)
        assert np.array_equal(hl.ops.convert_to_numpy(good), [1, 1, 1])
        with pytest.raises(IndexRangeError, match=r"accuracy: y_true holds labels from -2 to 1, out of range for 3"):
            fn(hl.ops.convert_to_tensor(np.array([0, 1, -2])), y_pred)
    metric = hl.metrics.SparseCategoricalAccuracy()
    with pytest.raises(ValueError, match=r"labels from 0 to 3"):
        metric.update_state(hl.ops.convert_to_tensor(np.array([0, 3, 1])), y_pred)


def test_the_loss_ignore_class_passes_the_metric_check_in_eager_steps(backend):
    x, y = _data(48)
    y = y - 1
    y[::4] = 255
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(3)])
    model.compile(
        optimizer=hl.optimizers.Adam(0.1),
        loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=255),
        metrics=["sparse_categorical_accuracy"],
        run_eagerly=True,
    )
    history = model.fit(x, y, batch_size=8, epochs=10, verbose=0).history
    assert history["loss"][-1] < 0.5 * history["loss"][0]
    accuracy = history["sparse_categorical_accuracy"]  # the ignored quarter counts as misses, as in Keras
    assert accuracy[-1] > accuracy[0] and accuracy[-1] >= 0.5


def test_the_switch(backend):
    assert hl.config.is_index_checks_enabled() is False
    hl.config.enable_index_checks()
    try:
        assert hl.config.is_index_checks_enabled() is True
    finally:
        hl.config.disable_index_checks()
    assert hl.config.is_index_checks_enabled() is False


@pytest.mark.parametrize("bad", [-1, 7])
def test_device_tensor_labels_out_of_range_are_refused_before_any_update(backend, bad):
    x, y = _data()
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(3)])
    model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy", metrics=["sparse_categorical_accuracy"])
    before = model.get_weights()
    y_bad = (y - 1).astype("int32")
    y_bad[1] = bad  # first batch
    # the host check of fit's batches, or (first batch) the metric's own check as the metrics are built
    clear = rf"hold class {bad}, .*\[0, 3\)|labels from {bad} to 2, out of range|labels from 0 to {bad}, out of range"
    with pytest.raises(ValueError, match=clear):
        model.fit(hl.ops.convert_to_tensor(x), hl.ops.convert_to_tensor(y_bad), batch_size=8, shuffle=False, verbose=0)
    assert _unchanged(model, before)
    with pytest.raises(ValueError, match=clear):
        model.evaluate(hl.ops.convert_to_tensor(x), hl.ops.convert_to_tensor(y_bad), batch_size=8, verbose=0)
    history = model.fit(x, y - 1, batch_size=8, epochs=2, verbose=0).history  # valid labels: unaffected
    assert np.isfinite(history["loss"]).all()


def test_tf_data_labels_out_of_range_are_refused_before_any_update(index_checks):
    tf = pytest.importorskip("tensorflow")
    with hl.config.backend_scope("tensorflow"):
        x, y = _data()
        y_bad = (y - 1).astype("int64")
        y_bad[20] = -3  # third batch: two good steps first
        model = _classifier()
        model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
        dataset = tf.data.Dataset.from_tensor_slices((x, y_bad)).batch(8)
        clear = r"hold class -3, .*\[0, 3\)|labels from -3 to \d, out of range for 3 classes"
        with pytest.raises(ValueError, match=clear):
            model.fit(dataset, verbose=0)
        kept = model.get_weights()
        with pytest.raises(ValueError, match=clear):
            model.fit(dataset.skip(2), verbose=0)  # the bad batch first: the step changes nothing
        assert all(np.array_equal(a, b) for a, b in zip(kept, model.get_weights()))
        good = tf.data.Dataset.from_tensor_slices((x, (y - 1).astype("int64"))).batch(8)
        assert np.isfinite(model.fit(good, epochs=2, verbose=0).history["loss"]).all()


@pytest.mark.backends("tensorflow")
def test_checks_hold_in_a_step_that_asked_for_xla(backend, index_checks):
    """XLA drops TensorFlow's in-graph assertions: with the checks on, a jit_compile=True step is built without
    XLA, so the check still runs before any update."""
    x, y = _data()
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(3)])
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss=one_based_loss, jit_compile=True)
    before = model.get_weights()
    with pytest.raises(IndexRangeError, match=r"y_true holds labels from -1 to [12]"):
        model.fit(x, y - 1, batch_size=8, shuffle=False, verbose=0)
    assert _unchanged(model, before)


@pytest.fixture
def reads_wait_for_the_device(backend, monkeypatch):
    """The engine as it runs on a GPU (the native engine on CuPy): reading a value on the host waits for it."""
    import dataclasses

    engine = type(hl.config.current_backend())
    monkeypatch.setattr(engine, "capabilities", dataclasses.replace(engine.capabilities, host_reads_sync=True))
    yield


def test_eager_checks_stay_on_where_reading_waits_for_the_device(reads_wait_for_the_device):
    from highlevel.losses.host_values import concrete_value

    assert not hl.config.is_index_checks_enabled()  # the default: eager code is checked without the switch
    counter = hl.ops.convert_to_tensor(np.array(3))
    assert concrete_value(counter) is None  # a shortcut (Adam's step count) is not worth a wait ...
    assert concrete_value(counter, wait=True) == 3  # ... a check of the data is
    logits = hl.ops.convert_to_tensor(np.zeros((3, 4), "float32"))
    with pytest.raises(IndexRangeError, match=r"labels from 0 to 4, out of range for 4 classes"):
        hl.losses.sparse_categorical_crossentropy(hl.ops.convert_to_tensor(np.array([0, 4, 1])), logits)
    with pytest.raises(IndexRangeError, match=r"labels from -1 to 1"):
        hl.metrics.sparse_categorical_accuracy(hl.ops.convert_to_tensor(np.array([0, -1, 1])), logits)
    embedding = hl.layers.Embedding(5, 2)
    with pytest.raises(IndexError, match=r"from 0 to 5"):
        embedding(hl.ops.convert_to_tensor(np.array([[0, 5]], "int32")))
    with pytest.raises(IndexError, match="out of bounds"):
        hl.ops.scatter(hl.ops.convert_to_tensor(np.array([[7]])), hl.ops.ones((1,)), (4,))
    # a model still trains, eagerly and compiled, and a run_eagerly step refuses labels of the wrong range
    x, y = _data()
    for run_eagerly in (False, True):
        model = _classifier(run_eagerly=run_eagerly)
        history = model.fit(x, y, batch_size=8, epochs=15, verbose=0).history
        assert history["loss"][-1] < 0.5 * history["loss"][0]
    before = model.get_weights()
    with pytest.raises(IndexRangeError, match=r"from -1 to \d"):
        model.fit(x, y - 1, batch_size=8, shuffle=False, verbose=0)
    assert _unchanged(model, before)
