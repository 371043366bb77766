"""The TensorFlow engine's data-pipeline part: symbolic tensors of a traced graph, sizes known only when it runs,
host calls and state created outside the trace."""

import numpy as np
import pytest

from highlevel.backends import get

tf = pytest.importorskip("tensorflow")


def _traced(fn, signature):
    return tf.function(fn, input_signature=signature, autograph=False)


def test_symbolic_tensors_are_pipeline_tensors_eager_ones_are_not():
    b = get("tensorflow")
    seen = []
    _traced(lambda x: seen.append(b.is_pipeline_tensor(x)) or x, [tf.TensorSpec((None,), tf.float32)])(tf.ones((2,)))
    assert seen == [True]
    assert not b.is_pipeline_tensor(tf.ones((2,)))
    assert not b.is_pipeline_tensor(np.ones(2))


def test_shape_gives_unknown_sizes_as_scalar_tensors():
    b = get("tensorflow")
    fn = _traced(lambda x: b.zeros((b.shape(x)[0], b.shape(x)[1])), [tf.TensorSpec((None, 3), tf.float32)])
    assert fn(tf.ones((5, 3))).shape == (5, 3)


def test_take_along_axis_with_an_unknown_batch_matches_numpy():
    b = get("tensorflow")
    x = np.arange(24, dtype="float32").reshape(4, 6)
    idx = np.array([[5, 0, -1], [1, 1, 2], [0, 3, 4], [2, 2, 2]])
    fn = _traced(
        lambda a, i: b.take_along_axis(a, i, axis=1),
        [tf.TensorSpec((None, 6), tf.float32), tf.TensorSpec((None, 3), tf.int64)],
    )
    np.testing.assert_array_equal(fn(x, idx).numpy(), np.take_along_axis(x, idx % 6, axis=1))
    # A broadcast index (one row for the whole batch), as the image transforms use it.
    fn = _traced(
        lambda a, i: b.take_along_axis(a, i, axis=1),
        [tf.TensorSpec((None, 6), tf.float32), tf.TensorSpec((1, 3), tf.int64)],
    )
    np.testing.assert_array_equal(fn(x, idx[:1]).numpy(), np.take_along_axis(x, np.repeat(idx[:1] % 6, 4, 0), 1))


def test_call_on_host_runs_numpy_inside_a_dataset_map_with_the_static_shape():
    b = get("tensorflow")
    ds = tf.data.Dataset.from_tensor_slices(np.array([["a", "bb"], ["ccc", "d"]])).batch(2)
    lengths = ds.map(lambda s: b.call_on_host(lambda a: np.vectorize(len)(a), [s], "int32", (None, 2)))
    assert lengths.element_spec.shape.as_list() == [None, 2]
    assert [v.tolist() for v in lengths.as_numpy_iterator()] == [[[1, 2], [3, 1]]]


def test_state_made_outside_the_pipeline_lives_on_across_runs():
    b = get("tensorflow")
    holder = {}

    def step(x):
        if "v" not in holder:
            holder["v"] = b.outside_pipeline(lambda: tf.Variable(0))
        holder["v"].assign_add(1)
        return x + holder["v"].read_value()

    out = list(tf.data.Dataset.from_tensor_slices([0, 0, 0]).map(step).as_numpy_iterator())
    assert sorted(out) == [1, 2, 3]
