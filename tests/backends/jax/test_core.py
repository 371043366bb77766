"""JAX backend core: tensors, variables, devices, value_and_grad and seeded random (also under jit)."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from highlevel.backends import Variable, get  # noqa: E402
from highlevel.backends.jax import JaxBackend, JaxVariableHandle  # noqa: E402


@pytest.fixture(scope="module")
def b():
    return get("jax")


def test_capabilities_and_names(b):
    assert isinstance(b, JaxBackend)
    assert b.name == "jax" and b.pip_extra == "jax"
    caps = b.capabilities
    assert caps.supports_float64 and caps.supports_bfloat16 and caps.supports_jit
    assert caps.stateless_step and caps.supports_gpu and caps.distributed


def test_tensor_basics(b):
    x = b.convert_to_tensor([[1.0, 2.0, 3.0]])
    assert b.is_tensor(x) and not b.is_tensor(np.zeros(2))
    assert b.shape(x) == (1, 3) and all(type(d) is int for d in b.shape(x))
    assert b.ndim(x) == 2 and b.size(x) == 3
    assert isinstance(b.to_numpy(x), np.ndarray)
    np.testing.assert_array_equal(b.to_numpy(b.cast(x, "int32")), [[1, 2, 3]])
    c = b.copy(x)
    assert c is not x
    np.testing.assert_array_equal(b.to_numpy(c), b.to_numpy(x))
    assert b.dtype(b.zeros_like(x, "int8")) == "int8"
    np.testing.assert_array_equal(b.to_numpy(b.full_like(x, 7)), [[7.0, 7.0, 7.0]])


def test_variable_handle_assign_and_read(b):
    v = Variable([1.0, 2.0], backend=b, name="v")
    assert isinstance(v.handle, JaxVariableHandle)
    assert not hasattr(v.handle, "__dict__")  # __slots__
    assert v.dtype == "float32"
    v.assign([3, 4])  # ints are cast to the variable's dtype
    assert v.dtype == "float32"
    np.testing.assert_array_equal(v.numpy(), [3.0, 4.0])
    v.assign_add([1.0, 1.0])
    np.testing.assert_array_equal(b.to_numpy(b.read_variable(v.handle)), [4.0, 5.0])
    with pytest.raises(ValueError, match=r"\(3,\).*\(2,\)"):
        v.assign([1.0, 2.0, 3.0])


def test_variable_copies_its_initial_value(b):
    t = b.convert_to_tensor([1.0])
    v = Variable(t, backend=b)
    v.assign([5.0])
    np.testing.assert_array_equal(b.to_numpy(t), [1.0])


def test_a_variable_owns_its_buffer_and_making_one_compiles_nothing(b):
    # its own buffer: a compiled step that donates the variable's buffer must not delete the caller's array
    t = b.convert_to_tensor(np.arange(6.0, dtype=np.float32).reshape(2, 3) + 0.5)
    v = Variable(t, backend=b)
    assert v.handle.value.unsafe_buffer_pointer() != t.unsafe_buffer_pointer()
    step = jax.jit(lambda x: x * 2.0, donate_argnums=0)
    v.handle.value = step(v.handle.value)
    np.testing.assert_array_equal(b.to_numpy(t), np.arange(6.0).reshape(2, 3) + 0.5)
    np.testing.assert_array_equal(v.numpy(), (np.arange(6.0).reshape(2, 3) + 0.5) * 2.0)
    # and no XLA program per new weight shape (a model's first build made one per shape: ~45 ms each)
    compiled = []

    def listener(event, duration, **kwargs):
        if event == "/jax/core/compile/backend_compile_duration":
            compiled.append(event)

    values = [b.convert_to_tensor(np.ones((17 + i, 5), np.float32)) for i in range(3)]
    jax.monitoring.register_event_duration_secs_listener(listener)
    try:
        made = [Variable(x, backend=b) for x in values]
    finally:
        jax.monitoring.unregister_event_duration_listener(listener)
    assert not compiled, compiled
    assert [m.shape for m in made] == [(17, 5), (18, 5), (19, 5)] and all(m.dtype == "float32" for m in made)


def test_ops_unwrap_variables(b):
    v = Variable([1.0, -2.0], backend=b)
    np.testing.assert_array_equal(b.to_numpy(b.abs(v)), [1.0, 2.0])
    np.testing.assert_array_equal(b.to_numpy(b.add(v, v)), [2.0, -4.0])
    np.testing.assert_array_equal(b.to_numpy(v * 2), [2.0, -4.0])
    assert b.shape(v) == (2,) and b.dtype(v) == "float32"


def test_devices(b):
    names = b.devices()
    assert names and all(":" in n for n in names)
    assert b.default_device() in names
    with b.device_scope(names[0]):
        x = b.zeros((2,))
        assert b.default_device() == names[0]
    y = b.to_device(x, names[0])
    assert b.shape(y) == (2,)
    with pytest.raises(ValueError, match="Available devices"):
        b.to_device(x, "cpu:99")


def test_value_and_grad_basic_and_argnums(b):
    def f(x, y):
        return b.sum(b.multiply(x, y))

    x = b.convert_to_tensor([1.0, 2.0])
    y = b.convert_to_tensor([3.0, 4.0])
    value, g = b.value_and_grad(f)(x, y)
    assert float(value) == 11.0
    np.testing.assert_array_equal(b.to_numpy(g), [3.0, 4.0])
    value, (gx, gy) = b.value_and_grad(f, argnums=(0, 1))(x, y)
    np.testing.assert_array_equal(b.to_numpy(gy), [1.0, 2.0])
    grads = b.grad(f, argnums=1)(x, y)
    np.testing.assert_array_equal(b.to_numpy(grads), [1.0, 2.0])


def test_value_and_grad_int_arguments_get_none(b):
    def f(x, n):
        return b.sum(b.multiply(x, b.cast(n, "float32")))

    x = b.convert_to_tensor([1.0, 2.0])
    n = b.convert_to_tensor([2, 3])
    value, (gx, gn) = b.value_and_grad(f, argnums=(0, 1))(x, n)
    assert float(value) == 8.0
    np.testing.assert_array_equal(b.to_numpy(gx), [2.0, 3.0])
    assert gn is None
    _, gn_only = b.value_and_grad(f, argnums=1)(x, n)
    assert gn_only is None


def test_value_and_grad_pytrees_and_aux(b):
    params = {
        "w": b.convert_to_tensor([1.0, 2.0]),
        "b": [b.convert_to_tensor(0.5), b.convert_to_tensor(3)],
        "unused": b.convert_to_tensor([7.0]),
    }

    def loss(p, x):
        y = b.add(b.multiply(p["w"], x), p["b"][0])
        return b.sum(b.square(y)), {"y": y}

    x = b.convert_to_tensor([1.0, 1.0])
    (value, aux), grads = b.value_and_grad(loss, has_aux=True)(params, x)
    np.testing.assert_allclose(float(value), 1.5**2 + 2.5**2)
    np.testing.assert_allclose(b.to_numpy(aux["y"]), [1.5, 2.5])
    assert set(grads) == {"w", "b", "unused"}
    np.testing.assert_allclose(b.to_numpy(grads["w"]), [3.0, 5.0])
    assert isinstance(grads["b"], list)
    np.testing.assert_allclose(float(grads["b"][0]), 8.0)
    assert grads["b"][1] is None  # int leaf
    np.testing.assert_array_equal(b.to_numpy(grads["unused"]), [0.0])  # unused float: zeros


def test_value_and_grad_tuple_structure_and_python_floats(b):
    def f(pair):
        a, c = pair
        return b.multiply(a, c)

    value, g = b.value_and_grad(f)((2.0, 3.0))
    assert isinstance(g, tuple)
    assert float(g[0]) == 3.0 and float(g[1]) == 2.0
    assert b.dtype(value) == "float32"


def test_gradient_conventions(b):
    grad = lambda f, x: b.to_numpy(b.grad(f)(b.convert_to_tensor(x)))
    np.testing.assert_array_equal(grad(lambda x: b.sum(b.relu(x)), [0.0, 1.0, -1.0]), [0.0, 1.0, 0.0])
    np.testing.assert_array_equal(grad(lambda x: b.sum(b.abs(x)), [0.0, 2.0, -2.0]), [0.0, 1.0, -1.0])
    np.testing.assert_array_equal(grad(lambda x: b.max(x), [1.0, 3.0, 3.0]), [0.0, 0.5, 0.5])
    np.testing.assert_array_equal(grad(lambda x: b.sum(b.maximum(x, 1.0)), [1.0, 2.0]), [0.5, 1.0])
    np.testing.assert_array_equal(
        grad(lambda x: b.sum(b.clip(x, 0.0, 1.0)), [-1.0, 0.0, 0.5, 1.0, 2.0]), [0.0, 1.0, 1.0, 1.0, 0.0]
    )
    assert np.isinf(grad(lambda x: b.sum(b.sqrt(x)), [0.0])[0])


def test_random_reproducible_and_seed_sensitive(b):
    for draw in (
        lambda s: b.random_normal((5,), seed=s),
        lambda s: b.random_uniform((5,), seed=s),
        lambda s: b.random_truncated_normal((5,), seed=s),
        lambda s: b.random_randint((5,), 0, 100, seed=s),
        lambda s: b.random_shuffle(np.arange(10), seed=s),
    ):
        a = b.to_numpy(draw((1, 2)))
        np.testing.assert_array_equal(a, b.to_numpy(draw((1, 2))))
        np.testing.assert_array_equal(a, b.to_numpy(draw(b.convert_to_tensor([1, 2], "int32"))))
        assert not np.array_equal(a, b.to_numpy(draw((1, 3))))


def test_random_ranges_and_moments(b):
    u = b.to_numpy(b.random_uniform((10000,), 2.0, 3.0, seed=(0, 0)))
    assert u.min() >= 2.0 and u.max() < 3.0
    n = b.to_numpy(b.random_normal((20000,), mean=1.0, stddev=2.0, seed=(0, 1)))
    assert abs(n.mean() - 1.0) < 0.05 and abs(n.std() - 2.0) < 0.05
    t = b.to_numpy(b.random_truncated_normal((10000,), mean=1.0, stddev=0.5, seed=(0, 2)))
    assert t.min() >= 0.0 and t.max() <= 2.0
    r = b.to_numpy(b.random_randint((1000,), -3, 4, dtype="int64", seed=(0, 3)))
    assert r.dtype == np.int64 and set(np.unique(r)) == set(range(-3, 4))
    s = b.to_numpy(b.random_shuffle(np.arange(12).reshape(3, 4), axis=1, seed=(5, 6)))
    assert sorted(s[0].tolist()) == [0, 1, 2, 3]
    np.testing.assert_array_equal(s - s[:, :1], np.zeros((3, 1)) + (s[0] - s[0, 0]))  # columns move together


def test_random_seed_uint32_range(b):
    big = b.to_numpy(b.random_normal((3,), seed=(2**32 - 1, 2**31)))
    assert np.isfinite(big).all()


def test_random_with_traced_seed_under_jit(b):
    f = jax.jit(lambda s: b.random_normal((3,), seed=s))
    seed = b.convert_to_tensor([4, 5], "int32")
    np.testing.assert_array_equal(b.to_numpy(f(seed)), b.to_numpy(b.random_normal((3,), seed=(4, 5))))
    g = jax.jit(
        lambda s: (
            b.random_uniform((2,), seed=s),
            b.random_randint((2,), 0, 9, seed=s),
            b.random_truncated_normal((2,), seed=s),
            b.random_shuffle(jnp.arange(4), seed=s),
            b.random_dropout(b.ones((8,)), 0.5, seed=s),
        )
    )
    outs = g(seed)
    assert b.shape(outs[-1]) == (8,)
    kept = b.to_numpy(outs[-1])
    assert set(np.unique(kept)) <= {0.0, 2.0}


def test_dropout(b):
    x = b.ones((1000,))
    y = b.to_numpy(b.random_dropout(x, 0.25, seed=(1, 1)))
    assert set(np.unique(y)) <= {0.0, np.float32(1 / 0.75)}
    assert 0.2 < (y == 0).mean() < 0.3
    assert b.dtype(b.random_dropout(b.ones((4,), "float16"), 0.5, seed=(1, 1))) == "float16"


def test_ops_under_jit(b):
    x = np.random.RandomState(0).randn(2, 5, 5, 3).astype("float32")
    k = np.random.RandomState(1).randn(3, 3, 3, 4).astype("float32")

    def f(x, k):
        y = b.conv(x, k, padding="same")
        y = b.max_pool(b.relu(y), 2, padding="same")
        y = b.average_pool(y, 2, 1, padding="same")
        y = b.reshape(y, (2, -1))
        y = b.log_softmax(b.add(y, 1.0))
        return b.mean(b.take(y, b.argmax(y, axis=-1)[:1], axis=1))

    eager = f(x, k)
    jitted = jax.jit(f)(x, k)
    np.testing.assert_allclose(b.to_numpy(jitted), b.to_numpy(eager), rtol=1e-5)
    vg = jax.jit(b.value_and_grad(lambda k: f(x, k)))
    value, g = vg(b.convert_to_tensor(k))
    assert b.shape(g) == k.shape and np.isfinite(b.to_numpy(g)).all()
