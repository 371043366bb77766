"""TensorFlow's ``scan``: ``tf.while_loop`` writing each step's outputs into ``TensorArray``s.

The first step runs before the loop: its outputs give the dtypes and shapes of the arrays (TensorFlow must
know them up front), and the loop runs the remaining steps. Eagerly ``tf.while_loop`` iterates in Python
and ``GradientTape`` records it; inside ``tf.function`` it is one ``While`` op with a gradient of its own.
``unroll=True`` (or an ``unroll`` covering every step) runs the plain Python loop, which TensorFlow then
traces step by step, as Keras' ``unroll=True`` does.
"""

import tensorflow as tf

from highlevel.backends.contract import tree
from highlevel.backends.contract.control_flow import python_scan, scan_length

from .convert import convert


def _as_tensor(v):
    return None if v is None else convert(v)


class ControlFlowOps:
    """``scan`` for :class:`~.backend.TensorFlowBackend`."""

    def scan(self, f, init, xs=None, length=None, reverse=False, unroll=1):
        init = tree.map_structure(_as_tensor, init)
        if xs is not None:
            xs = tree.map_structure(_as_tensor, xs)
        n = scan_length(self.shape, xs, length)
        if n == 0:
            raise ValueError("scan: a loop of length 0 has no outputs to stack; pass at least one step.")
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
            lambda k, c, a: k < n, body, (tf.constant(1), carry, arrays), maximum_iterations=n - 1,
        )
        stacked = [None] * len(y_leaves)
        for a, j in zip(arrays, live):
            stacked[j] = a.stack()
        return tree.unflatten(carry_def, list(carry)), tree.unflatten(y_def, stacked)
