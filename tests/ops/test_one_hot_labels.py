"""``ops.one_hot`` and the sparse categorical losses and metrics take float labels (integral values, as datasets
often store them), as Keras does, on every engine."""

import numpy as np

import highlevel as hl


def test_one_hot_accepts_integral_float_labels(backend):
    out = hl.ops.one_hot(np.array([0.0, 2.0, 1.0], "float32"), 3)
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(out), np.eye(3, dtype="float32")[[0, 2, 1]])


def test_sparse_categorical_losses_and_metrics_accept_float_labels(backend):
    probs = np.array([[0.3, 0.7], [0.2, 0.8]], "float32")
    float_labels, int_labels = np.array([1.0, 0.0], "float32"), np.array([1, 0], "int32")
    loss = hl.losses.SparseCategoricalCrossentropy()
    np.testing.assert_allclose(float(loss(float_labels, probs)), float(loss(int_labels, probs)), rtol=1e-6)
    metric = hl.metrics.SparseCategoricalAccuracy()
    metric.update_state(float_labels, probs)
    assert float(metric.result()) == 0.5
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(3)])
    model.compile(optimizer=hl.optimizers.Adam(0.1), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]], "float32")
    y = np.array([0.0, 1.0, 2.0, 1.0], "float32")
    history = model.fit(x, y, epochs=40, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0] * 0.7
