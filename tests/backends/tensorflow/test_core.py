"""The TensorFlow backend's core: conversion, promotion, variables, devices, random and value_and_grad."""

import numpy as np
import pytest

from highlevel.backends.contract import Variable, dtypes


# ------------------------------------------------------------------ conversion and promotion
@pytest.mark.parametrize(
    "value,want",
    [
        (1.5, "float32"),
        (3, "int32"),
        (True, "bool"),
        ([1, 2], "int32"),
        ([1.0, 2], "float32"),
        (np.ones(2), "float64"),
        (np.ones(2, "int64"), "int64"),
        (np.float64(2.0), "float64"),
        (np.ones(2, "float16"), "float16"),
        ([], "float32"),
    ],
)
def test_convert_to_tensor_default_dtypes(tfb, value, want):
    assert tfb.dtype(tfb.convert_to_tensor(value)) == want


@pytest.mark.parametrize(
    "a,b,want",
    [
        (np.ones(2, "float32"), 2.0, "float32"),
        (np.ones(2, "int32"), 2.5, "float32"),
        (np.ones(2, "int8"), 3, "int8"),
        (np.ones(2, "float32"), np.float64(2.0), "float64"),
        (np.ones(2, "float32"), np.ones(2, "float64"), "float64"),
        (np.ones(2, "int64"), np.ones(2, "float16"), "float16"),
        (np.ones(2, "int8"), np.ones(2, "uint8"), "int16"),
        (np.ones(2, "float16"), 1, "float16"),
        (np.ones(2, "bool"), 1, "int32"),
        (np.ones(2, "uint64"), np.ones(2, "int64"), "float32"),
    ],
)
def test_binary_promotion(tfb, a, b, want):
    assert tfb.dtype(tfb.multiply(a, b)) == want
    assert tfb.dtype(tfb.add(b, a)) == want


def test_promotion_of_tensors_and_bfloat16(tfb):
    x = tfb.convert_to_tensor([1.0, 2.0], "bfloat16")
    assert tfb.dtype(tfb.add(x, 1.0)) == "bfloat16"
    assert tfb.dtype(tfb.add(x, tfb.ones((2,), "float16"))) == "float32"
    assert tfb.dtype(tfb.where(np.array([True, False]), x, np.ones(2, "float32"))) == "float32"
    assert tfb.dtype(tfb.concatenate([x, np.ones(2, "int32")])) == "bfloat16"


@pytest.mark.parametrize("op", ["sqrt", "exp", "sigmoid", "softmax", "mean", "log"])
def test_float_math_on_ints_gives_floatx(tfb, op):
    assert tfb.dtype(getattr(tfb, op)(np.array([1, 2], "int32"))) == "float32"
    assert tfb.dtype(getattr(tfb, op)(np.array([1, 2], "int64"))) == "float32"


def test_integer_division_rules(tfb):
    assert tfb.dtype(tfb.divide(np.array([3]), np.array([2]))) == "float32"
    assert tfb.to_numpy(tfb.floor_divide(np.array([-7, 7], "int32"), 2)).tolist() == [-4, 3]
    assert tfb.to_numpy(tfb.mod(np.array([-7, 7], "int32"), -3)).tolist() == [-1, -2]
    assert tfb.dtype(tfb.mod(np.array([-7, 7], "int32"), -3)) == "int32"


def test_reduction_dtypes(tfb):
    assert tfb.dtype(tfb.sum(np.array([True, True]))) == "int32"
    assert tfb.dtype(tfb.sum(np.array([1, 2], "int32"))) == "int32"
    assert tfb.dtype(tfb.argmax(np.ones((2, 3)), axis=1)) == "int32"
    assert tfb.dtype(tfb.argsort(np.ones(3))) == "int32"
    assert tfb.dtype(tfb.top_k(np.ones(3), 2)[1]) == "int32"
    assert tfb.shape(tfb.ones((2, 3))) == (2, 3)


def test_variables_are_unwrapped_and_promoted(tfb):
    v = Variable(np.ones(2, "float32"), backend=tfb)
    assert tfb.dtype(tfb.multiply(v, 2.0)) == "float32"
    np.testing.assert_allclose(tfb.to_numpy(tfb.add(v, [1.0, 2.0])), [2.0, 3.0])


# ------------------------------------------------------------------------------- variables
def test_variable_assign_read_and_snapshot(tfb, tf):
    v = Variable([1.0, 2.0], backend=tfb, name="w")
    # The engine's own object is a tf.Variable; ``handle`` is its resource tensor, as on a tf resource variable.
    assert isinstance(v._handle, tf.Variable)
    assert v.handle is v._handle.handle and v.handle.dtype == tf.resource
    before = v.value
    v.assign([3, 4])  # ints are cast to the variable's dtype
    assert v.dtype == "float32"
    np.testing.assert_allclose(v.numpy(), [3.0, 4.0])
    np.testing.assert_allclose(tfb.to_numpy(before), [1.0, 2.0])  # a read is a snapshot
    v.assign_add([1.0, 1.0])
    np.testing.assert_allclose(v.numpy(), [4.0, 5.0])


def test_variable_shape_mismatch_names_both_shapes(tfb):
    v = Variable(np.zeros((2, 3), "float32"), backend=tfb)
    with pytest.raises(ValueError, match=r"\(3, 2\).*\(2, 3\)"):
        v.assign(np.zeros((3, 2)))


def test_variable_trainable_flag_and_tape_tracking(tfb, tf):
    v = Variable([1.0, 2.0], backend=tfb)
    frozen = Variable([1.0], trainable=False, backend=tfb)
    assert v._handle.trainable and not frozen._handle.trainable
    with tf.GradientTape() as tape:
        loss = tfb.sum(tfb.square(v.value))
    np.testing.assert_allclose(tape.gradient(loss, v).numpy(), [2.0, 4.0])
    with tf.GradientTape() as tape:
        loss = tfb.sum(tfb.square(frozen.value))
    assert tape.gradient(loss, frozen) is None  # a non-trainable variable is not watched


def test_variable_assign_inside_tf_function(tfb, tf):
    v = Variable([1.0, 2.0], backend=tfb)

    @tf.function
    def step():
        v.assign(tfb.multiply(v.value, 2.0))
        return v.value

    step()
    np.testing.assert_allclose(tfb.to_numpy(step()), [4.0, 8.0])


# --------------------------------------------------------------------------------- devices
def test_devices(tfb):
    devs = tfb.devices()
    assert "cpu:0" in devs
    assert tfb.default_device() in devs
    with tfb.device_scope("cpu:0"):
        x = tfb.ones((2,))
    assert "CPU" in x.device
    y = tfb.to_device(np.ones(2), "cpu")
    assert "CPU" in y.device
    with pytest.raises(ValueError, match="available devices"):
        tfb.device_scope("tpu:7")


# ---------------------------------------------------------------------------------- random
@pytest.mark.parametrize(
    "op,args",
    [
        ("random_normal", ((3, 4),)),
        ("random_uniform", ((3, 4),)),
        ("random_truncated_normal", ((100,),)),
        ("random_randint", ((50,), 2, 9)),
    ],
)
def test_random_reproducible(tfb, tf, op, args):
    f = getattr(tfb, op)
    a = tfb.to_numpy(f(*args, seed=(7, 3)))
    b = tfb.to_numpy(f(*args, seed=tf.constant([7, 3], tf.int32)))
    c = tfb.to_numpy(f(*args, seed=(7, 4)))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_random_ranges_and_dtypes(tfb):
    u = tfb.to_numpy(tfb.random_uniform((1000,), 2.0, 3.0, seed=(1, 2)))
    assert u.min() >= 2.0 and u.max() < 3.0
    t = tfb.to_numpy(tfb.random_truncated_normal((1000,), 1.0, 2.0, seed=(1, 2)))
    assert np.abs(t - 1.0).max() <= 4.0
    r = tfb.random_randint((1000,), -3, 4, dtype="int8", seed=(1, 2))
    assert tfb.dtype(r) == "int8"
    assert set(tfb.to_numpy(r).tolist()) == set(range(-3, 4))
    assert tfb.dtype(tfb.random_normal((2,), dtype="float64", seed=(0, 0))) == "float64"


def test_random_shuffle_is_a_permutation(tfb):
    x = np.arange(20).reshape(10, 2)
    s = tfb.to_numpy(tfb.random_shuffle(x, axis=0, seed=(3, 0)))
    assert sorted(s[:, 0].tolist()) == list(range(0, 20, 2))
    np.testing.assert_array_equal(s[:, 1] - s[:, 0], 1)
    np.testing.assert_array_equal(s, tfb.to_numpy(tfb.random_shuffle(x, axis=0, seed=(3, 0))))


def test_random_dropout(tfb):
    x = np.ones((1000,), "float32")
    y = tfb.to_numpy(tfb.random_dropout(x, 0.5, seed=(1, 1)))
    assert set(np.unique(y).tolist()) <= {0.0, 2.0}
    assert 300 < (y == 0).sum() < 700


# ---------------------------------------------------------------------------- value_and_grad
def test_value_and_grad_pytree_and_int_args(tfb):
    def f(params, n):
        return tfb.sum(tfb.square(params["w"])) * 2.0 + tfb.sum(params["b"][0]) + tfb.sum(tfb.cast(n, "float32"))

    params = {"w": np.array([1.0, 2.0], "float32"), "b": [np.array([3.0], "float32"), np.array([0.0], "float32")]}
    value, grads = tfb.value_and_grad(f, argnums=(0, 1))(params, np.array([5], "int32"))
    assert float(tfb.to_numpy(value)) == pytest.approx(18.0)
    np.testing.assert_allclose(tfb.to_numpy(grads[0]["w"]), [4.0, 8.0])
    np.testing.assert_allclose(tfb.to_numpy(grads[0]["b"][0]), [1.0])
    np.testing.assert_allclose(tfb.to_numpy(grads[0]["b"][1]), [0.0])  # unused float -> zeros
    assert grads[1] is None  # int argument -> None


def test_value_and_grad_has_aux_and_unused_arg(tfb):
    def f(x, y):
        return tfb.sum(x * 3.0), {"aux": x}

    (value, aux), g = tfb.value_and_grad(f, argnums=1, has_aux=True)(np.ones(2, "float32"), np.ones(3, "float32"))
    assert float(tfb.to_numpy(value)) == 6.0
    np.testing.assert_allclose(tfb.to_numpy(aux["aux"]), [1.0, 1.0])
    np.testing.assert_allclose(tfb.to_numpy(g), np.zeros(3))
    gx = tfb.grad(lambda x: tfb.sum(x * x))(np.array([1.0, 2.0]))
    np.testing.assert_allclose(tfb.to_numpy(gx), [2.0, 4.0])
    assert tfb.dtype(gx) == "float64"


def test_value_and_grad_accepts_variables(tfb):
    v = Variable([1.0, -2.0], backend=tfb)
    _, g = tfb.value_and_grad(lambda x: tfb.sum(tfb.abs(x)))(v)
    np.testing.assert_allclose(tfb.to_numpy(g), [1.0, -1.0])


def test_value_and_grad_inside_tf_function(tfb, tf):
    vg = tfb.value_and_grad(lambda x: tfb.sum(tfb.relu(x) ** 2))

    @tf.function
    def run(x):
        return vg(x)

    value, g = run(tf.constant([-1.0, 0.0, 2.0]))
    assert float(value) == 4.0
    np.testing.assert_allclose(g.numpy(), [0.0, 0.0, 4.0])


# ------------------------------------------------------------------------------ creation
def test_creation_ops(tfb):
    assert tfb.dtype(tfb.zeros((2,))) == dtypes.floatx()
    assert tfb.dtype(tfb.arange(5)) == "int32"
    assert tfb.dtype(tfb.arange(0, 1, 0.25)) == "float32"
    np.testing.assert_allclose(tfb.to_numpy(tfb.arange(0.0, 1.0, 0.1)), np.arange(0.0, 1.0, 0.1), rtol=1e-6)
    assert tfb.dtype(tfb.full((2,), 3)) == "int32"
    assert tfb.dtype(tfb.full((2,), 3.0)) == "float32"
    np.testing.assert_allclose(tfb.to_numpy(tfb.linspace(0, 1, 5, endpoint=False)), np.linspace(0, 1, 5, False))
    np.testing.assert_array_equal(tfb.to_numpy(tfb.eye(3, 4, 1)), np.eye(3, 4, 1))
    assert tfb.dtype(tfb.zeros_like(np.ones(2, "int64"))) == "int64"
    assert tfb.is_tensor(tfb.ones(()))
    assert not tfb.is_tensor(np.ones(2))
    assert not tfb.is_tensor(Variable([1.0], backend=tfb))
