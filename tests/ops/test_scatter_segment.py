"""Scatters and segment reductions in models and compiled steps, their gradient conventions at ties and repeated
indices (what the case tables cannot reach with finite differences), and their argument errors."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops

RNG = np.random.default_rng(5)
X = RNG.standard_normal((6, 4)).astype("float32")
IDS = np.array([0, 2, 0, 1], np.int32)


def _np(x):
    return np.asarray(ops.convert_to_numpy(x))


def test_functional_model_with_scatter_and_segment_ops(backend):
    x = hl.Input((4,))
    per_group = ops.transpose(ops.segment_max(ops.transpose(x), IDS, num_segments=3))  # a max over feature groups
    marked = ops.scatter_update(x, [[0, 1], [2, 3]], [10.0, 20.0], reduction="add")
    assert per_group.shape == (None, 3) and marked.shape == (None, 4)
    model = hl.Model(x, [per_group, marked])
    got_group, got_marked = model.predict(X, batch_size=3, verbose=0)
    want_group = np.stack([X[:, IDS == s].max(axis=1) for s in range(3)], axis=1)
    want_marked = X.copy()
    for start in (0, 3):  # the indices name rows of each batch of 3
        want_marked[start + 0, 1] += 10.0
        want_marked[start + 2, 3] += 20.0
    np.testing.assert_allclose(got_group, want_group, rtol=1e-6)
    np.testing.assert_allclose(got_marked, want_marked, rtol=1e-6)


def test_num_segments_is_needed_inside_a_compiled_step(backend):
    data = ops.convert_to_tensor(X[:4])
    ids = ops.convert_to_tensor(np.array([2, 0, 2, 1], np.int32))
    want = np.stack([X[:4][[1]].sum(0), X[:4][[3]].sum(0), X[:4][[0, 2]].sum(0)])
    np.testing.assert_allclose(_np(ops.segment_sum(data, ids)), want, rtol=1e-6)  # eager: read from the ids
    with pytest.raises(ValueError, match="num_segments"):
        backend.compile_step(lambda d, i: ops.segment_sum(d, i), [])(data, ids)
    step = backend.compile_step(lambda d, i: ops.segment_sum(d, i, num_segments=3), [])
    np.testing.assert_allclose(_np(step(data, ids)), want, rtol=1e-6)
    with pytest.raises(ValueError, match="num_segments"):  # symbolic ids
        ops.segment_sum(hl.Input((4,)), hl.Input((), dtype="int32"))


def test_indices_out_of_range(backend):
    with pytest.raises(IndexError, match="out of bounds"):
        ops.scatter_update(ops.zeros((3,)), [[3]], [1.0])
    with pytest.raises(IndexError, match="out of bounds"):
        ops.scatter([[0, -3]], [1.0], (2, 2))
    # inside a compiled step the indices are not known: rows out of range are dropped
    step = backend.compile_step(lambda i, u: ops.scatter_update(ops.zeros((3,)), i, u), [])
    got = step(ops.convert_to_tensor(np.array([[1], [5], [-1]], np.int32)), ops.convert_to_tensor([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(_np(got), [0.0, 1.0, 3.0])


def _grads(fn, *args):
    tensors = [ops.convert_to_tensor(np.asarray(a, np.float32)) for a in args]
    out = ops.grad(fn, argnums=tuple(range(len(tensors))))(*tensors)
    return [_np(g) for g in out]


def test_gradient_conventions_at_ties_and_repeats(backend):
    ids = ops.convert_to_tensor(np.array([0, 0, 0, 1], np.int32))
    # segment max: the tied maxima share the gradient
    (g,) = _grads(lambda d: ops.sum(ops.segment_max(d, ids, num_segments=2)), [3.0, 1.0, 3.0, 2.0])
    np.testing.assert_allclose(g, [0.5, 0.0, 0.5, 1.0])
    (g,) = _grads(lambda d: ops.sum(ops.segment_min(d, ids, num_segments=2)), [1.0, 1.0, 1.0, 2.0])
    np.testing.assert_allclose(g, [1 / 3, 1 / 3, 1 / 3, 1.0])
    # scatter max: an input tied with an update shares with it
    idx = ops.convert_to_tensor(np.array([[0], [0]], np.int32))
    gx, gu = _grads(lambda x, u: ops.sum(ops.scatter_update(x, idx, u, reduction="max")), [2.0, 1.0], [2.0, 0.5])
    np.testing.assert_allclose(gx, [0.5, 1.0])
    np.testing.assert_allclose(gu, [0.5, 0.0])
    # replace: of repeated updates only the last (the one kept) gets a gradient; the replaced input gets none
    gx, gu = _grads(lambda x, u: ops.sum(ops.scatter_update(x, idx, u) * 3.0), [2.0, 1.0], [5.0, 7.0])
    np.testing.assert_allclose(gx, [0.0, 3.0])
    np.testing.assert_allclose(gu, [0.0, 3.0])
    # product: an entry's gradient is the product of the others, zeros included
    (g,) = _grads(lambda d: ops.sum(ops.segment_prod(d, ids, num_segments=2)), [0.0, 2.0, 3.0, 5.0])
    np.testing.assert_allclose(g, [6.0, 0.0, 0.0, 1.0])


def test_argument_errors(backend):
    x = ops.zeros((3, 2))
    with pytest.raises(ValueError, match="reduction"):
        ops.scatter_update(x, [[0]], [[1.0, 2.0]], reduction="mean")
    with pytest.raises(ValueError, match=r"shape \(\.\.\., k\)"):
        ops.scatter_update(x, [[0, 0, 0]], [1.0])
    with pytest.raises(ValueError, match="broadcast"):
        ops.scatter_update(x, [[0]], [[1.0, 2.0, 3.0]])
    with pytest.raises(TypeError, match="integer"):
        ops.scatter(ops.convert_to_tensor([[0.0]]), [1.0], (2,))
    with pytest.raises(ValueError, match="vector"):
        ops.segment_sum(x, [[0, 1, 1]], num_segments=2)
    with pytest.raises(ValueError, match="one id per row"):
        ops.segment_sum(x, [0, 1], num_segments=2)
    with pytest.raises(TypeError, match="bool"):
        ops.segment_max(ops.convert_to_tensor([True, False]), [0, 0], num_segments=1)
    with pytest.raises(ValueError, match="class axis"):
        ops.in_top_k([0, 1], ops.zeros((3, 4)), 1)


def test_matches_keras_where_its_backends_agree(backend):
    """Against Keras 3 (its default, TensorFlow, backend) on inputs where Keras's backends agree (no empty segment,
    no repeated replace index, targets in range); the cases where they disagree are in cases_scatter_segment.py."""
    keras = pytest.importorskip("keras")
    k = keras.ops
    data = RNG.standard_normal((6, 3)).astype("float32")
    ids = np.array([1, 0, 1, 2, 0, 2], np.int32)
    inputs = RNG.standard_normal((4, 3)).astype("float32")
    idx = np.array([[2], [0], [2]], np.int32)
    upd = RNG.standard_normal((3, 3)).astype("float32")
    pred = RNG.standard_normal((5, 4)).astype("float32")
    targets = np.array([0, 3, 1, 2, 2], np.int32)
    pairs = [
        (ops.segment_sum(data, ids, 3), k.segment_sum(data, ids, 3)),
        (ops.segment_max(data, ids, 3), k.segment_max(data, ids, 3)),
        (ops.segment_min(data, ids, 3), k.segment_min(data, ids, 3)),
        (ops.segment_prod(data, ids, 3), k.segment_prod(data, ids, 3)),
        (ops.scatter(idx, upd, (4, 3)), k.scatter(idx, upd, (4, 3))),
        (ops.scatter_update(inputs, idx[:2], upd[:2]), k.scatter_update(inputs, idx[:2], upd[:2])),
        (ops.in_top_k(targets, pred, 2), k.in_top_k(targets, pred, 2)),
    ]
    pairs += [
        (ops.scatter_update(inputs, idx, upd, reduction=r), k.scatter_update(inputs, idx, upd, reduction=r))
        for r in ("add", "max", "min", "mul")
    ]
    for i, (got, want) in enumerate(pairs):
        np.testing.assert_allclose(
            _np(got), np.asarray(k.convert_to_numpy(want)), rtol=1e-5, atol=1e-6, err_msg=f"pair {i}"
        )
