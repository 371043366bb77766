"""Second-order checks derived from every first-order gradient case: Hessian-vector products.

A gradient case differentiates ``sum(op(x) * c)``. Its second derivative is zero for a linear op, so a check
of that loss alone would never see an op whose gradient is not itself differentiable. Each case here
differentiates the quadratic loss

    L(x) = sum(op(x) * c) + 0.5 * sum(op(x) * op(x) * d)

(``c``, ``d``: fixed random arrays per output) and takes its Hessian-vector product ``H v`` as the gradient of
``<grad L(x), v>`` for a fixed random direction ``v``: a gradient of a gradient, with the backend contract's
``value_and_grad`` nested in itself. ``H v = J^T (d * J v) + sum_k (c + d * op(x))_k * Hess(op_k) v`` exercises
both the op's second derivative and the differentiability of its VJP with respect to the cotangent.

* :func:`check_hvp_fd`: the native engine's float64 ``H v`` against central finite differences of its
  first-order gradient along ``v`` (the first-order gradient is the oracle that ``test_gradients`` checks), and
  ``<grad L, v>`` against central differences of the numpy reference.
* :func:`check_hvp`: a backend's ``H v`` in the case's gradient dtype against the native float64 one at the same
  rounded point, with the same ``c``, ``d`` and ``v``.

The direction's entries are scaled by ``max(1, sqrt|x|)``, the finite-difference step of the first-order
checks, so that ``x +- eps * v`` is a meaningful step for inputs of size 1e4 too.
"""

import numpy as np

import highlevel as hl

from . import harness as H
from .runner import FD_EPS, _get, _leaves, _put, cotangents, op_call, skip_unsupported
from .tolerances import reason, tolerance


def curvatures(case, ref_out):
    """The weights ``d`` of the quadratic term, one per float output (None for integer outputs).

    Random, divided by ``max(1, |op(x)|)`` so that the cotangent ``c + d * op(x)`` stays of order 1: for outputs
    of size 1e4 (the cases that check stability) a cotangent of that size would multiply the float32 rounding
    of the output, and the check would measure the loss's conditioning instead of the op.
    """
    rng = np.random.default_rng(H.seed_of(case.id + "/curvature"))
    out = []
    for w in H.as_list(ref_out):
        w = np.asarray(w)
        if w.dtype.kind != "f":
            out.append(None)
            continue
        d = rng.standard_normal(w.shape) / np.maximum(1.0, np.abs(np.nan_to_num(w.astype(np.float64))))
        out.append(d.astype(np.float32).astype(np.float64))
    return out


def directions(case, cast_args):
    """One direction per differentiable leaf, representable in float32, scaled like the finite-difference step."""
    rng = np.random.default_rng(H.seed_of(case.id + "/direction"))
    out = []
    for path in _leaves(cast_args, case.grad):
        x = np.asarray(_get(cast_args, path).value, np.float64)
        # finite at NaN inputs too (the NaN-ignoring reductions take them): there the gradient is 0, and a NaN
        # direction would make <grad L, v> NaN
        v = rng.standard_normal(x.shape) * np.maximum(1.0, np.sqrt(np.abs(np.nan_to_num(x))))
        out.append(v.astype(np.float32).astype(np.float64))
    return out


def _quadratic_loss(b, case, base, paths, cots, curvs):
    def loss(*leaves):
        args = base
        for path, leaf in zip(paths, leaves):
            args = _put(args, path, leaf)
        total = None
        for o, c, d in zip(H.as_list(op_call(b, case.op, args, case.kwargs)), cots, curvs):
            if c is None:
                continue
            dt = b.dtype(o)
            term = b.add(
                b.multiply(o, b.convert_to_tensor(c, dtype=dt)),
                b.multiply(b.multiply(b.multiply(o, o), b.convert_to_tensor(d, dtype=dt)), 0.5),
            )
            total = b.sum(term) if total is None else b.add(total, b.sum(term))
        return total

    return loss


def reference_quadratic_loss(case, ref_args, cots, curvs):
    outs = H.as_list(case.ref(*ref_args, **case.kwargs))
    return sum(
        float(np.sum(np.asarray(o, np.float64) * c + 0.5 * np.asarray(o, np.float64) ** 2 * d))
        for o, c, d in zip(outs, cots, curvs)
        if c is not None
    )


def backend_hvp(b, case, cast_args, cots, curvs, dirs):
    """``(<grad L, v>, [H v per leaf])`` on ``b``: ``value_and_grad`` of a function that calls ``grad``."""
    paths = _leaves(cast_args, case.grad)
    base = [H.to_backend(b, a) for a in cast_args]
    leaves = [_get(base, p) for p in paths]
    argnums = tuple(range(len(leaves)))
    grad_fn = b.grad(_quadratic_loss(b, case, base, paths, cots, curvs), argnums=argnums)
    vs = [b.convert_to_tensor(v, dtype=b.dtype(leaf)) for v, leaf in zip(dirs, leaves)]

    def directional(*xs):
        total = None
        for g, v in zip(grad_fn(*xs), vs):
            term = b.sum(b.multiply(g, v))
            total = term if total is None else b.add(total, term)
        return total

    def hvp_of(*xs):
        return b.value_and_grad(directional, argnums=argnums)(*xs)

    # As one program where the engine compiles composite functions (JAX: what ``jax.jit`` of a gradient of a
    # gradient gives, instead of one XLA program per primitive of every nested derivative, which made these
    # tables most of the suite's JAX time); the other engines run it op by op as before. Eager nesting of the
    # public ``grad`` is checked on every engine by the composition tests of ``test_second_order.py``. One name for
    # every case: each call replaces the last one's program instead of keeping all of them alive.
    value, hvp = b.door_composite("conformance_hvp", hvp_of)(*leaves)
    return value, list(hvp), paths


def _native_gradient(case, cast_args, cots, curvs):
    """The native first-order gradient of the quadratic loss (float64 arguments)."""
    b = hl.backends.get("native")
    paths = _leaves(cast_args, case.grad)
    base = [H.to_backend(b, a) for a in cast_args]
    leaves = [_get(base, p) for p in paths]
    _, grads = b.value_and_grad(_quadratic_loss(b, case, base, paths, cots, curvs), argnums=tuple(range(len(leaves))))(
        *leaves
    )
    return [H.to_numpy(b, g) for g in grads]


def _shifted(cast_args, paths, dirs, step):
    args = cast_args
    for path, v in zip(paths, dirs):
        leaf = _get(args, path)
        args = _put(args, path, H._Master(np.asarray(leaf.value, np.float64) + step * v, "float64"))
    return args


def _inputs(case, spec):
    cast = H.cast_masters(H.draw(case), spec)
    ref_args = H.reference_args(cast)
    ref_out = case.ref(*ref_args, **case.kwargs)
    return cast, ref_args, cotangents(case, ref_out), curvatures(case, ref_out)


def _compare_hvps(b, case, hvps, paths, cast_args, want, kind, dtype, where):
    assert len(hvps) == len(paths), f"{where}: {len(hvps)} results, expected {len(paths)}"
    rtol, atol = tolerance(case.tol_op, dtype, b.name, kind)
    for path, h, w in zip(paths, hvps, want):
        leaf = _get(cast_args, path)
        what = f"{where} (H v)[x{path[0]}" + (f"[{path[1]}]" if path[1] is not None else "") + "]"
        assert h is not None, f"{what}: None for a float input"
        assert b.dtype(h) == leaf.dtype, f"{what}: dtype {b.dtype(h)!r}, expected {leaf.dtype!r}"
        assert tuple(b.shape(h)) == leaf.shape, f"{what}: shape {b.shape(h)}, expected {leaf.shape}"
        H.compare(H.to_numpy(b, h), w, rtol, atol, f"{what}\n  [tolerance: {reason(case.tol_op, dtype, b.name, kind)}]")


def check_hvp_fd(case):
    """Native float64 ``H v`` against central differences of the native float64 gradient along ``v``."""
    b = hl.backends.get("native")
    cast, ref_args, cots, curvs = _inputs(case, "float64")
    dirs = directions(case, cast)
    where = f"native float64 H v of {case.op}[{case.label}] ({H.describe_args(cast, case.kwargs)})"
    with hl.config.backend_scope("native"):
        value, hvps, paths = backend_hvp(b, case, cast, cots, curvs, dirs)
        up = _native_gradient(case, _shifted(cast, paths, dirs, FD_EPS), cots, curvs)
        down = _native_gradient(case, _shifted(cast, paths, dirs, -FD_EPS), cots, curvs)
        want = [(u - d) / (2 * FD_EPS) for u, d in zip(up, down)]
        ref_up = reference_quadratic_loss(case, H.reference_args(_shifted(cast, paths, dirs, FD_EPS)), cots, curvs)
        ref_down = reference_quadratic_loss(case, H.reference_args(_shifted(cast, paths, dirs, -FD_EPS)), cots, curvs)
        rtol, atol = tolerance(case.tol_op, "float64", "native", "hvp-fd")
        H.compare(
            H.to_numpy(b, value),
            (ref_up - ref_down) / (2 * FD_EPS),
            rtol,
            atol,
            f"{where}: <grad L, v> vs finite differences of the reference",
        )
        _compare_hvps(
            b,
            case,
            hvps,
            paths,
            cast,
            want,
            "hvp-fd",
            "float64",
            where + " vs finite differences of the native gradient",
        )


_NATIVE_CACHE = {}


def native_float64_hvp(case, spec):
    """The native engine's float64 ``(<grad L, v>, H v)`` at the point of the ``spec`` run (cached per case)."""
    key = (case.id, spec)
    if key not in _NATIVE_CACHE:
        cast, _, cots, curvs = _inputs(case, spec)
        dirs = directions(case, cast)
        wide = [_widen(c) for c in cast]
        native = hl.backends.get("native")
        with hl.config.backend_scope("native"):
            value, hvps, _ = backend_hvp(native, case, wide, cots, curvs, dirs)
            _NATIVE_CACHE[key] = (float(H.to_numpy(native, value)), [H.to_numpy(native, h) for h in hvps])
    return _NATIVE_CACHE[key]


def _widen(cast):
    if isinstance(cast, H._Master):
        return H._Master(cast.value.astype(np.float64), "float64")
    if isinstance(cast, list):
        return [_widen(c) for c in cast]
    return cast


def check_hvp(b, case):
    """A backend's ``H v`` in ``case.grad_dtype`` against the native float64 one at the same point."""
    spec = case.grad_dtype
    skip_unsupported(b, spec, case)
    cast, _, cots, curvs = _inputs(case, spec)
    dirs = directions(case, cast)
    where = f"{b.name} {spec} H v of {case.op}[{case.label}] ({H.describe_args(cast, case.kwargs)})"
    want_value, want = native_float64_hvp(case, spec)
    value, hvps, paths = backend_hvp(b, case, cast, cots, curvs, dirs)
    rtol, atol = tolerance(case.tol_op, spec, b.name, "hvp")
    scale = max(1.0, float(np.sqrt(sum(np.size(v) for v in dirs))))
    H.compare(H.to_numpy(b, value), want_value, rtol, atol * scale, f"{where}: <grad L, v> vs native float64")
    _compare_hvps(b, case, hvps, paths, cast, want, "hvp", spec, f"{where} vs native float64")
