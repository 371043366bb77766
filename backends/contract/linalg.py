"""The backend contract, linear-algebra part: the decompositions behind ``hl.ops.linalg``.

The primitives (``linalg_*`` and ``jvp``) are what an engine must implement: each receives float32 or float64
matrices (batched along leading axes) and returns its framework's raw result. The public ops are generic
definitions on top of them and of the numpy ops; they fix what the frameworks leave open, so that every engine
returns the same numbers:

* integers and booleans compute in floatx; float16 and bfloat16 compute in float32 (LAPACK has no half
  precision) and the results are cast back;
* ``cholesky`` and ``eigh`` read the symmetric part ``(x + x^T) / 2`` of their input (JAX's choice), so their
  gradients are symmetric whatever triangle an engine's kernel reads;
* the signs that a decomposition leaves free are fixed: every eigenvector of ``eigh`` and every left singular
  vector of ``svd`` has its largest-magnitude entry positive (the matching right singular vector follows), the
  diagonal of ``qr``'s ``R`` is non-negative, and ``eig`` sorts its eigenvalues by real part (a conjugate pair
  with the negative imaginary part first) and scales each eigenvector to unit norm with its largest entry real
  and positive;
* ``solve``/``solve_triangular`` take a right-hand side of vectors (``b.ndim == a.ndim - 1``) or of matrices,
  and broadcast the batch axes.

>>> import highlevel as hl
>>> b = hl.config.current_backend()
>>> b.to_numpy(b.det(b.convert_to_tensor([[2.0, 1.0], [1.0, 3.0]]))).round(4).item()
5.0
"""

import abc
import math

import numpy as np

from . import dtypes


class LinalgContract(abc.ABC):
    """Linear algebra (``keras.ops.linalg``, and ``slogdet``, ``logdet``, ``cdist``) and forward-mode autodiff."""

    # ------------------------------------------------------------------------------------------ primitives
    @abc.abstractmethod
    def linalg_cholesky(self, x):
        """The lower Cholesky factor of each symmetric positive-definite matrix of ``x`` (either triangle may be
        read); NaN entries, not an exception, where a matrix is not positive definite."""

    @abc.abstractmethod
    def linalg_det(self, x):
        """The determinant of each square matrix of ``x``."""

    @abc.abstractmethod
    def linalg_inv(self, x):
        """The inverse of each square matrix of ``x`` (non-finite entries, not an exception, where singular)."""

    @abc.abstractmethod
    def linalg_solve(self, a, b):
        """``inv(a) @ b`` for ``a`` of shape ``(..., M, M)`` and ``b`` of shape ``(..., M, K)`` with the same batch
        shape (non-finite entries, not an exception, where ``a`` is singular)."""

    @abc.abstractmethod
    def linalg_solve_triangular(self, a, b, lower):
        """``inv(t) @ b`` where ``t`` is the lower (``lower=True``) or upper triangle of ``a`` (the other triangle
        is not read); shapes as :meth:`linalg_solve`."""

    @abc.abstractmethod
    def linalg_eigh(self, x):
        """``(w, v)``: the eigenvalues of each symmetric matrix of ``x`` in ascending order and the eigenvectors as
        the columns of ``v`` (either triangle of ``x`` may be read; any sign)."""

    @abc.abstractmethod
    def linalg_eig(self, x):
        """``(w, v)``: the complex eigenvalues and eigenvectors (columns) of each square matrix of ``x``, in any
        order and normalization (not differentiable)."""

    @abc.abstractmethod
    def linalg_svd(self, x, full_matrices, compute_uv):
        """``(u, s, vh)`` with ``x = u @ diag(s) @ vh`` and ``s`` descending (any signs), or ``s`` alone when
        ``compute_uv`` is False."""

    @abc.abstractmethod
    def linalg_qr(self, x, mode):
        """``(q, r)`` with ``x = q @ r``, ``q`` with orthonormal columns and ``r`` upper triangular (any signs);
        ``mode`` is ``"reduced"`` (``K = min(M, N)`` columns) or ``"complete"``."""

    @abc.abstractmethod
    def linalg_lu_factor(self, x):
        """``(lu, pivots)``: LU factorization with partial pivoting of each ``(M, N)`` matrix of ``x``, as
        ``scipy.linalg.lu_factor``: ``lu`` holds ``U`` and the strictly lower part of the unit-diagonal ``L``;
        ``pivots`` (int32, ``min(M, N)`` per matrix) says that row ``i`` was swapped with row ``pivots[i]``."""

    @abc.abstractmethod
    def jvp(self, fun, primals, tangents, has_aux=False):
        """Forward-mode differentiation: ``(fun(*primals), J @ tangents)`` (and ``aux`` with ``has_aux``).

        ``primals`` and ``tangents`` are sequences of tensors (or nested lists/tuples/dicts of them) of the same
        structure; the tangents of non-float primals are ignored, and the tangent of a non-float output is zeros.
        """

    # --------------------------------------------------------------------------------------------- helpers
    def _linalg_float(self, x):
        """``(x in its compute dtype, result dtype)``: float64 stays, other floats compute in float32, integers
        and booleans in floatx."""
        x = self.convert_to_tensor(x)
        dt = self.dtype(x)
        if dt not in dtypes.FLOAT_DTYPES:
            dt = dtypes.floatx()
        return self.cast(x, "float64" if dt == "float64" else "float32"), dt

    def _linalg_float_pair(self, a, b):
        a, b = self.convert_to_tensor(a), self.convert_to_tensor(b)
        dt = dtypes.result_type(self.dtype(a), self.dtype(b))
        if dt not in dtypes.FLOAT_DTYPES:
            dt = dtypes.floatx()
        work = "float64" if dt == "float64" else "float32"
        return self.cast(a, work), self.cast(b, work), dt

    def _mT(self, x):  # noqa: N802 - the transpose of the last two axes, as numpy's .mT
        return self.swapaxes(x, -2, -1)

    def _symmetric_part(self, x):
        return self.multiply(self.add(x, self._mT(x)), 0.5)

    def _batch_broadcast(self, a, b):
        """``a`` (..., M, M) and ``b`` (..., M, K) broadcast to one batch shape."""
        sa, sb = self.shape(a), self.shape(b)
        batch = tuple(np.broadcast_shapes(sa[:-2], sb[:-2]))
        if sa[:-2] != batch:
            a = self.broadcast_to(a, batch + sa[-2:])
        if sb[:-2] != batch:
            b = self.broadcast_to(b, batch + sb[-2:])
        return a, b

    def _solve_with(self, primitive, a, b, *extra):
        a, b, dt = self._linalg_float_pair(a, b)
        vector = self.ndim(b) in (self.ndim(a) - 1, 1)
        if vector:
            b = self.expand_dims(b, -1)
        a, b = self._batch_broadcast(a, b)
        x = primitive(a, b, *extra)
        if vector:
            x = self.squeeze(x, -1)
        return self.cast(x, dt)

    def _positive_largest(self, v, axis):
        """+1 or -1 per vector along ``axis`` of ``v`` (keepdims): the sign of its largest-magnitude entry."""
        index = self.argmax(self.abs(v), axis=axis, keepdims=True)
        largest = self.take_along_axis(v, index, axis=axis)
        return self.stop_gradient(self.where(self.less(largest, 0), -1.0, 1.0))

    # ----------------------------------------------------------------------------------- decompositions
    def cholesky(self, x, upper=False):
        """The Cholesky factor of each symmetric positive-definite matrix of ``x`` (its symmetric part is read):
        lower triangular ``L`` with ``x = L @ L^T``, or upper ``U = L^T`` with ``upper``. NaN where ``x`` is not
        positive definite."""
        x, dt = self._linalg_float(x)
        factor = self.linalg_cholesky(self._symmetric_part(x))
        if upper:
            factor = self._mT(factor)
        return self.cast(factor, dt)

    def cholesky_inverse(self, x, upper=False):
        """The inverse of ``A`` from its Cholesky factor ``x`` (``A = x @ x^T``, or ``x^T @ x`` with ``upper``)."""
        x, dt = self._linalg_float(x)
        n = self.shape(x)[-1]
        eye = self.broadcast_to(self.eye(n, dtype=self.dtype(x)), self.shape(x))
        inv_factor = self.linalg_solve_triangular(x, eye, not upper)
        if upper:  # A = U^T U: inv(A) = inv(U) inv(U)^T
            out = self.matmul(inv_factor, self._mT(inv_factor))
        else:  # A = L L^T: inv(A) = inv(L)^T inv(L)
            out = self.matmul(self._mT(inv_factor), inv_factor)
        return self.cast(out, dt)

    def det(self, x):
        """The determinant of each square matrix of ``x``."""
        x, dt = self._linalg_float(x)
        return self.cast(self.linalg_det(x), dt)

    def inv(self, x):
        """The inverse of each square matrix of ``x``."""
        x, dt = self._linalg_float(x)
        return self.cast(self.linalg_inv(x), dt)

    def solve(self, a, b):
        """The solution ``x`` of ``a @ x = b`` (``b``: vectors ``(..., M)`` or matrices ``(..., M, K)``)."""
        return self._solve_with(self.linalg_solve, a, b)

    def solve_triangular(self, a, b, lower=False):
        """The solution of ``t @ x = b`` with ``t`` the lower (``lower=True``) or upper triangle of ``a``."""
        return self._solve_with(self.linalg_solve_triangular, a, b, bool(lower))

    def eigh(self, x):
        """``(w, v)``: the eigenvalues (ascending) and eigenvectors (columns, largest entry positive) of the
        symmetric part of each matrix of ``x``."""
        x, dt = self._linalg_float(x)
        w, v = self.linalg_eigh(self._symmetric_part(x))
        v = self.multiply(v, self._positive_largest(v, -2))
        return self.cast(w, dt), self.cast(v, dt)

    def eig(self, x):
        """``(w, v)``: the complex eigenvalues (by ascending real part) and unit eigenvectors (columns, largest entry
        real and positive) of each square matrix of ``x``."""
        x, _ = self._linalg_float(x)
        w, v = self.linalg_eig(x)
        # a key that orders by real part and puts the negative imaginary part of a conjugate pair first, without
        # depending on the last bits of the pair's two real parts (they can differ by rounding)
        key = self.add(self.real(w), self.multiply(self.imag(w), 1e-3))
        order = self.argsort(key, axis=-1)
        w = self.take_along_axis(w, order, axis=-1)
        v = self.take_along_axis(v, self.broadcast_to(self.expand_dims(order, -2), self.shape(v)), axis=-1)
        magnitude = self.abs(v)
        index = self.argmax(magnitude, axis=-2, keepdims=True)
        top = self.take_along_axis(v, index, axis=-2)
        top_abs = self.take_along_axis(magnitude, index, axis=-2)
        norm = self.sqrt(self.sum(self.square(magnitude), axis=-2, keepdims=True))
        # v * conj(top) / |top| / norm: the largest entry becomes real and positive, the column unit-norm
        scale = self.divide(self.conj(top), self.cast(self.multiply(top_abs, norm), self.dtype(top)))
        return w, self.multiply(v, scale)

    def svd(self, x, full_matrices=True, compute_uv=True):
        """``(u, s, vh)`` with ``x = u @ diag(s) @ vh``, ``s`` descending and each of the first ``min(M, N)`` columns
        of ``u`` with its largest entry positive; ``s`` alone when ``compute_uv`` is False.

        With ``full_matrices`` and a non-square matrix, the columns of ``u`` (rows of ``vh``) past ``min(M, N)`` are
        an orthonormal basis of a complement, which the matrix does not determine: they carry no gradient."""
        x, dt = self._linalg_float(x)
        m, n = self.shape(x)[-2:]
        if not compute_uv:
            return self.cast(self.linalg_svd(x, False, False), dt)
        k = min(m, n)
        u, s, vh = self.linalg_svd(x, False, True)
        sign = self._positive_largest(u, -2)  # (..., 1, k)
        u, vh = self.multiply(u, sign), self.multiply(vh, self._mT(sign))
        if full_matrices and m != n:
            u_full, _, vh_full = self.linalg_svd(self.stop_gradient(x), True, True)
            if m > k:
                u = self.concatenate([u, self.getitem(u_full, (Ellipsis, slice(k, None)))], -1)
            if n > k:
                vh = self.concatenate([vh, self.getitem(vh_full, (Ellipsis, slice(k, None), slice(None)))], -2)
        return self.cast(u, dt), self.cast(s, dt), self.cast(vh, dt)

    def qr(self, x, mode="reduced"):
        """``(q, r)`` with ``x = q @ r``, orthonormal columns in ``q``, ``r`` upper triangular with a non-negative
        diagonal; ``mode`` ``"reduced"`` (``K = min(M, N)``) or ``"complete"`` (``q`` square).

        In complete mode with ``M > N`` the last ``M - N`` columns of ``q`` are an orthonormal basis of a
        complement, which the matrix does not determine: they carry no gradient."""
        x, dt = self._linalg_float(x)
        m, n = self.shape(x)[-2:]
        q, r = self.linalg_qr(x, "reduced")
        sign = self.stop_gradient(
            self.where(
                self.less(self._diagonal(self.getitem(r, (Ellipsis, slice(None), slice(0, min(m, n))))), 0), -1.0, 1.0
            )
        )  # (..., k)
        q = self.multiply(q, self.expand_dims(sign, -2))
        r = self.multiply(r, self.expand_dims(sign, -1))
        if mode == "complete" and m > n:
            q_full, _ = self.linalg_qr(self.stop_gradient(x), "complete")
            q = self.concatenate([q, self.getitem(q_full, (Ellipsis, slice(n, None)))], -1)
            r = self.concatenate([r, self.zeros(self.shape(r)[:-2] + (m - n, n), self.dtype(r))], -2)
        return self.cast(q, dt), self.cast(r, dt)

    def _diagonal(self, x):
        """The main diagonal of each square matrix of ``x``: shape ``(..., n)``."""
        n = self.shape(x)[-1]
        return self.sum(self.multiply(x, self.eye(n, dtype=self.dtype(x))), axis=-1)

    def lu_factor(self, x):
        """``(lu, pivots)``: LU factorization with partial pivoting (``scipy.linalg.lu_factor``'s layout)."""
        x, dt = self._linalg_float(x)
        lu, pivots = self.linalg_lu_factor(x)
        return self.cast(lu, dt), pivots

    # ------------------------------------------------------------------------------- derived quantities
    def slogdet(self, x):
        """``(sign, log|det|)`` of each square matrix of ``x``, from its QR decomposition: no overflow for large
        determinants, and ``log|det|`` differentiable wherever ``x`` is invertible."""
        x, dt = self._linalg_float(x)
        q, r = self.qr(x)
        d = self._diagonal(r)  # non-negative: det(x) = det(q) * prod(d), and det(q) is +1 or -1
        logabs = self.sum(self.log(d), axis=-1)
        sign = self.multiply(
            self.sign(self.stop_gradient(self.linalg_det(q))), self.prod(self.sign(self.stop_gradient(d)), axis=-1)
        )
        return self.cast(sign, dt), self.cast(logabs, dt)

    def logdet(self, x):
        """``log(det(x))``: NaN where the determinant is negative, ``-inf`` where it is 0."""
        sign, logabs = self.slogdet(x)
        nan = self.full((), float("nan"), self.dtype(logabs))
        return self.where(
            self.greater(sign, 0),
            logabs,
            self.where(self.equal(sign, 0), self.full((), float("-inf"), self.dtype(logabs)), nan),
        )

    def _rcond_cutoff(self, s, rcond, m, n):
        """The singular values treated as zero: below ``rcond * max(s)`` (default ``eps * max(M, N)``)."""
        if rcond is None:
            rcond = float(np.finfo(self.dtype(s)).eps) * max(m, n)
        return self.multiply(self.max(s, axis=-1, keepdims=True), rcond)

    def pinv(self, x, rcond=None):
        """The Moore-Penrose pseudo-inverse of each matrix of ``x`` (shape ``(..., N, M)``), from its SVD."""
        x, dt = self._linalg_float(x)
        m, n = self.shape(x)[-2:]
        u, s, vh = self.linalg_svd(x, False, True)
        keep = self.greater(s, self.stop_gradient(self._rcond_cutoff(s, rcond, m, n)))
        s_inv = self.where(keep, self.divide(1.0, self.where(keep, s, 1.0)), 0.0)
        out = self.matmul(self.multiply(self._mT(vh), self.expand_dims(s_inv, -2)), self._mT(u))
        return self.cast(out, dt)

    def lstsq(self, a, b, rcond=None):
        """The least-squares solution ``x`` of ``a @ x = b`` with the smallest norm (``b``: ``(M,)`` or ``(M, K)``)."""
        a, b, dt = self._linalg_float_pair(a, b)
        m, n = self.shape(a)[-2:]
        u, s, vh = self.linalg_svd(a, False, True)
        keep = self.greater(s, self.stop_gradient(self._rcond_cutoff(s, rcond, m, n)))
        s_inv = self.where(keep, self.divide(1.0, self.where(keep, s, 1.0)), 0.0)
        vector = self.ndim(b) == 1
        if vector:
            b = self.expand_dims(b, -1)
        x = self.matmul(self._mT(vh), self.multiply(self.expand_dims(s_inv, -1), self.matmul(self._mT(u), b)))
        if vector:
            x = self.squeeze(x, -1)
        return self.cast(x, dt)

    def matrix_rank(self, x, tol=None):
        """The number of singular values of each matrix of ``x`` above ``tol`` (default
        ``max(s) * max(M, N) * eps``), as int32."""
        x, _ = self._linalg_float(x)
        m, n = self.shape(x)[-2:]
        s = self.linalg_svd(x, False, False)
        if tol is None:
            cutoff = self._rcond_cutoff(s, None, m, n)
        else:
            cutoff = self.cast(tol, self.dtype(s))
            if self.ndim(cutoff) == self.ndim(s) - 1:
                cutoff = self.expand_dims(cutoff, -1)
        return self.sum(self.cast(self.greater(s, cutoff), "int32"), axis=-1)

    # ------------------------------------------------------------------------------------------- norms
    def _safe_sqrt_sum_squares(self, x, axis, keepdims):
        """``sqrt(sum(x**2))`` whose gradient is 0 (not NaN) where every entry is 0."""
        total = self.sum(self.square(x), axis=axis, keepdims=keepdims)
        zero = self.equal(total, 0)
        return self.where(zero, 0.0, self.sqrt(self.where(zero, 1.0, total)))

    def norm(self, x, ord=None, axis=None, keepdims=False):  # noqa: A002 - Keras's name
        """A vector norm (``axis``: one axis) or matrix norm (two axes) of ``x``; canonical ``axis``: None or a
        tuple of 1 or 2 non-negative axes, ``ord`` checked by the front door (see ``hl.ops.linalg.norm``)."""
        x = self.convert_to_tensor(x)
        dt = self.dtype(x)
        if dt in dtypes.COMPLEX_DTYPES:
            x = self.abs(x)
        elif dt not in dtypes.FLOAT_DTYPES:
            x = self.cast(x, dtypes.floatx())
        ndim = self.ndim(x)
        if axis is None:
            if ord is None:  # the 2-norm of all entries, whatever the rank
                out = self._safe_sqrt_sum_squares(self.reshape(x, (-1,)), 0, False)
                return self.reshape(out, (1,) * ndim) if keepdims else out
            axis = tuple(range(ndim))
        if len(axis) == 1:
            return self._vector_norm(x, ord, axis, keepdims)
        return self._matrix_norm(x, ord, axis, keepdims)

    def _vector_norm(self, x, ord, axis, keepdims):  # noqa: A002
        if ord is None or ord == 2:
            return self._safe_sqrt_sum_squares(x, axis, keepdims)
        a = self.abs(x)
        if ord == math.inf:
            return self.max(a, axis=axis, keepdims=keepdims)
        if ord == -math.inf:
            return self.min(a, axis=axis, keepdims=keepdims)
        if ord == 0:
            return self.sum(self.cast(self.not_equal(x, 0), self.dtype(x)), axis=axis, keepdims=keepdims)
        if ord == 1:
            return self.sum(a, axis=axis, keepdims=keepdims)
        p = float(ord)
        return self.power(self.sum(self.power(a, p), axis=axis, keepdims=keepdims), 1.0 / p)

    def _matrix_norm(self, x, ord, axis, keepdims):  # noqa: A002
        row, col = axis
        if ord is None or ord == "fro":
            return self._safe_sqrt_sum_squares(x, axis, keepdims)
        if ord in ("nuc", 2, -2):
            moved = self.moveaxis(x, (row, col), (-2, -1))
            s = self.linalg_svd(moved, False, False)
            if ord == "nuc":
                out = self.sum(s, axis=-1)
            elif ord == 2:
                out = self.max(s, axis=-1)
            else:
                out = self.min(s, axis=-1)
            if keepdims:
                out = self.expand_dims(out, tuple(sorted((row, col))))
            return out
        a = self.abs(x)
        # ord 1 / -1: the largest / smallest column sum; inf / -inf: the largest / smallest row sum
        summed, other = (row, col) if ord in (1, -1) else (col, row)
        sums = self.sum(a, axis=(summed,), keepdims=True)
        reduce = self.max if ord in (1, math.inf) else self.min
        out = reduce(sums, axis=(other,), keepdims=True)
        if not keepdims:
            out = self.squeeze(out, axis=tuple(sorted((row, col))))
        return out

    # ------------------------------------------------------------------------------------------ distances
    def cdist(self, x, y):
        """The Euclidean distances between the rows of ``x`` ``(..., m, d)`` and of ``y`` ``(..., n, d)``: shape
        ``(..., m, n)`` (batch axes broadcast); the gradient at a distance of 0 is 0."""
        x, y = self.convert_to_tensor(x), self.convert_to_tensor(y)
        dt = dtypes.result_type(self.dtype(x), self.dtype(y), float)
        x, y = self.cast(x, dt), self.cast(y, dt)
        diff = self.subtract(self.expand_dims(x, -2), self.expand_dims(y, -3))
        return self._safe_sqrt_sum_squares(diff, (self.ndim(diff) - 1,), False)


__all__ = ["LinalgContract"]
