"""Define-by-run reverse-mode autodiff: the graph recorder and the backward pass.

Every differentiable op computes its forward result with ``xp`` and hands it to :func:`record` together
with its input tensors and a ``backward(g)`` closure (the op's one VJP rule). When grad mode is on and an
input requires grad, ``record`` attaches a :class:`Node` to the output; nothing else is kept, so a graph
lives exactly as long as the tensors that reach it.

:func:`grad` walks the graph without recursion (a chain of 100,000 ops is fine): it counts, for every
node, how many consumers will send it a gradient, then runs nodes in that (Kahn) order. Gradients of a
tensor used several times accumulate; each gradient buffer is dropped as soon as it has been consumed and
each node's closure and saved tensors are released once it has run. A tensor saved for backward that was
changed in place afterwards (its version counter moved) makes backward raise instead of returning a wrong
gradient.

>>> from highlevel.backends.native.tensor import Tensor
>>> import numpy as np
>>> x = Tensor(np.array([1.0, 2.0], np.float32), requires_grad=True)
>>> y = record(x.data * x.data, (x,), lambda g: (2 * g * x.data,), saved=(x,))
>>> [g.tolist() for g in grad(y, [x], np.ones(2, np.float32))]
[[2.0, 4.0]]
"""

import functools

from .tensor import FLOAT_DTYPES, Tensor
from .xp import xp

_grad_enabled = True


def is_grad_enabled():
    """Whether ops record the graph now (False inside :class:`no_grad`)."""
    return _grad_enabled


class _GradMode:
    """Context manager and decorator that sets grad mode for a block and restores it afterwards."""

    _mode = True

    def __enter__(self):
        global _grad_enabled
        self._prev = _grad_enabled
        _grad_enabled = self._mode
        return self

    def __exit__(self, *exc):
        global _grad_enabled
        _grad_enabled = self._prev
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)():
                return fn(*args, **kwargs)

        return wrapper


class no_grad(_GradMode):  # noqa: N801 - named like torch.no_grad, which users know
    """Turns graph recording off: ops inside return tensors that do not require grad.

    >>> from highlevel.backends.native import Tensor, no_grad
    >>> x = Tensor([1.0], requires_grad=True)
    >>> with no_grad():
    ...     y = x * 2.0
    >>> y.requires_grad
    False
    """

    _mode = False


class enable_grad(_GradMode):  # noqa: N801
    """Turns graph recording back on inside a :class:`no_grad` block."""

    _mode = True


class Node:
    """One recorded op: the VJP closure, the input tensors and the versions of the saved ones."""

    __slots__ = ("backward", "inputs", "saved", "versions", "op_name")

    def __init__(self, backward, inputs, saved, versions, op_name=None):
        self.backward = backward
        self.inputs = inputs
        self.saved = saved
        self.versions = versions
        self.op_name = op_name

    @property
    def name(self):
        """The op's name: given to :func:`record`, or taken from the backward closure's qualified name
        (``multiply.<locals>.backward`` -> ``multiply``)."""
        if self.op_name is not None:
            return self.op_name
        fn = self.backward
        if fn is None:
            return "<released>"
        qual = getattr(fn, "__qualname__", None) or type(fn).__name__
        return qual.split(".<locals>")[0]

    def release(self):
        self.backward = None
        self.inputs = None
        self.saved = None
        self.versions = None


def record(data, inputs, backward, saved=(), name=None):
    """Wraps the forward result ``data`` (an xp array) in a new Tensor and attaches a graph node.

    The node is attached only when grad mode is on, ``data`` is floating point and a tensor of
    ``inputs`` requires grad.

    Args:
        data: the op's forward result (an xp array).
        inputs: a tuple of Tensors the result depends on.
        backward: ``backward(g) -> tuple`` with one entry per input: an xp array shaped like that input,
            or None for no gradient. ``g`` has the shape and dtype of ``data``.
        saved: the input Tensors whose values ``backward`` reads; their version counters are checked
            before ``backward`` runs.
        name: the op's name for error messages (default: taken from ``backward``'s qualified name).

    Returns:
        The new Tensor.
    """
    out = Tensor(data)
    if _grad_enabled:
        for t in inputs:
            if t.requires_grad:
                break
        else:
            return out
        if out.data.dtype in FLOAT_DTYPES:
            out._node = Node(backward, inputs, saved, tuple([s._version for s in saved]) if saved else (), name)
            out.requires_grad = True
    return out


def unbroadcast(g, shape):
    """Sums ``g`` down to ``shape``, undoing numpy broadcasting (the VJP of a broadcast)."""
    if g.shape == shape:
        return g
    extra = g.ndim - len(shape)
    if extra > 0:
        g = g.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    return g.reshape(shape)


def _check_versions(node):
    for t, v in zip(node.saved, node.versions):
        if t._version != v:
            raise RuntimeError(
                f"A tensor saved for backward by op '{node.name}' was modified in place after it was "
                f"saved: it was at version {v} when saved and is now at version {t._version}. Backward "
                "would compute a wrong gradient. Do the in-place update (variable assign, add_, ...) after "
                "backward, or work on a copy."
            )


def _graph_order(roots):
    """Counts, for every tensor with a node reachable from ``roots``, its consumers in the graph."""
    pending = {}
    stack = [r for r in roots if r._node is not None]
    for r in stack:
        pending.setdefault(r, 0)
    seen = set(stack)
    while stack:
        t = stack.pop()
        node = t._node
        if node.backward is None:
            raise RuntimeError(
                "Trying to run backward through a part of the graph that has already been run and released "
                "(its buffers are freed after the first backward). Recompute the forward pass to "
                "differentiate again."
            )
        for inp in node.inputs:
            if inp.requires_grad and inp._node is not None:
                pending[inp] = pending.get(inp, 0) + 1
                if inp not in seen:
                    seen.add(inp)
                    stack.append(inp)
    return pending


def backward(outputs, grad_outputs=None, inputs=None, accumulate=True):
    """Runs the backward pass from ``outputs``.

    Args:
        outputs: a Tensor or a list of Tensors.
        grad_outputs: their output gradients (xp arrays / Tensors; None: ones, for scalar outputs).
        inputs: tensors to return gradients for (None: none). When ``accumulate`` is True, leaf tensors
            that require grad also get the gradient added to their ``.grad``.
        accumulate: whether leaves accumulate into ``.grad``.

    Returns:
        A list with one gradient (xp array or None) per entry of ``inputs``.
    """
    if isinstance(outputs, Tensor):
        outputs = [outputs]
        grad_outputs = [grad_outputs]
    elif grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    inputs = list(inputs) if inputs is not None else []
    wanted = {}
    for t in inputs:
        wanted.setdefault(t, None)
    grads = {}
    for out, g in zip(outputs, grad_outputs):
        if not out.requires_grad:
            continue
        if g is None:
            if out.data.size != 1:
                raise RuntimeError(
                    f"backward needs an output gradient for a non-scalar output of shape {out.shape}; "
                    "reduce it to a scalar first (e.g. with sum) or pass grad_outputs."
                )
            g = xp.ones(out.data.shape, out.data.dtype)
        else:
            g = g.data if isinstance(g, Tensor) else xp.asarray(g, dtype=out.data.dtype)
        grads[out] = grads[out] + g if out in grads else g

    def deliver_leaf(t, g):
        if t in wanted:
            prev = wanted[t]
            wanted[t] = g if prev is None else prev + g
        if accumulate and t._node is None and t.requires_grad:
            t.grad = g if t.grad is None else t.grad + g

    pending = _graph_order(list(grads))
    # outputs may be reachable from one another; only those nobody feeds start the walk
    ready = [t for t in grads if pending.get(t, 0) == 0]
    for t in list(grads):
        if t._node is None:
            deliver_leaf(t, grads.pop(t))
    while ready:
        t = ready.pop()
        node = t._node
        if node is None:
            continue
        g = grads.pop(t, None)
        if t in wanted and g is not None:
            deliver_leaf(t, g)
        if g is None:  # no gradient flows into this branch; still release and unlock its inputs
            results = (None,) * len(node.inputs)
        else:
            if node.saved:
                _check_versions(node)
            results = node.backward(g)
            if len(results) != len(node.inputs):
                raise RuntimeError(
                    f"The backward of op '{node.name}' returned {len(results)} gradients for "
                    f"{len(node.inputs)} inputs."
                )
        del g
        for inp, gi in zip(node.inputs, results):
            if not inp.requires_grad:
                continue
            if gi is not None:
                if gi.shape != inp.data.shape:
                    raise RuntimeError(
                        f"The backward of op '{node.name}' returned a gradient of shape {gi.shape} for an "
                        f"input of shape {inp.data.shape}."
                    )
                if gi.dtype != inp.data.dtype:
                    gi = gi.astype(inp.data.dtype)
                if inp._node is None:
                    deliver_leaf(inp, gi)
                else:
                    prev = grads.get(inp)
                    grads[inp] = gi if prev is None else prev + gi
            if inp._node is not None:
                n = pending[inp] - 1
                pending[inp] = n
                if n == 0:
                    ready.append(inp)
        node.release()
    return [wanted[t] for t in inputs]


def grad(outputs, inputs, grad_outputs=None):
    """The gradients of ``outputs`` with respect to ``inputs`` (a list of xp arrays or None).

    Leaves' ``.grad`` is left untouched (unlike :meth:`Tensor.backward`).
    """
    return backward(outputs, grad_outputs, inputs=inputs, accumulate=False)
