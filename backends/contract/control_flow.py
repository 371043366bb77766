"""The backend contract, part 5: control flow (a compiled loop over a leading axis).

``scan`` has ``jax.lax.scan``'s semantics on every engine: ``f(carry, x) -> (new_carry, y)`` runs once per
slice of ``xs`` along axis 0 and the ``y``s are stacked along a new axis 0. Engines that compile (JAX,
TensorFlow) lower it to their loop primitive, so a recurrent layer's time loop is one graph op, not a
Python loop unrolled into the graph; define-by-run engines run a Python loop recorded by their autograd.

:func:`python_scan` is the reference loop that define-by-run engines may reuse.
"""

import abc

from . import tree


class ControlFlowContract(abc.ABC):
    """Loops that compile on engines that compile."""

    @abc.abstractmethod
    def scan(self, f, init, xs=None, length=None, reverse=False, unroll=1):
        """Loops ``f`` over the leading axis of ``xs``, carrying state (``jax.lax.scan`` semantics).

        Args:
            f: ``f(carry, x) -> (new_carry, y)``; ``new_carry`` has the structure, shapes and dtypes of
                ``carry``; ``y`` is any nest of tensors (or None).
            init: the initial carry, a nest (lists, tuples, dicts) of tensors.
            xs: a nest of tensors sharing the leading (time) axis, or None (then ``length`` is required and
                ``f`` receives ``x=None``).
            length: the number of steps; must match the leading axis of ``xs`` when both are given.
            reverse: run from the last slice to the first; ``ys`` stay in the order of ``xs``.
            unroll: how many steps one loop iteration holds (an int, or True for all); a performance
                hint only, the result is the same.

        Returns:
            ``(final_carry, ys)`` where ``ys`` stacks every step's ``y`` along a new axis 0.
            Gradients flow to ``init``, ``xs`` and anything ``f`` closes over.
        """


def scan_length(shape_of, xs, length):
    """The step count of a scan: the common leading size of ``xs``'s leaves, checked against ``length``."""
    leaves = [x for x in tree.flatten(xs)[0] if x is not None]
    sizes = {shape_of(x)[0] for x in leaves}
    if len(sizes) > 1:
        raise ValueError(
            f"scan: every leaf of `xs` must have the same leading (time) size; received sizes {sorted(sizes)}."
        )
    if sizes:
        n = sizes.pop()
        if length is not None and length != n:
            raise ValueError(f"scan: length={length} does not match the leading size {n} of `xs`.")
        return n
    if length is None:
        raise ValueError("scan: pass `xs` with a leading axis or an explicit `length`; received neither.")
    return int(length)


def python_scan(backend, f, init, xs, length, reverse):
    """``scan`` as a Python loop of ``backend`` ops (for define-by-run engines, whose autograd records it)."""
    n = scan_length(backend.shape, xs, length)
    carry = tree.map_structure(lambda v: backend.convert_to_tensor(v) if v is not None else None, init)
    x_leaves, x_def = tree.flatten(xs)
    ys = [None] * n
    steps = range(n - 1, -1, -1) if reverse else range(n)
    for i in steps:
        x = None if xs is None else tree.unflatten(x_def, [leaf[i] if leaf is not None else None for leaf in x_leaves])
        carry, ys[i] = f(carry, x)
    return carry, stack_outputs(backend, ys)


def stack_outputs(backend, ys):
    """Stacks per-step outputs ``ys`` (a list of nests) leaf by leaf along a new axis 0."""
    if not ys:
        raise ValueError("scan: a loop of length 0 has no outputs to stack; pass at least one step.")
    leaves, treedef = tree.flatten(ys[0])
    if not leaves:
        return ys[0]
    per_step = [tree.flatten(y)[0] for y in ys]
    stacked = [None if leaves[j] is None else backend.stack([s[j] for s in per_step], axis=0)
               for j in range(len(leaves))]
    return tree.unflatten(treedef, stacked)


__all__ = ["ControlFlowContract", "python_scan", "scan_length", "stack_outputs"]
