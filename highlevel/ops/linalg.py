"""``hl.ops.linalg``: linear algebra (``keras.ops.linalg``'s names).

Matrices may come in batches (leading axes). Integer inputs compute in floatx, float16 and bfloat16 in float32
(LAPACK has no half precision), with the results cast back. Decompositions whose signs are free return the same
ones on every engine (see each op), so results and gradients agree across engines.

>>> import highlevel as hl
>>> a = hl.ops.convert_to_tensor([[4.0, 2.0], [2.0, 3.0]])
>>> hl.ops.convert_to_numpy(hl.ops.linalg.solve(a, hl.ops.convert_to_tensor([2.0, 1.0]))).round(4).tolist()
[0.5, 0.0]
"""

import math as _math
import numbers as _numbers

from . import _args, _door

_MATRIX_ORDS = (None, "fro", "nuc", _math.inf, -_math.inf, 1, -1, 2, -2)


def cholesky(x, upper=False):
    """The Cholesky factor of each symmetric positive-definite matrix of ``x``.

    Only the symmetric part ``(x + x^T) / 2`` of ``x`` is read, so the gradient is symmetric.

    Args:
        x: a tensor of shape ``(..., M, M)``.
        upper: return the upper-triangular factor ``U`` (``x = U^T U``) instead of the lower one ``L``
            (``x = L L^T``).

    Returns:
        A tensor of shape ``(..., M, M)``; NaN entries where a matrix is not positive definite.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.cholesky(hl.ops.convert_to_tensor([[4.0, 2.0], [2.0, 5.0]]))).tolist()
    [[2.0, 0.0], [1.0, 2.0]]
    """
    return _door.call(
        "cholesky", _args.matrices(x, "cholesky", square=True), upper=_args.boolean(upper, "upper", "cholesky")
    )


def cholesky_inverse(x, upper=False):
    """The inverse of a symmetric positive-definite matrix ``A`` from its Cholesky factor ``x``.

    Args:
        x: the Cholesky factor, shape ``(..., M, M)``: lower triangular with ``A = x x^T``, or upper triangular
            with ``A = x^T x`` when ``upper`` is True (the other triangle is not read).
        upper: whether ``x`` is the upper factor.

    Returns:
        ``inv(A)``, shape ``(..., M, M)``.

    >>> import highlevel as hl
    >>> factor = hl.ops.convert_to_tensor([[2.0, 0.0], [1.0, 1.0]])   # A = [[4, 2], [2, 2]]
    >>> hl.ops.convert_to_numpy(hl.ops.cholesky_inverse(factor)).tolist()
    [[0.5, -0.5], [-0.5, 1.0]]
    """
    return _door.call(
        "cholesky_inverse",
        _args.matrices(x, "cholesky_inverse", square=True),
        upper=_args.boolean(upper, "upper", "cholesky_inverse"),
    )


def det(x):
    """The determinant of each square matrix of ``x``.

    Args:
        x: a tensor of shape ``(..., M, M)``.

    Returns:
        A tensor of shape ``(...)``.

    >>> import highlevel as hl
    >>> float(hl.ops.convert_to_numpy(hl.ops.det(hl.ops.convert_to_tensor([[2.0, 1.0], [1.0, 3.0]]))))
    5.0
    """
    return _door.call("det", _args.matrices(x, "det", square=True))


def eig(x):
    """The eigenvalues and eigenvectors of each square matrix of ``x`` (any real matrix: complex results).

    The eigenvalues come in ascending order of their real parts (of a conjugate pair, the one with the negative
    imaginary part first); each eigenvector has norm 1 and its largest entry real and positive. Not
    differentiable on the native engine.

    Args:
        x: a tensor of shape ``(..., M, M)``.

    Returns:
        ``(w, v)``: complex eigenvalues of shape ``(..., M)`` and eigenvectors as the columns of ``v``, shape
        ``(..., M, M)``, with ``x @ v = v * w``; complex64 (complex128 for float64 input).

    >>> import highlevel as hl
    >>> w, v = hl.ops.eig(hl.ops.convert_to_tensor([[0.0, -1.0], [1.0, 0.0]]))
    >>> hl.ops.convert_to_numpy(w).round(6).tolist()
    [-1j, 1j]
    """
    return _door.call("eig", _args.matrices(x, "eig", square=True))


def eigh(x):
    """The eigenvalues and eigenvectors of each symmetric matrix of ``x``.

    Only the symmetric part ``(x + x^T) / 2`` of ``x`` is read. The eigenvalues are ascending and each eigenvector
    has its largest-magnitude entry positive, on every engine.

    Args:
        x: a tensor of shape ``(..., M, M)``.

    Returns:
        ``(w, v)``: eigenvalues of shape ``(..., M)`` and eigenvectors as the columns of ``v``, ``(..., M, M)``.

    >>> import highlevel as hl
    >>> w, v = hl.ops.eigh(hl.ops.convert_to_tensor([[2.0, 1.0], [1.0, 2.0]]))
    >>> hl.ops.convert_to_numpy(w).round(6).tolist()
    [1.0, 3.0]
    """
    return _door.call("eigh", _args.matrices(x, "eigh", square=True))


def inv(x):
    """The inverse of each square matrix of ``x``.

    Args:
        x: a tensor of shape ``(..., M, M)``.

    Returns:
        A tensor of shape ``(..., M, M)``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.inv(hl.ops.convert_to_tensor([[2.0, 0.0], [0.0, 4.0]]))).tolist()
    [[0.5, 0.0], [0.0, 0.25]]
    """
    return _door.call("inv", _args.matrices(x, "inv", square=True))


def lu_factor(x):
    """The LU factorization with partial pivoting of each matrix of ``x``, in ``scipy.linalg.lu_factor``'s layout.

    Args:
        x: a tensor of shape ``(..., M, N)`` (the TensorFlow engine factors square matrices only).

    Returns:
        ``(lu, pivots)``: ``lu`` of shape ``(..., M, N)`` holds ``U`` in its upper triangle and the strictly lower
        part of the unit lower-triangular ``L``; ``pivots`` (int32, shape ``(..., min(M, N))``) says that row ``i``
        was swapped with row ``pivots[i]``, in order.

    >>> import highlevel as hl
    >>> lu, pivots = hl.ops.lu_factor(hl.ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]]))
    >>> hl.ops.convert_to_numpy(pivots).tolist(), hl.ops.convert_to_numpy(lu).astype("float64").round(4).tolist()
    ([1, 1], [[3.0, 4.0], [0.3333, 0.6667]])
    """
    return _door.call("lu_factor", _args.matrices(x, "lu_factor"))


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 - Keras's name
    """A vector or matrix norm of ``x``.

    Vector norms (one axis): ``ord=None`` or 2 the Euclidean norm, ``inf``/``-inf`` the largest/smallest
    magnitude, 0 the count of non-zero entries, any other number ``p`` ``sum(|x|**p)**(1/p)``. Matrix norms (two
    axes): ``None``/``"fro"`` Frobenius, ``"nuc"`` the sum of the singular values, 2/-2 the largest/smallest
    singular value, 1/-1 the largest/smallest column sum of magnitudes, ``inf``/``-inf`` the largest/smallest
    row sum. The gradient of the Euclidean and Frobenius norms is 0 at 0.

    Args:
        x: a tensor; integers compute in floatx.
        ord: the order of the norm (see above).
        axis: None (with ``ord=None``: the 2-norm of all entries; otherwise ``x`` must be a vector or a matrix), an
            axis (vector norms) or a pair of axes (matrix norms).
        keepdims: keep the reduced axes with size 1.

    Returns:
        The norms, a float tensor.

    Raises:
        ValueError: ``axis`` is None with an ``ord`` and ``x`` is neither a vector nor a matrix; ``axis`` names
            neither one nor two axes; or ``ord`` is not valid for a vector or matrix norm.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[3.0, -4.0], [0.0, 0.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.norm(x, axis=1)).tolist(), float(hl.ops.convert_to_numpy(hl.ops.norm(x, 1)))
    ([5.0, 0.0], 4.0)
    """
    n = _args.ndim_of(x)
    if axis is None:
        if ord is not None and n not in (1, 2):
            raise ValueError(
                f"norm: with ord={ord!r} and axis=None, `x` must be a vector or a matrix; received a "
                f"tensor of rank {n}. Pass `axis` (one axis or a pair) to take norms of a batch."
            )
        axes = None if ord is None else tuple(range(n))
    else:
        axes = _args.axes(axis, n, "norm", keep_order=True)
        if len(axes) not in (1, 2):
            raise ValueError(
                f"norm: `axis` must be one axis (vector norms) or a pair of axes (matrix norms); "
                f"received axis={axis!r}."
            )
    if axes is not None and len(axes) == 1:
        if isinstance(ord, str) or not (ord is None or isinstance(ord, _numbers.Real)):
            raise ValueError(f"norm: a vector norm takes a number (or None, or inf) as `ord`; received ord={ord!r}.")
    elif axes is not None and ord not in _MATRIX_ORDS:
        raise ValueError(f"norm: a matrix norm takes ord in {list(_MATRIX_ORDS)}; received ord={ord!r}.")
    return _door.call("norm", x, ord=ord, axis=axes, keepdims=_args.boolean(keepdims, "keepdims", "norm"))


def qr(x, mode="reduced"):
    """The QR decomposition of each matrix of ``x``: ``x = q @ r``.

    The diagonal of ``r`` is non-negative (which makes the decomposition of a full-rank matrix unique). In complete
    mode with ``M > N``, the last ``M - N`` columns of ``q`` complete it to an orthogonal matrix; the input does not
    determine them, and they carry no gradient.

    Args:
        x: a tensor of shape ``(..., M, N)``.
        mode: ``"reduced"`` (``q`` of shape ``(..., M, K)``, ``r`` ``(..., K, N)``, ``K = min(M, N)``) or
            ``"complete"`` (``q`` ``(..., M, M)``, ``r`` ``(..., M, N)``).

    Returns:
        ``(q, r)``, ``q`` with orthonormal columns and ``r`` upper triangular.

    >>> import highlevel as hl
    >>> q, r = hl.ops.qr(hl.ops.convert_to_tensor([[3.0, 1.0], [4.0, 2.0]]))
    >>> hl.ops.convert_to_numpy(r).astype("float64").round(4).tolist()
    [[5.0, 2.2], [0.0, 0.4]]
    """
    _args.one_of(mode, ("reduced", "complete"), "mode", "qr")
    return _door.call("qr", _args.matrices(x, "qr"), mode=mode)


def solve(a, b):
    """The solution ``x`` of ``a @ x = b`` for each square matrix of ``a``.

    Args:
        a: the coefficients, shape ``(..., M, M)``.
        b: the right-hand sides: vectors of shape ``(..., M)`` (rank of ``a`` minus one, or 1) or matrices of shape
            ``(..., M, K)``; batch axes broadcast against ``a``'s.

    Returns:
        ``x``, of ``b``'s shape (with the batch axes broadcast).

    >>> import highlevel as hl
    >>> a = hl.ops.convert_to_tensor([[2.0, 0.0], [0.0, 4.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.solve(a, hl.ops.convert_to_tensor([1.0, 1.0]))).tolist()
    [0.5, 0.25]
    """
    _args.matrices(a, "solve", name="a", square=True)
    return _door.call("solve", a, _args.right_hand_side(a, b, "solve"))


def solve_triangular(a, b, lower=False):
    """The solution ``x`` of ``t @ x = b``, with ``t`` the upper (or lower) triangle of each matrix of ``a``.

    Args:
        a: a tensor of shape ``(..., M, M)``; only the triangle named by ``lower`` is read.
        b: vectors ``(..., M)`` or matrices ``(..., M, K)``, as in :func:`solve`.
        lower: use the lower triangle of ``a`` (default: the upper one).

    Returns:
        ``x``, of ``b``'s shape.

    >>> import highlevel as hl
    >>> a = hl.ops.convert_to_tensor([[2.0, 1.0], [0.0, 4.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.solve_triangular(a, hl.ops.convert_to_tensor([3.0, 4.0]))).tolist()
    [1.0, 1.0]
    """
    _args.matrices(a, "solve_triangular", name="a", square=True)
    return _door.call(
        "solve_triangular",
        a,
        _args.right_hand_side(a, b, "solve_triangular"),
        lower=_args.boolean(lower, "lower", "solve_triangular"),
    )


def svd(x, full_matrices=True, compute_uv=True):
    """The singular value decomposition of each matrix of ``x``: ``x = u @ diag(s) @ vh``.

    The singular values are descending; each singular pair has the sign that makes the largest-magnitude entry of
    its column of ``u`` positive, on every engine. With ``full_matrices`` and a non-square matrix, the columns of
    ``u`` (rows of ``vh``) past ``K = min(M, N)`` complete them to orthogonal matrices; the input does not determine
    them, and they carry no gradient.

    Args:
        x: a tensor of shape ``(..., M, N)``.
        full_matrices: ``u`` of shape ``(..., M, M)`` and ``vh`` ``(..., N, N)`` (True) or ``(..., M, K)`` and
            ``(..., K, N)`` (False).
        compute_uv: return ``(u, s, vh)`` (True) or ``s`` alone.

    Returns:
        ``(u, s, vh)`` with ``s`` of shape ``(..., K)``, or ``s``.

    >>> import highlevel as hl
    >>> s = hl.ops.svd(hl.ops.convert_to_tensor([[3.0, 0.0], [0.0, -4.0]]), compute_uv=False)
    >>> hl.ops.convert_to_numpy(s).tolist()
    [4.0, 3.0]
    """
    return _door.call(
        "svd",
        _args.matrices(x, "svd"),
        full_matrices=_args.boolean(full_matrices, "full_matrices", "svd"),
        compute_uv=_args.boolean(compute_uv, "compute_uv", "svd"),
    )


def lstsq(a, b, rcond=None):
    """The least-squares solution of ``a @ x = b``: the ``x`` of smallest norm among those minimizing
    ``|a @ x - b|``.

    Args:
        a: the coefficients, shape ``(M, N)``.
        b: the ordinates, shape ``(M,)`` or ``(M, K)``.
        rcond: singular values of ``a`` below ``rcond`` times the largest count as zero (default:
            ``eps * max(M, N)``, numpy's).

    Returns:
        ``x`` of shape ``(N,)`` or ``(N, K)``.

    Raises:
        ValueError: ``a`` is not a matrix, ``b`` is not of rank 1 or 2, or their row counts differ.

    >>> import highlevel as hl
    >>> a = hl.ops.convert_to_tensor([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.lstsq(a, hl.ops.convert_to_tensor([1.0, 2.0, 3.0]))).round(4).tolist()
    [1.0, 1.0]
    """
    sa, sb = _args.shape_of(a), _args.shape_of(b)
    if len(sa) != 2:
        raise ValueError(f"lstsq: `a` must be a matrix (rank 2); received shape {sa}.")
    if len(sb) not in (1, 2):
        raise ValueError(f"lstsq: `b` must have rank 1 or 2; received shape {sb}.")
    if None not in (sa[0], sb[0]) and sa[0] != sb[0]:
        raise ValueError(f"lstsq: `b` must have as many rows as `a`; received shapes {sa} and {sb}.")
    return _door.call("lstsq", a, b, rcond=_tolerance(rcond, "rcond", "lstsq"))


def matrix_rank(x, tol=None):
    """The rank of each matrix of ``x``: the number of its singular values above ``tol``.

    Args:
        x: a tensor of shape ``(..., M, N)``.
        tol: the threshold (a number, or a tensor of shape ``(...)``); default ``max(s) * max(M, N) * eps``, as
            numpy's.

    Returns:
        An int32 tensor of shape ``(...)``.

    >>> import highlevel as hl
    >>> int(hl.ops.convert_to_numpy(hl.ops.matrix_rank(hl.ops.convert_to_tensor([[1.0, 2.0], [2.0, 4.0]]))))
    1
    """
    return _door.call("matrix_rank", _args.matrices(x, "matrix_rank"), tol=tol)


def pinv(x, rcond=None):
    """The Moore-Penrose pseudo-inverse of each matrix of ``x``, from its singular value decomposition.

    Args:
        x: a tensor of shape ``(..., M, N)``.
        rcond: singular values up to ``rcond`` times the largest count as zero (default: ``eps * max(M, N)``).

    Returns:
        A tensor of shape ``(..., N, M)``.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.pinv(hl.ops.convert_to_tensor([[2.0, 0.0], [0.0, 0.0]]))).tolist()
    [[0.5, 0.0], [0.0, 0.0]]
    """
    return _door.call("pinv", _args.matrices(x, "pinv"), rcond=_tolerance(rcond, "rcond", "pinv"))


def jvp(fun, primals, tangents, has_aux=False):
    """A forward-mode Jacobian-vector product: ``fun``'s value at ``primals`` and its derivative along ``tangents``.

    Args:
        fun: a function of tensors (or nested lists, tuples and dicts of them) that returns a tensor or a nested
            structure of tensors (with ``has_aux``: a pair ``(output, aux)``).
        primals: a tuple or list of ``fun``'s arguments.
        tangents: the directions, with the structure and shapes of ``primals`` (those of non-float primals are
            ignored).
        has_aux: whether ``fun`` returns ``(output, aux)``; ``aux`` is returned as it is, not differentiated.

    Returns:
        ``(primals_out, tangents_out)``, or ``(primals_out, tangents_out, aux)``: ``fun(*primals)`` and the
        Jacobian-vector product, of the structure of ``primals_out`` (zeros for a non-float output).

    Raises:
        TypeError: ``fun`` is not callable, or ``primals``/``tangents`` is not a tuple or list.
        ValueError: ``primals`` and ``tangents`` have different lengths.

    >>> import highlevel as hl
    >>> x, t = hl.ops.convert_to_tensor([1.0, 2.0]), hl.ops.convert_to_tensor([1.0, 0.5])
    >>> value, tangent = hl.ops.jvp(lambda u: u * u, (x,), (t,))
    >>> hl.ops.convert_to_numpy(tangent).tolist()
    [2.0, 2.0]
    """
    if not callable(fun):
        raise TypeError(f"jvp: `fun` must be a function; received {type(fun).__name__}.")
    for name, value in (("primals", primals), ("tangents", tangents)):
        if not isinstance(value, (list, tuple)):
            raise TypeError(
                f"jvp: `{name}` must be a tuple or list of fun's arguments; received "
                f"{type(value).__name__}. Wrap a single argument: jvp(fun, (x,), (t,))."
            )
    if len(primals) != len(tangents):
        raise ValueError(
            f"jvp: `tangents` must have one entry per entry of `primals`; received {len(tangents)} and {len(primals)}."
        )
    return _door.call("jvp", fun, tuple(primals), tuple(tangents), has_aux=_args.boolean(has_aux, "has_aux", "jvp"))


def _tolerance(value, name, op):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, _numbers.Real):
        raise TypeError(f"{op}: `{name}` must be a number or None; received {name}={value!r}.")
    return float(value)


__all__ = []
__all__ += [
    "cholesky",
    "cholesky_inverse",
    "det",
    "eig",
    "eigh",
    "inv",
    "jvp",
    "lstsq",
    "lu_factor",
    "matrix_rank",
    "norm",
    "pinv",
    "qr",
    "solve",
    "solve_triangular",
    "svd",
]
