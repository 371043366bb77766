"""Define-by-run reverse-mode autodiff: the graph recorder and the backward pass, to any order.

Every differentiable op computes its forward result with ``xp`` and hands it to :func:`record` together
with its input tensors and a ``backward`` closure (the op's one VJP rule). When grad mode is on and an
input requires grad, ``record`` attaches a :class:`Node` to the output; nothing else is kept, so a graph
lives exactly as long as the tensors that reach it.

The backward pass runs in one of two modes, and every rule serves both: ``backward(g, out=None)``.

* **Array mode** (first order, what training runs): ``g`` is an xp array and ``out`` is None; the rule
  returns xp arrays computed from the arrays its closure captured in the forward pass. Nothing is recorded,
  and each node's closure and saved tensors are released as soon as it has run.
* **Graph mode** (``create_graph=True``, as PyTorch calls it; what a nested ``value_and_grad`` asks for):
  ``g`` is a :class:`Tensor`, ``out`` is the op's output Tensor, and the rule builds its result from the
  engine's own recorded ops on the op's input Tensors, so the gradient is itself a graph that an outer
  differentiation walks (second derivatives, Hessian-vector products, ...). Nothing is released: the outer
  pass needs the forward graph again. Only the part of the graph that leads to the requested inputs runs.

Why one closure with two forms rather than one form written against a dispatch layer: the array form stays
exactly what it was (captured arrays, in-place writes, GPU kernels, buffers shared with the forward pass), so
training pays nothing for higher-order support; the graph form sits beside it in the same closure, and where
the two are the same expression it is written once (elementwise derivatives take the array or the Tensor
namespace as an argument; reshape, unbroadcast, matmul and friends work on both through operators and
methods). Linear ops with array-only kernels (gathers, scatters, pads, pools) use :func:`linear`: the VJP of
a linear map is its adjoint, whose VJP is the map again, so two array functions make an op differentiable to
any order; convolutions use the bilinear version, :class:`Bilinear`. A rule without a graph form cannot be
differentiated silently wrong: graph mode raises an error naming the op, a rule returning an array there is an
error too, and ``tests/backends/native/test_higher_order.py`` checks every ``record`` site statically.

:func:`grad` walks the graph without recursion (a chain of 100,000 ops is fine): it counts, for every
node, how many consumers will send it a gradient, then runs nodes in that (Kahn) order. Gradients of a
tensor used several times accumulate. A tensor saved for backward that was changed in place afterwards (its
version counter moved) makes backward raise instead of returning a wrong gradient.

Grad mode and the count of differentiations in progress are per thread (:class:`threading.local`): a thread
running inference under :class:`no_grad` does not turn recording off for a thread that trains.

>>> from highlevel.backends.native.tensor import Tensor
>>> import numpy as np
>>> x = Tensor(np.array([1.0, 2.0], np.float32), requires_grad=True)
>>> def backward(g, out=None):
...     return (2 * g * (x.data if out is None else x),)
>>> y = record(x.data * x.data, (x,), backward, saved=(x,))
>>> [g.tolist() for g in grad(y, [x], np.ones(2, np.float32))]
[[2.0, 4.0]]
>>> y = record(x.data * x.data, (x,), backward, saved=(x,))
>>> (gx,) = grad(y, [x], np.ones(2, np.float32), create_graph=True)   # a Tensor, itself differentiable
>>> [g.tolist() for g in grad(gx, [x], np.ones(2, np.float32))]
[[2.0, 2.0]]
"""

import functools
import inspect
import threading

from .tensor import DTYPE_NAMES, GRAD_DTYPES, Tensor
from .xp import xp


class _ThreadState(threading.local):
    """Per-thread autodiff state; the class attributes are every new thread's defaults."""

    #: whether ops record the graph (False inside no_grad)
    grad_enabled = True
    #: how many value_and_grad functions are running on this thread (their forward passes being recorded):
    #: a gradient taken while one is running must be built as a graph, so that the outer one can differentiate it
    differentiating = 0


_state = _ThreadState()


def is_grad_enabled():
    """Whether ops record the graph now on this thread (False inside :class:`no_grad`)."""
    return _state.grad_enabled


def set_grad_enabled(flag):
    """Turns graph recording on or off for this thread (what :class:`no_grad` does for a block)."""
    _state.grad_enabled = bool(flag)


class _GradMode:
    """Context manager and decorator that sets grad mode for a block and restores it afterwards."""

    _mode = True

    def __enter__(self):
        self._prev = _state.grad_enabled
        _state.grad_enabled = self._mode
        return self

    def __exit__(self, *exc):
        _state.grad_enabled = self._prev
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)():
                return fn(*args, **kwargs)

        return wrapper


class no_grad(_GradMode):  # noqa: N801 - named like torch.no_grad, which users know
    """Turns graph recording off on this thread: ops inside return tensors that do not require grad.

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


class differentiation:  # noqa: N801 - a context manager, used like no_grad
    """Marks a block whose ops are recorded to be differentiated (a ``value_and_grad`` function running).

    A gradient taken inside such a block, by a nested ``value_and_grad``, is built in graph mode so that
    the enclosing differentiation sees through it.
    """

    def __enter__(self):
        _state.differentiating += 1
        return self

    def __exit__(self, *exc):
        _state.differentiating -= 1
        return False


def in_differentiation():
    """Whether a differentiation (a ``value_and_grad`` function) is being recorded on this thread now."""
    return _state.differentiating > 0 and _state.grad_enabled


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
        backward: the op's VJP rule, ``backward(g, out=None) -> tuple`` with one entry per input (None for
            no gradient). In array mode ``g`` is an xp array shaped like ``data`` and the entries are xp
            arrays shaped like the inputs; in graph mode ``g`` is a Tensor, ``out`` the result Tensor, and
            the entries are Tensors computed with the engine's recorded ops (see the module docstring).
        saved: the input Tensors whose values ``backward`` reads; their version counters are checked
            before ``backward`` runs.
        name: the op's name for error messages (default: taken from ``backward``'s qualified name).

    Returns:
        The new Tensor.
    """
    out = Tensor(data)
    if _state.grad_enabled:
        for t in inputs:
            if t.requires_grad:
                break
        else:
            return out
        if out.data.dtype in GRAD_DTYPES:
            out._node = Node(backward, inputs, saved, tuple([s._version for s in saved]) if saved else (), name)
            out.requires_grad = True
    return out


def identity(x, name="identity"):
    """``x`` as a new tensor of the same values whose gradient flows to ``x`` (no copy of the data)."""

    def backward(g, out=None):
        return (g,)

    return record(x.data, (x,), backward, (), name)


def linear(x, fwd, adj, name, adj_name=None):
    """Records ``fwd(x)`` for a linear map ``fwd`` on xp arrays whose adjoint (transpose) is ``adj``.

    The VJP of a linear map is its adjoint applied to the cotangent; in graph mode that is recorded as
    ``linear(g, adj, fwd)``, whose own VJP is ``fwd`` again, so a gather, scatter, pad or pool written as two
    array functions is differentiable to any order.

    Args:
        x: the input Tensor.
        fwd: ``fwd(array) -> array``, linear.
        adj: ``adj(array) -> array``, the adjoint of ``fwd``: ``<fwd(a), b> == <a, adj(b)>``.
        name: the op's name; ``adj_name`` (default ``name + "_transpose"``) names the adjoint's node.

    >>> import numpy as np
    >>> x = Tensor(np.array([1.0, 2.0, 3.0]), requires_grad=True)
    >>> y = linear(x, lambda a: a[::-1] * 2.0, lambda b: b[::-1] * 2.0, "flip2")
    >>> grad(y, [x], np.array([1.0, 0.0, 0.0]))[0].tolist()
    [0.0, 0.0, 2.0]
    """

    def backward(g, out=None):
        if out is None:
            return (adj(g),)
        return (linear(g, adj, fwd, adj_name or name + "_transpose", name),)

    return record(fwd(x.data), (x,), backward, (), name)


class Bilinear:
    """Three bilinear maps on xp arrays, closed under VJPs, as recorded ops: the shape of a convolution.

    ``forward(x, w)`` is the op (a convolution), ``input_grad(g, w)`` its VJP with respect to ``x`` and
    ``kernel_grad(x, g)`` its VJP with respect to ``w``. From ``<forward(x, w), g> = <x, input_grad(g, w)> =
    <w, kernel_grad(x, g)>`` each map's VJPs are two of the three maps again, so recording them with
    :meth:`apply` makes the op differentiable to any order (a transposed convolution is ``input_grad``).

    A matrix product is the smallest such family:

    >>> import numpy as np
    >>> mm = Bilinear("mm", lambda x, w: x @ w, lambda g, w: g @ w.T, lambda x, g: x.T @ g)
    >>> x = Tensor(np.array([[1.0, 2.0]]), requires_grad=True)
    >>> w = Tensor(np.array([[3.0], [4.0]]), requires_grad=True)
    >>> gx, gw = grad(mm.apply("forward", x, w), [x, w], np.ones((1, 1)), create_graph=True)
    >>> [t.tolist() for t in grad(gx, [w], np.ones((1, 2)))]   # d/dw sum(w.T): ones
    [[[1.0], [1.0]]]
    """

    def __init__(self, name, forward, input_grad, kernel_grad):
        self.name = name
        self.maps = {"forward": forward, "input_grad": input_grad, "kernel_grad": kernel_grad}

    def apply(self, kind, p, q):
        """Records ``maps[kind](p, q)`` on Tensors ``p`` and ``q``."""
        fns = self.maps

        def backward(u, out=None):
            # u is the cotangent of this map's result; see the identities in the class docstring. Array mode
            # runs the maps on arrays, graph mode records them.
            run = self.apply if out is not None else (lambda k, a, b: fns[k](_array(a), _array(b)))
            if kind == "forward":  # p = x, q = w
                return (
                    run("input_grad", u, q) if p.requires_grad else None,
                    run("kernel_grad", p, u) if q.requires_grad else None,
                )
            if kind == "input_grad":  # p = g, q = w; u is shaped like x
                return (
                    run("forward", u, q) if p.requires_grad else None,
                    run("kernel_grad", u, p) if q.requires_grad else None,
                )
            # kernel_grad: p = x, q = g; u is shaped like w
            return (
                run("input_grad", q, u) if p.requires_grad else None,
                run("forward", p, u) if q.requires_grad else None,
            )

        return record(fns[kind](p.data, q.data), (p, q), backward, (p, q), f"{self.name}_{kind}")


def _array(v):
    return v.data if v.__class__ is Tensor else v


def unbroadcast(g, shape):
    """Sums ``g`` down to ``shape``, undoing numpy broadcasting (the VJP of a broadcast).

    Works on xp arrays and, through the same methods, on Tensors (recorded, in graph mode).
    """
    if g.shape == shape:
        return g
    extra = g.ndim - len(shape)
    if extra > 0:
        g = g.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    return g.reshape(shape)


def _astype(g, dtype):
    """A gradient array in its input's dtype; a complex gradient of a real input keeps its real part (the
    cotangent of a real value embedded in the complex plane)."""
    if g.dtype.kind == "c" and dtype.kind != "c":
        g = g.real
    return g.astype(dtype)


def _check_versions(node):
    for t, v in zip(node.saved, node.versions):
        if t._version != v:
            raise RuntimeError(
                f"A tensor saved for backward by op '{node.name}' was modified in place after it was "
                f"saved: it was at version {v} when saved and is now at version {t._version}. Backward "
                "would compute a wrong gradient. Do the in-place update (variable assign, add_, ...) after "
                "backward, or work on a copy."
            )


def _released_error():
    return RuntimeError(
        "Trying to run backward through a part of the graph that has already been run and released "
        "(its buffers are freed after the first backward). Recompute the forward pass to "
        "differentiate again."
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
            raise _released_error()
        for inp in node.inputs:
            if inp.requires_grad and inp._node is not None:
                pending[inp] = pending.get(inp, 0) + 1
                if inp not in seen:
                    seen.add(inp)
                    stack.append(inp)
    return pending


def backward(outputs, grad_outputs=None, inputs=None, accumulate=True):
    """Runs the backward pass from ``outputs`` in array mode (first order).

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
                    f"The backward of op '{node.name}' returned {len(results)} gradients for {len(node.inputs)} inputs."
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
                    gi = _astype(gi, inp.data.dtype)
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


def grad(outputs, inputs, grad_outputs=None, create_graph=False):
    """The gradients of ``outputs`` with respect to ``inputs``.

    Leaves' ``.grad`` is left untouched (unlike :meth:`Tensor.backward`).

    Args:
        outputs: a Tensor or a list of Tensors.
        inputs: the Tensors to differentiate with respect to (leaves or intermediate results).
        grad_outputs: the output gradients (xp arrays or Tensors; None: ones, for scalar outputs).
        create_graph: False: array mode, a list of xp arrays (or None), and the graph is released.
            True: graph mode, a list of Tensors (or None) recorded as functions of the graph's tensors when
            grad mode is on, so they can be differentiated again; the graph is kept.
    """
    if create_graph:
        return _grad_graph(outputs, inputs, grad_outputs)
    return backward(outputs, grad_outputs, inputs=inputs, accumulate=False)


# ------------------------------------------------------------------------------------------- graph mode
def _takes_output(fn):
    """Whether a backward rule has a graph form (accepts ``(g, out)``)."""
    try:
        inspect.signature(fn).bind(None, None)
    except (TypeError, ValueError):
        return False
    return True


def _useful(roots, wanted):
    """For every tensor reachable from ``roots``: whether a ``wanted`` tensor is reachable from it.

    Post-order depth-first search with an explicit stack (no recursion limit). Only nodes on a path to a
    wanted tensor run in graph mode: the rest of the graph (an outer differentiation's part, say) is neither
    computed nor touched.
    """
    useful = {}
    kids = {}
    stack = []

    def push(t):
        node = t._node
        if node is None:
            ch = ()
        else:
            if node.backward is None:
                raise _released_error()
            ch = tuple(i for i in node.inputs if i.requires_grad)
        kids[t] = ch
        stack.append((t, iter(ch)))

    for r in roots:
        if r not in kids:
            push(r)
        while stack:
            t, it = stack[-1]
            for c in it:
                if c not in kids:
                    push(c)
                    break
            else:
                stack.pop()
                useful[t] = t in wanted or any(useful[c] for c in kids[t])
    return useful, kids


def _as_gradient_tensor(g, like):
    if g.__class__ is Tensor:
        return g
    return Tensor(xp.asarray(g, dtype=like.data.dtype))


def _grad_graph(outputs, inputs, grad_outputs):
    """:func:`grad` in graph mode: rules run on Tensors and record (see the module docstring)."""
    from .ops_math import cast  # the op modules import this one

    if isinstance(outputs, Tensor):
        outputs = [outputs]
        grad_outputs = [grad_outputs]
    elif grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    inputs = list(inputs)
    wanted = dict.fromkeys(inputs)
    grads = {}
    for out, g in zip(outputs, grad_outputs):
        if not out.requires_grad:
            continue
        if g is None:
            if out.data.size != 1:
                raise RuntimeError(
                    f"grad needs an output gradient for a non-scalar output of shape {out.shape}; "
                    "reduce it to a scalar first (e.g. with sum) or pass grad_outputs."
                )
            g = Tensor(xp.ones(out.data.shape, out.data.dtype))
        else:
            g = _as_gradient_tensor(g, out)
        grads[out] = grads[out] + g if out in grads else g
    roots = [t for t in grads]
    useful, kids = _useful(roots, wanted)
    pending = {}
    for t, ch in kids.items():
        if useful[t]:
            for c in ch:
                if useful[c]:
                    pending[c] = pending.get(c, 0) + 1
    ready = [t for t in roots if useful[t] and pending.get(t, 0) == 0]
    while ready:
        t = ready.pop()
        g = grads.pop(t, None)
        if g is not None and t in wanted:
            prev = wanted[t]
            wanted[t] = g if prev is None else prev + g
        node = t._node
        if node is None:
            continue
        ch = kids[t]
        if g is not None and any(useful[c] for c in ch):
            name = node.name
            if not _takes_output(node.backward):
                raise RuntimeError(
                    f"The gradient of op '{name}' cannot be differentiated again: its backward rule has no graph "
                    "form (backward(g, out)). Higher-order derivatives through this op are not supported; "
                    "take a first-order gradient only, or write the op from differentiable ops."
                )
            if node.saved:
                _check_versions(node)
            results = node.backward(g, t)
            if len(results) != len(node.inputs):
                raise RuntimeError(
                    f"The backward of op '{name}' returned {len(results)} gradients for {len(node.inputs)} inputs."
                )
            for inp, gi in zip(node.inputs, results):
                if gi is None or not inp.requires_grad or not useful[inp]:
                    continue
                if gi.__class__ is not Tensor:
                    raise RuntimeError(
                        f"The backward of op '{name}' returned a {type(gi).__name__} in graph mode; it must return "
                        "Tensors built with the engine's ops (an array would be a constant: a silently wrong "
                        "higher-order gradient)."
                    )
                if gi.data.shape != inp.data.shape:
                    raise RuntimeError(
                        f"The backward of op '{name}' returned a gradient of shape {gi.data.shape} for an input "
                        f"of shape {inp.data.shape}."
                    )
                if gi.data.dtype != inp.data.dtype:
                    gi = cast(gi, DTYPE_NAMES[inp.data.dtype])
                prev = grads.get(inp)
                grads[inp] = gi if prev is None else prev + gi
        del g
        for c in ch:
            if useful[c]:
                n = pending[c] - 1
                pending[c] = n
                if n == 0:
                    ready.append(c)
    return [wanted[t] for t in inputs]
