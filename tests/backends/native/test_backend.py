"""NativeBackend's core contract: value_and_grad, variables, random, devices, creation ops, isolation."""

import subprocess
import sys

import numpy as np
import pytest

import highlevel as hl
from highlevel.backends.contract import Variable
from highlevel.backends.native import NativeBackend, Tensor
from highlevel.backends.native.autograd import grad

B = NativeBackend()


def T(v, dtype=None):
    return B.convert_to_tensor(v, dtype)


def test_contract_is_complete_and_capabilities():
    assert not NativeBackend.__abstractmethods__
    assert B.name == "native" and B.pip_extra is None
    caps = B.capabilities
    assert caps.supports_float64 and caps.supports_gpu and not caps.supports_jit
    try:
        import ml_dtypes  # noqa: F401

        assert caps.supports_bfloat16
    except ImportError:
        assert not caps.supports_bfloat16


def test_value_and_grad_pytrees():
    def loss(params, x):
        return B.sum(B.square(params["w"] * x)) + B.sum(params["b"][0]) + 0.0 * B.sum(params["b"][1])

    params = {"w": T([1.0, 2.0]), "b": [T([3.0]), T([4.0, 5.0])], "n": T([1, 2])}
    value, grads = B.value_and_grad(loss)(params, T([3.0, 3.0]))
    assert B.to_numpy(value) == pytest.approx(9 + 36 + 3)
    assert B.to_numpy(grads["w"]).tolist() == [18.0, 36.0]
    assert B.to_numpy(grads["b"][0]).tolist() == [1.0]
    assert B.to_numpy(grads["b"][1]).tolist() == [0.0, 0.0]
    assert grads["n"] is None
    assert isinstance(grads["b"], list)


def test_value_and_grad_argnums_aux_unused_and_ints():
    def f(a, b, n):
        return B.sum(a * 2.0), {"double": a * 2.0}

    (value, aux), (ga, gb, gn) = B.value_and_grad(f, argnums=(0, 1, 2), has_aux=True)(
        T([1.0, 2.0]), (T([1.0]), T([2.0])), T([1, 2])
    )
    assert B.to_numpy(value) == 6.0
    assert not aux["double"].requires_grad
    assert B.to_numpy(ga).tolist() == [2.0, 2.0]
    assert isinstance(gb, tuple) and B.to_numpy(gb[0]).tolist() == [0.0]
    assert gn is None
    g = B.grad(lambda x: B.sum(B.exp(x)))(T([0.0]))
    assert B.to_numpy(g).tolist() == [1.0]


def test_value_and_grad_python_and_numpy_inputs():
    v, g = B.value_and_grad(lambda x: x * x)(3.0)
    assert B.to_numpy(v) == 9.0 and B.to_numpy(g) == 6.0 and B.dtype(g) == "float32"
    _, g64 = B.value_and_grad(lambda x: B.sum(x))(np.ones(2))
    assert B.dtype(g64) == "float64"


def test_value_and_grad_needs_a_scalar():
    with pytest.raises(ValueError, match="scalar"):
        B.value_and_grad(lambda x: x * 2.0)(T([1.0, 2.0]))


def test_value_and_grad_does_not_touch_its_inputs():
    x = T([1.0, 2.0])
    B.value_and_grad(lambda t: B.sum(t * t))(x)
    assert not x.requires_grad and x.grad is None


def test_variables_read_assign_and_version():
    with hl.config.backend_scope("native"):
        v = Variable([1.0, 2.0], name="v")
        handle = v.handle
        assert isinstance(handle, Tensor) and handle.requires_grad
        assert v.value is handle
        assert handle._version == 0
        v.assign([3, 4])
        assert handle._version == 1 and B.dtype(v.value) == "float32"
        assert v.numpy().tolist() == [3.0, 4.0]
        with pytest.raises(ValueError, match=r"\(3,\).*\(2,\)"):
            v.assign([1.0, 2.0, 3.0])
        v.assign_add([1.0, 1.0])
        assert v.numpy().tolist() == [4.0, 5.0] and handle._version == 2
        frozen = Variable([1, 2], trainable=False)
        assert not frozen.handle.requires_grad
        y = B.sum(B.square(v.value))
        (g,) = grad(y, [v.handle])
        assert g.tolist() == [8.0, 10.0]


def test_variable_is_a_copy_of_its_initial_value():
    init = np.array([1.0, 2.0], np.float32)
    h = B.make_variable_handle(T(init), trainable=True)
    init[0] = 50.0
    assert B.to_numpy(h).tolist() == [1.0, 2.0]
    src = np.array([7.0, 7.0], np.float32)
    B.assign_variable(h, src)
    src[0] = 0.0
    assert B.to_numpy(h).tolist() == [7.0, 7.0]


def test_random_is_seeded_and_typed():
    a = B.random_normal((3, 4), seed=(1, 2))
    b = B.random_normal((3, 4), seed=(1, 2))
    c = B.random_normal((3, 4), seed=(1, 3))
    assert (B.to_numpy(a) == B.to_numpy(b)).all() and not (B.to_numpy(a) == B.to_numpy(c)).all()
    assert B.dtype(a) == "float32"
    t = B.random_uniform((1000,), 2.0, 3.0, dtype="float64", seed=T([5, 0], "int32"))
    u = B.to_numpy(t)
    assert B.dtype(t) == "float64" and u.min() >= 2.0 and u.max() < 3.0
    tn = B.to_numpy(B.random_truncated_normal((2000,), 1.0, 2.0, seed=(0, 0)))
    assert np.abs(tn - 1.0).max() <= 4.0
    r = B.random_randint((100,), 3, 7, dtype="int64", seed=(4, 4))
    assert B.dtype(r) == "int64" and set(np.unique(B.to_numpy(r))) <= {3, 4, 5, 6}
    s = B.to_numpy(B.random_shuffle(T(np.arange(10)), seed=(1, 0)))
    assert sorted(s.tolist()) == list(range(10))
    d = B.to_numpy(B.random_dropout(T(np.ones(1000, np.float32)), 0.5, seed=(3, 1)))
    assert set(np.unique(d)) <= {0.0, 2.0}


def test_front_end_random_and_seed_generator():
    with hl.config.backend_scope("native"):
        a = hl.random.uniform((3,), seed=3)
        b = hl.random.uniform((3,), seed=3)
        assert (B.to_numpy(a) == B.to_numpy(b)).all()
        g = hl.random.SeedGenerator(5)
        x, y = hl.random.normal((3,), seed=g), hl.random.normal((3,), seed=g)
        assert not (B.to_numpy(x) == B.to_numpy(y)).all()


def test_devices():
    assert B.devices() == [B.default_device()] and B.default_device() in ("cpu:0", "gpu:0")
    with B.device_scope(B.default_device()):
        t = B.to_device(T([1.0]), B.default_device())
    assert B.to_numpy(t).tolist() == [1.0]
    with pytest.raises(ValueError, match="device"):
        B.device_scope("tpu:3")


def test_creation_ops():
    assert B.dtype(B.zeros((2, 3))) == "float32" and B.shape(B.ones(4, "int8")) == (4,)
    f = B.full((2,), 3)
    assert B.dtype(f) == "int32" and B.to_numpy(f).tolist() == [3, 3]
    assert B.dtype(B.full((2,), 1.5)) == "float32" and B.dtype(B.full((2,), True)) == "bool"
    assert B.dtype(B.arange(5)) == "int32" and B.to_numpy(B.arange(1, 7, 2)).tolist() == [1, 3, 5]
    assert B.dtype(B.arange(0.0, 1.0, 0.25)) == "float32"
    assert B.to_numpy(B.eye(2, 3, k=1)).tolist() == [[0, 1, 0], [0, 0, 1]]
    assert B.to_numpy(B.linspace(0, 1, 5)).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert B.dtype(B.zeros_like(T([1, 2]))) == "int32"
    x = T([1.0])
    c = B.copy(x)
    assert c is not x and B.to_numpy(c).tolist() == [1.0]


def test_misc_ops():
    oh = B.to_numpy(B.one_hot(T([0, 2, 5, -1]), 3))
    assert oh.tolist() == [[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]] and oh.dtype == np.float32
    assert B.shape(B.one_hot(T([0, 1]), 3, axis=0)) == (3, 2)
    parts = B.split(T(np.arange(6)), 3)
    assert [B.to_numpy(p).tolist() for p in parts] == [[0, 1], [2, 3], [4, 5]]
    with hl.config.backend_scope("native"), pytest.raises(ValueError, match="equal sections"):
        hl.ops.split(np.arange(5), 2)  # checked once, by the front door
    rows, cols = B.where(T([[True, False], [False, True]]))
    assert B.to_numpy(rows).tolist() == [0, 1] and B.dtype(cols) == "int32"
    with pytest.raises(ValueError, match="empty"):
        B.max(T(np.zeros((0, 2))), axis=0)
    assert B.to_numpy(B.max(T(np.zeros((0, 2))), axis=1)).shape == (0,)
    assert np.isnan(B.to_numpy(B.maximum(T([np.nan]), T([1.0])))).all()
    assert np.isnan(B.to_numpy(B.max(T([1.0, np.nan])))).all()
    assert np.isnan(B.to_numpy(B.relu(T([np.nan])))).all()
    assert B.to_numpy(B.sum(T(np.zeros((0,))))) == 0
    v, i = B.top_k(T([1.0, 3.0, 3.0, 2.0]), 2)
    assert B.to_numpy(v).tolist() == [3.0, 3.0] and B.to_numpy(i).tolist() == [1, 2]
    assert B.to_numpy(B.argsort(T([2, 1, 2, 0]))).tolist() == [3, 1, 0, 2]
    assert B.to_numpy(B.round(T([0.5, 1.5, 2.5]))).tolist() == [0.0, 2.0, 2.0]
    assert B.to_numpy(B.floor_divide(T([-7, 7]), 2)).tolist() == [-4, 3]
    assert B.to_numpy(B.mod(T([-7, 7]), 3)).tolist() == [2, 1]
    assert B.to_numpy(B.clip(T([True, False]), 0, 1)).dtype == np.int32
    assert B.shape(B.take_along_axis(T(np.ones((2, 3))), T([[0], [1]]), axis=1)) == (2, 1)


def test_conversions_accept_variables_lists_and_numpy():
    with hl.config.backend_scope("native"):
        v = Variable([1.0, 2.0])
        assert B.to_numpy(B.add(v, np.float32(1.0))).tolist() == [2.0, 3.0]
        assert B.to_numpy(B.add([[1, 2]], v)).tolist() == [[2.0, 4.0]]
        assert B.to_numpy(B.stack([T([1.0]), 2.0 * B.ones((1,))])).tolist() == [[1.0], [2.0]]
    arr = np.array([1.0, 2.0])
    t = B.convert_to_tensor(arr)
    arr[0] = 9.0
    assert B.to_numpy(t).tolist() == [1.0, 2.0]


def test_borrow_host_array_shares_the_buffer_read_only():
    arr = np.arange(6, dtype="float32").reshape(2, 3)
    t = B.borrow_host_array(arr[1:])
    assert np.shares_memory(t.data, arr) and not t.data.flags.writeable
    assert arr.flags.writeable  # the caller's array keeps its flags
    assert B.to_numpy(B.add(t, 1.0)).tolist() == [[4.0, 5.0, 6.0]]
    out = B.to_numpy(t)
    out[0, 0] = -1.0  # to_numpy hands out a copy
    assert arr[1, 0] == 3.0


def test_importing_with_native_loads_no_framework():
    code = (
        "import sys, highlevel as hl\n"
        "hl.ops.add(1.0, 2.0)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('jax', 'torch', 'tensorflow', 'cupy')]\n"
        "assert not bad, bad\n"
        "print('ok')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"HIGHLEVEL_BACKEND": "native", "PATH": ""},
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_gpu_request_without_cupy_is_a_clear_error():
    code = "import highlevel.backends.native"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"HIGHLEVEL_DEVICE": "gpu", "PATH": ""},
        timeout=120,
    )
    try:
        import cupy  # noqa: F401

        pytest.skip("CuPy is installed here")
    except ImportError:
        pass
    assert out.returncode != 0 and 'pip install -e ".[gpu]"' in out.stderr
