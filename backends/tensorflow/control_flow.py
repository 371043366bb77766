"""TensorFlow's control flow: each loop and conditional is one TensorFlow construct, which inside ``tf.function`` is
one graph op (``If``, ``Case``, ``While``) with a gradient of its own, and eagerly runs its Python functions.

``cond`` is ``tf.cond``, ``switch`` ``tf.switch_case`` (the index clamped first: TensorFlow runs the last branch
for an index out of range), ``while_loop`` ``tf.while_loop`` (and ``fori_loop``, the contract's definition on it,
too), ``vectorized_map`` ``tf.vectorized_map`` (a loop when the function uses a custom gradient, which
``tf.vectorized_map`` would drop), ``custom_gradient`` ``tf.custom_gradient``. ``map`` is the
contract's definition on ``scan`` below, which builds the ``tf.while_loop`` over ``TensorArray``s that
``tf.map_fn`` builds.

``scan`` is ``tf.while_loop`` writing each step's outputs into ``TensorArray``s. The first step runs before the
loop: its outputs give the dtypes and shapes of the arrays (TensorFlow must know them up front), and the loop runs
the remaining steps. Eagerly ``tf.while_loop`` iterates in Python
and ``GradientTape`` records it; inside ``tf.function`` it is one ``While`` op with a gradient of its own.
``unroll=True`` (or an ``unroll`` covering every step) runs the plain Python loop, which TensorFlow then
traces step by step, as Keras' ``unroll=True`` does.
"""

import threading

import tensorflow as tf

from highlevel.backends.contract import tree
from highlevel.backends.contract.control_flow import (
    _loop_output,
    _specs,
    call_grad_fn,
    empty_outputs,
    python_scan,
    scan_length,
)

from .convert import convert


def _as_tensor(v):
    return None if v is None else convert(v)


class _Vectorizing(threading.local):
    depth = 0


_VECTORIZING = _Vectorizing()


class _CustomGradientInside(Exception):
    """A custom gradient met inside ``tf.vectorized_map``, which would drop it."""


def _pred(p):
    p = convert(p)
    if p.shape.rank != 0:
        p = tf.reshape(p, ())
    return p if p.dtype == tf.bool else tf.cast(p, tf.bool)


class ControlFlowOps:
    """Control flow and custom gradients for :class:`~.backend.TensorFlowBackend`."""

    def scan(self, f, init, xs=None, length=None, reverse=False, unroll=1):
        init = tree.map_structure(_as_tensor, init)
        if xs is not None:
            xs = tree.map_structure(_as_tensor, xs)
        n = scan_length(self.shape, xs, length)
        if n == 0:
            return init, empty_outputs(self, f, init, xs)
        if unroll is True or (not isinstance(unroll, bool) and int(unroll) >= n):
            return python_scan(self, f, init, xs, n, reverse)
        x_leaves, x_def = tree.flatten(xs)

        def x_at(i):
            if xs is None:
                return None
            return tree.unflatten(x_def, [None if leaf is None else tf.gather(leaf, i) for leaf in x_leaves])

        init_leaves, carry_def = tree.flatten(init)

        def carry_leaves_of(carry):
            leaves, treedef = tree.flatten(carry)
            if len(leaves) != len(init_leaves):
                raise ValueError(
                    f"scan: `f` must return a carry with the structure of `init` ({len(init_leaves)} leaves); "
                    f"it returned {len(leaves)} leaves."
                )
            return [tf.cast(convert(v), i.dtype) for v, i in zip(leaves, init_leaves)]

        first = n - 1 if reverse else 0
        carry, y = f(init, x_at(first))
        carry = carry_leaves_of(carry)
        y_leaves, y_def = tree.flatten(y)
        live = [j for j, v in enumerate(y_leaves) if v is not None]
        arrays = []
        for j in live:
            v = convert(y_leaves[j])
            arrays.append(tf.TensorArray(v.dtype, size=n, element_shape=v.shape).write(first, v))

        def body(k, carry_leaves, arrays):
            i = n - 1 - k if reverse else k
            new_carry, y = f(tree.unflatten(carry_def, list(carry_leaves)), x_at(i))
            leaves = tree.flatten(y)[0]
            arrays = [a.write(i, tf.cast(convert(leaves[j]), a.dtype)) for a, j in zip(arrays, live)]
            return k + 1, carry_leaves_of(new_carry), arrays

        _, carry, arrays = tf.while_loop(
            lambda k, c, a: k < n,
            body,
            (tf.constant(1), carry, arrays),
            maximum_iterations=n - 1,
        )
        stacked = [None] * len(y_leaves)
        for a, j in zip(arrays, live):
            stacked[j] = a.stack()
        return tree.unflatten(carry_def, list(carry)), tree.unflatten(y_def, stacked)

    def cond(self, pred, true_fn, false_fn):
        return tf.cond(_pred(pred), true_fn, false_fn)

    def switch(self, index, branches, *operands):
        index = tf.clip_by_value(tf.reshape(tf.cast(convert(index), tf.int32), ()), 0, len(branches) - 1)
        return tf.switch_case(index, [(lambda b=b: b(*operands)) for b in branches])

    def while_loop(self, cond, body, loop_vars, maximum_iterations=None):
        loop_vars = tuple(tree.map_structure(_as_tensor, v) for v in loop_vars)
        specs = _specs(self, loop_vars)
        out = tf.while_loop(
            lambda *v: _pred(cond(*v)),
            lambda *v: _loop_output(self, body(*v), specs, "while_loop", "body"),
            loop_vars,
            maximum_iterations=maximum_iterations,
        )
        return tuple(out)

    def vectorized_map(self, function, elements):
        elements = tree.map_structure(_as_tensor, elements)
        _VECTORIZING.depth += 1
        try:
            return tf.vectorized_map(function, elements)
        except _CustomGradientInside:
            pass
        finally:
            _VECTORIZING.depth -= 1
        # tf.vectorized_map rewrites the function's ops into batched ones and loses a custom gradient on the way
        # (its gradient would silently be the forward ops' own): run it as a loop instead
        return self.map(function, elements)

    def custom_gradient(self, f, *args):
        if _VECTORIZING.depth:
            raise _CustomGradientInside()
        args = tree.map_structure(_as_tensor, args)
        leaves, treedef = tree.flatten(args)
        structure = {}

        @tf.custom_gradient
        def call(*flat):
            out, grad_fn = f(*tree.unflatten(treedef, list(flat)))
            out_leaves, structure["out"] = tree.flatten(out)
            out_leaves = [convert(o) for o in out_leaves]

            def grad(*upstream, variables=None):
                # an output that does not reach the loss has no cotangent: zeros, as the other engines give
                upstream = [tf.zeros_like(o) if u is None else u for u, o in zip(upstream, out_leaves)]
                ct = tree.unflatten(structure["out"], upstream)
                grads = call_grad_fn(grad_fn, tree.unflatten(treedef, list(flat)), ct, len(flat))
                grads = [None if g is None or not x.dtype.is_floating else _like(g, x) for g, x in zip(grads, flat)]
                if variables is not None:  # what f read from variables gets no gradient through it
                    return grads, [tf.zeros_like(v) for v in variables]
                return grads

            return out_leaves, grad

        out = call(*leaves)
        return tree.unflatten(structure["out"], list(out))


def _like(g, x):
    """The gradient ``g`` in the shape and dtype of its input ``x``."""
    g = convert(g)
    if g.dtype != x.dtype:
        g = tf.cast(g, x.dtype)
    return g if g.shape == x.shape else tf.broadcast_to(g, tf.shape(x))
