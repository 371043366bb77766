"""The linear-algebra primitives of the JAX engine (``jax.numpy.linalg``, ``jax.lax.linalg``) and ``jvp``.

JAX differentiates every decomposition itself; the contract's generic definitions (``contract/linalg.py``) do the
rest. Inputs arrive as float32 or float64 stacks of matrices.

>>> from highlevel.backends.jax import JaxBackend
>>> b = JaxBackend()
>>> float(b.linalg_det(b.convert_to_tensor([[2.0, 1.0], [1.0, 3.0]])))
5.0
"""

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl

from highlevel.backends.contract import dtypes as cdt
from highlevel.backends.contract import tree

from . import conversion as cv


class JaxLinalgMixin:
    """:class:`~highlevel.backends.contract.linalg.LinalgContract`'s primitives with JAX."""

    def linalg_cholesky(self, x):
        return jnp.linalg.cholesky(cv.convert(x), symmetrize_input=False)  # NaN where not positive definite

    def linalg_det(self, x):
        return jnp.linalg.det(cv.convert(x))

    def linalg_inv(self, x):
        return jnp.linalg.inv(cv.convert(x))

    def linalg_solve(self, a, b):
        return jnp.linalg.solve(cv.convert(a), cv.convert(b))

    def linalg_solve_triangular(self, a, b, lower):
        return jsl.solve_triangular(cv.convert(a), cv.convert(b), lower=bool(lower))

    def linalg_eigh(self, x):
        w, v = jnp.linalg.eigh(cv.convert(x), symmetrize_input=False)
        return w, v

    def linalg_eig(self, x):
        w, v = jnp.linalg.eig(cv.convert(x))
        return w, v

    def linalg_svd(self, x, full_matrices, compute_uv):
        out = jnp.linalg.svd(cv.convert(x), full_matrices=bool(full_matrices), compute_uv=bool(compute_uv))
        return tuple(out) if compute_uv else out

    def linalg_qr(self, x, mode):
        q, r = jnp.linalg.qr(cv.convert(x), mode=mode)
        return q, r

    def linalg_lu_factor(self, x):
        lu, pivots, _ = jax.lax.linalg.lu(cv.convert(x))
        return lu, pivots.astype(jnp.int32)

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
        values = [cv.convert(p) for p in p_leaves]
        # only float (and complex) primals are differentiated; the others are constants of the function
        moving = [
            i
            for i, v in enumerate(values)
            if cv.dtype_name(v) in cdt.FLOAT_DTYPES or cv.dtype_name(v) in cdt.COMPLEX_DTYPES
        ]

        def inner(*moved):
            leaves = list(values)
            for i, m in zip(moving, moved):
                leaves[i] = m
            return fun(*tree.unflatten(p_def, leaves))

        xs = tuple(values[i] for i in moving)
        ts = tuple(cv.convert(t_leaves[i], cv.dtype_name(values[i])) for i in moving)
        if has_aux:
            value, tangent, aux = jax.jvp(inner, xs, ts, has_aux=True)
        else:
            value, tangent = jax.jvp(inner, xs, ts)
        # a non-float output's tangent is float0 in JAX: zeros of the output's dtype here
        o_leaves, o_def = tree.flatten(value)
        t_out, _ = tree.flatten(tangent)
        t_out = [jnp.zeros(o.shape, o.dtype) if t.dtype == jax.dtypes.float0 else t for o, t in zip(o_leaves, t_out)]
        tangent = tree.unflatten(o_def, t_out)
        return (value, tangent, aux) if has_aux else (value, tangent)
