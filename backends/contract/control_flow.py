"""The backend contract, part 5: control flow (loops, conditionals, maps) and custom gradients.

Every op here takes Python functions written on ``hl.ops``. ``scan`` has ``jax.lax.scan``'s semantics on every
engine: ``f(carry, x) -> (new_carry, y)`` runs once per slice of ``xs`` along axis 0 and the ``y``s are stacked
along a new axis 0. The other loops and conditionals have a **generic definition** here, written on ``scan``
and the numpy ops, that runs the functions eagerly in Python: exactly what define-by-run engines (native,
PyTorch) want, since their autograd records whichever branch or iteration ran. Engines that compile override them
with their own constructs, so that inside ``jax.jit`` or ``tf.function`` a conditional is one ``cond`` /
``If`` op and a loop one ``while`` / ``While`` op instead of a Python loop unrolled into the graph (or a
Python ``if`` on a value that is not known while tracing).

The arguments are canonical (the front door, ``highlevel/ops/core.py``, checks them): the functions are
callables, ``branches`` a non-empty tuple, ``loop_vars`` a tuple, ``maximum_iterations`` None or an int >= 0,
``axis`` an int. ``custom_gradient`` is the one primitive besides ``scan``: how a function's gradient is
replaced depends on each engine's autodiff.

:func:`python_scan` is the reference loop that define-by-run engines may reuse.

>>> import highlevel as hl
>>> b = hl.config.current_backend()
>>> int(b.to_numpy(b.while_loop(lambda i: b.less(i, 5), lambda i: b.add(i, 2), (0,))[0]))
6
"""

import abc

import numpy as np

from . import tree


class ControlFlowContract(abc.ABC):
    """Loops and conditionals that compile on engines that compile, and custom gradients."""

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
            ``(final_carry, ys)`` where ``ys`` stacks every step's ``y`` along a new axis 0 (with a leading size
            of 0 for a loop of no steps: ``f`` then runs once on zeros, for the shapes, and the carry is ``init``).
            Gradients flow to ``init``, ``xs`` and anything ``f`` closes over.
        """

    # ------------------------------------------------------------------------------------ conditionals
    def _truth(self, pred):
        """The Python bool of a scalar predicate (read on the host: the eager engines' conditionals)."""
        if isinstance(pred, (bool, np.bool_)):
            return bool(pred)
        return bool(np.asarray(self.to_numpy(pred)).reshape(()))

    def cond(self, pred, true_fn, false_fn):
        """``true_fn()`` if ``pred`` else ``false_fn()``.

        Args:
            pred: a scalar bool (a Python bool or a 0-d tensor).
            true_fn, false_fn: functions of no argument returning nests of tensors of the same structure, shapes
                and dtypes (compiling engines check it; the eager definition runs only the branch taken).

        Returns:
            The taken branch's result. Gradients flow through the taken branch only.
        """
        return true_fn() if self._truth(pred) else false_fn()

    def switch(self, index, branches, *operands):
        """``branches[clip(index, 0, len(branches) - 1)](*operands)``, written as a chain of :meth:`cond`.

        Args:
            index: an integer scalar (a Python int or a 0-d integer tensor); out-of-range values are clamped.
            branches: a non-empty tuple of functions, each taking ``*operands`` and returning nests of tensors of
                the same structure, shapes and dtypes.
            *operands: the branches' arguments.

        Returns:
            The selected branch's result; gradients flow through it to ``operands``.
        """
        n = len(branches)
        if n == 1:
            return branches[0](*operands)
        index = self.clip(self.convert_to_tensor(index, "int32"), 0, n - 1)

        def chain(k):
            if k == n - 1:
                return lambda: branches[k](*operands)
            return lambda: self.cond(self.equal(index, k), lambda: branches[k](*operands), chain(k + 1))

        return chain(0)()

    # ------------------------------------------------------------------------------------------- loops
    def while_loop(self, cond, body, loop_vars, maximum_iterations=None):
        """Runs ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` (and fewer than ``maximum_iterations``
        iterations have run).

        Args:
            cond: ``cond(*loop_vars) -> scalar bool``.
            body: ``body(*loop_vars) -> new loop_vars``: a tuple of the same length (a bare value when there is
                one loop variable), each entry of the structure, shape and dtype of the one it replaces.
            loop_vars: a tuple of nests of tensors (Python numbers become tensors).
            maximum_iterations: None, or an int >= 0 bounding the number of iterations.

        Returns:
            The final loop variables, as a tuple. Gradients flow through every iteration run.
        """
        loop_vars = tuple(_as_tensors(self, v) for v in loop_vars)
        specs = _specs(self, loop_vars)
        count = 0
        while (maximum_iterations is None or count < maximum_iterations) and self._truth(cond(*loop_vars)):
            loop_vars = _loop_output(self, body(*loop_vars), specs, "while_loop", "body")
            count += 1
        return loop_vars

    def fori_loop(self, lower, upper, body_fun, init_val):
        """``val = body_fun(i, val)`` for ``i`` from ``lower`` up to ``upper - 1``, written on :meth:`while_loop`.

        Args:
            lower, upper: integer scalars (Python ints or 0-d integer tensors).
            body_fun: ``body_fun(i, val) -> new val`` with ``i`` a 0-d integer tensor (int32 unless the bounds are
                tensors of another integer dtype) and ``val`` of the structure, shapes and dtypes of ``init_val``.
            init_val: a nest of tensors.

        Returns:
            The final value; gradients flow through every iteration to ``init_val``.
        """
        dtype = _index_dtype(self, lower, upper)
        # with static bounds the trip count is known, which a compiling engine can use (TensorFlow sizes its
        # gradient accumulators by it)
        trips = max(0, int(upper) - int(lower)) if _is_static_int(lower) and _is_static_int(upper) else None
        lower = self.convert_to_tensor(lower, dtype)
        bound = self.convert_to_tensor(upper, dtype)
        _, val = self.while_loop(
            lambda i, v: self.less(i, bound),
            lambda i, v: (self.add(i, 1), body_fun(i, v)),
            (lower, init_val),
            maximum_iterations=trips,
        )
        return val

    def map(self, f, xs):
        """``stack([f(x) for x in xs])`` along a new axis 0 (for nests: slices of every leaf), written on
        :meth:`scan`.

        Args:
            f: a function of one slice of ``xs`` returning a nest of tensors.
            xs: a nest of tensors sharing their leading size.

        Returns:
            ``f``'s outputs stacked along a new axis 0; gradients flow to ``xs`` and what ``f`` closes over.
        """
        return self.scan(lambda carry, x: (carry, f(x)), (), xs)[1]

    def vectorized_map(self, function, elements):
        """:meth:`map` where the engine may batch ``function`` over axis 0 instead of looping (``jax.vmap``,
        ``torch.vmap``, ``tf.vectorized_map``); the generic definition is :meth:`map`."""
        return self.map(function, elements)

    def associative_scan(self, f, elems, reverse=False, axis=0):
        """The inclusive scan ``[e0, f(e0, e1), f(f(e0, e1), e2), ...]`` along ``axis`` of an associative ``f``.

        Written as the parallel prefix algorithm (a logarithmic number of rounds of ``f`` on halves of the
        sequence, as ``jax.lax.associative_scan``), on slicing, concatenation and stacking.

        Args:
            f: ``f(a, b) -> c``, associative, applied elementwise along ``axis`` to nests shaped like ``elems``.
            elems: a nest of tensors with the same size along ``axis``.
            reverse: scan from the end (the result keeps the order of ``elems``).
            axis: the axis to scan along (an int; negative counts from the end of each leaf).

        Returns:
            A nest like ``elems``; gradients flow to ``elems``.
        """
        leaves, treedef = tree.flatten(elems)
        leaves = [self.convert_to_tensor(x) for x in leaves]
        axes = [axis % len(self.shape(x)) for x in leaves]
        if reverse:
            leaves = [self.flip(x, axis=(a,)) for x, a in zip(leaves, axes)]

        def combine(a, b):
            out = tree.flatten(f(tree.unflatten(treedef, a), tree.unflatten(treedef, b)))[0]
            return [self.convert_to_tensor(x) for x in out]

        out = _prefix_scan(self, combine, leaves, axes)
        if reverse:
            out = [self.flip(x, axis=(a,)) for x, a in zip(out, axes)]
        return tree.unflatten(treedef, out)

    # --------------------------------------------------------------------------------- custom gradients
    @abc.abstractmethod
    def custom_gradient(self, f, *args):
        """Calls ``f(*args)`` and returns its output, whose gradient is the one ``f`` defines.

        Args:
            f: ``f(*args) -> (output, grad_fn)``: ``output`` a nest of tensors; ``grad_fn`` computes the gradient
                of ``output``: call it with :func:`call_grad_fn`.
            *args: tensors (or nests of tensors) to differentiate with respect to.

        Returns:
            ``output``. Differentiating it with respect to ``args`` calls ``grad_fn`` with the cotangent of
            ``output``; what ``f`` closes over gets no gradient through ``f``. A gradient taken inside another
            differentiation is itself differentiable when ``grad_fn`` is written on ``hl.ops`` (second
            derivatives through the values ``grad_fn`` closes over, as for any other op).
        """


def call_grad_fn(grad_fn, args, upstream, n_leaves):
    """Calls a custom gradient's ``grad_fn`` with the cotangent ``upstream`` and returns one gradient per leaf.

    ``grad_fn`` is called as ``grad_fn(*args, upstream=upstream)`` when it declares a keyword-only ``upstream``
    parameter (the form Keras documents for PyTorch, which also accepts the portable ``grad(*args, upstream=None)``),
    else as ``grad_fn(upstream)``. ``upstream`` has the structure of the output (a tensor for one output). It may
    return a tensor (one argument), one entry per positional argument (each a nest like the argument), or one
    entry per leaf of the arguments; a None entry means no gradient.

    Args:
        grad_fn: the function ``f`` returned.
        args: the positional arguments ``f`` was called with.
        upstream: the cotangent of ``f``'s output.
        n_leaves: the number of leaves of ``args``.

    Returns:
        A list of ``n_leaves`` gradients (or None).
    """
    import inspect

    try:
        params = inspect.signature(grad_fn).parameters.values()
        keyword = any(p.name == "upstream" and p.kind is inspect.Parameter.KEYWORD_ONLY for p in params)
    except (TypeError, ValueError):  # a builtin or C function without a signature
        keyword = False
    grads = grad_fn(*args, upstream=upstream) if keyword else grad_fn(upstream)
    if not isinstance(grads, (list, tuple)):
        grads = (grads,)
    grads = list(grads)
    if len(grads) == len(args):
        flat = []
        for g, a in zip(grads, args):
            a_leaves, a_def = tree.flatten(a)
            if g is None:
                flat.extend([None] * len(a_leaves))
            elif a_def is None:
                flat.append(g)
            else:
                g_leaves = tree.flatten(g)[0]
                if len(g_leaves) != len(a_leaves):
                    raise ValueError(
                        f"custom_gradient: the gradient for an argument with {len(a_leaves)} tensors "
                        f"has {len(g_leaves)} entries; return a nest like the argument."
                    )
                flat.extend(g_leaves)
        grads = flat
    if len(grads) != n_leaves:
        raise ValueError(
            f"custom_gradient: grad_fn returned {len(grads)} gradients for {len(args)} arguments "
            f"({n_leaves} tensors); return one gradient per argument (None for no gradient)."
        )
    return grads


# ------------------------------------------------------------------------------------------------- helpers
def _as_tensors(backend, nest):
    return tree.map_structure(lambda v: None if v is None else backend.convert_to_tensor(v), nest)


def _specs(backend, loop_vars):
    leaves, treedef = tree.flatten(loop_vars)
    return treedef, [None if v is None else (backend.shape(v), backend.dtype(v)) for v in leaves]


def _loop_output(backend, out, specs, op, what):
    """``out`` (a body's result) as a tuple of loop variables, checked against the loop variables' specs.

    With one loop variable the body may return it bare instead of in a 1-tuple; lists and tuples are alike."""
    treedef, leaf_specs = specs
    shape = _shape_of_tree(treedef)
    if len(treedef[1]) == 1 and (not isinstance(out, (list, tuple)) or _shape_of_tree(tree.flatten(out)[1]) != shape):
        out = (out,)
    leaves, out_def = tree.flatten(out)
    if not isinstance(out, (list, tuple)) or _shape_of_tree(out_def) != shape:
        raise ValueError(
            f"{op}: `{what}` must return loop variables of the structure of `loop_vars` "
            f"({len(leaf_specs)} tensors in {len(treedef[1])} entries); it returned "
            f"{type(out).__name__} with {len(leaves)} tensors."
        )
    fixed = []
    for v, spec in zip(leaves, leaf_specs):
        if v is None or spec is None:
            fixed.append(v)
            continue
        shape_, dtype = spec
        if not backend.is_tensor(v):
            v = backend.convert_to_tensor(v, dtype)
        if backend.shape(v) != shape_ or backend.dtype(v) != dtype:
            raise ValueError(
                f"{op}: `{what}` changed a loop variable from {dtype}{list(shape_)} to "
                f"{backend.dtype(v)}{list(backend.shape(v))}; each loop variable must keep its shape "
                "and dtype (cast inside the body)."
            )
        fixed.append(v)
    return tree.unflatten(treedef, fixed)


def _shape_of_tree(treedef):
    """A treedef with list and tuple nodes treated alike (a body may return a list for a tuple)."""
    if treedef is None:
        return None
    if treedef[0] is dict:
        return (dict, treedef[1], [_shape_of_tree(c) for c in treedef[2]])
    return ("seq", [_shape_of_tree(c) for c in treedef[1]])


def _index_dtype(backend, *bounds):
    """The dtype of a loop index: the bounds' integer dtype when one is a tensor, else int32."""
    for b in bounds:
        if backend.is_tensor(b):
            return backend.dtype(b)
    return "int32"


def _is_static_int(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def _along(backend, x, axis, start=None, stop=None, step=None):
    """``x[..., start:stop:step, ...]`` along ``axis``."""
    return backend.getitem(x, (slice(None),) * axis + (slice(start, stop, step),))


def _prefix_scan(backend, combine, leaves, axes):
    """The parallel prefix scan of ``combine`` over ``leaves`` (lists of tensors) along ``axes``."""
    n = backend.shape(leaves[0])[axes[0]]
    if n < 2:
        return leaves
    # combine neighbouring pairs, scan the half-length sequence, then fill in the even positions
    pairs = combine(
        [_along(backend, x, a, 0, n - 1, 2) for x, a in zip(leaves, axes)],
        [_along(backend, x, a, 1, None, 2) for x, a in zip(leaves, axes)],
    )
    odd = _prefix_scan(backend, combine, pairs, axes)
    if n % 2 == 0:
        even = combine(
            [_along(backend, x, a, 0, -1) for x, a in zip(odd, axes)],
            [_along(backend, x, a, 2, None, 2) for x, a in zip(leaves, axes)],
        )
    else:
        even = combine(odd, [_along(backend, x, a, 2, None, 2) for x, a in zip(leaves, axes)])
    even = [backend.concatenate([_along(backend, x, a, 0, 1), e], axis=a) for x, e, a in zip(leaves, even, axes)]
    return [_interleave(backend, e, o, a) for e, o, a in zip(even, odd, axes)]


def _interleave(backend, even, odd, axis):
    """``[e0, o0, e1, o1, ...]`` along ``axis``; ``even`` has as many entries as ``odd`` or one more."""
    n_odd = backend.shape(odd)[axis]
    head = _along(backend, even, axis, 0, n_odd)
    pairs = backend.stack([head, odd], axis=axis + 1)
    shape = list(backend.shape(even))
    shape[axis] = 2 * n_odd
    out = backend.reshape(pairs, tuple(shape))
    if backend.shape(even)[axis] > n_odd:
        out = backend.concatenate([out, _along(backend, even, axis, n_odd)], axis=axis)
    return out


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
    if n == 0:
        return carry, empty_outputs(backend, f, carry, xs)
    ys = [None] * n
    steps = range(n - 1, -1, -1) if reverse else range(n)
    for i in steps:
        x = None if xs is None else tree.unflatten(x_def, [leaf[i] if leaf is not None else None for leaf in x_leaves])
        carry, ys[i] = f(carry, x)
    return carry, stack_outputs(backend, ys)


def empty_outputs(backend, f, carry, xs):
    """The ``ys`` of a scan of no steps: ``f`` runs once on zeros shaped like one slice, for the shapes and
    dtypes of its outputs, which are returned with a leading size of 0."""

    def zero_slice(v):
        return None if v is None else backend.zeros(backend.shape(v)[1:], backend.dtype(v))

    x = None if xs is None else tree.map_structure(zero_slice, xs)
    _, y = f(carry, x)

    def empty(v):
        if v is None:
            return None
        v = backend.convert_to_tensor(v)
        return backend.zeros((0,) + tuple(backend.shape(v)), backend.dtype(v))

    return tree.map_structure(empty, y)


def stack_outputs(backend, ys):
    """Stacks per-step outputs ``ys`` (a non-empty list of nests) leaf by leaf along a new axis 0."""
    leaves, treedef = tree.flatten(ys[0])
    if not leaves:
        return ys[0]
    per_step = [tree.flatten(y)[0] for y in ys]
    stacked = [
        None if leaves[j] is None else backend.stack([s[j] for s in per_step], axis=0) for j in range(len(leaves))
    ]
    return tree.unflatten(treedef, stacked)


__all__ = ["ControlFlowContract", "call_grad_fn", "empty_outputs", "python_scan", "scan_length", "stack_outputs"]
