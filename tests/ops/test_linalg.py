"""``hl.ops.linalg``, the spectral ops and complex numbers beyond the conformance tables, on every engine: symbolic
tensors in a functional model, ``jvp``'s structure and nesting, gradients through complex values, the parts of a
decomposition the references cannot pin down (the extra columns of full ``svd``/complete ``qr``), what a matrix
without an answer gives, and the argument errors."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import ops

RNG = np.random.default_rng(11)


def _np(x):
    return np.asarray(ops.convert_to_numpy(x))


def _t(a, dtype="float32"):
    return ops.convert_to_tensor(np.asarray(a, dtype))


# --------------------------------------------------------------------------------------------- symbolic
def test_a_functional_model_of_linalg_and_spectral_ops(backend):
    x = hl.Input((3, 3))
    signal = hl.Input((16,))
    spd = ops.add(ops.matmul(x, ops.swapaxes(x, -1, -2)), ops.multiply(ops.eye(3), 3.0))
    logdet = ops.logdet(spd)
    inverse_norm = ops.norm(ops.inv(spd), ord="fro", axis=(-2, -1))
    re, im = ops.rfft(signal)
    power = ops.sum(ops.add(ops.square(re), ops.square(im)), axis=-1)
    w, _ = ops.eigh(spd)
    assert logdet.shape == (None,) and inverse_norm.shape == (None,) and re.shape == (None, 9)
    assert w.shape == (None, 3)
    model = hl.Model([x, signal], [logdet, inverse_norm, power, w])
    xs = RNG.standard_normal((4, 3, 3)).astype("float32")
    ss = RNG.standard_normal((4, 16)).astype("float32")
    got = [_np(o) for o in model.predict([xs, ss], verbose=0)]
    a = xs.astype(np.float64) @ np.swapaxes(xs, -1, -2) + 3 * np.eye(3)
    want = [
        np.linalg.slogdet(a)[1],
        np.linalg.norm(np.linalg.inv(a), axis=(-2, -1)),
        np.sum(np.abs(np.fft.rfft(ss.astype(np.float64))) ** 2, axis=-1),
        np.linalg.eigvalsh(a),
    ]
    for g, w_ in zip(got, want):
        np.testing.assert_allclose(g, w_, rtol=2e-5, atol=2e-5)


def test_symbolic_shapes_and_dtypes():
    x = hl.Input((4, 3))
    u, s, vh = ops.svd(x)
    assert (u.shape, s.shape, vh.shape) == ((None, 4, 4), (None, 3), (None, 3, 3))
    q, r = ops.qr(x, mode="complete")
    assert (q.shape, r.shape) == ((None, 4, 4), (None, 4, 3))
    w, v = ops.eig(hl.Input((3, 3)))
    assert (w.dtype, v.dtype, w.shape) == ("complex64", "complex64", (None, 3))
    re, im = ops.stft(hl.Input((40,)), 8, 4, 16)
    assert re.shape == (None, 11, 9) and im.dtype == "float32"
    assert ops.istft((re, im), 8, 4, 16).shape == (None, 40)
    assert ops.view_as_complex(hl.Input((5, 2))).dtype == "complex64"
    z = ops.polar(hl.Input((5,), dtype="float64"), hl.Input((5,), dtype="float64"))
    assert z.dtype == "complex128" and ops.view_as_real(z).shape == (None, 5, 2)
    lu, pivots = ops.lu_factor(hl.Input((3, 3)))
    assert pivots.dtype == "int32" and pivots.shape == (None, 3)
    value, tangent = ops.jvp(lambda t: ops.sin(t), (hl.Input((2,)),), (hl.Input((2,)),))
    assert value.shape == tangent.shape == (None, 2)


# ------------------------------------------------------------------------------------------------- jvp
def test_jvp_of_nested_structures_with_aux_and_integers(backend):
    x, y, n = _t([0.5, -1.0]), _t([[2.0], [3.0]]), ops.convert_to_tensor(np.array([2, 3], np.int32))

    def fun(args, k):
        a, b = args["a"], args["b"]
        return {"sum": ops.add(a * a, ops.squeeze(b, -1)), "count": k * 2}, ops.sum(a)

    primals = ({"a": x, "b": y}, n)
    tangents = ({"a": _t([1.0, 1.0]), "b": _t([[0.5], [0.0]])}, n)
    value, tangent, aux = ops.jvp(fun, primals, tangents, has_aux=True)
    np.testing.assert_allclose(_np(value["sum"]), [2.25, 4.0], rtol=1e-6)
    np.testing.assert_allclose(_np(tangent["sum"]), [1.0 + 0.5, -2.0], rtol=1e-6)
    assert _np(tangent["count"]).tolist() == [0, 0] and ops.dtype(tangent["count"]) == "int32"
    assert float(_np(aux)) == pytest.approx(-0.5)


def test_a_gradient_through_jvp_is_a_second_derivative(backend):
    # d/dx <f'(x), t> for f = sum(x^3): 6 x t
    x, t = np.array([0.5, -1.5, 2.0], np.float32), np.array([1.0, 2.0, -0.5], np.float32)

    def directional(u):
        _, tangent = ops.jvp(lambda v: ops.sum(v * v * v), (u,), (_t(t),))
        return tangent

    np.testing.assert_allclose(_np(ops.grad(directional)(_t(x))), 6 * x * t, rtol=1e-5)


def test_jvp_errors():
    with pytest.raises(TypeError, match="tuple or list"):
        ops.jvp(ops.sin, _t([1.0]), (_t([1.0]),))
    with pytest.raises(ValueError, match="one entry per entry"):
        ops.jvp(ops.sin, (_t([1.0]),), (_t([1.0]), _t([1.0])))
    with pytest.raises(TypeError, match="function"):
        ops.jvp(3, (_t([1.0]),), (_t([1.0]),))


# ------------------------------------------------------------------------------------ complex gradients
def test_gradients_through_complex_values(backend):
    # L = sum(a |z| + b angle(z) + c Re(z conj(z w))) with z = view_as_complex(x), w = polar(r, theta)
    x = RNG.standard_normal((4, 2)).astype(np.float32)
    r, theta = RNG.uniform(0.5, 2.0, 4).astype(np.float32), RNG.standard_normal(4).astype(np.float32)
    a, b, c = (RNG.standard_normal(4).astype(np.float32) for _ in range(3))

    def loss(xt, rt, tt):
        z = ops.view_as_complex(xt)
        w = ops.polar(rt, tt)
        zz = ops.multiply(ops.conj(z), ops.multiply(z, w))
        return ops.sum(ops.abs(z) * _t(a) + ops.angle(z) * _t(b) + ops.real(zz) * _t(c) + ops.imag(w))

    gx, gr, gt = ops.grad(loss, argnums=(0, 1, 2))(_t(x), _t(r), _t(theta))
    xd, rd, td = x.astype(np.float64), r.astype(np.float64), theta.astype(np.float64)
    p, q = xd[:, 0], xd[:, 1]
    m2 = p * p + q * q
    # |z|^2 Re(w) = m2 r cos(theta); Im(w) = r sin(theta)
    dp = a * p / np.sqrt(m2) - b * q / m2 + c * 2 * p * rd * np.cos(td)
    dq = a * q / np.sqrt(m2) + b * p / m2 + c * 2 * q * rd * np.cos(td)
    np.testing.assert_allclose(_np(gx), np.stack([dp, dq], -1), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(_np(gr), c * m2 * np.cos(td) + np.sin(td), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(_np(gt), -c * m2 * rd * np.sin(td) + rd * np.cos(td), rtol=1e-4, atol=1e-5)


def test_complex_tensors_convert_and_promote(backend):
    z = ops.convert_to_tensor(np.array([1 + 2j, -3j], np.complex64))
    assert ops.dtype(z) == "complex64"
    assert ops.dtype(ops.add(z, 1.5)) == "complex64"
    assert ops.dtype(ops.multiply(z, _t([2.0, 1.0], "float64"))) == "complex128"
    assert ops.dtype(ops.add(_t([1.0, 2.0]), 1j)) == "complex64"
    np.testing.assert_allclose(_np(ops.add(_t([1.0, 2.0]), 1j)), [1 + 1j, 2 + 1j])
    np.testing.assert_allclose(_np(ops.cast(z, "float32")), [1.0, 0.0])  # a cast to a real dtype keeps the real part
    np.testing.assert_allclose(_np(ops.abs(z)), [np.sqrt(5.0), 3.0], rtol=1e-6)


# ---------------------------------------------------------------------------- what the references cannot pin
@pytest.mark.parametrize("shape", [(5, 3), (2, 3, 5)])
def test_full_svd_of_a_non_square_matrix_is_orthogonal_and_reconstructs(backend, shape):
    x = RNG.standard_normal(shape).astype(np.float32)
    u, s, vh = (_np(t).astype(np.float64) for t in ops.svd(x, full_matrices=True))
    m, n = shape[-2:]
    k = min(m, n)
    assert u.shape[-2:] == (m, m) and vh.shape[-2:] == (n, n)
    np.testing.assert_allclose(np.swapaxes(u, -1, -2) @ u, np.broadcast_to(np.eye(m), u.shape), atol=1e-5)
    np.testing.assert_allclose(np.swapaxes(vh, -1, -2) @ vh, np.broadcast_to(np.eye(n), vh.shape), atol=1e-5)
    np.testing.assert_allclose((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], x, atol=1e-5)
    reduced_u, _, reduced_vh = (_np(t) for t in ops.svd(x, full_matrices=False))
    np.testing.assert_allclose(u[..., :, :k], reduced_u, atol=1e-6)  # the determined part: the same columns
    np.testing.assert_allclose(vh[..., :k, :], reduced_vh, atol=1e-6)


def test_complete_qr_of_a_tall_matrix_is_orthogonal_and_reconstructs(backend):
    x = RNG.standard_normal((5, 3)).astype(np.float32)
    q, r = (_np(t).astype(np.float64) for t in ops.qr(x, mode="complete"))
    assert q.shape == (5, 5) and r.shape == (5, 3)
    np.testing.assert_allclose(q.T @ q, np.eye(5), atol=1e-5)
    np.testing.assert_allclose(q @ r, x, atol=1e-5)
    assert np.all(r[3:] == 0) and np.all(np.diag(r) >= 0)
    # its gradient flows through the determined part (the extra columns are constants)
    g = ops.grad(lambda t: ops.sum(ops.qr(t, mode="complete")[1]))(_t(x))
    want = ops.grad(lambda t: ops.sum(ops.qr(t)[1]))(_t(x))
    np.testing.assert_allclose(_np(g), _np(want), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", [(4, 3), (3, 5)])
def test_lu_factor_of_a_non_square_matrix(backend, shape):
    import scipy.linalg

    x = RNG.standard_normal(shape)
    if backend.name == "tensorflow":  # tf.linalg.lu factors square matrices only (as in Keras)
        with pytest.raises(ValueError, match="square"):
            ops.lu_factor(x)
        return
    lu, pivots = ops.lu_factor(x)
    want_lu, want_pivots = scipy.linalg.lu_factor(x)
    np.testing.assert_allclose(_np(lu), want_lu, rtol=1e-10, atol=1e-12)
    assert _np(pivots).tolist() == want_pivots.tolist()


def test_istft_inverts_stft(backend):
    # the least-squares inverse gives the signal back for every window whose squares overlap everywhere, and
    # without a window (where Keras's numpy and JAX backends scale the result by fft_length / sequence_stride)
    x = RNG.standard_normal((2, 50)).astype(np.float32)
    for window, seq, stride, n in (("hann", 16, 4, 16), ("hamming", 12, 5, 16), (None, 10, 3, 10)):
        spectrum = ops.stft(x, seq, stride, n, window=window)
        y = ops.istft(spectrum, seq, stride, n, length=50, window=window)
        np.testing.assert_allclose(_np(y), x, atol=2e-5, err_msg=str(window))


# -------------------------------------------------------------------------------- inputs without an answer
def test_cholesky_of_a_matrix_that_is_not_positive_definite_is_nan(backend):
    # NaN on every engine, eagerly as inside a compiled step (Keras raises a ValueError eagerly, which a compiled
    # step cannot do, and its jax backend must read the result back to the host to decide)
    out = _np(ops.cholesky(_t([[[1.0, 2.0], [2.0, 1.0]], [[4.0, 2.0], [2.0, 5.0]]])))
    assert np.isnan(out[0]).any() and not np.isnan(out[1]).any()
    np.testing.assert_allclose(out[1], [[2.0, 0.0], [1.0, 2.0]], rtol=1e-6)


def test_gradients_of_norms_and_distances_at_zero_are_zero(backend):
    g = ops.grad(lambda t: ops.sum(ops.norm(t, axis=1)))(_t([[0.0, 0.0], [3.0, 4.0]]))
    np.testing.assert_allclose(_np(g), [[0.0, 0.0], [0.6, 0.8]], rtol=1e-6)
    g = ops.grad(lambda t: ops.sum(ops.norm(t)))(_t(np.zeros((2, 3))))
    assert _np(g).tolist() == [[0.0] * 3] * 2
    pts = [[0.0, 0.0], [3.0, 4.0]]
    g = ops.grad(lambda t: ops.sum(ops.cdist(t, _t(pts))))(_t(pts))
    np.testing.assert_allclose(_np(g), [[-0.6, -0.8], [0.6, 0.8]], rtol=1e-6)


# ------------------------------------------------------------------------------------------------ errors
@pytest.mark.parametrize(
    "call,error,message",
    [
        (lambda: ops.det(np.ones((2, 3))), ValueError, "square"),
        (lambda: ops.inv(np.ones(3)), ValueError, "rank 2"),
        (lambda: ops.solve(np.eye(3), np.ones((2,))), ValueError, "rows"),
        (lambda: ops.qr(np.ones((3, 3)), mode="full"), ValueError, "mode"),
        (lambda: ops.norm(np.ones((2, 2)), ord="nuc", axis=0), ValueError, "vector norm"),
        (lambda: ops.norm(np.ones((2, 2)), ord=3), ValueError, "matrix norm"),
        (lambda: ops.norm(np.ones((2, 2, 2)), ord=1), ValueError, "vector or a matrix"),
        (lambda: ops.norm(np.ones((2, 2, 2)), axis=(0, 1, 2)), ValueError, "pair of axes"),
        (lambda: ops.lstsq(np.ones((3, 2)), np.ones(4)), ValueError, "rows"),
        (lambda: ops.svd(np.ones((2, 2)), full_matrices="yes"), TypeError, "full_matrices"),
        (lambda: ops.fft(np.ones(3)), ValueError, "pair"),
        (lambda: ops.fft((np.ones(3), np.ones(4))), ValueError, "one shape"),
        (lambda: ops.fft2((np.ones(3), np.ones(3))), ValueError, "rank 2"),
        (lambda: ops.rfft(np.ones(4), fft_length=0), ValueError, "fft_length"),
        (lambda: ops.stft(np.ones(20), 8, 2, 4), ValueError, "at least `sequence_length`"),
        (lambda: ops.stft(np.ones(20), 8, 2, 8, window="kaiser"), ValueError, "window"),
        (lambda: ops.stft(np.ones(20), 8, 2, 8, window=np.ones(5)), ValueError, "window"),
        (lambda: ops.stft(np.ones(20), 8, 0, 8), ValueError, "sequence_stride"),
        (lambda: ops.stft(np.ones(3), 8, 2, 8), ValueError, "reflection"),
        (lambda: ops.extract_sequences(np.ones(5), 0, 1), ValueError, "sequence_length"),
        (lambda: ops.view_as_complex(np.ones((3, 3))), ValueError, "size 2"),
        (lambda: ops.cdist(np.ones((2, 3)), np.ones((2, 4))), ValueError, "one length"),
    ],
)
def test_argument_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()
