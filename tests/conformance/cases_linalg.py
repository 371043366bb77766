"""Conformance cases: matmul (1-D, 2-D, batched with broadcasting), einsum, tensordot, outer; the decompositions
and other ops of ``hl.ops.linalg``, with ``slogdet``, ``logdet``, ``cdist`` and ``jvp``."""

import numpy as np
import scipy.linalg

from highlevel.backends.contract import dtypes as _D

from .harness import F32_64, FLOAT, INT32, INTS, NONE, PROMOTE, C, Gen, const, distinct, fixed, ints, normal

CASES = [
    C("matmul", "2d", (normal(3, 4), normal(4, 5)), dtypes=F32_64, grad=(0, 1)),
    C("matmul", "1d-2d", (normal(4), normal(4, 5)), grad=(0, 1)),
    C("matmul", "2d-1d", (normal(3, 4), normal(4)), grad=(0, 1)),
    C("matmul", "1d-1d", (normal(4), normal(4)), grad=(0, 1)),
    C("matmul", "batched-broadcast", (normal(2, 1, 3, 4), normal(5, 4, 2)), dtypes=F32_64, grad=(0, 1)),
    C("matmul", "batched-1d", (normal(2, 3, 4), normal(4)), grad=(0, 1)),
    C("matmul", "size0", (normal(3, 0), normal(0, 2)), grad=(0, 1)),
    C("matmul", "int", (ints(3, 4), ints(4, 2)), dtypes=INTS),
    C("matmul", "mixed", (ints(3, 4), normal(4, 2)), dtypes=(("int32", "float32"), ("float32", "float64"))),
    C("matmul", "half", (normal(3, 4), normal(4, 5)), dtypes=("float16", "bfloat16")),
    C("einsum", "matmul", ("ij,jk->ik", normal(3, 4), normal(4, 5)), dtypes=F32_64, grad=(1, 2)),
    C("einsum", "batched", ("bij,bjk->bik", normal(2, 3, 4), normal(2, 4, 5)), grad=(1, 2)),
    C("einsum", "dot", ("i,i->", normal(5), normal(5)), grad=(1, 2)),
    C("einsum", "diagonal", ("ii->i", normal(4, 4)), grad=(1,)),
    C("einsum", "transpose-sum", ("ijk->kj", normal(2, 3, 4)), grad=(1,)),
    C("einsum", "three-operands", ("ij,jk,kl->il", normal(2, 3), normal(3, 4), normal(4, 2)), grad=(1, 2, 3)),
    C("einsum", "ellipsis", ("...ij,...jk->...ik", normal(2, 3, 4), normal(2, 4, 2)), grad=(1, 2)),
    C("einsum", "int", ("ij,jk->ik", ints(3, 4), ints(4, 2)), dtypes=("int32",)),
    C("tensordot", "axes2", (normal(2, 3, 4), normal(3, 4, 5)), dtypes=F32_64, grad=(0, 1)),
    C("tensordot", "axes1", (normal(2, 3), normal(3, 4)), grad=(0, 1), axes=1),
    C("tensordot", "axes-pairs", (normal(2, 3, 4), normal(4, 2, 5)), grad=(0, 1), axes=([0, 2], [1, 0])),
    C("tensordot", "axes0", (normal(2, 3), normal(4)), grad=(0, 1), axes=0),
    C("outer", "basic", (normal(3), normal(4)), dtypes=F32_64, grad=(0, 1)),
    C("outer", "flattens", (normal(2, 2), normal(3)), grad=(0, 1)),
    C("outer", "int", (ints(3), ints(4)), dtypes=INTS),
]


# ------------------------------------------------------------------------------------- decompositions
# The references below are numpy/scipy in float64, with the conventions of the contract's generic definitions
# (contract/linalg.py): cholesky and eigh read the symmetric part of their input, and the signs (and for eig the
# order) that a decomposition leaves free are fixed. Inputs are well conditioned (SPD as A A^T + n I, diagonally
# shifted random matrices, distinct eigenvalues and singular values), so float32 results and gradients stay
# within the default tolerances.


def spd(n, *batch):
    """A symmetric positive-definite matrix (or batch): A A^T + n I, eigenvalues spread well apart."""

    def fn(rng):
        a = rng.standard_normal(batch + (n, n))
        return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)

    return Gen(fn, f"spd{batch + (n, n)}")


def shifted(n, *batch, shift=3.0):
    """A random matrix plus ``shift`` times the identity: invertible and well conditioned."""
    return Gen(lambda rng: rng.standard_normal(batch + (n, n)) + shift * np.eye(n), f"shifted{batch + (n, n)}")


def factor(n, *batch, upper=False):
    """A Cholesky factor: triangular with a positive diagonal (1 to 2) and small entries off it."""

    def fn(rng):
        a = np.tril(rng.standard_normal(batch + (n, n)) * 0.5, -1) + np.eye(n) * rng.uniform(1.0, 2.0, batch + (n, 1))
        return np.swapaxes(a, -1, -2) if upper else a

    return Gen(fn, f"factor{batch + (n, n)}")


def low_rank(m, n, rank):
    """A random (m, n) matrix of the given rank."""
    return Gen(lambda rng: rng.standard_normal((m, rank)) @ rng.standard_normal((rank, n)), f"rank{rank}({m},{n})")


def _sym(x):
    return (x + np.swapaxes(x, -1, -2)) / 2


def _largest_positive(v, axis):
    """+1 or -1 per vector along ``axis``: the sign of its largest-magnitude entry (the first of ties)."""
    idx = np.expand_dims(np.argmax(np.abs(v), axis=axis), axis)
    return np.where(np.take_along_axis(v, idx, axis=axis) < 0, -1.0, 1.0)


def ref_cholesky(x, upper=False):
    factor_ = np.linalg.cholesky(_sym(x))
    return np.swapaxes(factor_, -1, -2) if upper else factor_


def ref_cholesky_inverse(x, upper=False):
    t = np.triu(x) if upper else np.tril(x)
    a = np.swapaxes(t, -1, -2) @ t if upper else t @ np.swapaxes(t, -1, -2)
    return np.linalg.inv(a)


def ref_solve(a, b):
    vector = b.ndim in (a.ndim - 1, 1)
    x = np.linalg.solve(a, b[..., None] if vector else b)
    return x[..., 0] if vector else x


def ref_solve_triangular(a, b, lower=False):
    return ref_solve(np.tril(a) if lower else np.triu(a), b)


def ref_eigh(x):
    w, v = np.linalg.eigh(_sym(x))
    return w, v * _largest_positive(v, -2)


def ref_eig(x):
    w, v = np.linalg.eig(x)
    w, v = w.astype(np.complex128), v.astype(np.complex128)
    order = np.argsort(w.real + 1e-3 * w.imag, axis=-1, kind="stable")
    w = np.take_along_axis(w, order, -1)
    v = np.take_along_axis(v, np.broadcast_to(order[..., None, :], v.shape), -1)
    idx = np.argmax(np.abs(v), axis=-2)[..., None, :]
    top = np.take_along_axis(v, idx, -2)
    v = v * np.conj(top) / np.abs(top) / np.linalg.norm(v, axis=-2, keepdims=True)
    return w, v


def ref_svd(x, full_matrices=True, compute_uv=True):
    """(Only for inputs where ``full_matrices`` changes nothing: square matrices, or full_matrices=False.)"""
    u, s, vh = np.linalg.svd(x, full_matrices=False)
    if not compute_uv:
        return s
    sign = _largest_positive(u, -2)
    return u * sign, s, vh * np.swapaxes(sign, -1, -2)


def ref_qr(x, mode="reduced"):
    q, r = np.linalg.qr(x)
    k = min(x.shape[-2:])
    sign = np.where(np.diagonal(r[..., :, :k], axis1=-2, axis2=-1) < 0, -1.0, 1.0)
    return q * sign[..., None, :], r * sign[..., :, None]


def ref_lu_factor(x):
    flat = x.reshape((-1,) + x.shape[-2:])
    lus, pivots = zip(*[scipy.linalg.lu_factor(m) for m in flat])
    return (
        np.stack(lus).reshape(x.shape),
        np.stack(pivots).astype(np.int32).reshape(x.shape[:-2] + (min(x.shape[-2:]),)),
    )


def ref_slogdet(x):
    sign, logabs = np.linalg.slogdet(x)
    return sign, logabs


def ref_logdet(x):
    sign, logabs = np.linalg.slogdet(x)
    with np.errstate(invalid="ignore"):
        return np.where(sign > 0, logabs, np.where(sign == 0, -np.inf, np.nan))


def ref_pinv(x, rcond=None):
    m, n = x.shape[-2:]
    return np.linalg.pinv(x, rcond=np.finfo(np.float64).eps * max(m, n) if rcond is None else rcond)


def ref_lstsq(a, b, rcond=None):
    return np.linalg.lstsq(a, b, rcond=rcond)[0]


def ref_matrix_rank(x, tol=None):
    return np.linalg.matrix_rank(x, tol=tol).astype(np.int32)


def ref_norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002
    out = np.linalg.norm(x.astype(np.float64) if x.dtype.kind != "f" else x, ord=ord, axis=axis, keepdims=keepdims)
    return np.asarray(out)


def ref_cdist(x, y):
    return np.sqrt(np.sum((x[..., :, None, :] - y[..., None, :, :]) ** 2, axis=-1))


def ref_jvp_sin_product(fun, primals, tangents):
    (x, y), (tx, ty) = primals, tangents
    return np.sin(x * y), np.cos(x * y) * (tx * y + x * ty)


def _sin_product(x, y):
    import highlevel as hl

    return hl.ops.sin(hl.ops.multiply(x, y))


def ref_jvp_solve(fun, primals, tangents):
    (a, b), (ta, tb) = primals, tangents
    x = np.linalg.solve(a, b)
    return x, np.linalg.solve(a, tb - ta @ x)


def _solve(a, b):
    import highlevel as hl

    return hl.ops.solve(a, b)


def COMPLEX(p):
    """The complex dtype of the float result (complex64 for float32, complex128 for float64)."""
    return _D.complex_of(FLOAT(p))


CASES += [
    C("cholesky", "basic", (spd(3),), ref_cholesky, dtypes=F32_64, grad=(0,)),
    C("cholesky", "upper-batched", (spd(3, 2),), ref_cholesky, grad=(0,), upper=True),
    C("cholesky", "int", (fixed(np.array([[4, 2], [2, 5]], np.int32)),), ref_cholesky, dtypes=(NONE,), out="float32"),
    C("cholesky_inverse", "lower", (factor(3),), ref_cholesky_inverse, dtypes=F32_64, grad=(0,)),
    C("cholesky_inverse", "upper-batched", (factor(3, 2, upper=True),), ref_cholesky_inverse, grad=(0,), upper=True),
    C("det", "basic", (shifted(3),), np.linalg.det, dtypes=F32_64, grad=(0,)),
    C("det", "batched", (shifted(3, 2, 1),), np.linalg.det, grad=(0,)),
    C("det", "int", (ints(3, 3),), np.linalg.det, dtypes=INTS, out=FLOAT),
    C("det", "empty-batch", (shifted(2, 0),), np.linalg.det),
    C("inv", "basic", (shifted(3),), np.linalg.inv, dtypes=F32_64, grad=(0,)),
    C("inv", "batched", (shifted(2, 3),), np.linalg.inv, grad=(0,)),
    C("solve", "vector", (shifted(3), normal(3)), ref_solve, dtypes=F32_64, grad=(0, 1)),
    C("solve", "matrix", (shifted(3), normal(3, 2)), ref_solve, grad=(0, 1)),
    # b of rank a.ndim - 1 is a batch of vectors, as Keras documents (torch and tensorflow agree; numpy 2 and jax
    # read a (2, 3) b as a matrix and refuse it)
    C("solve", "batched-vectors", (shifted(3, 2), normal(2, 3)), ref_solve, grad=(0, 1)),
    C("solve", "broadcast", (shifted(3, 2), normal(1, 3, 2)), ref_solve, grad=(0, 1)),
    C("solve", "mixed", (shifted(3), normal(3)), ref_solve, dtypes=(("float32", "float64"),)),
    C("solve_triangular", "upper", (shifted(3), normal(3, 2)), ref_solve_triangular, dtypes=F32_64, grad=(0, 1)),
    C("solve_triangular", "lower-vector", (shifted(3), normal(3)), ref_solve_triangular, grad=(0, 1), lower=True),
    C(
        "solve_triangular",
        "lower-batched",
        (shifted(3, 2), normal(2, 3, 1)),
        ref_solve_triangular,
        grad=(0, 1),
        lower=True,
    ),
    C("eigh", "basic", (spd(4),), ref_eigh, dtypes=F32_64, grad=(0,)),
    C("eigh", "batched", (spd(3, 2),), ref_eigh, grad=(0,)),
    # always complex (Keras's numpy backend returns real arrays when every eigenvalue is real, its others complex);
    # sorted and normalized so that every engine gives the same numbers (tensorflow's Eigen solver orders them
    # differently from LAPACK)
    C("eig", "basic", (normal(4, 4),), ref_eig, dtypes=F32_64, out=(COMPLEX, COMPLEX)),
    C("eig", "batched", (normal(2, 3, 3),), ref_eig, out=(COMPLEX, COMPLEX)),
    C("svd", "square", (normal(3, 3),), ref_svd, dtypes=F32_64, grad=(0,)),
    C("svd", "tall-reduced", (normal(4, 3),), ref_svd, grad=(0,), full_matrices=False),
    C("svd", "wide-reduced-batched", (normal(2, 2, 4),), ref_svd, grad=(0,), full_matrices=False),
    C("svd", "values", (normal(3, 5),), ref_svd, dtypes=F32_64, grad=(0,), compute_uv=False),
    C("qr", "tall", (normal(4, 3),), ref_qr, dtypes=F32_64, grad=(0,)),
    C("qr", "square-batched", (normal(2, 3, 3),), ref_qr, grad=(0,)),
    C("qr", "wide", (normal(2, 4),), ref_qr, grad=(0,)),
    C("qr", "complete-square", (normal(3, 3),), ref_qr, grad=(0,), mode="complete"),
    # pivots as LAPACK's row swaps (scipy's lu_factor, and Keras's numpy, jax and torch backends); Keras's tensorflow
    # backend returns a permutation instead
    C("lu_factor", "basic", (normal(4, 4),), ref_lu_factor, dtypes=F32_64, grad=(0,), out=(PROMOTE, INT32)),
    C("lu_factor", "batched", (normal(2, 3, 3),), ref_lu_factor, grad=(0,), out=(PROMOTE, INT32)),
    C("slogdet", "basic", (normal(3, 3),), ref_slogdet, dtypes=F32_64, grad=(0,)),
    C("slogdet", "batched", (shifted(3, 2),), ref_slogdet, grad=(0,)),
    # exactly singular (a zero row: the last pivot of every factorization is exactly 0): sign 0, log|det| -inf
    C(
        "slogdet",
        "singular",
        (fixed(np.array([[1.0, 2.0], [0.0, 0.0]], np.float32)),),
        ref_slogdet,
        dtypes=(NONE,),
        out="float32",
    ),
    C("logdet", "basic", (spd(3),), ref_logdet, dtypes=F32_64, grad=(0,)),
    # a negative determinant: NaN (torch.logdet's answer; jax and numpy give log|det|, the log of another number)
    C(
        "logdet",
        "negative-det",
        (fixed(np.array([[0.0, 1.0], [1.0, 0.0]], np.float32)),),
        ref_logdet,
        dtypes=(NONE,),
        out="float32",
    ),
    C("pinv", "tall", (normal(4, 3),), ref_pinv, dtypes=F32_64, grad=(0,)),
    C("pinv", "batched-wide", (normal(2, 2, 3),), ref_pinv, grad=(0,)),
    C("pinv", "rank-deficient", (low_rank(4, 3, 2),), ref_pinv, dtypes=("float64",), rcond=1e-10),
    C("lstsq", "overdetermined", (normal(5, 3), normal(5)), ref_lstsq, dtypes=F32_64, grad=(0, 1)),
    C("lstsq", "matrix-rhs", (normal(4, 3), normal(4, 2)), ref_lstsq, grad=(0, 1)),
    C("lstsq", "underdetermined", (normal(2, 4), normal(2)), ref_lstsq, grad=(0, 1)),
    C("matrix_rank", "full", (normal(2, 4, 3),), ref_matrix_rank, dtypes=F32_64, out=INT32),
    # the default threshold scales with the compute dtype's eps: a rank-2 matrix rounded to float32 has rank 4 in
    # float64 arithmetic, so the float32 run gets an explicit threshold
    C("matrix_rank", "deficient", (low_rank(5, 4, 2),), ref_matrix_rank, dtypes=("float64",), out=INT32),
    C("matrix_rank", "deficient-tol", (low_rank(5, 4, 2),), ref_matrix_rank, out=INT32, tol=1e-3),
    C("matrix_rank", "tol", (normal(4, 4),), ref_matrix_rank, dtypes=("float64",), out=INT32, tol=0.5),
    # (the gradient of the 2-norm at 0 is 0 here, as torch's; Keras's jax and tensorflow backends give NaN; see
    # tests/ops/test_linalg.py)
    C("norm", "all", (normal(2, 3, 4),), ref_norm, dtypes=F32_64, grad=(0,), out=FLOAT),
    C("norm", "all-keepdims", (normal(2, 3),), ref_norm, grad=(0,), keepdims=True),
    C("norm", "vector", (normal(3, 4),), ref_norm, dtypes=F32_64, grad=(0,), axis=-1),
    C("norm", "vector-inf", (distinct(3, 4),), ref_norm, grad=(0,), ord=np.inf, axis=1),
    C("norm", "vector-neg-inf", (distinct(3, 4),), ref_norm, grad=(0,), ord=-np.inf, axis=0, keepdims=True),
    C("norm", "vector-0", (const([[0.0, 1.5, -2.0], [0.0, 0.0, 3.0]]),), ref_norm, ord=0, axis=1),
    C("norm", "vector-1", (normal(5, away=[0.0]),), ref_norm, grad=(0,), ord=1),
    C("norm", "vector-3", (normal(2, 5),), ref_norm, grad=(0,), ord=3, axis=1),
    C("norm", "vector-half", (normal(4, away=[0.0]),), ref_norm, grad=(0,), ord=0.5),
    C("norm", "fro", (normal(2, 3, 4),), ref_norm, grad=(0,), ord="fro", axis=(1, 2)),
    C("norm", "nuc", (normal(3, 4),), ref_norm, dtypes=F32_64, grad=(0,), ord="nuc"),
    C("norm", "matrix-2", (normal(2, 3, 4),), ref_norm, grad=(0,), ord=2, axis=(-2, -1)),
    C("norm", "matrix-neg-2-keepdims", (normal(3, 4, 2),), ref_norm, grad=(0,), ord=-2, axis=(0, 1), keepdims=True),
    C("norm", "matrix-1", (distinct(3, 4),), ref_norm, grad=(0,), ord=1),
    C("norm", "matrix-neg-1", (distinct(3, 4),), ref_norm, grad=(0,), ord=-1, axis=(1, 0)),
    C("norm", "matrix-inf", (distinct(2, 3, 4),), ref_norm, grad=(0,), ord=np.inf, axis=(1, 2), keepdims=True),
    C("norm", "matrix-neg-inf", (distinct(3, 4),), ref_norm, grad=(0,), ord=-np.inf),
    C("norm", "int", (ints(3, 4),), ref_norm, dtypes=INTS, out=FLOAT, axis=1),
    C("cdist", "basic", (normal(3, 2), normal(4, 2)), ref_cdist, dtypes=F32_64, grad=(0, 1)),
    C("cdist", "batched-broadcast", (normal(2, 3, 5), normal(1, 4, 5)), ref_cdist, grad=(0, 1)),
    C("cdist", "int", (ints(3, 2), ints(2, 2)), ref_cdist, dtypes=("int32",), out=FLOAT),
    C(
        "jvp",
        "sin-product",
        (_sin_product, [normal(3), normal(3)], [normal(3), normal(3)]),
        ref_jvp_sin_product,
        dtypes=F32_64,
        grad=(1, 2),
    ),
    C("jvp", "solve", (_solve, [shifted(3), normal(3)], [normal(3, 3), normal(3)]), ref_jvp_solve, grad=(1, 2)),
]
