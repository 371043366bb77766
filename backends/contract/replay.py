"""Compiled steps for eager engines: a step is recorded once, then replayed without the front end.

A training step written on ``hl.ops`` spends most of its time on an eager engine in Python that does not
compute anything: layer ``__call__`` machinery, input checks, dispatch from ``hl.ops`` to the engine, loss
and metric bookkeeping, the optimizer's Python loop. ``jax.jit`` removes that cost by tracing the step once;
this module does the same for the eager engines (native, PyTorch), the define-by-run way:

* **Recording.** The first call of a step runs it for real while every call it makes into the engine (each
  backend method, and each operation on the engine's tensors made at the step's own level) is logged with
  where its tensor arguments came from: an input of the step, the output of an earlier call, a variable, or a
  constant. The recording call is an ordinary training step: its results are the step's results.
* **Replay.** Later calls with inputs of the same structure, shapes and dtypes run the logged engine calls, in
  order, on the new inputs, as one generated Python function. The engine still builds and walks its autodiff
  graph (so gradients are exactly the eager ones), but nothing of the front end runs.

The rules are those of ``jax.jit``, since a replay does not run the step's Python code: Python side effects
happen once, at recording, and a value read on the host (``float(t)``, ``t.numpy()``, ``if t: ...``)
would be frozen into the replay. So host reads of step values are refused while recording (code that checks
values only when they are concrete, as the losses' label checks do, then takes the path it takes under
``jax.jit``), and a recording that reads a value on the host anyway, creates a variable, passes a Python
function to the engine (``scan``, custom gradients: the function could capture values of the step) or writes
variables into a stateless scope gives up: the variables are put back as they were before the step and the
step runs eagerly from then on.

Each engine supplies an :class:`Engine`: how it routes its calls through a recorder, how its grad mode is
switched, how its variables are snapshot. See ``backends/native/replay.py`` and ``backends/torch/replay.py``.
"""

import abc
import functools
import threading
import warnings

import numpy as np

from .variable import Variable, _scopes

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
# tensor in place while they run, and those handed a variable): never folded into constants, never dropped.
_MUTATING = frozenset({"assign_variable", "assign_add_variable", "check_index_range"})

_CONST_TYPES = (type(None), bool, int, float, complex, str, bytes, slice, type(Ellipsis), np.generic, np.dtype, type)


class NotReplayable(Exception):
    """A step did something during its recording that a replay could not repeat faithfully."""


class HostReadError(NotReplayable, TypeError):
    """A step read a tensor's values on the host while it was being recorded."""


class _Slot:
    """A reference, in a logged call, to a tensor the replay computes (an input or an earlier call's output)."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


class Engine(abc.ABC):
    """What a recording needs to know about an eager engine. Subclasses fill in the engine's specifics."""

    #: the engine's tensor classes
    tensor_types = ()

    @abc.abstractmethod
    def patched(self, rec):
        """A context manager that routes the engine's calls through ``rec`` (see :meth:`Recorder.call`):
        every backend method (:func:`wrap_backend_methods`) and every operation on the engine's tensors."""

    def made_while_recording(self, rec, tensor):
        """Whether ``tensor`` is new (made during the recording) rather than one that existed before."""
        return True

    @abc.abstractmethod
    def grad_enabled(self, flag):
        """A context manager setting the engine's grad mode."""

    @abc.abstractmethod
    def set_grad_enabled(self, flag):
        """Turns the engine's grad mode on or off (for the generated code)."""

    @abc.abstractmethod
    def is_grad_enabled(self):
        """The engine's grad mode now."""

    @abc.abstractmethod
    def snapshot(self, variables):
        """Saves the variables' values; returns a function that puts them back."""

    @abc.abstractmethod
    def signature(self, tensor):
        """What a recording is keyed on for an input tensor (its shape, dtype, device...)."""

    def run_eager(self, fn, args, kwargs):
        """Runs the step without recording (the compiled step's eager fallback)."""
        return fn(*args, **kwargs)

    def finish(self, program):
        """The generated program as the replay runs it: itself, or handed to the engine's own compiler."""
        return program


class Recorder:
    """Logs the engine calls of one run of a step (see the module docstring)."""

    def __init__(self, backend, engine):
        self.backend = backend
        self.engine = engine
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
        if isinstance(node, self.engine.tensor_types):
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
            raise NotReplayable(
                f"a Python function ({getattr(node, '__name__', type(node).__name__)}) was "
                "passed to an engine op; it could capture values of the step"
            )
        raise NotReplayable(f"an engine op received an argument of type {type(node).__name__}")

    def outputs(self, out, info):
        """Gives every new tensor in ``out`` a slot; returns ``[(path, slot)]`` to store them when replayed."""
        found = []

        def walk(node, path):
            if isinstance(node, self.engine.tensor_types):
                i = id(node)
                if i in self.slot_of or i in self.const_ids or not self.engine.made_while_recording(self, node):
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
            raise NotReplayable(
                f"the step called {name}() (a variable created or a gradient of a Python "
                "function taken inside the step)"
            )
        info = {}
        tmpl_args = self.template(args, info)
        tmpl_kwargs = self.template(kwargs, info)
        if name in _HOST_READS and (info.get("slots") or info.get("live")):
            raise HostReadError(f"{name}() read a value of the step on the host while the step was being recorded")
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
        with self.engine.grad_enabled(True):
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
        self.namespace = {}
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
        lines.append("del _o")  # the pieces live in their locals, each freed after its last use
        return lines, {k for _, k in stores}


def _generate(entries, input_slots, out_tmpl, engine):
    """The source and namespace of ``program(leaves)``, which runs ``entries`` on the step's input leaves."""
    gen = _Codegen()
    gen.namespace["_set_grad"], gen.namespace["_get_grad"] = engine.set_grad_enabled, engine.is_grad_enabled
    statements = []  # (lines, slots used, slots defined)
    for entry in entries:
        used = set()
        if entry[0] == "grad_on":
            statements.append((["_set_grad(True)"], used, set()))
        elif entry[0] == "grad_end":
            _, finish, value_t, aux_t, variables, stores = entry
            call = f"{gen.const(finish)}({gen.expr(value_t, used)}, {gen.expr(aux_t, used)}, {gen.const(variables)})"
            lines, defined = gen.stores(call, stores)
            statements.append((["_set_grad(False)"] + lines, used, defined))
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
    src = ["def program(leaves):", "    _prev = _get_grad()", "    try:"]
    src += ["        " + line for line in body or ["pass"]]
    src += ["    finally:", "        _set_grad(_prev)", f"    return {out_expr}"]
    return "\n".join(src) + "\n", gen.namespace


def wrap_call(rec, name, fn, mutates=False):
    """``fn`` routed through ``rec``: logged when the step itself calls it (not from inside another engine
    call, not from another thread); ``mutates`` counts every call as a write (see :meth:`Recorder.call`)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if threading.get_ident() != rec.thread:
            return fn(*args, **kwargs)
        if mutates:
            rec.mutations += 1
        if rec.depth:
            return fn(*args, **kwargs)
        return rec.call(fn, name, args, kwargs)

    wrapper.__name__ = name
    return wrapper


def _signature(leaves, engine):
    sig = []
    for leaf in leaves:
        if isinstance(leaf, engine.tensor_types):
            sig.append(engine.signature(leaf))
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

    def __init__(self, rec, input_slots, out_tmpl, engine):
        self.source, namespace = _generate(rec.entries, input_slots, out_tmpl, engine)
        exec(compile(self.source, "<highlevel replay>", "exec"), namespace)  # noqa: S102 - our own code
        self.run = engine.finish(namespace["program"])
        self.ops = [getattr(e[1], "__name__", "?") if e[0] == "call" else e[0] for e in rec.entries]


_active = threading.local()
#: held while a step is being recorded (see compile_replay): recordings from several threads take turns
_RECORDING_LOCK = threading.RLock()


def wrap_backend_methods(rec):
    """Routes every public method of ``rec.backend`` through ``rec`` (instance attributes shadowing the
    class's methods); returns the names wrapped, for :func:`unwrap_backend_methods`."""
    backend, names = rec.backend, []
    for name in dir(type(backend)):
        if name.startswith("_") or name in _NOT_WRAPPED:
            continue
        attr = getattr(type(backend), name)
        if isinstance(attr, type) or not callable(attr):
            continue
        backend.__dict__[name] = wrap_call(rec, name, getattr(backend, name), name in _MUTATING)
        names.append(name)
    if "custom_gradient" in names:
        # With the engine's grad mode off (an inference step), no gradient can be asked for: a custom gradient's
        # function then runs as the rest of the step, its ops recorded one by one (its Python function would
        # otherwise stop the recording), and its gradient function is dropped, as the engine itself drops it.
        with_grad = backend.__dict__["custom_gradient"]

        def custom_gradient(f, *args):
            if rec.depth == 0 and not rec.engine.is_grad_enabled():
                return f(*args)[0]
            return with_grad(f, *args)

        backend.__dict__["custom_gradient"] = custom_gradient
    vvg = functools.partial(rec.grad_region, backend)
    backend.__dict__["variables_value_and_grad"] = lambda fn, variables: (
        vvg(fn, variables)
        if rec.depth == 0 and threading.get_ident() == rec.thread
        else type(backend).variables_value_and_grad(backend, fn, variables)
    )
    names.append("variables_value_and_grad")
    return names


def unwrap_backend_methods(backend, names):
    for name in names:
        backend.__dict__.pop(name, None)


def compile_replay(backend, fn, state_variables, engine, *, warn=True):
    """``fn`` as a step that is recorded on its first call for each input signature and replayed after.

    Args:
        backend: the engine's backend instance.
        fn: the step; it reads and assigns ``state_variables`` through the engine.
        state_variables: the variables the step may assign (put back as they were if a recording gives up).
        engine: the engine's :class:`Engine`.
        warn: warn when a recording gives up and the step falls back to running eagerly.

    Returns:
        A callable with ``fn``'s signature. ``.recordings`` maps input signatures to recordings (each with
        its generated ``.source``); ``.fallback_reasons`` says why the step runs eagerly, if it does.
    """
    state_variables = list(state_variables)
    recordings = {}
    eager = []  # set (non-empty) once a recording gave up: the step then always runs eagerly

    def record(args, kwargs, leaves, sig):
        rec = Recorder(backend, engine)
        input_slots = []
        for leaf in leaves:
            input_slots.append(rec.new_slot(leaf) if isinstance(leaf, engine.tensor_types + (np.ndarray,)) else None)
        restore = engine.snapshot(state_variables)
        try:
            # One recording at a time in the process: a recording patches the engine's shared methods (and the
            # native Tensor class), and two at once would restore each other's patches mid-recording.
            with _RECORDING_LOCK, engine.patched(rec):
                out = engine.run_eager(fn, args, kwargs)
                out_t = rec.template(out, {})
        except NotReplayable as e:
            restore()
            eager.append(str(e))
            if warn:
                warnings.warn(
                    f"The {backend.name} engine could not compile this step ({e}); it runs eagerly "
                    "instead. Compile with jit_compile=False to choose eager steps and silence this "
                    "warning.",
                    RuntimeWarning,
                    stacklevel=4,
                )
            return engine.run_eager(fn, args, kwargs)
        recordings[sig] = _Recording(rec, input_slots, out_t, engine)
        return out

    @functools.wraps(fn)
    def step(*args, **kwargs):
        if eager or getattr(_active, "recording", False):
            return engine.run_eager(fn, args, kwargs)
        leaves = []
        _flatten((args, kwargs), leaves)
        sig = _signature(leaves, engine)
        if sig is None:
            return engine.run_eager(fn, args, kwargs)
        program = recordings.get(sig)
        if program is not None:
            return program.run(leaves)
        if len(recordings) >= MAX_RECORDINGS:
            return engine.run_eager(fn, args, kwargs)
        _active.recording = True
        try:
            return record(args, kwargs, leaves, sig)
        finally:
            _active.recording = False

    step.recordings = recordings
    step.fallback_reasons = eager
    return step
