"""The elementwise/bitwise math family of ``hl.ops`` beyond its conformance lines: Keras's signatures, the errors a
user sees, the arguments that are accepted for compatibility, and the ops on symbolic tensors in a functional model.
"""

import inspect

import numpy as np
import pytest

import highlevel as hl

OPS = [
    "allclose",
    "isclose",
    "cbrt",
    "fabs",
    "fmax",
    "fmin",
    "fmod",
    "gcd",
    "lcm",
    "heaviside",
    "hypot",
    "i0",
    "isneginf",
    "isposinf",
    "isreal",
    "ldexp",
    "left_shift",
    "right_shift",
    "bitwise_and",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_not",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "logaddexp2",
    "nextafter",
    "signbit",
    "sinc",
    "trunc",
    "empty",
    "empty_like",
    "identity",
    "array",
    "view",
    "get_item",
    "erfc",
    "erfinv",
    "saturate_cast",
    # existing ops whose signatures gained Keras's arguments
    "max",
    "min",
    "prod",
    "linspace",
    "stack",
    "convert_to_tensor",
    "one_hot",
    "moments",
    "stop_gradient",
]

NAMESPACES = {
    "erfc": "math",
    "erfinv": "math",
    "saturate_cast": "core",
    "convert_to_tensor": "core",
    "stop_gradient": "core",
    "one_hot": "nn",
    "moments": "nn",
}


def _np(x):
    return np.asarray(hl.ops.convert_to_numpy(x))


def _keras_signatures():
    """Keras's signatures, read in a child process (importing Keras here would import TensorFlow into every
    xdist worker that runs this module)."""
    import json
    import subprocess
    import sys

    code = (
        "import inspect, json, keras\n"
        f"names = {OPS!r}\n"
        "out = {n: [[p.name, repr(p.default), str(p.kind)] for p in "
        "inspect.signature(getattr(keras.ops, n)).parameters.values()] for n in names}\n"
        "print('SIGNATURES' + json.dumps(out))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        env={**__import__("os").environ, "KERAS_BACKEND": "numpy"},
    )
    line = [ln for ln in done.stdout.splitlines() if ln.startswith("SIGNATURES")]
    assert line, done.stderr[-2000:]
    return json.loads(line[0][len("SIGNATURES") :])


def test_signatures_are_keras_ones():
    keras_signatures = _keras_signatures()
    for name in OPS:
        ours = [
            [p.name, repr(p.default), str(p.kind)] for p in inspect.signature(getattr(hl.ops, name)).parameters.values()
        ]
        assert ours == keras_signatures[name], f"hl.ops.{name}{inspect.signature(getattr(hl.ops, name))}"
        module = getattr(hl.ops, NAMESPACES.get(name, "numpy"))
        assert getattr(module, name) is getattr(hl.ops, name), f"{name} is not in hl.ops.{module.__name__}"


# ------------------------------------------------------------------------------------------------ errors
@pytest.mark.parametrize(
    "op",
    [
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "bitwise_left_shift",
        "left_shift",
        "bitwise_right_shift",
        "right_shift",
        "gcd",
        "lcm",
    ],
)
def test_integer_ops_refuse_floats(backend, op):
    with pytest.raises(TypeError, match=rf"{op}: `x1?` must be an integer.*float32.*hl.ops.cast"):
        getattr(hl.ops, op)(np.array([1.0, 2.0], np.float32), np.array([1, 2], np.int32))


@pytest.mark.parametrize("op", ["bitwise_invert", "bitwise_not"])
def test_bitwise_not_refuses_floats(backend, op):
    with pytest.raises(
        TypeError,
        match=rf"{op}: `x` must be an integer or bool tensor; received a tensor of dtype "
        "float32",
    ):
        getattr(hl.ops, op)(np.array([1.0], np.float32))


def test_shifts_refuse_bools(backend):
    with pytest.raises(
        TypeError,
        match=r"left_shift: `x` must be an integer tensor; received a tensor of dtype "
        r"bool.*cast the bools",
    ):
        hl.ops.left_shift(np.array([True]), 1)


def test_ldexp_exponent_must_be_integer(backend):
    with pytest.raises(TypeError, match=r"ldexp: `x2` must be an integer tensor; received a tensor of dtype float32"):
        hl.ops.ldexp(np.array([1.0], np.float32), np.array([2.0], np.float32))
    with pytest.raises(TypeError, match=r"received a Python float"):
        hl.ops.ldexp(1.0, 2.0)
    assert _np(hl.ops.ldexp(np.array([3.0], np.float32), 2)).tolist() == [12.0]


def test_view_checks_the_bytes(backend):
    with pytest.raises(
        ValueError,
        match=r"view: the last axis of a tensor of shape \(2, 3\) and dtype int16 holds 6 "
        r"bytes, not a whole number of int32 items",
    ):
        hl.ops.view(np.zeros((2, 3), np.int16), "int32")
    with pytest.raises(ValueError, match=r"view: cannot view a 0-d tensor of float32"):
        hl.ops.view(np.float32(1.0), "int16")
    assert hl.ops.shape(hl.ops.view(np.zeros((2, 3), np.float32), "uint8")) == (2, 12)
    assert hl.ops.dtype(hl.ops.view(np.zeros((2,), np.float32))) == "float32"


@pytest.mark.parametrize(
    "call",
    [
        lambda: hl.ops.convert_to_tensor([1.0], sparse=True),
        lambda: hl.ops.convert_to_tensor([1.0], ragged=True),
        lambda: hl.ops.one_hot(np.array([1]), 3, sparse=True),
    ],
    ids=["convert_to_tensor-sparse", "convert_to_tensor-ragged", "one_hot-sparse"],
)
def test_sparse_and_ragged_are_refused_clearly(call):
    with pytest.raises(
        ValueError,
        match=r"(sparse|ragged)=True asks for a (sparse|ragged) tensor, but highlevel's "
        r"tensors are dense",
    ):
        call()


def test_dense_arguments_are_accepted(backend):
    assert _np(hl.ops.convert_to_tensor([1.0, 2.0], sparse=False, ragged=None)).tolist() == [1.0, 2.0]
    assert _np(hl.ops.convert_to_tensor([1.0, 2.0], "float64", None, False)).dtype == np.float64
    assert _np(hl.ops.one_hot(np.array([1, 0]), 2, sparse=False)).tolist() == [[0.0, 1.0], [1.0, 0.0]]


def test_max_of_an_empty_axis_needs_initial(backend):
    with pytest.raises(ValueError):
        hl.ops.max(np.zeros((0, 2), np.float32), axis=0)
    assert _np(hl.ops.max(np.zeros((0, 2), np.float32), axis=0, initial=-1.0)).tolist() == [-1.0, -1.0]
    assert _np(hl.ops.min(np.zeros((0, 2), np.int32), axis=None, initial=7)).tolist() == 7


# ----------------------------------------------------------------------------- Keras's argument names
def test_keyword_arguments_by_keras_names(backend):
    assert hl.ops.shape(hl.ops.stack(x=[np.ones(2), np.zeros(2)], axis=1)) == (2, 2)
    f = lambda v: hl.ops.sum(v * hl.ops.stop_gradient(variable=v))  # noqa: E731
    assert _np(hl.ops.grad(f)(hl.ops.convert_to_tensor([3.0]))).tolist() == [3.0]
    mean, variance = hl.ops.moments(np.array([[1.0, 3.0]], np.float32), axes=[1], keepdims=True, synchronized=True)
    assert _np(mean).tolist() == [[2.0]] and _np(variance).tolist() == [[1.0]]
    assert _np(hl.ops.prod(np.array([2, 3], np.int8), dtype="float32")).tolist() == 6.0


# --------------------------------------------------------------------------------------- symbolic tensors
def test_ops_on_symbolic_tensors_build_a_model(backend):
    a = hl.Input((4,), name="a")
    b = hl.Input((4,), name="b")
    k = hl.Input((4,), dtype="int32", name="k")
    legs = hl.ops.hypot(a, b)
    assert legs.shape == (None, 4) and legs.dtype == "float32"
    bits = hl.ops.bitwise_and(hl.ops.left_shift(k, 2), 12)
    assert bits.dtype == "int32"
    samples, step = hl.ops.linspace(hl.ops.cbrt(a), legs, 3, retstep=True, axis=-1)
    assert samples.shape == (None, 4, 3)
    out = hl.ops.add(samples, hl.ops.expand_dims(hl.ops.cast(bits, "float32"), -1))
    model = hl.Model([a, b, k], [out, step, hl.ops.view(a, "int32"), hl.ops.gcd(k, 6)])
    x = np.array([[3.0, -8.0, 0.5, 27.0], [1.0, 2.0, -3.0, 4.0]], np.float32)
    y = np.array([[4.0, 6.0, 1.2, 0.0], [0.0, 2.0, 4.0, -3.0]], np.float32)
    z = np.array([[1, 2, 3, -4], [0, 5, 6, 7]], np.int32)
    got, got_step, got_bits, got_gcd = (_np(t) for t in model.predict([x, y, z], verbose=0))
    legs_ref = np.hypot(x.astype(np.float64), y)
    start = np.cbrt(x.astype(np.float64))
    want = np.linspace(start, legs_ref, 3, axis=-1) + ((z << 2) & 12)[..., None]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got_step, (legs_ref - start) / 2, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(got_bits, x.view(np.int32))
    np.testing.assert_array_equal(got_gcd, np.gcd(z, 6))


def test_integer_checks_see_symbolic_dtypes():
    with pytest.raises(
        TypeError,
        match=r"bitwise_xor: `x` must be an integer or bool tensor; received a tensor of "
        r"dtype float32",
    ):
        hl.ops.bitwise_xor(hl.Input((2,)), 1)
