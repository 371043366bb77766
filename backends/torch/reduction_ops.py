"""Reductions, cumulative ops and linear algebra of the torch engine.

Axes are normalised once (:func:`_convert.canonical_axes`); an explicit empty axis tuple reduces nothing
(torch would reduce everything for ``dim=()``).
"""

import torch

from highlevel.backends.contract.axes import canonical_axis, every_axis

from . import _convert as cv

# Accumulating reductions (sum, prod, cumsum, cumprod) turn bool into int32; every other dtype is kept
# (int8 sums stay int8 and may wrap), as the contract's brief and the other engines do.
_ACCUMULATE_DTYPE = {torch.bool: torch.int32}
_HALF = (torch.float16, torch.bfloat16)


def _accumulate_dtype(t, dtype=None):
    if dtype is not None:
        return cv.to_torch_dtype(dtype)
    return _ACCUMULATE_DTYPE.get(t.dtype, t.dtype)


def _keep_shape(t, keepdims):
    """The result of a full reduction of ``t`` shaped for ``keepdims``."""
    return lambda r: r.reshape((1,) * t.ndim) if keepdims else r


def _nonempty(t, axes, name):
    for a in axes:
        if t.shape[a] == 0:
            raise ValueError(
                f"{name}() over axis {a} of size 0 has no identity; received a tensor of shape "
                f"{tuple(t.shape)}. Reduce over non-empty axes or use a reduction with an identity (sum)."
            )
    if not axes and t.numel() == 0:
        raise ValueError(f"{name}() of an empty tensor of shape {tuple(t.shape)} is undefined.")


def _var_input(x):
    t = cv.to_float(x)
    # float16/bfloat16 lose too much in the squared deviations: work in float32, return the input dtype
    return (t.to(torch.float32), t.dtype) if t.dtype in _HALF else (t, t.dtype)


def _arg_reduce(fn, x, axis, keepdims, name):
    t = cv.convert(x)
    if t.dtype == torch.bool:
        t = t.to(torch.uint8)
    elif t.dtype in cv.WIDE_UNSIGNED:
        t = t.to(torch.int64)
    if axis is None:
        if t.numel() == 0:
            raise ValueError(f"{name}() of an empty tensor is undefined; received shape {tuple(t.shape)}.")
        out = fn(t.reshape(-1))
        return (out.reshape((1,) * t.ndim) if keepdims else out).to(torch.int32)
    a = canonical_axis(axis, t.ndim)
    _nonempty(t, (a,), name)
    return fn(t, dim=a, keepdim=keepdims).to(torch.int32)


def _matmul_like(fn, tensors):
    """Runs a product on promoted operands; bool and wide unsigned inputs are computed as ints."""
    dtype = tensors[0].dtype
    if dtype == torch.bool:
        return fn(*[t.to(torch.int32) for t in tensors]) != 0
    if dtype not in cv.FLOATS and tensors[0].device.type != "cpu":
        # CUDA has no integer GEMM: float64 is exact for products up to 2**53
        return fn(*[t.to(torch.float64) for t in tensors]).round().to(dtype)
    return cv.run(fn, tensors)


class TorchReductionMixin:
    """Contract reductions, cumulative ops and linear algebra on torch."""

    # ---------------------------------------------------------------- reductions
    def sum(self, x, axis=None, keepdims=False):
        t = cv.convert(x)
        axes = every_axis(axis, t.ndim)
        out_dtype = _accumulate_dtype(t)
        if not axes:
            return t.to(out_dtype)
        if t.dtype in cv.WIDE_UNSIGNED or out_dtype in cv.WIDE_UNSIGNED:
            return torch.sum(t.to(torch.int64), dim=axes, keepdim=keepdims).to(out_dtype)
        return torch.sum(t, dim=axes, keepdim=keepdims, dtype=out_dtype)

    def mean(self, x, axis=None, keepdims=False):
        t = cv.to_float(x)
        axes = every_axis(axis, t.ndim)
        if not axes:
            return t
        return torch.mean(t, dim=axes, keepdim=keepdims)

    def _extreme(self, fn, x, axis, keepdims, name):
        t = cv.convert(x)
        axes = every_axis(axis, t.ndim)
        _nonempty(t, axes, name)
        if not axes:
            return t
        # amax/amin propagate NaN and share the gradient equally among tied extremes, as jnp.max
        return cv.run(lambda v: fn(v, dim=axes, keepdim=keepdims), [t])

    def max(self, x, axis=None, keepdims=False, initial=None):
        if initial is not None:
            return self._reduce_with_initial("max", x, axis, keepdims, initial)
        return self._extreme(torch.amax, x, axis, keepdims, "max")

    def min(self, x, axis=None, keepdims=False, initial=None):
        if initial is not None:
            return self._reduce_with_initial("min", x, axis, keepdims, initial)
        return self._extreme(torch.amin, x, axis, keepdims, "min")

    def prod(self, x, axis=None, keepdims=False, dtype=None):
        t = cv.convert(x, None if dtype is None else cv.to_torch_dtype(dtype))
        axes = every_axis(axis, t.ndim)
        out_dtype = _accumulate_dtype(t)
        work = cv.compute_dtype(out_dtype)
        if not axes:
            return t.to(out_dtype)
        t = t.to(work)
        if len(axes) == t.ndim:
            return _keep_shape(t, keepdims)(torch.prod(t.reshape(-1))).to(out_dtype)
        for a in sorted(axes, reverse=True):  # torch.prod takes one dim at a time
            t = torch.prod(t, dim=a, keepdim=keepdims)
        return t.to(out_dtype)

    def var(self, x, axis=None, keepdims=False):
        t, dtype = _var_input(x)
        axes = every_axis(axis, t.ndim)
        if not axes:
            return torch.zeros_like(t).to(dtype)
        return torch.var(t, dim=axes, correction=0, keepdim=keepdims).to(dtype)

    def std(self, x, axis=None, keepdims=False):
        t, dtype = _var_input(x)
        axes = every_axis(axis, t.ndim)
        if not axes:
            return torch.zeros_like(t).to(dtype)
        return torch.std(t, dim=axes, correction=0, keepdim=keepdims).to(dtype)

    def any(self, x, axis=None, keepdims=False):
        t = cv.convert(x).to(torch.bool)
        axes = every_axis(axis, t.ndim)
        if not axes:
            return t
        return torch.any(t, dim=axes, keepdim=keepdims)

    def all(self, x, axis=None, keepdims=False):
        t = cv.convert(x).to(torch.bool)
        axes = every_axis(axis, t.ndim)
        if not axes:
            return t
        return torch.all(t, dim=axes, keepdim=keepdims)

    def logsumexp(self, x, axis=None, keepdims=False):
        t = cv.to_float(x)
        axes = every_axis(axis, t.ndim)
        if not axes:
            return t
        # torch.logsumexp subtracts the max first (finite for +-1e4) and handles all -inf inputs
        return torch.logsumexp(t, dim=axes, keepdim=keepdims)

    def argmax(self, x, axis=None, keepdims=False):
        return _arg_reduce(torch.argmax, x, axis, keepdims, "argmax")

    def argmin(self, x, axis=None, keepdims=False):
        return _arg_reduce(torch.argmin, x, axis, keepdims, "argmin")

    def _cumulative(self, fn, x, axis, dtype):
        t = cv.convert(x)
        if axis is None:
            t = t.reshape(-1)
            axis = 0
        axis = canonical_axis(axis, t.ndim)
        out_dtype = _accumulate_dtype(t, dtype)
        work = cv.compute_dtype(out_dtype)
        return fn(t.to(work), dim=axis).to(out_dtype)

    def cumsum(self, x, axis=None, dtype=None):
        return self._cumulative(torch.cumsum, x, axis, dtype)

    def cumprod(self, x, axis=None, dtype=None):
        return self._cumulative(torch.cumprod, x, axis, dtype)

    # ------------------------------------------------------------ linear algebra
    def matmul(self, x1, x2):
        (a, b), _ = cv.promote(x1, x2)
        if a.ndim == 0 or b.ndim == 0:
            raise ValueError(
                f"matmul needs operands of rank >= 1; received shapes {tuple(a.shape)} and {tuple(b.shape)}. "
                "Use multiply for scalars."
            )
        return _matmul_like(torch.matmul, [a, b])

    def int8_matmul(self, x, kernel):
        a, b = cv.convert(x), cv.convert(kernel)
        # torch._int_mm: an int8 product with int32 accumulation (on CPU ~45x faster than an int32 product);
        # on CUDA it needs more than 16 rows and sizes that are multiples of 8
        rows = a.reshape(-1, a.shape[-1])
        m, k, n = rows.shape[0], b.shape[0], b.shape[-1]
        if a.dtype != torch.int8 or b.dtype != torch.int8:
            return torch.matmul(a.to(torch.int32), b.to(torch.int32))
        if hasattr(torch, "_int_mm") and (a.device.type == "cpu" or (m > 16 and k % 8 == 0 and n % 8 == 0)):
            return torch._int_mm(rows, b).reshape(*a.shape[:-1], n)
        return torch.matmul(a.to(torch.int32), b.to(torch.int32))

    def einsum(self, subscripts, *operands):
        tensors, _ = cv.promote(*operands)
        return _matmul_like(lambda *ts: torch.einsum(subscripts, *ts), tensors)

    def tensordot(self, x1, x2, axes=2):
        (a, b), _ = cv.promote(x1, x2)
        if isinstance(axes, int):
            dims = axes
        else:
            if len(axes) != 2:
                raise ValueError(f"tensordot axes must be an int or a pair of sequences; received axes={axes!r}.")
            first, second = axes
            first = [first] if isinstance(first, int) else list(first)
            second = [second] if isinstance(second, int) else list(second)
            dims = ([canonical_axis(i, a.ndim) for i in first], [canonical_axis(i, b.ndim) for i in second])
        return _matmul_like(lambda p, q: torch.tensordot(p, q, dims=dims), [a, b])

    def outer(self, x1, x2):
        (a, b), _ = cv.promote(x1, x2)
        return _matmul_like(lambda p, q: torch.outer(p.reshape(-1), q.reshape(-1)), [a, b])
