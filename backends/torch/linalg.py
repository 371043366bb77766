"""The linear-algebra primitives of the PyTorch engine (``torch.linalg``) and ``jvp``.

The ``*_ex`` kernels report a matrix LAPACK refuses (singular, not positive definite) in an ``info`` tensor
instead of raising; those matrices give NaN, as on the other engines. ``jvp`` uses the double-backward trick:
``u -> J^T u`` is linear in a dummy cotangent ``u``, and its own vector-Jacobian product with cotangent ``t`` is
``J t`` (every torch op with a differentiable backward supports it; forward-mode ``torch.func.jvp`` does not
cover all of them).

>>> from highlevel.backends.torch import TorchBackend
>>> b = TorchBackend()
>>> float(b.linalg_det(b.convert_to_tensor([[2.0, 1.0], [1.0, 3.0]])))
5.0
"""

import torch

from highlevel.backends.contract import tree

from . import _convert as cv
from .core import _DIFFERENTIATIONS, differentiation


def _nan_where_failed(result, info):
    failed = (info != 0).reshape(info.shape + (1,) * (result.ndim - info.ndim))
    return torch.where(failed, torch.full((), float("nan"), dtype=result.dtype, device=result.device), result)


class TorchLinalgMixin:
    """:class:`~highlevel.backends.contract.linalg.LinalgContract`'s primitives with torch."""

    def linalg_cholesky(self, x):
        factor, info = torch.linalg.cholesky_ex(cv.convert(x))
        return _nan_where_failed(factor, info)

    def linalg_det(self, x):
        return torch.linalg.det(cv.convert(x))

    def linalg_inv(self, x):
        inverse, info = torch.linalg.inv_ex(cv.convert(x))
        return _nan_where_failed(inverse, info)

    def linalg_solve(self, a, b):
        solution, info = torch.linalg.solve_ex(cv.convert(a), cv.convert(b))
        return _nan_where_failed(solution, info)

    def linalg_solve_triangular(self, a, b, lower):
        return torch.linalg.solve_triangular(cv.convert(a), cv.convert(b), upper=not lower)

    def linalg_eigh(self, x):
        w, v = torch.linalg.eigh(cv.convert(x))
        return w, v

    def linalg_eig(self, x):
        w, v = torch.linalg.eig(cv.convert(x))
        return w, v

    def linalg_svd(self, x, full_matrices, compute_uv):
        x = cv.convert(x)
        if not compute_uv:
            return torch.linalg.svdvals(x)
        u, s, vh = torch.linalg.svd(x, full_matrices=bool(full_matrices))
        return u, s, vh

    def linalg_qr(self, x, mode):
        q, r = torch.linalg.qr(cv.convert(x), mode=mode)
        return q, r

    def linalg_lu_factor(self, x):
        lu, pivots = torch.linalg.lu_factor(cv.convert(x))
        return lu, (pivots - 1).to(torch.int32)  # torch counts rows from 1, as LAPACK's Fortran interface

    def jvp(self, fun, primals, tangents, has_aux=False):
        if not isinstance(primals, (list, tuple)) or not isinstance(tangents, (list, tuple)):
            raise TypeError(
                "jvp: `primals` and `tangents` must be tuples or lists (one entry per argument of fun); "
                f"received {type(primals).__name__} and {type(tangents).__name__}."
            )
        p_leaves, p_def = tree.flatten(list(primals))
        t_leaves, _ = tree.flatten(list(tangents))
        if len(p_leaves) != len(t_leaves):
            raise ValueError(
                f"jvp: `tangents` must have the structure of `primals`; received {len(t_leaves)} "
                f"tangent leaves for {len(p_leaves)} primal leaves."
            )
        nested = _DIFFERENTIATIONS.depth > 0 and torch.is_grad_enabled()
        xs, inputs, ts = [], [], []
        for p, t in zip(p_leaves, t_leaves):
            p = cv.convert(p)
            if cv.is_float(p) or p.dtype in cv.COMPLEXES:
                x = p.clone() if nested and p.requires_grad else p.detach().clone().requires_grad_(True)
                inputs.append(x)
                ts.append(cv.convert(t, p.dtype))
                xs.append(x)
            else:
                xs.append(p)
        with torch.enable_grad(), differentiation():
            out = fun(*tree.unflatten(p_def, xs))
            value, aux = (out[0], out[1]) if has_aux else (out, None)
            o_leaves, o_def = tree.flatten(value)
            o_leaves = [cv.convert(o) for o in o_leaves]
            diff = [o for o in o_leaves if o.requires_grad]
            dummies = [torch.zeros_like(o, requires_grad=True) for o in diff]
            seconds = [None] * len(diff)
            if diff and inputs:
                firsts = torch.autograd.grad(diff, inputs, dummies, create_graph=True, allow_unused=True)
                used = [(f, t) for f, t in zip(firsts, ts) if f is not None and f.requires_grad]
                if used:
                    seconds = torch.autograd.grad(
                        [f for f, _ in used], dummies, [t for _, t in used], create_graph=nested, allow_unused=True
                    )
        by_output = {id(o): s for o, s in zip(diff, seconds)}
        tangents_out = [by_output.get(id(o)) for o in o_leaves]
        tangents_out = [torch.zeros_like(o) if s is None else s for o, s in zip(o_leaves, tangents_out)]
        if not nested:
            o_leaves = [o.detach() for o in o_leaves]
            tangents_out = [s.detach() for s in tangents_out]
            aux = tree.map_structure(lambda v: v.detach() if isinstance(v, torch.Tensor) else v, aux)
        value, tangent = tree.unflatten(o_def, o_leaves), tree.unflatten(o_def, tangents_out)
        return (value, tangent, aux) if has_aux else (value, tangent)
