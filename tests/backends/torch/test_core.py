"""TorchBackend core: capabilities, creation ops, variables, devices, value_and_grad and random."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from highlevel.backends import get  # noqa: E402
from highlevel.backends.contract import Variable  # noqa: E402
from highlevel.backends.torch import TorchBackend  # noqa: E402


@pytest.fixture(scope="module")
def b():
    return get("torch")


def test_capabilities_and_names(b):
    assert not TorchBackend.__abstractmethods__
    assert b.name == "torch" and b.pip_extra == "torch"
    caps = b.capabilities
    assert caps.supports_float64 and caps.supports_bfloat16 and caps.supports_jit
    assert not caps.stateless_step and caps.supports_gpu and caps.distributed


def test_creation_ops(b):
    assert b.dtype(b.zeros((2, 3))) == "float32" and b.shape(b.ones(4, "int8")) == (4,)
    assert b.dtype(b.full((2,), 3)) == "int32" and b.dtype(b.full((2,), 3.0)) == "float32"
    assert b.dtype(b.full((2,), np.float64(3.0))) == "float64"
    np.testing.assert_array_equal(b.to_numpy(b.full((2, 2), [1, 2])), [[1, 2], [1, 2]])
    np.testing.assert_array_equal(b.to_numpy(b.arange(1, 10, 3)), np.arange(1, 10, 3))
    assert b.dtype(b.arange(5)) == "int32" and b.dtype(b.arange(0.0, 1.0, 0.25)) == "float32"
    np.testing.assert_allclose(b.to_numpy(b.arange(0, 1, 0.1)), np.arange(0, 1, 0.1), rtol=1e-6)
    np.testing.assert_array_equal(b.to_numpy(b.eye(3, 4, k=-1)), np.eye(3, 4, k=-1))
    np.testing.assert_allclose(b.to_numpy(b.linspace(-1, 2, 7)), np.linspace(-1, 2, 7), rtol=1e-7)
    np.testing.assert_allclose(b.to_numpy(b.linspace(0, 1, 4, endpoint=False)), [0, 0.25, 0.5, 0.75])
    np.testing.assert_array_equal(b.to_numpy(b.linspace(0, 10, 4, dtype="int32")), np.linspace(0, 10, 4, dtype="int32"))
    x = b.convert_to_tensor([1.0, 2.0])
    y = b.copy(x)
    assert y is not x and b.to_numpy(y).tolist() == [1.0, 2.0]
    assert b.dtype(b.zeros_like(x, "int8")) == "int8" and b.dtype(b.ones_like(x)) == "float32"


def test_to_numpy_is_a_copy(b):
    v = Variable([1.0, 2.0], backend=b)
    snapshot = b.to_numpy(v.value)
    v.assign([5.0, 6.0])
    assert snapshot.tolist() == [1.0, 2.0]


def test_variable_handle_assign_and_read(b):
    v = Variable([1.0, 2.0], backend=b, name="v")
    assert isinstance(v.handle, torch.nn.Parameter) and v.handle.requires_grad
    assert b.read_variable(v.handle) is v.handle
    v.assign([3, 4])  # ints are cast to the variable's dtype
    assert v.dtype == "float32" and v.numpy().tolist() == [3.0, 4.0]
    v.assign_add(1.0)
    assert v.numpy().tolist() == [4.0, 5.0] and v.handle.requires_grad
    with pytest.raises(ValueError, match=r"\(3,\).*\(2,\)"):
        v.assign([1.0, 2.0, 3.0])
    frozen = Variable([1.0], trainable=False, backend=b)
    assert not frozen.handle.requires_grad
    ints = Variable([1, 2], backend=b)
    assert ints.dtype == "int32" and not ints.handle.requires_grad
    # a variable is accepted wherever a tensor is
    assert b.to_numpy(b.add(v, v)).tolist() == [8.0, 10.0]
    assert b.to_numpy(b.multiply(v, 2)).tolist() == [8.0, 10.0]


def test_assign_inside_autograd_does_not_break_the_graph(b):
    v = Variable([1.0, 2.0], backend=b)
    loss = (v.value * 3).sum()
    (g,) = torch.autograd.grad(loss, [v.handle])
    v.assign(v.value - 0.1 * g)
    np.testing.assert_allclose(v.numpy(), [0.7, 1.7], rtol=1e-6)


def test_devices(b):
    names = b.devices()
    assert names[0] == "cpu:0" and b.default_device() in names
    with b.device_scope("cpu:0"):
        x = b.zeros((2,))
        assert b.default_device() == "cpu:0"
    assert b.shape(b.to_device(x, "cpu:0")) == (2,)
    with pytest.raises(ValueError, match="Available devices"):
        b.to_device(x, "cpu:7")
    with pytest.raises(ValueError, match="Available devices"):
        b.device_scope("tpu:0")


# ------------------------------------------------------------------ value_and_grad
def test_value_and_grad_basic_and_argnums(b):
    def f(x, y):
        return b.sum(b.multiply(x, y))

    x = np.array([1.0, 2.0], np.float32)
    y = np.array([3.0, 4.0], np.float32)
    value, g = b.value_and_grad(f)(x, y)
    assert float(value) == 11.0 and b.to_numpy(g).tolist() == [3.0, 4.0]
    value, (gx, gy) = b.value_and_grad(f, argnums=(0, 1))(x, y)
    assert b.to_numpy(gy).tolist() == [1.0, 2.0]
    gy_only = b.grad(f, argnums=1)(x, y)
    assert b.to_numpy(gy_only).tolist() == [1.0, 2.0]


def test_value_and_grad_pytrees_unused_and_int_leaves(b):
    def f(params, n):
        return b.sum(b.square(params["w"])) + b.sum(b.multiply(params["b"][0], b.cast(n, "float32")))

    params = {
        "w": np.array([1.0, -2.0], np.float32),
        "b": [np.float32(0.5), np.array([1.0], np.float32)],
        "steps": np.array([3]),
    }
    value, (g, gn) = b.value_and_grad(f, argnums=(0, 1))(params, np.array([1, 2]))
    assert float(value) == pytest.approx(5.0 + 1.5)
    assert b.to_numpy(g["w"]).tolist() == [2.0, -4.0]
    assert float(g["b"][0]) == 3.0
    assert b.to_numpy(g["b"][1]).tolist() == [0.0]  # unused float leaf: zeros
    assert g["steps"] is None and gn is None  # integer leaves: None


def test_value_and_grad_has_aux_and_inputs_untouched(b):
    x = torch.tensor([1.0, 2.0])

    def f(v):
        y = b.multiply(v, 2.0)
        return b.sum(b.square(y)), {"y": y}

    (value, aux), g = b.value_and_grad(f, has_aux=True)(x)
    assert float(value) == 20.0 and b.to_numpy(aux["y"]).tolist() == [2.0, 4.0]
    assert b.to_numpy(g).tolist() == [8.0, 16.0]
    assert not x.requires_grad and x.grad is None
    assert not value.requires_grad


def test_value_and_grad_of_variables_and_constants(b):
    v = Variable([1.0, 2.0], backend=b)
    g = b.grad(lambda t: b.sum(b.multiply(t, t)))(v)
    assert b.to_numpy(g).tolist() == [2.0, 4.0] and v.handle.grad is None
    g = b.grad(lambda t: b.convert_to_tensor(1.0))(np.ones(2, np.float32))
    assert b.to_numpy(g).tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match="scalar"):
        b.value_and_grad(lambda t: t)(np.ones(2, np.float32))


def test_gradient_conventions(b):
    def grad(fn, x):
        return b.to_numpy(b.grad(fn)(np.asarray(x, np.float32)))

    np.testing.assert_array_equal(grad(lambda x: b.sum(b.relu(x)), [0.0, 1.0, -1.0]), [0.0, 1.0, 0.0])
    np.testing.assert_array_equal(grad(lambda x: b.sum(b.abs(x)), [0.0, 2.0, -2.0]), [0.0, 1.0, -1.0])
    np.testing.assert_array_equal(grad(lambda x: b.max(x), [1.0, 3.0, 3.0]), [0.0, 0.5, 0.5])
    np.testing.assert_array_equal(grad(lambda x: b.sum(b.maximum(x, 1.0)), [1.0, 2.0]), [0.5, 1.0])
    np.testing.assert_array_equal(
        grad(lambda x: b.sum(b.clip(x, 0.0, 1.0)), [-1.0, 0.0, 0.5, 1.0, 2.0]), [0.0, 1.0, 1.0, 1.0, 0.0]
    )
    np.testing.assert_allclose(grad(lambda x: b.sum(b.leaky_relu(x)), [0.0, -1.0]), [1.0, 0.2])
    np.testing.assert_array_equal(grad(lambda x: b.sum(b.relu6(x)), [0.0, 6.0, 3.0]), [0.0, 0.0, 1.0])
    assert np.isinf(grad(lambda x: b.sum(b.sqrt(x)), [0.0])[0])
    np.testing.assert_array_equal(grad(lambda x: b.sum(b.round(x)), [0.4, 1.6]), [0.0, 0.0])


# -------------------------------------------------------------------------- random
@pytest.mark.parametrize(
    "op, args",
    [
        ("random_normal", {}),
        ("random_uniform", {}),
        ("random_truncated_normal", {}),
        ("random_randint", {"minval": 0, "maxval": 10}),
    ],
)
def test_random_reproducible_per_seed(b, op, args):
    f = getattr(b, op)
    a = b.to_numpy(f((50,), seed=(3, 4), **args))
    again = b.to_numpy(f((50,), seed=torch.tensor([3, 4], dtype=torch.int32), **args))
    other_seed = b.to_numpy(f((50,), seed=(4, 4), **args))
    other_counter = b.to_numpy(f((50,), seed=(3, 5), **args))
    np.testing.assert_array_equal(a, again)
    assert not np.array_equal(a, other_seed) and not np.array_equal(a, other_counter)


def test_random_distributions(b):
    n = b.to_numpy(b.random_normal((20000,), mean=1.0, stddev=2.0, seed=(1, 0)))
    assert abs(n.mean() - 1.0) < 0.1 and abs(n.std() - 2.0) < 0.1
    u = b.to_numpy(b.random_uniform((20000,), minval=-1.0, maxval=3.0, seed=(1, 0)))
    assert u.min() >= -1.0 and u.max() < 3.0 and abs(u.mean() - 1.0) < 0.05
    t = b.to_numpy(b.random_truncated_normal((20000,), mean=0.0, stddev=3.0, seed=(1, 0)))
    assert t.min() >= -6.0 and t.max() <= 6.0 and 2.3 < t.std() < 2.8  # std of a +-2 sigma truncation: 0.88
    r = b.random_randint((1000,), 2, 5, seed=(1, 0))
    assert b.dtype(r) == "int32" and set(np.unique(b.to_numpy(r))) == {2, 3, 4}
    for dtype in ("float16", "bfloat16", "float64"):
        assert b.dtype(b.random_normal((3,), dtype=dtype, seed=(0, 0))) == dtype
        assert b.dtype(b.random_uniform((3,), dtype=dtype, seed=(0, 0))) == dtype
    small = b.to_numpy(b.cast(b.random_uniform((5000,), 0.0, 1.0, dtype="bfloat16", seed=(2, 0)), "float32"))
    assert small.max() < 1.0


def test_random_shuffle_and_dropout(b):
    x = np.arange(20).reshape(10, 2)
    s = b.to_numpy(b.random_shuffle(x, seed=(5, 0)))
    assert sorted(s[:, 0].tolist()) == list(range(0, 20, 2)) and (s[:, 1] == s[:, 0] + 1).all()
    np.testing.assert_array_equal(s, b.to_numpy(b.random_shuffle(x, seed=(5, 0))))
    cols = b.to_numpy(b.random_shuffle(x, axis=1, seed=(5, 1)))
    assert sorted(cols[0].tolist()) == [0, 1]
    d = b.to_numpy(b.random_dropout(np.ones((1000,), np.float32), 0.5, seed=(1, 1)))
    assert set(np.unique(d)) <= {0.0, 2.0} and 400 < (d == 0).sum() < 600


def test_ops_trace_under_torch_compile(b):
    # supports_jit: the ops must trace into one graph (no numpy on the traced path)
    def f(x, k):
        y = b.relu(b.add(b.conv(x, k, strides=2, padding="same"), 0.5))
        z = b.softmax(b.reshape(b.max_pool(y, 2, padding="same"), (2, -1)))
        return b.mean(b.multiply(z, 2.0)) + b.sum(b.take(z, [0, -1], axis=1)) + b.sum(b.divide(z, 3))

    x, k = torch.randn(2, 8, 8, 3), torch.randn(3, 3, 3, 4)
    compiled = torch.compile(f, backend="aot_eager", fullgraph=True)
    np.testing.assert_allclose(float(compiled(x, k)), float(f(x, k)), rtol=1e-6)


def test_arrays_go_to_torchs_default_device_whichever_way_it_is_set():
    # The conversion's shortcut (the CPU when no device mode and no global default can be set) must give way
    # to both of torch's ways of choosing a default device.
    from highlevel.backends.torch import _convert as cv

    assert cv.convert(np.ones(2, np.float32)).device.type == "cpu"
    with torch.device("meta"):
        assert cv.default_device().type == "meta"
        assert cv.convert(np.ones(2, np.float32)).device.type == "meta"
    torch.set_default_device("meta")
    try:
        assert cv.convert(np.ones(2, np.float32)).device.type == "meta"
    finally:
        torch.set_default_device(None)
    assert cv.convert(np.ones(2, np.float32)).device.type == "cpu"
