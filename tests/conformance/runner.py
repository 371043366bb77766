"""Runs one conformance case on one backend: the forward check and the two gradient checks.

* :func:`check_forward`: values, dtype and shape of ``backend.<op>(*inputs)`` against the float64 numpy
  reference and the promotion table.
* :func:`check_fd`: the native float64 gradient of ``sum(op(x) * cotangent)`` against central finite
  differences of the numpy reference.
* :func:`check_grad`: a backend's gradient in the run dtype against the native float64 gradient taken
  at the same (rounded) point with the same cotangent.
"""

import numpy as np
import pytest

import highlevel as hl

from . import harness as H
from .tolerances import reason, tolerance

FD_EPS = 1e-6


def skip_unsupported(b, spec, case=None):
    """Skips (with the reason) a run whose dtype the backend declares it does not support: an input dtype of
    ``spec``, or the ``dtype=`` the case asks the op for (``cast(x, "bfloat16")``)."""
    names = {spec} if isinstance(spec, str) else set(spec)
    requested = case.kwargs.get("dtype") if case is not None else None
    if isinstance(requested, str):
        names.add(requested)
    if "bfloat16" in names and not b.capabilities.supports_bfloat16:
        pytest.skip(f"{b.name}: capabilities.supports_bfloat16 is False")
    if "bfloat16" in names and H.BFLOAT16 is None:
        pytest.skip("ml_dtypes is not installed: no numpy bfloat16 for the reference")
    if "float64" in names and not b.capabilities.supports_float64:
        pytest.skip(f"{b.name}: capabilities.supports_float64 is False")


def _rules(case, n):
    rules = case.out if isinstance(case.out, tuple) else (case.out,) * n
    assert len(rules) == n, f"case {case.id}: {len(rules)} dtype rules for {n} outputs"
    return rules


def resolve_op(name):
    """The public function ``hl.ops.<name>``; a dotted name reaches into a namespace (``"image.resize"``)."""
    fn = hl.ops
    for part in name.split("."):
        fn = getattr(fn, part)
    return fn


def op_call(b, name, args, kwargs):
    """``hl.ops.<name>(*args, **kwargs)`` with ``b`` as the current engine: the front door (argument checks and
    normalization) and the engine together, as a user calls them. ``name`` may be dotted (``"image.resize"``)."""
    with hl.config.backend_scope(b):
        return resolve_op(name)(*args, **kwargs)


def call(b, case, cast_args):
    args = [H.to_backend(b, a) for a in cast_args]
    return op_call(b, case.op, args, case.kwargs)


def check_forward(b, case, spec):
    """Checks values, dtype and shape of one case run on backend ``b`` in dtype ``spec``."""
    skip_unsupported(b, spec, case)
    cast = H.cast_masters(H.draw(case), spec)
    where = f"{b.name} {case.op}[{case.label}] ({H.describe_args(cast, case.kwargs)})"
    want = case.ref(*H.reference_args(cast, widen_ints=case.out is H.FLOAT), **case.kwargs)
    got = call(b, case, cast)
    wants, gots = H.as_list(want), H.as_list(got)
    multi = isinstance(want, (list, tuple))
    if multi:
        assert isinstance(got, (list, tuple)), (
            f"{where}: returned {type(got).__name__}, expected a sequence of {len(wants)} tensors"
        )
    assert len(gots) == len(wants), f"{where}: {len(gots)} outputs, expected {len(wants)}"
    participants = H._participants(cast)
    for i, (g, w, rule) in enumerate(zip(gots, wants, _rules(case, len(wants)))):
        what = f"{where} output {i}" if multi else where
        w = np.asarray(w)
        expected_dtype = rule(participants)
        if expected_dtype == "float64" and not b.capabilities.supports_float64:
            pytest.skip(f"{b.name}: capabilities.supports_float64 is False (result would be float64)")
        got_dtype = b.dtype(g)
        assert got_dtype == expected_dtype, (
            f"{what}: result dtype {got_dtype!r}, expected {expected_dtype!r} "
            f"(rule {rule.__name__ if hasattr(rule, '__name__') else rule} of {participants})"
        )
        shape = b.shape(g)
        assert isinstance(shape, tuple) and all(type(d) is int for d in shape), (
            f"{what}: shape() returned {shape!r}; expected a tuple of Python ints"
        )
        assert shape == w.shape, f"{what}: shape {shape}, expected {w.shape}"
        arr = H.to_numpy(b, g)
        rtol, atol = tolerance(case.tol_op, expected_dtype, b.name, "forward")
        if expected_dtype in ("float16", "bfloat16", "float32"):
            # the reference rounded to the result dtype is the best the backend can return
            w = H.round_to(w.astype(np.float64), expected_dtype).astype(np.float64) if w.dtype.kind == "f" else w
        H.compare(arr, w, rtol, atol, f"{what}\n  [tolerance: {reason(case.tol_op, expected_dtype, b.name)}]")
        if case.finite:
            assert np.isfinite(arr).all(), f"{what}: non-finite entries {arr[~np.isfinite(arr)][:5]}"


# ------------------------------------------------------------------------------------------ gradients
def grad_cases(cases):
    """Cases that are differentiated: some ``grad`` position, and a float run dtype."""
    return [c for c in cases if c.grad and c.grad_dtype in c.dtypes]


def _leaves(cast_args, positions):
    """Paths ``(position, index or None)`` of the differentiable masters."""
    paths = []
    for p in positions:
        a = cast_args[p]
        if isinstance(a, list):
            paths.extend((p, i) for i in range(len(a)))
        else:
            assert isinstance(a, H._Master), f"argument {p} is marked differentiable but is {a!r}"
            paths.append((p, None))
    return paths


def _get(args, path):
    p, i = path
    return args[p] if i is None else args[p][i]


def _put(args, path, value):
    args = list(args)
    p, i = path
    if i is None:
        args[p] = value
    else:
        args[p] = list(args[p])
        args[p][i] = value
    return args


def cotangents(case, ref_out):
    """One random cotangent per float output (None for integer outputs), representable in float32."""
    rng = np.random.default_rng(H.seed_of(case.id + "/cotangent"))
    cots = []
    for w in H.as_list(ref_out):
        w = np.asarray(w)
        if w.dtype.kind == "f":
            cots.append(rng.standard_normal(w.shape).astype(np.float32).astype(np.float64))
        else:
            cots.append(None)
    return cots


def reference_loss(case, ref_args, cots):
    """``sum(ref(*args) * cotangent)`` in float64."""
    outs = H.as_list(case.ref(*ref_args, **case.kwargs))
    return sum(float(np.sum(np.asarray(o, np.float64) * c)) for o, c in zip(outs, cots) if c is not None)


def finite_differences(case, ref_args, paths, cots, eps=FD_EPS):
    """Central differences of :func:`reference_loss` w.r.t. each differentiable leaf."""
    grads = []
    for path in paths:
        x = np.array(_get(ref_args, path), dtype=np.float64)
        g = np.zeros_like(x)
        for idx in np.ndindex(x.shape):
            old = x[idx]
            # at |x| = 1e4 a step of 1e-6 drowns in the rounding of outputs of that size, and a step of
            # 1e-2 (relative) in truncation error; sqrt(|x|) * eps balances the two
            h = eps * max(1.0, float(np.sqrt(abs(old))))
            x[idx] = old + h
            up = reference_loss(case, _put(ref_args, path, x.copy()), cots)
            x[idx] = old - h
            down = reference_loss(case, _put(ref_args, path, x.copy()), cots)
            x[idx] = old
            g[idx] = (up - down) / (2 * h)
        grads.append(g)
    return grads


def _cotangent_sum(outs, cots):
    """``sum(o * c)`` over the float outputs and their cotangents, on the current engine (its primitives)."""
    b = hl.config.current_backend()
    total = None
    for o, c in zip(outs, cots):
        term = b.sum(b.multiply(o, b.convert_to_tensor(c, dtype=b.dtype(o))))
        total = term if total is None else b.add(total, term)
    return total


def backend_value_and_grad(b, case, cast_args, cots, whole=False):
    """``(value, [grad per leaf])`` of ``sum(op(x) * cot)`` on ``b`` with ``b.value_and_grad``.

    With ``whole``, the forward pass and the gradient run as one program where the engine compiles composite
    functions (``door_composite``; JAX: one ``jax.jit`` of the ``value_and_grad``), instead of op by op.
    """
    paths = _leaves(cast_args, case.grad)
    base = [H.to_backend(b, a) for a in cast_args]

    def loss(*leaves):
        args = base
        for path, leaf in zip(paths, leaves):
            args = _put(args, path, leaf)
        outs = H.as_list(resolve_op(case.op)(*args, **case.kwargs))
        pairs = [(o, c) for o, c in zip(outs, cots) if c is not None]
        # The cotangents are arguments, not constants: the engine's program for this sum is shared by every case
        # whose outputs have the same shapes and dtypes.
        return b.door_composite("conformance_cotangent_sum", _cotangent_sum)(
            [o for o, _ in pairs], [np.asarray(c) for _, c in pairs]
        )

    leaves = [_get(base, p) for p in paths]
    value_and_grad = b.value_and_grad(loss, argnums=tuple(range(len(leaves))))
    if whole:
        # One name for every case: each call replaces the last one's program instead of keeping all of them alive.
        value_and_grad = b.door_composite("conformance_value_and_grad", value_and_grad)
    with hl.config.backend_scope(b):  # the op runs through hl.ops (see op_call)
        value, grads = value_and_grad(*leaves)
    return value, list(grads), paths


_NATIVE_CACHE = {}


def native_float64_grad(case, spec):
    """The native engine's float64 gradient at the point of the ``spec`` run (cached per case)."""
    key = (case.id, spec)
    if key not in _NATIVE_CACHE:
        cast = H.cast_masters(H.draw(case), spec)
        ref_args = H.reference_args(cast)
        cots = cotangents(case, case.ref(*ref_args, **case.kwargs))
        wide = H.cast_masters(H.draw(case), "float64")
        # the same point as the run: the rounded values, held in float64
        wide = [_widen(w, c) for w, c in zip(wide, cast)]
        native = hl.backends.get("native")
        with hl.config.backend_scope("native"):
            value, grads, paths = backend_value_and_grad(native, case, wide, cots)
            _NATIVE_CACHE[key] = (float(H.to_numpy(native, value)), [H.to_numpy(native, g) for g in grads])
    return _NATIVE_CACHE[key]


def _widen(wide, cast):
    if isinstance(cast, H._Master):
        return H._Master(cast.value.astype(np.float64), "float64")
    if isinstance(cast, list):
        return [_widen(w, c) for w, c in zip(wide, cast)]
    return cast


def _check_grads(b, case, grads, paths, cast_args, want_grads, kind, dtype, where):
    assert len(grads) == len(paths), f"{where}: {len(grads)} gradients, expected {len(paths)}"
    for path, g, w in zip(paths, grads, want_grads):
        leaf = _get(cast_args, path)
        name = f"d/dx{path[0]}" + (f"[{path[1]}]" if path[1] is not None else "")
        what = f"{where} {name}"
        assert g is not None, f"{what}: gradient is None for a float input"
        assert b.dtype(g) == leaf.dtype, f"{what}: gradient dtype {b.dtype(g)!r}, expected {leaf.dtype!r}"
        assert tuple(b.shape(g)) == leaf.shape, f"{what}: gradient shape {b.shape(g)}, expected {leaf.shape}"
        rtol, atol = tolerance(case.tol_op, dtype, b.name, kind)
        H.compare(H.to_numpy(b, g), w, rtol, atol, f"{what}\n  [tolerance: {reason(case.tol_op, dtype, b.name, kind)}]")


def check_fd(case):
    """Native float64 gradient vs central finite differences of the float64 numpy reference."""
    b = hl.backends.get("native")
    cast = H.cast_masters(H.draw(case), "float64")
    ref_args = H.reference_args(cast)
    cots = cotangents(case, case.ref(*ref_args, **case.kwargs))
    where = f"native float64 grad of sum({case.op}[{case.label}] * cot) ({H.describe_args(cast, case.kwargs)})"
    with hl.config.backend_scope("native"):
        value, grads, paths = backend_value_and_grad(b, case, cast, cots)
        want = finite_differences(case, ref_args, paths, cots)
        rtol, atol = tolerance(case.tol_op, "float64", "native", "fd")
        H.compare(H.to_numpy(b, value), reference_loss(case, ref_args, cots), rtol, atol, f"{where}: value")
        _check_grads(b, case, grads, paths, cast, want, "fd", "float64", where + " vs finite differences")


def check_grad(b, case, whole=False):
    """Backend gradient in ``case.grad_dtype`` vs the native float64 gradient at the same point.

    ``whole``: the backend's forward pass and gradient run as one program (see :func:`backend_value_and_grad`).
    """
    spec = case.grad_dtype
    skip_unsupported(b, spec, case)
    cast = H.cast_masters(H.draw(case), spec)
    ref_args = H.reference_args(cast)
    cots = cotangents(case, case.ref(*ref_args, **case.kwargs))
    where = f"{b.name} {spec} grad of sum({case.op}[{case.label}] * cot) ({H.describe_args(cast, case.kwargs)})"
    try:
        want_value, want = native_float64_grad(case, spec)
        source = "native float64"
    except Exception as e:  # native broken: fall back to finite differences, and say so
        paths = _leaves(cast, case.grad)
        want = finite_differences(case, ref_args, paths, cots)
        want_value = reference_loss(case, ref_args, cots)
        source = f"finite differences (native float64 failed: {type(e).__name__}: {e})"
    value, grads, paths = backend_value_and_grad(b, case, cast, cots, whole=whole)
    rtol, atol = tolerance(case.tol_op, spec, b.name, "grad")
    scale = max(1.0, float(np.sqrt(sum(np.asarray(c).size for c in cots if c is not None))))
    H.compare(H.to_numpy(b, value), want_value, rtol, atol * scale, f"{where}: loss value vs {source}")
    _check_grads(b, case, grads, paths, cast, want, "grad", spec, f"{where} vs {source}")
