"""The native engine's compiled steps: a step is recorded once, then replayed without the front end.

A training step written on ``hl.ops`` spends most of its time on the native engine in Python that does not
compute anything: layer ``__call__`` machinery, input checks, dispatch from ``hl.ops`` to the engine, loss
and metric bookkeeping, the optimizer's Python loop. ``jax.jit`` removes that cost by tracing the step once;
this module does the same for the native engine, the define-by-run way:

* **Recording.** The first call of a step runs it for real while every call it makes into the engine (each
  backend method, each operator on a native :class:`Tensor`) is logged with where its tensor arguments came
  from: an input of the step, the output of an earlier call, a variable, or a constant. The recording call
  is an ordinary training step: its results are the step's results.
* **Replay.** Later calls with inputs of the same structure, shapes and dtypes run only the logged engine
  calls, in order, on the new inputs. The autodiff graph is still built and walked by the engine (so
  gradients are exactly the eager ones), but nothing of the front end runs.

The rules are those of ``jax.jit``, since a replay does not run the step's Python code: Python side effects
happen once, at recording, and a value read on the host (``float(t)``, ``t.numpy()``, ``if t: ...``)
would be frozen into the replay. So host reads of step values are refused while recording (code that checks
values only when they are concrete, as the losses' label checks do, then takes the path it takes under
``jax.jit``), and a recording that reads a value on the host anyway, creates a variable, or passes a Python
function to the engine (``scan``, custom gradients: the function could capture values of the step) gives
up: the variables are put back as they were before the step and the step runs eagerly from then on.

>>> import numpy as np
>>> from highlevel.backends.native.backend import NativeBackend
>>> from highlevel.backends.contract import Variable
>>> b = NativeBackend()
>>> w = Variable(np.float32(2.0), backend=b)
>>> def step(x):
...     w.assign(b.add(w.value, b.sum(x)))
...     return b.multiply(w.value, 10.0)
>>> compiled = compile_replay(b, step, [w])
>>> float(compiled(b.convert_to_tensor([1.0, 2.0])))   # recorded: w = 2 + 3
50.0
>>> float(compiled(b.convert_to_tensor([0.5, 0.5])))   # replayed: w = 5 + 1
60.0
"""

import functools
import threading
import warnings

import numpy as np

from highlevel.backends.contract import Variable
from highlevel.backends.contract.variable import _scopes

from . import autograd
from .tensor import Tensor

#: How many input signatures (shapes, dtypes, structure) a step keeps a recording for; past that it runs
#: eagerly (a step fed ever-changing shapes would otherwise record on every call).
MAX_RECORDINGS = 8

# Engine methods that are not ops, or whose calls must not be logged.
_NOT_WRAPPED = frozenset({"compile_step", "variables_value_and_grad"})
# Methods that hand tensor values to the host.
_HOST_READS = frozenset({"to_numpy", "convert_to_numpy"})
# Methods whose call during a recording makes the step unreplayable.
_FORBIDDEN = frozenset({"make_variable_handle", "value_and_grad"})
# Calls that change state through their arguments (besides those seen assigning a variable or updating a
# tensor in place while they run): never folded into constants, never dropped.
_MUTATING = frozenset({"assign_variable"})
_INPLACE = frozenset({"assign_", "add_", "sub_", "mul_", "div_", "zero_"})

# Tensor methods that make new tensors or change one: logged like engine calls.
_TENSOR_OPS = (
    "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
    "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__", "__matmul__", "__rmatmul__",
    "__neg__", "__abs__", "__invert__", "__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__",
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__getitem__", "astype", "reshape", "sum", "mean",
    "detach", "assign_", "add_", "sub_", "mul_", "div_", "zero_",
)
# Tensor methods that read values on the host.
_TENSOR_HOST_READS = ("numpy", "__array__", "item", "tolist", "__bool__", "__float__", "__int__", "__index__")

_CONST_TYPES = (type(None), bool, int, float, complex, str, bytes, slice, type(Ellipsis), np.generic, np.dtype,
                type)


class NotReplayable(Exception):
    """A step did something during its recording that a replay could not repeat faithfully."""


class HostReadError(NotReplayable, TypeError):
    """A step read a tensor's values on the host while it was being recorded."""


class _Slot:
    """A reference, in a logged call, to a tensor the replay computes (an input or an earlier call's output)."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


class _Recorder:
    """Logs the engine calls of one run of a step (see the module docstring)."""

    def __init__(self, backend):
        self.backend = backend
        self.thread = threading.get_ident()
        self.depth = 0
        self.entries = []  # callables env -> None, run in order by the replay
        self.slot_of = {}  # id(tensor or input array) -> slot index
        self.const_ids = set()  # ids of tensors the recording made from constants only
        self.unknown = {}  # id -> tensor made at the step's level outside any engine call
        self.born = set()  # ids of every tensor made while recording (the others existed before the step)
        self.mutations = 0  # variable assignments and in-place tensor updates so far
        self.keep = []  # every object whose id is a key above, kept alive so that ids stay unique
        self.n_slots = 0

    # ------------------------------------------------------------ classification
    def new_slot(self, obj):
        k = self.n_slots
        self.n_slots += 1
        self.slot_of[id(obj)] = k
        self.keep.append(obj)
        return k

    def template(self, node, info):
        """``node`` with every computed tensor replaced by a :class:`_Slot`; ``info`` collects what it holds."""
        if isinstance(node, Tensor):
            k = self.slot_of.get(id(node))
            if k is not None:
                info["slots"] = True
                return _Slot(k)
            if id(node) in self.const_ids:
                return node
            if id(node) in self.unknown:
                raise NotReplayable("a tensor was made outside the engine's ops while the step was recorded")
            info["live"] = True  # a tensor from before the step (a variable's handle): read when replayed
            return node
        if isinstance(node, np.ndarray):
            k = self.slot_of.get(id(node))
            if k is not None:  # an input of the step given as a numpy array
                info["slots"] = True
                return _Slot(k)
            return node
        if isinstance(node, Variable):
            # Inside a stateless scope (autocasting, a guarded optimizer step) a variable reads as the value the
            # scope maps it to: the replay passes that value, as the call received it.
            stack = _scopes.stack
            if stack:
                key = id(node)
                for scope in reversed(stack):
                    mapped = scope.values.get(key)
                    if mapped is not None:
                        return self.template(mapped, info)
            info["live"] = info["variables"] = True
            return node
        if isinstance(node, (list, tuple)) and type(node) in (list, tuple):
            return type(node)(self.template(n, info) for n in node)
        if isinstance(node, dict) and type(node) is dict:
            return {k: self.template(v, info) for k, v in node.items()}
        if isinstance(node, _CONST_TYPES):
            return node
        if callable(node):
            raise NotReplayable(f"a Python function ({getattr(node, '__name__', type(node).__name__)}) was "
                                "passed to an engine op; it could capture values of the step")
        raise NotReplayable(f"an engine op received an argument of type {type(node).__name__}")

    def outputs(self, out, info):
        """Gives every new tensor in ``out`` a slot; returns ``[(path, slot)]`` to store them when replayed."""
        found = []

        def walk(node, path):
            if isinstance(node, Tensor):
                i = id(node)
                if i in self.slot_of or i in self.const_ids or i not in self.born:
                    return  # an existing tensor handed back (convert_to_tensor of a tensor, a variable's handle)
                if i in self.unknown:  # made at depth 0 by an engine call: an output after all
                    del self.unknown[i]
                if info.get("const"):
                    self.const_ids.add(i)
                    self.keep.append(node)
                else:
                    found.append((path, self.new_slot(node)))
            elif isinstance(node, (list, tuple)) and type(node) in (list, tuple):
                for j, n in enumerate(node):
                    walk(n, path + (j,))
            elif isinstance(node, dict) and type(node) is dict:
                for k, n in node.items():
                    walk(n, path + (k,))

        walk(out, ())
        return found

    # ------------------------------------------------------------------- logging
    def call(self, fn, name, args, kwargs):
        """Runs an engine call made by the step itself and logs it."""
        if name in _FORBIDDEN:
            raise NotReplayable(f"the step called {name}() (a variable created or a gradient of a Python "
                                "function taken inside the step)")
        info = {}
        tmpl_args = self.template(args, info)
        tmpl_kwargs = self.template(kwargs, info)
        if name in _HOST_READS and (info.get("slots") or info.get("live")):
            raise HostReadError(f"{name}() read a value of the step on the host while the step was being "
                                "recorded")
        mutations = self.mutations
        scopes = list(_scopes.stack)
        assigned = [len(scope.assigned) for scope in scopes]
        self.depth += 1
        try:
            out = fn(*args, **kwargs)
        finally:
            self.depth -= 1
        if any(len(scope.assigned) != n for scope, n in zip(scopes, assigned)):
            # It wrote variables into a stateless scope's table, which exists only while the step's Python runs.
            raise NotReplayable(f"{name}() assigned variables inside a stateless scope")
        # A call handed a variable may write it (the fused optimizer updates replace buffers directly).
        mutated = self.mutations != mutations or name in _MUTATING or info.get("variables", False)
        info["const"] = not info.get("slots") and not info.get("live") and not mutated
        stores = self.outputs(out, info)
        # A call that made no new tensor and changed nothing (a shape query, convert_to_tensor of a tensor,
        # reading a variable's handle) has nothing to replay.
        if stores or mutated:
            self.entries.append(("call", fn, tmpl_args, tmpl_kwargs, stores))
        return out

    def grad_region(self, backend, fn, variables):
        """Logs ``variables_value_and_grad``: the loss's ops with recording on, then the backward pass."""
        if _scopes.stack:
            raise NotReplayable("the step ran inside a stateless scope")
        variables = list(variables)
        self.entries.append(("grad_on",))
        with autograd.enable_grad():
            value, aux = fn()
        info = {}
        value_t, aux_t = self.template(value, info), self.template(aux, info)
        self.depth += 1
        try:
            out = backend._finish_value_and_grad(value, aux, variables)
        finally:
            self.depth -= 1
        stores = self.outputs(out, {})
        self.entries.append(("grad_end", backend._finish_value_and_grad, value_t, aux_t, variables, stores))
        return out


def _has_slot(tmpl):
    if isinstance(tmpl, _Slot):
        return True
    if isinstance(tmpl, (list, tuple)):
        return any(_has_slot(t) for t in tmpl)
    if isinstance(tmpl, dict):
        return any(_has_slot(t) for t in tmpl.values())
    return False


class _Codegen:
    """Writes a recording as the source of one Python function: a straight line of engine calls on locals.

    Slot ``k`` is the local ``s<k>``; every other argument is a constant of the function's namespace. A local is
    deleted right after its last use, so that buffers are freed as early as the eager step frees them.
    """

    def __init__(self):
        self.namespace = {"_ag": autograd}
        self.names = {}  # id(constant) -> its name in the namespace

    def const(self, obj):
        name = self.names.get(id(obj))
        if name is None:
            name = self.names[id(obj)] = f"c{len(self.names)}"
            self.namespace[name] = obj
        return name

    def expr(self, tmpl, used):
        if isinstance(tmpl, _Slot):
            used.add(tmpl.index)
            return f"s{tmpl.index}"
        if not _has_slot(tmpl):
            return self.const(tmpl)
        if isinstance(tmpl, list):
            return "[" + ", ".join(self.expr(t, used) for t in tmpl) + "]"
        if isinstance(tmpl, tuple):
            return "(" + "".join(self.expr(t, used) + ", " for t in tmpl) + ")"
        return "{" + ", ".join(f"{self.const(k)}: {self.expr(v, used)}" for k, v in tmpl.items()) + "}"

    def call(self, fn, args, kwargs, used):
        parts = [self.expr(a, used) for a in args]
        for k, v in kwargs.items():
            parts.append(f"{k}={self.expr(v, used)}" if k.isidentifier() else f"**{{{k!r}: {self.expr(v, used)}}}")
        return f"{self.const(fn)}({', '.join(parts)})"

    def stores(self, call, stores):
        if not stores:
            return [call], set()
        if len(stores) == 1 and stores[0][0] == ():
            return [f"s{stores[0][1]} = {call}"], {stores[0][1]}
        lines = [f"_o = {call}"]
        for path, k in stores:
            lines.append(f"s{k} = _o" + "".join(f"[{self.const(p)}]" for p in path))
        return lines, {k for _, k in stores}


def _generate(entries, input_slots, out_tmpl):
    """The source and namespace of ``program(leaves)``, which runs ``entries`` on the step's input leaves."""
    gen = _Codegen()
    statements = []  # (lines, slots used, slots defined)
    for entry in entries:
        used = set()
        if entry[0] == "grad_on":
            statements.append((["_ag._grad_enabled = True"], used, set()))
        elif entry[0] == "grad_end":
            _, finish, value_t, aux_t, variables, stores = entry
            call = (f"{gen.const(finish)}({gen.expr(value_t, used)}, {gen.expr(aux_t, used)}, "
                    f"{gen.const(variables)})")
            lines, defined = gen.stores(call, stores)
            statements.append((["_ag._grad_enabled = False"] + lines, used, defined))
        else:
            _, fn, args, kwargs, stores = entry
            lines, defined = gen.stores(gen.call(fn, args, kwargs, used), stores)
            statements.append((lines, used, defined))
    out_used = set()
    out_expr = gen.expr(out_tmpl, out_used)
    last = {}
    for i, (_, used, defined) in enumerate(statements):
        for k in used | defined:
            last[k] = i
    body = [f"s{k} = leaves[{i}]" for i, k in enumerate(input_slots) if k is not None]
    for i, (lines, _, _) in enumerate(statements):
        body.extend(lines)
        dead = sorted(k for k, j in last.items() if j == i and k not in out_used)
        if dead:
            body.append("del " + ", ".join(f"s{k}" for k in dead))
    src = ["def program(leaves):", "    _prev = _ag._grad_enabled", "    try:"]
    src += ["        " + line for line in body or ["pass"]]
    src += ["    finally:", "        _ag._grad_enabled = _prev", f"    return {out_expr}"]
    return "\n".join(src) + "\n", gen.namespace


# ----------------------------------------------------------------- patching the engine while recording
_active = threading.local()


def _wrap_method(rec, name, fn):
    counts = name in _MUTATING

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if threading.get_ident() != rec.thread:
            return fn(*args, **kwargs)
        if counts:
            rec.mutations += 1
        if rec.depth:
            return fn(*args, **kwargs)
        return rec.call(fn, name, args, kwargs)

    return wrapper


def _wrap_tensor_op(rec, name, fn):
    counts = name in _INPLACE

    def wrapper(*args, **kwargs):
        if threading.get_ident() != rec.thread:
            return fn(*args, **kwargs)
        if counts:
            rec.mutations += 1
        if rec.depth:
            return fn(*args, **kwargs)
        return rec.call(fn, name, args, kwargs)

    wrapper.__name__ = name
    return wrapper


def _wrap_host_read(rec, name, fn):
    def wrapper(self, *args, **kwargs):
        if rec.depth == 0 and threading.get_ident() == rec.thread and id(self) not in rec.const_ids:
            raise HostReadError(
                f"Tensor.{name}() read a value of the step on the host while the step was being recorded for "
                "replay (as under jax.jit, a replayed step does not run its Python code again)")
        return fn(self, *args, **kwargs)

    wrapper.__name__ = name
    return wrapper


class _Patched:
    """Routes the engine's methods and the Tensor class's operators through a recorder, then restores them."""

    def __init__(self, rec):
        self.rec = rec
        self.saved_tensor = {}
        self.names = []

    def __enter__(self):
        rec, backend = self.rec, self.rec.backend
        for name in dir(type(backend)):
            if name.startswith("_") or name in _NOT_WRAPPED:
                continue
            attr = getattr(type(backend), name)
            if isinstance(attr, type) or not callable(attr):
                continue
            backend.__dict__[name] = _wrap_method(rec, name, getattr(backend, name))
            self.names.append(name)
        vvg = functools.partial(rec.grad_region, backend)
        backend.__dict__["variables_value_and_grad"] = lambda fn, variables: (
            vvg(fn, variables) if rec.depth == 0 and threading.get_ident() == rec.thread
            else type(backend).variables_value_and_grad(backend, fn, variables))
        self.names.append("variables_value_and_grad")

        for name in _TENSOR_OPS:
            orig = Tensor.__dict__[name]
            self.saved_tensor[name] = orig
            setattr(Tensor, name, _wrap_tensor_op(rec, name, orig))
        for name in _TENSOR_HOST_READS:
            orig = Tensor.__dict__[name]
            self.saved_tensor[name] = orig
            setattr(Tensor, name, _wrap_host_read(rec, name, orig))
        t_prop = Tensor.__dict__["T"]
        self.saved_tensor["T"] = t_prop
        t_op = _wrap_tensor_op(rec, "T", t_prop.fget)
        Tensor.T = property(t_op)
        self.saved_tensor["__iter__"] = Tensor.__dict__["__iter__"]

        def iterate(self_):
            if self_.data.ndim == 0:
                raise TypeError("iteration over a 0-d tensor")
            for i in range(self_.data.shape[0]):
                yield self_[i]

        Tensor.__iter__ = iterate
        orig_init = Tensor.__init__
        self.saved_tensor["__init__"] = orig_init

        def init(self_, data, requires_grad=False):
            orig_init(self_, data, requires_grad)
            if threading.get_ident() == rec.thread:
                rec.born.add(id(self_))
                if rec.depth == 0:
                    rec.unknown[id(self_)] = self_

        Tensor.__init__ = init
        return self

    def __exit__(self, *exc):
        backend = self.rec.backend
        for name in self.names:
            backend.__dict__.pop(name, None)
        for name, orig in self.saved_tensor.items():
            setattr(Tensor, name, orig)
        return False


# ----------------------------------------------------------------------------------------- the step
def _signature(leaves):
    sig = []
    for leaf in leaves:
        if isinstance(leaf, Tensor):
            sig.append(("t", leaf.data.shape, leaf.data.dtype))
        elif isinstance(leaf, np.ndarray):
            sig.append(("a", leaf.shape, leaf.dtype))
        elif isinstance(leaf, _CONST_TYPES):
            sig.append(("c", type(leaf), leaf))
        else:
            return None  # an input we cannot key on: run eagerly
    return tuple(sig)


def _flatten(node, leaves):
    if isinstance(node, (list, tuple)) and type(node) in (list, tuple):
        return (type(node), [_flatten(n, leaves) for n in node])
    if isinstance(node, dict) and type(node) is dict:
        keys = list(node)
        return (dict, keys, [_flatten(node[k], leaves) for k in keys])
    leaves.append(node)
    return None


class _Recording:
    """A replayable program: the logged calls as one generated Python function (see :class:`_Codegen`)."""

    def __init__(self, rec, input_slots, out_tmpl):
        self.source, namespace = _generate(rec.entries, input_slots, out_tmpl)
        exec(compile(self.source, "<highlevel native replay>", "exec"), namespace)  # noqa: S102 - our own code
        self.run = namespace["program"]
        self.ops = [getattr(e[1], "__name__", "?") if e[0] == "call" else e[0] for e in rec.entries]


def compile_replay(backend, fn, state_variables, *, warn=True):
    """``fn`` as a step that is recorded on its first call for each input signature and replayed after.

    Args:
        backend: the native backend instance.
        fn: the step; it reads and assigns ``state_variables`` through the engine.
        state_variables: the variables the step may assign (put back as they were if a recording gives up).
        warn: warn when a recording gives up and the step falls back to running eagerly.

    Returns:
        A callable with ``fn``'s signature; it runs with graph recording off outside the step's gradient.
    """
    state_variables = list(state_variables)
    recordings = {}
    eager = []  # set (non-empty) once a recording gave up: the step then always runs eagerly

    def run_eager(args, kwargs):
        with autograd.no_grad():
            return fn(*args, **kwargs)

    def record(args, kwargs, leaves, sig):
        rec = _Recorder(backend)
        input_slots = []
        for leaf in leaves:
            input_slots.append(rec.new_slot(leaf) if isinstance(leaf, (Tensor, np.ndarray)) else None)
        snapshot = [(v.handle, v.handle.data, v.handle._version) for v in state_variables]
        try:
            with autograd.no_grad(), _Patched(rec):
                out = fn(*args, **kwargs)
                info = {}
                out_t = rec.template(out, info)
        except NotReplayable as e:
            for handle, data, version in snapshot:
                handle.data, handle._version = data, version
            eager.append(str(e))
            if warn:
                warnings.warn(f"The native engine could not compile this step ({e}); it runs eagerly instead. "
                              "Compile with jit_compile=False to choose eager steps and silence this warning.",
                              RuntimeWarning, stacklevel=4)
            return run_eager(args, kwargs)
        recordings[sig] = _Recording(rec, input_slots, out_t)
        return out

    @functools.wraps(fn)
    def step(*args, **kwargs):
        if eager or getattr(_active, "recording", False):
            return run_eager(args, kwargs)
        leaves = []
        _flatten((args, kwargs), leaves)
        sig = _signature(leaves)
        if sig is None:
            return run_eager(args, kwargs)
        program = recordings.get(sig)
        if program is not None:
            with autograd.no_grad():
                return program.run(leaves)
        if len(recordings) >= MAX_RECORDINGS:
            return run_eager(args, kwargs)
        _active.recording = True
        try:
            return record(args, kwargs, leaves, sig)
        finally:
            _active.recording = False

    step.recordings = recordings  # for tests and debugging: signature -> recording
    step.fallback_reasons = eager
    return step
