"""The JAX engine runs an eager op as one compiled program per signature (backends/jax/op_programs.py)."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import highlevel as hl  # noqa: E402
from highlevel.backends import get  # noqa: E402
from highlevel.config import backend_scope  # noqa: E402

_LOWERED = "/jax/core/compile/jaxpr_to_mlir_module_duration"


@pytest.fixture(autouse=True)
def fresh_program_table():
    """Each test starts from an empty table of op programs (the engine is shared by the whole worker: counts
    of programs must not depend on which tests ran before), and the worker's table is put back after it."""
    b = get("jax")
    saved = b.__dict__.pop("_op_programs_table", None)
    yield
    if saved is None:
        b.__dict__.pop("_op_programs_table", None)
    else:
        b.__dict__["_op_programs_table"] = saved


@pytest.fixture
def lowered():
    """Counts the XLA programs JAX lowers while the test runs (each program, cached on disk or not)."""
    events = []

    def listener(event, duration, **kwargs):
        if event == _LOWERED:
            events.append(event)

    jax.monitoring.register_event_duration_secs_listener(listener)
    yield events
    jax.monitoring.unregister_event_duration_listener(listener)


def _image(shape, seed):
    return np.random.default_rng(seed).random(shape, dtype=np.float32) * 4.0


def test_composite_op_compiles_one_program_per_shape(lowered):
    b = get("jax")
    # shapes no other test uses, so that neither JAX's caches nor the op's table know them yet
    x, a, c, d = (jnp.asarray(_image(shape, i)) for i, shape in enumerate([(13, 11), (17, 11), (17, 11), (5, 7)]))
    start = len(lowered)  # counted from here: the programs of the ops alone
    raw = b.sparsemax(x, axis=-1)  # the engine's method itself: one program per primitive
    n_raw = len(lowered) - start
    with backend_scope("jax"):
        first = hl.ops.sparsemax(a, axis=-1)
        n_first = len(lowered) - start - n_raw
        again = hl.ops.sparsemax(c, axis=-1)
        n_again = len(lowered) - start - n_raw
        hl.ops.sparsemax(d, axis=-1)
        n_other = len(lowered) - start - n_raw
    assert n_raw > 5, f"sparsemax is built from several primitives; eagerly it lowered only {n_raw} programs"
    assert n_first == 1, f"expected one program for a new shape, got {n_first}"
    assert n_again == 1, "the same shape must reuse the program"
    assert n_other == 2, "a new shape compiles one more program"
    np.testing.assert_allclose(np.asarray(first).sum(-1), 1.0, rtol=1e-6)
    assert raw.shape == (13, 11) and again.shape == (17, 11)
    assert b.op_program_stats()["sparsemax"]["programs"] >= 1


def test_composite_public_op_compiles_one_program(lowered):
    from highlevel.ops import image

    b = get("jax")
    x, y = (jnp.asarray(_image((1, 9, 5, 3), i) / 4.0) for i in (4, 5))
    start = len(lowered)
    with backend_scope("jax"):
        hsv = image.rgb_to_hsv(x)  # some thirty hl.ops calls, each a program when run one by one
        n_first = len(lowered) - start
        image.rgb_to_hsv(y)
        n_again = len(lowered) - start
        back = image.hsv_to_rgb(hsv)
    assert n_first == 1 and n_again == 1, (n_first, n_again)
    np.testing.assert_allclose(np.asarray(back), np.asarray(x), atol=1e-6)
    assert b.op_program_stats()["image.rgb_to_hsv"]["programs"] == 1


def test_program_gives_the_eager_values_bit_for_bit():
    b = get("jax")
    x = jnp.asarray(np.random.default_rng(3).normal(size=(4, 9)).astype(np.float32))
    for name, args, kwargs in [
        ("logsumexp", (x,), {"axis": -1}),
        ("log_softmax", (x,), {"axis": 0}),
        ("gelu", (x,), {"approximate": False}),
        ("moments", (x, (0,)), {}),
        ("var", (x,), {"axis": 1}),
    ]:
        compiled = b.door_op(name)(*args, **kwargs)
        eager = getattr(b, name)(*args, **kwargs)
        for c, e in zip(jax.tree_util.tree_leaves(compiled), jax.tree_util.tree_leaves(eager)):
            assert c.dtype == e.dtype
            np.testing.assert_array_equal(np.asarray(c), np.asarray(e), err_msg=name)


def test_static_arguments_are_keyed_by_type_and_value():
    b = get("jax")
    add = b.door_op("add")
    x = jnp.asarray([1, 2], jnp.int32)
    f = jnp.asarray([1.0, 2.0], jnp.float32)
    # 1, 1.0 and True are equal in Python; each must keep its own meaning
    assert str(add(x, 1).dtype) == "int32"
    assert str(add(x, 1.0).dtype) == "float32"
    assert str(add(x, True).dtype) == "int32"
    np.testing.assert_array_equal(np.asarray(add(f, 2.5)), [3.5, 4.5])
    np.testing.assert_array_equal(np.asarray(add(f, -1.5)), [-0.5, 0.5])
    # a float operand of an elementwise op is traced: another value reuses the program
    programs = b.op_program_stats()["add"]["programs"]
    np.testing.assert_array_equal(np.asarray(add(f, 0.125)), [1.125, 2.125])
    assert b.op_program_stats()["add"]["programs"] == programs
    # -0.0 is not 0.0
    assert np.signbit(np.asarray(b.door_op("multiply")(jnp.asarray([1.0], jnp.float32), -0.0)))[0]


def test_value_dependent_ops_and_callables_stay_eager():
    b = get("jax")
    x = jnp.asarray([0, 3, 0, 5, 3], jnp.int32)
    with backend_scope("jax"):
        (idx,) = hl.ops.nonzero(x)
        np.testing.assert_array_equal(np.asarray(idx), [1, 3, 4])
        np.testing.assert_array_equal(np.asarray(hl.ops.unique(x)), [0, 3, 5])
        np.testing.assert_array_equal(np.asarray(hl.ops.bincount(x)), [2, 0, 0, 2, 0, 1])
        masked = hl.ops.convert_to_tensor([1.0, -2.0, 3.0])
        np.testing.assert_array_equal(np.asarray(masked[masked > 0]), [1.0, 3.0])
        out = hl.ops.fori_loop(0, 4, lambda i, v: v + i, jnp.asarray(0, jnp.int32))
        assert int(out) == 6
        mapped = hl.ops.vectorized_map(lambda r: r * 2.0, jnp.ones((3, 2), jnp.float32))
        np.testing.assert_array_equal(np.asarray(mapped), np.full((3, 2), 2.0, np.float32))
    stats = b.op_program_stats()
    for name in ("nonzero", "bincount", "fori_loop", "vectorized_map"):
        assert name not in stats, f"{name} must keep the eager path"
    assert stats["unique"]["programs"] == 0, "unique without size must keep the eager path"


def test_tracing_failure_falls_back_and_is_remembered():
    b = get("jax")
    wrapped = b.door_op("repeat")
    x = jnp.asarray([1.0, 2.0, 3.0], jnp.float32)
    reps = jnp.asarray([1, 0, 2], jnp.int32)  # per-element repeats: the output length depends on the values
    np.testing.assert_array_equal(np.asarray(wrapped(x, reps, axis=0)), [1.0, 3.0, 3.0])
    stats = b.op_program_stats()["repeat"]["eager_signatures"]
    assert stats >= 1, "a call that cannot be traced must be remembered as eager"
    np.testing.assert_array_equal(np.asarray(wrapped(x, jnp.asarray([2, 1, 0], jnp.int32), axis=0)), [1.0, 1.0, 2.0])
    assert b.op_program_stats()["repeat"]["eager_signatures"] == stats, "the same signature is not traced again"


def test_errors_of_the_op_are_its_own():
    b = get("jax")
    with pytest.raises((ValueError, TypeError)):
        b.door_op("matmul")(jnp.ones((2, 3)), jnp.ones((4, 5)))


def test_inside_jit_and_grad():
    b = get("jax")
    softmax = b.door_op("softmax")
    x = jnp.asarray([[0.5, -1.0, 2.0]], jnp.float32)

    def loss(v):
        return jnp.sum(softmax(v, axis=-1) * jnp.arange(3.0))

    eager_grad = jax.grad(loss)(x)  # eager grad: the op runs as one program with its derivative
    jit_grad = jax.jit(jax.grad(loss))(x)  # inside jit: the op is traced into the outer program
    p = np.exp(np.asarray(x, np.float64))
    p /= p.sum()
    expected = p * (np.arange(3.0) - (p * np.arange(3.0)).sum())
    np.testing.assert_allclose(np.asarray(eager_grad), expected, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(jit_grad), expected, rtol=1e-5)
    second = jax.grad(lambda s: jax.grad(lambda t: jnp.sum(b.door_op("tanh")(t)))(s).sum())(x)
    t = np.tanh(np.asarray(x, np.float64))
    np.testing.assert_allclose(np.asarray(second), -2 * t * (1 - t**2), rtol=1e-5)


def test_a_varying_python_float_stops_compiling(lowered):
    from highlevel.backends.jax import op_programs

    b = get("jax")
    op = b.door_op("hard_shrink")
    x = jnp.asarray([0.1, 0.5, 0.9], jnp.float32)
    for i in range(op_programs.MAX_FLOAT_VARIANTS + 5):
        threshold = 0.2 + i * 1e-4
        np.testing.assert_array_equal(np.asarray(op(x, threshold)), np.where(np.abs(x) > threshold, x, 0.0))
    stats = b.op_program_stats()["hard_shrink"]
    assert stats["programs"] == op_programs.MAX_FLOAT_VARIANTS and stats["eager_float_forms"] == 1, stats
    assert not stats["all_eager"]
    before = len(lowered)
    op(x, 0.33)  # a new threshold, eager: its primitives' programs exist already
    assert len(lowered) == before
    # another form of call (a new shape of x is no new form; a new keyword is) still gets its programs
    y = jnp.asarray([[0.1, 0.7]], jnp.float32)
    np.testing.assert_array_equal(np.asarray(op(y, threshold=0.5)), np.asarray([[0.0, 0.7]], np.float32))
    assert b.op_program_stats()["hard_shrink"]["programs"] == op_programs.MAX_FLOAT_VARIANTS + 1


def test_an_op_with_too_many_signatures_stays_eager(monkeypatch):
    from highlevel.backends.jax import op_programs

    monkeypatch.setattr(op_programs, "MAX_SIGNATURES", 4)
    b = get("jax")
    op = b.door_op("roll")
    x = jnp.arange(6.0)
    for shift in range(7):  # a Python int changing on every call
        np.testing.assert_array_equal(np.asarray(op(x, (shift,), (0,))), np.roll(np.arange(6.0), shift))
    stats = b.op_program_stats()["roll"]
    assert stats["all_eager"] and stats["programs"] == 4, stats


def test_a_copy_of_the_engine_runs_its_own_methods():
    b = get("jax")
    x = jnp.asarray([1.0, -2.0], jnp.float32)
    b.door_op("abs")(x)  # the engine's table now holds abs
    view = object.__new__(type("Doubled", (type(b),), {"abs": lambda self, v: jnp.abs(v) * 2.0}))
    view.__dict__.update(b.__dict__)  # as the conformance suite's generic view of an engine does
    np.testing.assert_array_equal(np.asarray(view.door_op("abs")(x)), [2.0, 4.0])
    np.testing.assert_array_equal(np.asarray(b.door_op("abs")(x)), [1.0, 2.0])


def test_other_engines_run_their_methods():
    native = get("native")
    assert native.door_op("add") == native.add


def test_a_method_replaced_after_its_first_use_is_the_one_that_runs(monkeypatch):
    b = get("jax")
    door = hl.ops._door
    x = jnp.asarray(_image((3, 19), 7))
    with backend_scope("jax"):
        first = np.asarray(door.call("logsumexp", x, axis=-1))
        calls = []
        original = type(b).logsumexp
        monkeypatch.setattr(
            type(b), "logsumexp", lambda self, *a, **k: calls.append(1) or original(self, *a, **k) + 1.0
        )
        patched = np.asarray(door.call("logsumexp", x, axis=-1))
        assert calls, "the replacement was not traced: the door ran the program of the old method"
        np.testing.assert_allclose(patched, first + 1.0, rtol=1e-6)
        monkeypatch.undo()
        np.testing.assert_array_equal(np.asarray(door.call("logsumexp", x, axis=-1)), first)


def test_unique_with_a_size_is_one_program_and_without_one_runs_eagerly(lowered):
    b = get("jax")
    x = jnp.asarray([3, 1, 3, 2, 1], jnp.int32)
    y = jnp.asarray([4, 2, 4, 3, 2], jnp.int32)
    with backend_scope("jax"):
        values, counts = hl.ops.unique(x, return_counts=True, size=4, fill_value=-1)
        np.testing.assert_array_equal(np.asarray(values), [1, 2, 3, -1])
        np.testing.assert_array_equal(np.asarray(counts), [2, 1, 2, 0])
        assert b.op_program_stats()["unique"]["programs"] == 1
        before = len(lowered)
        hl.ops.unique(y, return_counts=True, size=4, fill_value=-1)  # same signature: no new program
        assert len(lowered) == before
        # without size the number of entries depends on the values: read on the host, eagerly
        np.testing.assert_array_equal(np.asarray(hl.ops.unique(x)), [1, 2, 3])
        assert b.op_program_stats()["unique"]["programs"] == 1


def test_numpy_scalar_operands_are_traced_not_keyed_by_value():
    b = get("jax")
    cast, add = b.door_op("cast"), b.door_op("add")
    # what iterating over a numpy array gives: a learning-rate schedule plotted step by step
    for step in np.arange(40):
        got = cast(step, "float32")
        assert str(got.dtype) == "float32" and float(got) == float(step)
    assert b.op_program_stats()["cast"]["programs"] == 1
    x = jnp.asarray([1.0, 2.0], jnp.float32)
    for k in np.linspace(0.0, 1.0, 9, dtype=np.float32):
        np.testing.assert_array_equal(np.asarray(add(x, k)), np.asarray([1.0, 2.0], np.float32) + k)
    assert b.op_program_stats()["add"]["programs"] == 1
    # a numpy scalar is strongly typed, traced or not: float64 widens a float32 operand, int64 stays int64
    assert str(add(x, np.float64(0.5)).dtype) == "float64" == str(b.add(x, np.float64(0.5)).dtype)
    assert str(cast(np.int64(2**40), "int64").dtype) == "int64" and int(cast(np.int64(2**40), "int64")) == 2**40
    # outside an operand slot a numpy scalar stays static: an axis still steers the program
    total = b.door_op("sum")
    m = jnp.asarray([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(np.asarray(total(m, axis=np.int64(0))), [4.0, 6.0])
    np.testing.assert_array_equal(np.asarray(total(m, axis=np.int64(1))), [3.0, 7.0])
    assert b.op_program_stats()["sum"]["programs"] == 2
