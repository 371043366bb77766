"""The one tolerance table of the conformance suite.

A backend's result ``got`` matches the float64 numpy reference ``want`` when, elementwise,
``|got - want| <= atol + rtol * |want|`` (``numpy.allclose``), NaNs and infinities in the same places.
Integer and bool results must match exactly.

:data:`DEFAULTS` holds the tolerance of each result dtype. :data:`OVERRIDES` widens it for one op (or a
group of ops), optionally only on one backend, one dtype or one kind of check, and every entry says why.
Nothing is widened without a reason written next to it.

Kinds of check:

* ``"forward"``: an op's value on a backend against the numpy float64 reference;
* ``"grad"``: a backend's gradient (in the run dtype) against the native float64 gradient;
* ``"fd"``: the native float64 gradient against central finite differences (eps 1e-6) of the reference;
* ``"hvp"``: a backend's Hessian-vector product (a gradient of a gradient, in the run dtype) against the
  native float64 one (``second_order.py``);
* ``"hvp-fd"``: the native float64 Hessian-vector product against central finite differences of its
  first-order gradient.

>>> tolerance("add", "float32", "torch")
(1e-05, 1e-06)
>>> tolerance("conv", "float32", "jax")
(1e-05, 3e-05)
"""

#: (rtol, atol) per result dtype, for every op, backend and kind not named in OVERRIDES.
DEFAULTS = {
    "float64": (1e-10, 1e-12),
    "float32": (1e-5, 1e-6),
    "float16": (5e-3, 5e-3),  # 10 mantissa bits: one ulp at 1.0 is ~1e-3; a few roundings allowed
    "bfloat16": (3e-2, 3e-2),  # 7 mantissa bits: one ulp at 1.0 is ~8e-3; a few roundings allowed
}

#: Finite differences in float64 with eps=1e-6: truncation error ~eps**2, rounding error ~1e-16/eps.
FD_TOLERANCE = (1e-6, 1e-7)

#: A float64 Hessian-vector product against central differences (eps 1e-6) of the float64 gradient: the same
#: truncation and rounding errors, on a gradient instead of a loss.
HVP_FD_TOLERANCE = (1e-6, 1e-7)

_TRANSCENDENTAL = (
    "exp",
    "expm1",
    "log",
    "log1p",
    "log2",
    "log10",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "erf",
    "power",
    "arctan2",
    "logaddexp",
    "rsqrt",
    "sigmoid",
    "softplus",
    "silu",
    "gelu",
    "elu",
    "selu",
    "softmax",
    "log_softmax",
    "logsumexp",
)

_ACCUMULATING = (
    "sum",
    "mean",
    "var",
    "std",
    "moments",
    "prod",
    "cumsum",
    "cumprod",
    "matmul",
    "einsum",
    "tensordot",
    "outer",
)

#: decompositions, and the ops built on them, whose derivatives divide by gaps, pivots or singular values
_DECOMPOSITIONS = (
    "cholesky",
    "cholesky_inverse",
    "eigh",
    "svd",
    "qr",
    "lu_factor",
    "slogdet",
    "logdet",
    "pinv",
    "lstsq",
    "norm",
    "det",
    "inv",
    "solve",
    "solve_triangular",
)

_CONV_POOL = ("conv", "depthwise_conv", "conv_transpose", "average_pool")

#: Each entry: {"ops": op names, "backend": name or None (all), "dtype": name or None (all),
#: "kind": "forward" | "grad" | "fd" | None (all), "tol": (rtol, atol), "reason": why}.
#: The first matching entry wins, so put narrow entries before broad ones.
OVERRIDES = [
    {
        "ops": ("image.projective-grid",),
        "backend": None,
        "dtype": None,
        "kind": "forward",
        "tol": (1e-5, 1e-5),
        "reason": "perspective_transform samples on a float32 grid for every image dtype, as TensorFlow's "
        "ImageProjectiveTransformV3 does: a projective map's sample points carry float32 rounding "
        "(~1e-6 pixel), and the interpolated values move with them",
    },
    {
        "ops": ("nextafter", "ldexp"),
        "backend": None,
        "dtype": None,
        "kind": "forward",
        "tol": (0.0, 0.0),
        "reason": "exact: nextafter returns a neighbour of x1 (one ulp away, which any tolerance would let pass as "
        "x1 itself), and ldexp's only rounding is the result's own, which the reference rounded to the "
        "result dtype makes too",
    },
    {
        "ops": ("cast-float16",),
        "backend": None,
        "dtype": None,
        "kind": None,
        "tol": (2e-3, 2e-3),
        "reason": "the loss of a float32->float16 cast is summed in float16 and its gradient is the float16 "
        "cotangent: both carry float16 rounding (~5e-4 relative)",
    },
    {
        "ops": _DECOMPOSITIONS,
        "backend": None,
        "dtype": "float32",
        "kind": "hvp",
        "tol": (1e-3, 1e-4),
        "reason": "the second derivative of a decomposition divides by the gaps between its eigenvalues or singular "
        "values (and by its pivots) twice: the float32 roundings of both passes, amplified by those "
        "factors, reach a few 1e-4 relative on well-separated 3x3 and 4x4 inputs",
    },
    {
        "ops": None,
        "backend": None,
        "dtype": "float32",
        "kind": "hvp",
        "tol": (1e-4, 1e-5),
        "reason": "a float32 Hessian-vector product is a gradient of a float32 gradient: it chains the roundings "
        "of both passes, and is compared with an exact float64 one (the op-specific forward "
        "tolerances below are tighter than that chain)",
    },
    {
        "ops": _TRANSCENDENTAL,
        "backend": None,
        "dtype": "float32",
        "kind": None,
        "tol": (1e-5, 3e-6),
        "reason": "transcendental functions are implemented differently by each engine (vectorised "
        "polynomial approximations, fused kernels); a few float32 ulps apart",
    },
    {
        "ops": _TRANSCENDENTAL,
        "backend": None,
        "dtype": "float64",
        "kind": None,
        "tol": (1e-9, 1e-12),
        "reason": "float64 libm variants (SLEEF, Eigen, XLA) differ in the last bits",
    },
    {
        "ops": _ACCUMULATING,
        "backend": None,
        "dtype": "float32",
        "kind": None,
        "tol": (1e-5, 1e-5),
        "reason": "float32 accumulation order differs (pairwise, blocked or tree reductions); the "
        "absolute error grows with the number and size of the terms, not with the result",
    },
    {
        "ops": _CONV_POOL,
        "backend": None,
        "dtype": "float32",
        "kind": None,
        "tol": (1e-5, 3e-5),
        "reason": "conv accumulation order: engines use im2col, Winograd or oneDNN blocked kernels, "
        "summing up to ~100 float32 products in different orders",
    },
    {
        "ops": None,
        "backend": None,
        "dtype": "float32",
        "kind": "grad",
        "tol": (1e-4, 1e-5),
        "reason": "a float32 gradient chains several float32 roundings (forward value, cotangent "
        "product, VJP rule, broadcast-sum) and is compared with an exact float64 gradient",
    },
]


#: a complex result is held to the tolerance of its parts' dtype (on the modulus of the difference)
_PARTS = {"complex64": "float32", "complex128": "float64"}

#: the kinds checked against finite differences, and their tolerance (overridden only by dtype-free entries)
_FD_KINDS = {"fd": FD_TOLERANCE, "hvp-fd": HVP_FD_TOLERANCE}


def _matches(entry, op, dtype, backend, kind):
    return (
        (entry["ops"] is None or op in entry["ops"])
        and entry["backend"] in (None, backend)
        and entry["dtype"] in (None, dtype)
        and entry["kind"] in (None, kind)
    )


def tolerance(op, dtype, backend=None, kind="forward"):
    """Returns ``(rtol, atol)`` for comparing ``op``'s result of ``dtype`` on ``backend``.

    Args:
        op: the contract op name (``"add"``, ``"conv"``, ...).
        dtype: the dtype name of the result being checked.
        backend: the backend name, or None.
        kind: ``"forward"``, ``"grad"`` or ``"fd"`` (see the module docstring).

    Returns:
        ``(rtol, atol)``; ``(0, 0)`` for integer and bool results, which must be exact.

    >>> tolerance("sqrt", "int32")
    (0.0, 0.0)
    >>> tolerance("add", "complex64") == tolerance("add", "float32")
    True
    """
    dtype = _PARTS.get(dtype, dtype)
    if dtype not in DEFAULTS:
        return (0.0, 0.0)
    for entry in OVERRIDES:
        if _matches(entry, op, dtype, backend, kind) and (kind not in _FD_KINDS or entry["dtype"] is None):
            return entry["tol"]
    return _FD_KINDS.get(kind) or DEFAULTS[dtype]


def reason(op, dtype, backend=None, kind="forward"):
    """The written reason of the override that applies, or ``"default"`` (shown in failure messages)."""
    dtype = _PARTS.get(dtype, dtype)
    for entry in OVERRIDES:
        if (
            dtype in DEFAULTS
            and _matches(entry, op, dtype, backend, kind)
            and (kind not in _FD_KINDS or entry["dtype"] is None)
        ):
            return entry["reason"]
    return "finite differences" if kind in _FD_KINDS else "default"
