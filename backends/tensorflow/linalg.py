"""The linear-algebra primitives of the TensorFlow engine (``tf.linalg``) and ``jvp``.

TensorFlow registers no gradient for its LU op, so :meth:`TensorFlowLinalgMixin.linalg_lu_factor` carries its own
(``tf.custom_gradient``, the rule of the native engine: ``P L^-T (tril(L^T G_L, -1) + triu(G_U U^T)) U^-T``, written
on factors recomputed through the same function so that it can be differentiated again), and
turns ``tf.linalg.lu``'s permutation into LAPACK's row swaps. ``tf.linalg.inv`` and ``tf.linalg.solve`` raise
``InvalidArgumentError`` for a singular matrix (the other engines give non-finite values). ``jvp`` runs
``fun`` under a ``tf.autodiff.ForwardAccumulator``.

>>> from highlevel.backends.tensorflow import TensorFlowBackend
>>> b = TensorFlowBackend()
>>> float(b.linalg_det(b.convert_to_tensor([[2.0, 1.0], [1.0, 3.0]])))
5.0
"""

import tensorflow as tf

from highlevel.backends.contract import tree

from .convert import convert, static_shape


def _swaps_from_permutation(perm):
    """LAPACK's pivots (row ``i`` swapped with row ``pivots[i]``, in order) from ``perm`` with ``x[perm] = L U``."""
    n = perm.shape[-1]
    current = tf.broadcast_to(tf.range(n, dtype=perm.dtype), tf.shape(perm))
    pivots = []
    for i in range(n):
        # the row that must come to position i is perm[i]; it sits at position j >= i of the current order
        j = tf.argmax(tf.cast(tf.equal(current, perm[..., i : i + 1]), tf.int32), axis=-1, output_type=tf.int32)
        pivots.append(j)
        at_i, at_j = current[..., i], tf.gather(current, j, batch_dims=len(perm.shape) - 1)
        idx = tf.range(n, dtype=tf.int32)
        current = tf.where(
            tf.equal(idx, i), at_j[..., None], tf.where(tf.equal(idx, j[..., None]), at_i[..., None], current)
        )
    return tf.stack(pivots, axis=-1)


def _tril(x, k=0):
    n = static_shape(x)[-1]
    rows = tf.range(n)[:, None]
    cols = tf.range(n)[None, :]
    return tf.where(cols - rows <= k, x, tf.zeros((), x.dtype))


def _triu(x, k=0):
    n = static_shape(x)[-1]
    rows = tf.range(n)[:, None]
    cols = tf.range(n)[None, :]
    return tf.where(cols - rows >= k, x, tf.zeros((), x.dtype))


@tf.custom_gradient
def _lu(x):
    lu, perm = tf.linalg.lu(x)

    def grad(g):
        # the factors again through this function, so that the rule is itself differentiable (second order)
        lu, perm = _lu(x)
        n = static_shape(lu)[-1]
        low = _tril(lu, -1) + tf.eye(n, dtype=lu.dtype)
        up = _triu(lu)
        mT = tf.linalg.matrix_transpose  # noqa: N806
        inner = _tril(mT(low) @ _tril(g, -1), -1) + _triu(_triu(g) @ mT(up))
        right = mT(tf.linalg.triangular_solve(up, mT(inner), lower=False))
        ga = tf.linalg.triangular_solve(mT(low), right, lower=False)  # L^-T inner U^-T
        inverse = tf.argsort(perm, axis=-1, stable=True)
        return tf.gather(ga, inverse, batch_dims=len(perm.shape) - 1)

    return (lu, tf.stop_gradient(perm)), lambda g, _=None: grad(g)


class TensorFlowLinalgMixin:
    """:class:`~highlevel.backends.contract.linalg.LinalgContract`'s primitives with TensorFlow."""

    def linalg_cholesky(self, x):
        return tf.linalg.cholesky(convert(x))  # NaN where not positive definite

    def linalg_det(self, x):
        return tf.linalg.det(convert(x))

    def linalg_inv(self, x):
        return tf.linalg.inv(convert(x))

    def linalg_solve(self, a, b):
        return tf.linalg.solve(convert(a), convert(b))

    def linalg_solve_triangular(self, a, b, lower):
        return tf.linalg.triangular_solve(convert(a), convert(b), lower=bool(lower))

    def linalg_eigh(self, x):
        w, v = tf.linalg.eigh(convert(x))
        return w, v

    def linalg_eig(self, x):
        w, v = tf.linalg.eig(convert(x))
        return w, v

    def linalg_svd(self, x, full_matrices, compute_uv):
        x = convert(x)
        if not compute_uv:
            return tf.linalg.svd(x, compute_uv=False)
        s, u, v = tf.linalg.svd(x, full_matrices=bool(full_matrices))
        return u, s, tf.linalg.matrix_transpose(v)

    def linalg_qr(self, x, mode):
        q, r = tf.linalg.qr(convert(x), full_matrices=mode == "complete")
        return q, r

    def linalg_lu_factor(self, x):
        x = convert(x)
        m, n = static_shape(x)[-2:]
        if m != n:
            raise ValueError(
                f"lu_factor: the TensorFlow engine factors square matrices only; received shape {static_shape(x)}."
            )
        lu, perm = _lu(x)
        return lu, _swaps_from_permutation(tf.cast(perm, tf.int32))

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
        xs = [convert(p) for p in p_leaves]
        pairs = [
            (x, convert(t, x.dtype.name)) for x, t in zip(xs, t_leaves) if x.dtype.is_floating or x.dtype.is_complex
        ]
        with tf.autodiff.ForwardAccumulator([x for x, _ in pairs], [t for _, t in pairs]) as acc:
            out = fun(*tree.unflatten(p_def, xs))
        value, aux = (out[0], out[1]) if has_aux else (out, None)
        o_leaves, o_def = tree.flatten(value)
        o_leaves = [convert(o) for o in o_leaves]
        tangents_out = [acc.jvp(o, unconnected_gradients=tf.UnconnectedGradients.ZERO) for o in o_leaves]
        tangent = tree.unflatten(o_def, tangents_out)
        value = tree.unflatten(o_def, o_leaves)
        return (value, tangent, aux) if has_aux else (value, tangent)
