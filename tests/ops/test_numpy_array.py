"""The array building, indexing and search ops beyond their conformance lines: Keras's signatures, symbolic
tensors in functional models, data-dependent shapes inside compiled steps, ``vectorize``, ``rearrange``'s pattern
language and the front door's errors. (Their values on every engine: ``tests/conformance/cases_numpy_array.py``.)
"""

import inspect

import keras
import numpy as np
import pytest

import highlevel as hl
from highlevel import ops

NUMPY_OPS = [
    "append",
    "array_split",
    "hsplit",
    "vsplit",
    "dsplit",
    "hstack",
    "vstack",
    "dstack",
    "fliplr",
    "flipud",
    "rot90",
    "roll",
    "diag",
    "diagonal",
    "diagflat",
    "trace",
    "tri",
    "vander",
    "meshgrid",
    "logspace",
    "geomspace",
    "kron",
    "cross",
    "dot",
    "inner",
    "vdot",
    "unravel_index",
    "select",
    "isin",
    "argpartition",
    "unique",
    "nonzero",
    "searchsorted",
    "digitize",
    "bincount",
    "histogram",
    "count_nonzero",
    "diff",
    "trapezoid",
    "correlate",
    "corrcoef",
    "vectorize",
]
CORE_OPS = ["unstack", "rearrange"]


def _np(x):
    return np.asarray(ops.convert_to_numpy(x))


@pytest.mark.parametrize("name", NUMPY_OPS + CORE_OPS)
def test_signature_is_keras(name):
    ours, theirs = getattr(hl.ops, name), getattr(keras.ops, name)
    assert inspect.signature(ours) == inspect.signature(theirs), name
    namespace = hl.ops.numpy if name in NUMPY_OPS else hl.ops.core
    assert getattr(namespace, name) is ours and name in namespace.__all__


# --------------------------------------------------------------------------------------- symbolic tensors
def test_functional_model_with_array_ops(backend):
    inputs = hl.Input((4, 3))
    flat = ops.rearrange(inputs, "b h w -> b (w h)")
    steps = ops.diff(ops.roll(flat, 1, axis=-1), axis=-1)
    tiled = ops.kron(steps, ops.ones((1, 2)))
    rows = ops.trace(ops.reshape(inputs[:, :3, :], (-1, 3, 3)), axis1=1, axis2=2)
    assert flat.shape == (None, 12) and steps.shape == (None, 11) and tiled.shape == (None, 22)
    model = hl.Model(inputs, [tiled, rows])
    x = np.arange(24, dtype="float32").reshape(2, 4, 3) ** 1.5
    got_tiled, got_rows = model.predict(x, verbose=0)
    flat_np = np.transpose(x, (0, 2, 1)).reshape(2, 12)
    want = np.kron(np.diff(np.roll(flat_np, 1, axis=-1), axis=-1), np.ones((1, 2)))
    np.testing.assert_allclose(got_tiled, want, rtol=1e-6)
    np.testing.assert_allclose(got_rows, np.trace(x[:, :3, :], axis1=1, axis2=2), rtol=1e-6)


def test_data_dependent_shapes_are_unknown_on_symbolic_tensors():
    x = hl.Input((5,), dtype="int32")
    values, counts = ops.unique(x, return_counts=True)
    assert values.shape == (None,) and counts.shape == (None,)
    values, inverse = ops.unique(ops.reshape(x, (-1,)), return_inverse=True, size=3)
    assert values.shape == (3,) and inverse.shape[1:] == ()
    assert [t.shape for t in ops.nonzero(x)] == [(None,), (None,)]
    assert ops.bincount(x).shape == (None, None)
    assert ops.unique(hl.Input((4, 3)), axis=1).shape == (None, None, 3)


def test_unstack_of_an_unknown_axis_with_num(backend):
    inputs = hl.Input((3,))
    parts = ops.unstack(inputs, num=2, axis=0)
    assert [p.shape for p in parts] == [(3,), (3,)]
    model = hl.Model(inputs, parts)
    x = np.arange(6, dtype="float32").reshape(2, 3)
    assert [_np(p).tolist() for p in model(x)] == x.tolist()


def test_unique_in_a_functional_model(backend):
    inputs = hl.Input((6,), dtype="int32", batch_size=1)
    values, counts = ops.unique(ops.reshape(inputs, (-1,)), return_counts=True, size=4, fill_value=-1)
    model = hl.Model(inputs, [values, counts])
    got_values, got_counts = model(np.array([[5, 1, 5, 2, 1, 5]], np.int32))
    assert _np(got_values).tolist() == [1, 2, 5, -1] and _np(got_counts).tolist() == [2, 1, 3, 0]


# ------------------------------------------------------------------------- data-dependent shapes, compiled
TRACING = ("jax", "tensorflow")  # engines that trace a compiled step; native and torch replay their ops


def test_unique_with_size_works_in_a_compiled_step(backend):
    step = backend.compile_step(lambda t: ops.unique(t, return_counts=True, size=4), [], jit_compile="auto")
    for x, want in (([3, 1, 2, 1, 3], ([1, 2, 3, 0], [2, 1, 2, 0])), ([7, 7, 0, 4, 9], ([0, 4, 7, 9], [1, 1, 2, 1]))):
        values, counts = step(backend.convert_to_tensor(np.array(x, np.int32)))
        assert (_np(values).tolist(), _np(counts).tolist()) == want


@pytest.mark.parametrize("op", ["unique", "nonzero", "bincount"])
def test_value_dependent_shapes_in_a_compiled_step(backend, op):
    fn = getattr(ops, op)
    step = backend.compile_step(lambda t: fn(t), [], jit_compile="auto")
    data = [np.array([3, 1, 2, 1, 3], np.int32), np.array([0, 4, 4, 0, 0], np.int32)]
    if backend.name in TRACING:
        with pytest.raises(ValueError, match="compiled step"):
            step(backend.convert_to_tensor(data[0]))
        return
    for x in data:  # replayed with values of another result shape
        got = step(backend.convert_to_tensor(x))
        want = {"unique": np.unique, "nonzero": np.nonzero, "bincount": np.bincount}[op](x)
        for g, w in zip(got if isinstance(got, tuple) else [got], want if isinstance(want, tuple) else [want]):
            assert _np(g).tolist() == np.asarray(w).tolist()


def test_unique_in_a_compiled_step_needs_size_only_where_the_step_is_traced(backend):
    step = backend.compile_step(lambda t: ops.unique(t), [], jit_compile="auto")
    x = backend.convert_to_tensor(np.array([1, 2, 1], np.int32))
    if backend.name in TRACING:  # a traced step has no values: the error names the argument that fixes the size
        with pytest.raises(ValueError, match="size="):
            step(x)
    else:  # native and torch steps run the op on concrete values: the result has its data-dependent size
        assert _np(step(x)).tolist() == [1, 2]


def test_unique_gradient_reaches_the_values(backend):
    x = backend.convert_to_tensor(np.array([2.0, -1.0, 2.0, 0.5], np.float32))
    _, g = backend.value_and_grad(lambda t: ops.sum(ops.unique(t) * ops.convert_to_tensor([1.0, 2.0, 3.0])))(x)
    # each distinct value is its first occurrence: -1 -> x[1], 0.5 -> x[3], 2 -> x[0]
    np.testing.assert_allclose(_np(g), [3.0, 1.0, 0.0, 2.0])


# -------------------------------------------------------------------------------------------- vectorize
def test_vectorize_scalar_function(backend):
    f = ops.vectorize(lambda a, b: ops.where(a > b, a - b, a + b))
    a, b = np.array([[1.0, 5.0], [2.0, -3.0]], np.float32), np.array([2.0, 1.0], np.float32)
    got = f(ops.convert_to_tensor(a), ops.convert_to_tensor(b))
    np.testing.assert_allclose(_np(got), np.where(a > b, a - b, a + b))


def test_vectorize_signature_excluded_and_several_outputs(backend):
    def stats(m, v, scale):
        return ops.matmul(m, v) * scale, ops.sum(v)

    f = ops.vectorize(stats, signature="(m,n),(n)->(m),()", excluded={2})
    m = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    v = np.arange(8, dtype=np.float32).reshape(2, 4)
    prod, total = f(ops.convert_to_tensor(m), ops.convert_to_tensor(v), 0.5)
    np.testing.assert_allclose(_np(prod), np.einsum("bmn,bn->bm", m, v) * 0.5)
    np.testing.assert_allclose(_np(total), v.sum(axis=1))


def test_vectorize_is_differentiable(backend):
    norm = ops.vectorize(lambda v: ops.sqrt(ops.sum(v * v)), signature="(n)->()")
    x = np.array([[3.0, 4.0], [6.0, 8.0]], np.float32)
    _, g = backend.value_and_grad(lambda t: ops.sum(norm(t)))(backend.convert_to_tensor(x))
    np.testing.assert_allclose(_np(g), x / np.linalg.norm(x, axis=1, keepdims=True), rtol=1e-6)


@pytest.mark.parametrize(
    "signature,args,match",
    [
        ("(n)->", None, "signature"),
        ("(n),(n)->()", [np.ones(3, np.float32)], "2 inputs"),
        ("(n)->()", [np.ones((2, 3), np.float32), np.ones(2, np.float32)], "1 inputs"),
        ("(n),(n)->()", [np.ones(3, np.float32), np.ones(4, np.float32)], "core axis 'n'"),
    ],
)
def test_vectorize_errors(signature, args, match):
    with pytest.raises(ValueError, match=match):
        f = ops.vectorize(lambda *a: a[0], signature=signature)
        f(*[ops.convert_to_tensor(a) for a in args])


# -------------------------------------------------------------------------------------------- rearrange
PATTERNS = [
    ("b h w c -> b c h w", {}),
    ("b h w c -> (b h) w c", {}),
    ("b h w c -> h (b w) c", {}),
    ("b h w c -> b (c h w)", {}),
    ("b (h1 h) (w1 w) c -> (b h1 w1) h w c", {"h1": 2, "w1": 2}),
    ("b (h h1) (w w1) c -> b h w (c h1 w1)", {"h1": 2, "w1": 3}),
]


@pytest.mark.parametrize("pattern,lengths", PATTERNS, ids=[p for p, _ in PATTERNS])
def test_rearrange_matches_keras(backend, pattern, lengths):
    x = np.random.default_rng(0).random((2, 4, 6, 3)).astype("float32")
    want = np.asarray(keras.ops.convert_to_numpy(keras.ops.rearrange(x, pattern, **lengths)))
    got = _np(ops.rearrange(ops.convert_to_tensor(x), pattern, **lengths))
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_rearrange_symbolic_batch():
    x = hl.Input((4, 6, 3))
    assert ops.rearrange(x, "b (h1 h) w c -> (b h1) h (w c)", h1=2).shape == (None, 2, 18)
    assert ops.rearrange(x, "b ... c -> c b ...").shape == (3, None, 4, 6)


@pytest.mark.parametrize(
    "pattern,lengths,match",
    [
        ("a b c", {}, "input axes -> output axes"),
        ("a b c -> a b", {}, "only on the left"),
        ("a b c -> a b c d", {}, "only on the right"),
        ("a a c -> a c", {}, "repeat"),
        ("(a b) c d -> a b c d", {}, "cannot be inferred"),
        ("(a b) c d -> a b c d", {"a": 3}, "does not split"),
        ("a b -> b a", {}, "names 2 axes"),
        ("a b c -> c b a", {"z": 2}, "name no axis"),
        ("a (b (c)) d -> a b c d", {}, "nest"),
        ("a b c -> a b c!", {}, "'!'"),
    ],
)
def test_rearrange_errors(pattern, lengths, match):
    with pytest.raises(ValueError, match=match):
        ops.rearrange(ops.ones((4, 3, 2)), pattern, **lengths)


# --------------------------------------------------------------------------------------- front-door errors
@pytest.mark.parametrize(
    "call,error,match",
    [
        (lambda: ops.hsplit(ops.ones((2, 5)), 2), ValueError, "equal sections"),
        (lambda: ops.vsplit(ops.ones(4), 2), ValueError, "rank 2 or more"),
        (lambda: ops.bincount(ops.convert_to_tensor([1, 2]), sparse=True), ValueError, "sparse"),
        (lambda: ops.bincount(ops.convert_to_tensor([1, -2])), ValueError, "non-negative"),
        (lambda: ops.bincount(ops.convert_to_tensor([1.0, 2.0])), TypeError, "integers"),
        (lambda: ops.histogram(ops.ones(3), range=(2, 1)), ValueError, "low <= high"),
        (lambda: ops.argpartition(ops.ones(3), 3), ValueError, "out of bounds"),
        (lambda: ops.cross(ops.ones(4), ops.ones(3)), ValueError, "2 or 3 components"),
        (lambda: ops.diagonal(ops.ones((2, 2)), axis1=1, axis2=-1), ValueError, "different axes"),
        (lambda: ops.roll(ops.ones((2, 2)), (1, 2, 3), axis=(0, 1)), ValueError, "same length"),
        (lambda: ops.select([ops.ones(2) > 0], []), ValueError, "same length"),
        (lambda: ops.correlate(ops.ones((2, 2)), ops.ones(2)), ValueError, "rank 1"),
        (lambda: ops.unstack(ops.ones((2, 3)), num=2, axis=1), ValueError, "num=2"),
        (lambda: ops.unstack(hl.Input((3,)), axis=0), ValueError, "pass num="),
        (lambda: ops.dot(ops.ones((2, 3)), ops.ones((2, 3))), ValueError, "same size"),
        (lambda: ops.meshgrid(ops.ones(2), indexing="ji"), ValueError, "indexing"),
    ],
)
def test_front_door_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
