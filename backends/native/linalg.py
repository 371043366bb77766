"""Matrix decompositions of the native engine (``xp.linalg``) and their VJP rules, in both forms.

Every primitive computes on a stack of matrices (leading batch axes) with ``xp.linalg`` (numpy's LAPACK, or
CuPy's cuSOLVER); the LU factorization and the triangular solve, which numpy lacks, are written here. A matrix
that LAPACK refuses (singular, not positive definite) gives NaN entries instead of an exception, as on the other
engines and inside a compiled step.

Each VJP rule is written once over a small namespace of matrix functions, :data:`_A` on arrays (the array form)
or :data:`_T` on Tensors with the engine's recorded ops (the graph form), so that every gradient can be
differentiated again. Decompositions with several outputs record one node per output; each node's rule gives
that output's share of the gradient, and the shares add up in the backward pass. The rules (for ``A`` the
input, ``X`` the output, and ``F_ij = 1 / (w_j - w_i)`` off the diagonal):

* ``det``: ``g det(A) A^-T``; ``inv``: ``-X^T G X^T``; ``solve``: ``B' = solve(A^T, G)``, ``A' = -B' X^T``;
* ``cholesky``: ``L^-T Phi(L^T G) L^-1`` (``Phi``: the lower triangle with the diagonal halved);
* ``eigh``: ``V (diag(g_w) + F o (V^T G_V)) V^T``;
* ``svd``: Townsend's rule, with the terms that project onto the complements of ``U`` and ``V``;
* ``qr``: ``(G_Q + Q copyltu(M)) R^-T`` with ``M = R G_R^T - G_Q^T Q``, and the wide case as a square one;
* ``lu_factor``: ``P L^-T (tril(L^T G_L, -1) + triu(G_U U^T)) U^-T``.

>>> from highlevel.backends.native.tensor import Tensor
>>> a = Tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
>>> linalg_det(a).numpy().item()
5.0
>>> from highlevel.backends.native.autograd import grad
>>> grad(linalg_det(a), [a])[0].tolist()   # det(A) A^-T
[[3.0, -1.0], [-1.0, 2.0]]
"""

import types

import numpy as np

from .autograd import record
from .convert import to_tensor
from .tensor import Tensor
from .xp import on_gpu, to_host, xp


# ---------------------------------------------------------------------------------------- array kernels
def _nan_on_failure(fn, *arrays):
    """``fn(*arrays)`` on stacks of matrices; where LAPACK refuses a matrix, that matrix's results are NaN."""
    try:
        return fn(*arrays)
    except np.linalg.LinAlgError:
        pass
    batch = arrays[0].shape[:-2]
    flat = [a.reshape((-1,) + a.shape[len(batch) :]) for a in arrays]
    results = []
    for i in range(flat[0].shape[0]):
        one = [a[i] for a in flat]
        try:
            results.append(fn(*one))
        except np.linalg.LinAlgError:  # the shapes of a result, from a matrix LAPACK accepts, filled with NaN
            proxy = [xp.eye(a.shape[-2], a.shape[-1], dtype=a.dtype) if k == 0 else a for k, a in enumerate(one)]
            out = fn(*proxy)
            results.append(
                tuple(xp.full_like(o, xp.nan) for o in out) if isinstance(out, tuple) else xp.full_like(out, xp.nan)
            )
    if isinstance(results[0], tuple):
        return tuple(
            xp.stack([r[j] for r in results]).reshape(batch + results[0][j].shape) for j in range(len(results[0]))
        )
    return xp.stack(results).reshape(batch + results[0].shape)


def _mT(a):  # noqa: N802
    return xp.swapaxes(a, -1, -2)


def _solve(a, b):
    return _nan_on_failure(xp.linalg.solve, a, b)


def _solve_triangular(a, b, lower):
    """``inv(tril(a) or triu(a)) @ b``: forward or back substitution, vectorized over the batch and columns."""
    n = a.shape[-1]
    t = xp.tril(a) if lower else xp.triu(a)
    x = xp.zeros(np.broadcast_shapes(t.shape[:-2], b.shape[:-2]) + b.shape[-2:], xp.result_type(t, b))
    order = range(n) if lower else range(n - 1, -1, -1)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in order:
            acc = b[..., i, :] - xp.einsum("...k,...kj->...j", t[..., i, :], x)
            x[..., i, :] = acc / t[..., i, i][..., None]
    return x


def _cholesky(a):
    return _nan_on_failure(xp.linalg.cholesky, a)


def _lu(a):
    """LU with partial pivoting of a stack of ``(m, n)`` matrices: ``(lu, pivots, perm)`` where ``a[perm] = L U``."""
    lu = a.copy()
    m, n = lu.shape[-2:]
    k = min(m, n)
    batch = lu.shape[:-2]
    lu = lu.reshape((-1, m, n))
    b = lu.shape[0]
    rows = xp.arange(b)
    pivots = xp.zeros((b, k), xp.int32)
    perm = xp.broadcast_to(xp.arange(m), (b, m)).copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        for j in range(k):
            p = j + xp.argmax(xp.abs(lu[:, j:, j]), axis=1)
            pivots[:, j] = p
            top, other = lu[rows, j].copy(), lu[rows, p].copy()
            lu[rows, j], lu[rows, p] = other, top
            pj, pp = perm[rows, j].copy(), perm[rows, p].copy()
            perm[rows, j], perm[rows, p] = pp, pj
            if j + 1 < m:
                lu[:, j + 1 :, j] /= lu[:, j, j][:, None]
                if j + 1 < n:
                    lu[:, j + 1 :, j + 1 :] -= lu[:, j + 1 :, j][:, :, None] * lu[:, j, j + 1 :][:, None, :]
    return lu.reshape(batch + (m, n)), pivots.reshape(batch + (k,)), perm.reshape(batch + (m,))


def _eye(n, dtype):
    return xp.eye(n, dtype=dtype)


def _pairwise_inverse_gaps(w):
    """``F_ij = 1 / (w_j - w_i)`` off the diagonal, 0 on it (arrays)."""
    n = w.shape[-1]
    eye = _eye(n, w.dtype)
    gaps = w[..., None, :] - w[..., :, None] + eye
    with np.errstate(divide="ignore"):
        return (1.0 / gaps) * (1.0 - eye)


# ------------------------------------------------------------------------------- the two rule namespaces
def _tensor_ops():
    """The matrix functions of the graph form: recorded ops on Tensors."""
    from .ops_math import divide, multiply, subtract
    from .ops_reduce import sum as rsum
    from .ops_shape import expand_dims, swapaxes

    def mask(t, keep):
        return multiply(t, Tensor(keep.astype(t.data.dtype)))

    def eye_like(t):
        return Tensor(_eye(t.shape[-1], t.data.dtype))

    def gaps(w):
        eye = _eye(w.shape[-1], w.data.dtype)
        d = subtract(expand_dims(w, -2), expand_dims(w, -1))
        return multiply(divide(1.0, d + Tensor(eye)), Tensor(1.0 - eye))

    return types.SimpleNamespace(
        mT=lambda t: swapaxes(t, -1, -2),
        solve=linalg_solve,
        solve_tri=linalg_solve_triangular,
        tril=lambda t, k=0: mask(t, xp.tril(xp.ones(t.shape[-2:], bool), k)),
        triu=lambda t, k=0: mask(t, xp.triu(xp.ones(t.shape[-2:], bool), k)),
        diag_embed=lambda v: multiply(expand_dims(v, -1), Tensor(_eye(v.shape[-1], v.data.dtype))),
        diag=lambda t: rsum(multiply(t, eye_like(t)), axis=-1),
        col=lambda v: expand_dims(v, (-2, -1)),
        row=lambda v: expand_dims(v, -2),
        gaps=gaps,
        inv=linalg_inv,
    )


_A = types.SimpleNamespace(
    mT=_mT,
    solve=_solve,
    solve_tri=_solve_triangular,
    tril=lambda a, k=0: xp.tril(a, k),
    triu=lambda a, k=0: xp.triu(a, k),
    diag_embed=lambda v: v[..., :, None] * _eye(v.shape[-1], v.dtype),
    diag=lambda a: xp.diagonal(a, axis1=-2, axis2=-1),
    col=lambda v: v[..., None, None],
    row=lambda v: v[..., None, :],
    gaps=_pairwise_inverse_gaps,
    inv=lambda a: _nan_on_failure(xp.linalg.inv, a),
)
_T = None


def _ns(out):
    """The namespace of a rule's mode: arrays (``out`` is None) or recorded Tensor ops."""
    global _T
    if out is None:
        return _A
    if _T is None:
        _T = _tensor_ops()
    return _T


def _pick(out, arrays, tensors):
    return arrays if out is None else tensors


# ------------------------------------------------------------------------------------------ primitives
def linalg_det(x):
    """The determinant of each square matrix of a float ``x``; VJP ``g det(A) A^-T``."""
    x = to_tensor(x)
    xd = x.data
    yd = xp.asarray(xp.linalg.det(xd)).astype(xd.dtype, copy=False)

    def backward(g, out=None):
        F = _ns(out)
        a, y = _pick(out, (xd, yd), (x, out))
        return (F.col(g * y) * F.mT(F.inv(a)),)

    return record(yd, (x,), backward, (x,), "det")


def linalg_inv(x):
    """The inverse of each square matrix of a float ``x``; VJP ``-X^T G X^T``."""
    x = to_tensor(x)
    yd = _A.inv(x.data)

    def backward(g, out=None):
        F = _ns(out)
        y = yd if out is None else out
        return (-(F.mT(y) @ g @ F.mT(y)),)

    return record(yd, (x,), backward, (), "inv")


def linalg_solve(a, b):
    """``inv(a) @ b`` (matrices, one batch shape); VJP ``B' = solve(A^T, G)``, ``A' = -B' X^T``."""
    a, b = to_tensor(a), to_tensor(b)
    ad = a.data
    xd = _solve(ad, b.data)

    def backward(g, out=None):
        F = _ns(out)
        av, xv = _pick(out, (ad, xd), (a, out))
        gb = F.solve(F.mT(av), g)
        return ((-(gb @ F.mT(xv))) if a.requires_grad else None, gb if b.requires_grad else None)

    return record(xd, (a, b), backward, (a,), "solve")


def linalg_solve_triangular(a, b, lower):
    """``inv(t) @ b`` for ``t`` the lower or upper triangle of ``a``; VJP ``B' = t^-T G``, ``A' = tri(-B' X^T)``."""
    a, b = to_tensor(a), to_tensor(b)
    ad = a.data
    xd = _solve_triangular(ad, b.data, lower)

    def backward(g, out=None):
        F = _ns(out)
        av, xv = _pick(out, (ad, xd), (a, out))
        gb = F.solve_tri(F.mT(av), g, not lower)
        ga = None
        if a.requires_grad:
            ga = -(gb @ F.mT(xv))
            ga = F.tril(ga) if lower else F.triu(ga)
        return (ga, gb if b.requires_grad else None)

    return record(xd, (a, b), backward, (a,), "solve_triangular")


def linalg_cholesky(x):
    """The lower Cholesky factor (NaN where not positive definite); VJP ``L^-T Phi(L^T G) L^-1``."""
    x = to_tensor(x)
    ld = _cholesky(x.data)

    def backward(g, out=None):
        F = _ns(out)
        low = ld if out is None else out
        p = F.mT(low) @ g
        p = F.tril(p) - 0.5 * F.diag_embed(F.diag(p))
        z = F.solve_tri(F.mT(low), p, False)  # L^-T P
        return (F.mT(F.solve_tri(F.mT(low), F.mT(z), False)),)  # (L^-T (L^-T P)^T)^T = L^-T P L^-1

    return record(ld, (x,), backward, (), "cholesky")


def linalg_eigh(x):
    """Ascending eigenvalues and eigenvectors of each symmetric matrix of ``x`` (two recorded outputs)."""
    x = to_tensor(x)
    wd, vd = xp.linalg.eigh(x.data)
    outs = []

    def backward_w(g, out=None):
        F = _ns(out)
        v = vd if out is None else outs[1]
        return ((v * F.row(g)) @ F.mT(v),)

    def backward_v(g, out=None):
        F = _ns(out)
        w, v = (wd, vd) if out is None else (outs[0], out)
        return (v @ (F.gaps(w) * (F.mT(v) @ g)) @ F.mT(v),)

    outs.append(record(wd, (x,), backward_w, (), "eigh_values"))
    outs.append(record(vd, (x,), backward_v, (), "eigh_vectors"))
    return tuple(outs)


def linalg_eig(x):
    """Complex eigenvalues and eigenvectors of each square matrix of ``x`` (not differentiable here)."""
    x = to_tensor(x)
    xd = x.data
    if on_gpu:  # CuPy has no general eigensolver: LAPACK on the host
        w, v = np.linalg.eig(to_host(xd))
        w, v = xp.asarray(w), xp.asarray(v)
    else:
        w, v = np.linalg.eig(xd)
    cdt = np.complex128 if xd.dtype == np.float64 else np.complex64

    def backward(g, out=None):  # recorded so that differentiating through eig fails loudly, not with a zero
        raise NotImplementedError(
            "The gradient of eig is not available on the native engine (the eigenvectors of a "
            "non-symmetric matrix have no VJP rule here); use eigh for symmetric matrices."
        )

    return (
        record(w.astype(cdt), (x,), backward, (), "eig_values"),
        record(v.astype(cdt), (x,), backward, (), "eig_vectors"),
    )


def linalg_svd(x, full_matrices, compute_uv):
    """``(u, s, vh)`` (or ``s``) of each matrix of ``x``; differentiable, three recorded outputs."""
    x = to_tensor(x)
    xd = x.data
    m, n = xd.shape[-2:]
    k = min(m, n)
    ud, sd, vhd = xp.linalg.svd(xd, full_matrices=bool(full_matrices))
    # the reduced factors, which the rules use (the extra columns of full ones have no gradient)
    ur, vhr = ud[..., :, :k], vhd[..., :k, :]
    outs = []

    def factors(out):
        if out is None:
            return ur, sd, vhr
        u, s, vh = outs
        if full_matrices and m != n:
            from .ops_shape import getitem

            u = getitem(u, (Ellipsis, slice(None), slice(0, k)))
            vh = getitem(vh, (Ellipsis, slice(0, k), slice(None)))
        return u, s, vh

    def backward_s(g, out=None):
        F = _ns(out)
        u, _, vh = factors(out)
        return ((u * F.row(g)) @ vh,)

    def check_full(out):
        if full_matrices and m != n:
            raise NotImplementedError(
                "The gradient of svd's u or vh with full_matrices=True for a non-square matrix is not defined (their "
                "extra columns are any orthonormal basis of a complement); use full_matrices=False."
            )

    def backward_u(g, out=None):
        check_full(out)
        F = _ns(out)
        u, s, vh = factors(out)
        v = F.mT(vh)
        f = F.gaps(s * s)
        utg = F.mT(u) @ g
        inner = (f * (utg - F.mT(utg))) * F.row(s)
        term = u @ inner @ vh
        if m > k:  # (I - U U^T) G S^-1 V^T
            term = term + ((g - u @ utg) * F.row(1.0 / s)) @ F.mT(v)
        return (term,)

    def backward_vh(g, out=None):
        check_full(out)
        F = _ns(out)
        u, s, vh = factors(out)
        v, gv = F.mT(vh), F.mT(g)
        f = F.gaps(s * s)
        vtg = F.mT(v) @ gv
        inner = F.mT(F.row(s)) * (f * (vtg - F.mT(vtg)))
        term = u @ inner @ vh
        if n > k:  # U S^-1 G_V^T (I - V V^T)
            term = term + (u * F.row(1.0 / s)) @ (F.mT(gv) - (F.mT(gv) @ v) @ vh)
        return (term,)

    # u and vh are recorded even when only s is returned: the graph form of s's rule reads them, linked to x
    outs.extend(
        [
            record(ud, (x,), backward_u, (), "svd_u"),
            record(sd, (x,), backward_s, (), "svd_values"),
            record(vhd, (x,), backward_vh, (), "svd_vh"),
        ]
    )
    return tuple(outs) if compute_uv else outs[1]


def _qr_square_grad(F, q, r, gq, gr):
    """The QR rule for ``m >= n`` (reduced): ``(G_Q + Q copyltu(M)) R^-T`` with ``M = R G_R^T - G_Q^T Q``."""
    mm = r @ F.mT(gr) - F.mT(gq) @ q
    sym = F.tril(mm) + F.mT(F.tril(mm, -1))
    left = gq + q @ sym
    return F.mT(F.solve_tri(r, F.mT(left), False))  # left @ R^-T


def linalg_qr(x, mode):
    """``(q, r)`` of each matrix of ``x`` (``mode``: reduced or complete); two recorded outputs."""
    x = to_tensor(x)
    xd = x.data
    m, n = xd.shape[-2:]
    qd, rd = xp.linalg.qr(xd, mode=mode)
    outs = []

    def rule(g, out, which):
        if mode == "complete" and m > n:
            raise NotImplementedError(
                "The gradient of qr with mode='complete' for a matrix with more rows than "
                "columns is not defined (the extra columns of q are any orthonormal basis "
                "of a complement); use mode='reduced'."
            )
        F = _ns(out)
        if out is None:
            q, r, a = qd, rd, xd
        else:
            q, r, a = outs[0], outs[1], x
        zero_q, zero_r = (0.0 * q, g) if which == "r" else (g, 0.0 * r)
        if m >= n:
            return (_qr_square_grad(F, q, r, zero_q, zero_r),)
        # wide: x = [x1 | y] with x1 = q u square; r = [u | q^T y]
        from .ops_shape import concatenate, getitem

        cut = (lambda t, s: getitem(t, s)) if out is not None else (lambda t, s: t[s])
        u, gu, gv = (
            cut(r, (Ellipsis, slice(0, m))),
            cut(zero_r, (Ellipsis, slice(0, m))),
            cut(zero_r, (Ellipsis, slice(m, None))),
        )
        y = cut(a, (Ellipsis, slice(m, None)))
        gx1 = _qr_square_grad(F, q, u, zero_q + y @ F.mT(gv), gu)
        gy = q @ gv
        join = concatenate if out is not None else (lambda ts, axis: xp.concatenate(ts, axis=axis))
        return (join([gx1, gy], axis=-1),)

    outs.append(record(qd, (x,), lambda g, out=None: rule(g, out, "q"), (x,), "qr_q"))
    outs.append(record(rd, (x,), lambda g, out=None: rule(g, out, "r"), (x,), "qr_r"))
    return tuple(outs)


def linalg_lu_factor(x):
    """``(lu, pivots)`` of each matrix of ``x``: LU with partial pivoting; ``lu`` differentiable (square)."""
    x = to_tensor(x)
    xd = x.data
    m, n = xd.shape[-2:]
    lud, pivd, perm = _lu(xd)
    inverse = xp.argsort(perm, axis=-1)

    def backward(g, out=None):
        if m != n:
            raise NotImplementedError("The gradient of lu_factor is available for square matrices only.")
        F = _ns(out)
        lu = lud if out is None else out
        eye = _eye(n, lud.dtype)
        low = F.tril(lu, -1) + (eye if out is None else Tensor(eye))
        up = F.triu(lu)
        inner = F.tril(F.mT(low) @ F.tril(g, -1), -1) + F.triu(F.triu(g) @ F.mT(up))
        # L^-T inner U^-T, then the rows put back in the input's order: x[perm] = L U
        ga = F.solve_tri(F.mT(low), F.mT(F.solve_tri(up, F.mT(inner), False)), False)
        if out is None:
            return (xp.take_along_axis(ga, inverse[..., :, None], axis=-2),)
        from .ops_shape import take_along_axis

        return (take_along_axis(ga, Tensor(xp.broadcast_to(inverse[..., :, None], ga.shape)), axis=-2),)

    return record(lud, (x,), backward, (), "lu_factor"), Tensor(pivd)


class NativeLinalgMixin:
    """The linear-algebra primitives of :class:`~highlevel.backends.contract.linalg.LinalgContract`."""

    def linalg_cholesky(self, x):
        return linalg_cholesky(x)

    def linalg_det(self, x):
        return linalg_det(x)

    def linalg_inv(self, x):
        return linalg_inv(x)

    def linalg_solve(self, a, b):
        return linalg_solve(a, b)

    def linalg_solve_triangular(self, a, b, lower):
        return linalg_solve_triangular(a, b, lower)

    def linalg_eigh(self, x):
        return linalg_eigh(x)

    def linalg_eig(self, x):
        return linalg_eig(x)

    def linalg_svd(self, x, full_matrices, compute_uv):
        return linalg_svd(x, full_matrices, compute_uv)

    def linalg_qr(self, x, mode):
        return linalg_qr(x, mode)

    def linalg_lu_factor(self, x):
        return linalg_lu_factor(x)


def jvp(fun, primals, tangents, has_aux=False):
    """Forward-mode product ``J @ tangents`` by the double-VJP trick, on the engine's graph-mode autodiff.

    ``u -> J^T u`` is linear in a dummy cotangent ``u``; recorded as a graph (``create_graph``), its own VJP
    with cotangent ``t`` is ``J t``. Inside an enclosing differentiation the primals are linked to it (as
    ``value_and_grad`` links its arguments) and the product is built as a graph, so it can be differentiated.
    """
    from highlevel.backends.contract import tree

    from . import autograd
    from .tensor import GRAD_DTYPES

    if not isinstance(primals, (list, tuple)) or not isinstance(tangents, (list, tuple)):
        raise TypeError(
            "jvp: `primals` and `tangents` must be tuples or lists (one entry per argument of fun); "
            f"received {type(primals).__name__} and {type(tangents).__name__}."
        )
    p_leaves, p_def = tree.flatten(list(primals))
    t_leaves, t_def = tree.flatten(list(tangents))
    if len(p_leaves) != len(t_leaves):
        raise ValueError(
            f"jvp: `tangents` must have the structure of `primals`; received {len(t_leaves)} tangent "
            f"leaves for {len(p_leaves)} primal leaves."
        )
    nested = autograd.in_differentiation()
    xs, pairs = [], []
    for p, t in zip(p_leaves, t_leaves):
        p = to_tensor(p)
        if p.data.dtype in GRAD_DTYPES:
            x = autograd.identity(p, "jvp_primal") if nested and p.requires_grad else Tensor(p.data, requires_grad=True)
            pairs.append((x, to_tensor(t, p.dtype)))
            xs.append(x)
        else:
            xs.append(p)
    with autograd.enable_grad(), autograd.differentiation():
        out = fun(*tree.unflatten(p_def, xs))
        value, aux = (out[0], out[1]) if has_aux else (out, None)
        o_leaves, o_def = tree.flatten(value)
        o_leaves = [to_tensor(o) for o in o_leaves]
        diff = [o for o in o_leaves if o.requires_grad]
        dummies = [Tensor(xp.zeros_like(o.data), requires_grad=True) for o in diff]
        inputs = [x for x, _ in pairs]
        firsts = autograd.grad(diff, inputs, dummies, create_graph=True) if diff and inputs else []
        used = [(f, t) for f, (_, t) in zip(firsts, pairs) if f is not None and f.requires_grad]
        if used:
            seconds = autograd.grad([f for f, _ in used], dummies, [t for _, t in used], create_graph=nested)
        else:
            seconds = [None] * len(dummies)
    by_output = dict(zip(map(id, diff), seconds))
    tangents_out = []
    for o in o_leaves:
        s = by_output.get(id(o))
        if s is None:
            s = Tensor(xp.zeros_like(o.data))
        elif not isinstance(s, Tensor):
            s = Tensor(s)
        tangents_out.append(s)
    if not nested:
        o_leaves = [Tensor(o.data) for o in o_leaves]
        aux = tree.map_structure(lambda v: Tensor(v.data) if isinstance(v, Tensor) else v, aux) if has_aux else aux
    value_out, tangent_out = tree.unflatten(o_def, o_leaves), tree.unflatten(o_def, tangents_out)
    return (value_out, tangent_out, aux) if has_aux else (value_out, tangent_out)


NativeLinalgMixin.jvp = staticmethod(jvp)
