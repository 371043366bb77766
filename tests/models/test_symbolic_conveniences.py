"""Keras's small symbolic conveniences: input rank adaptation in a functional model, losses on symbolic tensors
with an unknown batch size, ``ops.broadcast_to`` to a shape with a None batch."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops


def test_data_one_rank_short_of_an_input_ending_in_1_gains_that_axis(backend):
    inputs = hl.Input((4, 3, 1))
    model = hl.Model(inputs, hl.layers.Flatten()(inputs * 2.0))
    x = np.arange(24, dtype="float32").reshape(2, 4, 3)
    np.testing.assert_allclose(model.predict(x, verbose=0), 2.0 * x.reshape(2, 12))


def test_data_one_rank_over_an_input_with_a_last_size_of_1_loses_that_axis(backend):
    inputs = hl.Input((3,))
    model = hl.Model(inputs, inputs + 1.0)
    x = np.arange(6, dtype="float32").reshape(2, 3, 1)
    np.testing.assert_allclose(model.predict(x, verbose=0), x[..., 0] + 1.0)


def test_rank_adaptation_trains_on_images_without_a_channel_axis(backend):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 6, 6)).astype("float32")
    y = (x.mean(axis=(1, 2)) > 0).astype("float32")[:, None]
    inputs = hl.Input((6, 6, 1))
    outputs = hl.layers.Dense(1, activation="sigmoid")(hl.layers.Flatten()(inputs))
    model = hl.Model(inputs, outputs)
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="binary_crossentropy")
    start = model.evaluate(x, y, verbose=0)
    model.fit(x, y, epochs=30, batch_size=16, verbose=0)
    assert model.evaluate(x, y, verbose=0) < 0.5 * start


def test_other_rank_mismatches_are_still_refused(backend):
    inputs = hl.Input((4, 3))
    model = hl.Model(inputs, inputs)
    with pytest.raises(ValueError, match=r"expected shape \(None, 4, 3\)"):
        model.predict(np.zeros((2, 12), "float32"), verbose=0)


@pytest.mark.parametrize("loss", ["MeanSquaredError", "Huber", "BinaryCrossentropy", "MeanAbsoluteError"])
def test_a_loss_on_symbolic_tensors_of_unknown_batch_is_a_symbolic_scalar(backend, loss):
    y_true, y_pred = hl.Input((3,)), hl.Input((3,))
    out = getattr(hl.losses, loss)()(y_true, y_pred)
    assert isinstance(out, hl.KerasTensor) and out.shape == () and out.dtype == "float32"
    # the symbolic loss is part of a graph that computes the real one
    model = hl.Model([y_true, y_pred], out)
    a, b = np.full((2, 3), 0.25, "float32"), np.full((2, 3), 0.75, "float32")
    expected = getattr(hl.losses, loss)()(a, b)
    np.testing.assert_allclose(np.asarray(model([a, b])), np.asarray(expected), rtol=1e-5)


def test_a_metric_function_on_symbolic_tensors_keeps_the_unknown_batch(backend):
    out = hl.metrics.binary_accuracy(hl.Input((3,)), hl.Input((3,)))
    assert out.shape == (None, 3)


def test_broadcast_to_the_shape_of_a_symbolic_tensor_with_a_none_batch(backend):
    x, y = hl.Input((1, 3)), hl.Input((4, 3))
    out = ops.broadcast_to(x, ops.shape(y))
    assert out.shape == (None, 4, 3)
    with pytest.raises(ValueError, match="cannot be broadcast"):
        ops.broadcast_to(x, (None, 4, 5))


def test_broadcast_to_a_shape_of_a_symbolic_tensor_inside_a_layer_runs_on_real_data(backend):
    class Spread(hl.layers.Layer):
        def call(self, x, like):
            return ops.broadcast_to(x, ops.shape(like))

    x, like = hl.Input((1, 3)), hl.Input((4, 3))
    model = hl.Model([x, like], Spread()(x, like))
    assert model.output.shape == (None, 4, 3)
    a = np.arange(6, dtype="float32").reshape(2, 1, 3)
    out = model.predict([a, np.zeros((2, 4, 3), "float32")], verbose=0)
    np.testing.assert_allclose(out, np.broadcast_to(a, (2, 4, 3)))


def test_broadcast_to_none_on_a_real_tensor_says_what_to_do(backend):
    with pytest.raises(ValueError, match="unknown"):
        ops.broadcast_to(ops.ones((1, 3)), (None, 3))
