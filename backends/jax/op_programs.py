"""One compiled XLA program per eager op call on the JAX engine, instead of one per primitive.

JAX runs an eager ``jnp``/``lax`` call as its own small XLA program, compiled once per primitive and shape. An
op of the contract written from many primitives (an image op, a loss, an ``nn`` op defined generically) thus
costs one compilation per primitive the first time it meets a shape, and one dispatch per primitive on every
call. :class:`OpPrograms` turns the op that the front door asks for (:meth:`door_op`) into one ``jax.jit``
program instead, keyed by the op, its static arguments and (through ``jax.jit``'s own cache) the shapes and
dtypes of its arrays.

How an op's arguments split:

* arrays are traced: ``jax.Array`` values (and the values of tracers of an eager ``jax.grad``/``jvp``, whose
  values are known), numpy arrays and :class:`~highlevel.backends.contract.Variable` values (a Variable is a
  pytree whose leaf is its value; a door op only reads it);
* Python floats are traced where they are an operand of an elementwise op (:data:`FLOAT_OPERAND_OPS`);
* numpy scalars (``np.int64(3)``, ``np.float32(0.5)``, what iterating over a numpy array gives) are traced where
  they are passed as an operand, a parameter named in :data:`OPERAND_PARAMETERS` (``x``, ``x1``, ``inputs``, ...):
  there every engine treats them as the 0-d arrays they are (strongly typed), so ``cast(step, "float32")`` in a
  loop over ``np.arange(1000)`` runs one program, not one per step. Elsewhere (an ``axis``, a fill value) they
  stay static;
* everything else is static, compared by type and value (``1``, ``1.0`` and ``True`` are three keys; ``-0.0`` is
  not ``0.0``): Python numbers, strings, numpy scalars and dtypes, types, slices of those, ``Ellipsis``, and the
  containers and ``None`` around them.

An op runs eagerly (the engine's method itself) when jitting it would be wrong or would not pay:

* the ops of :data:`EAGER_OPS`: ops that call user functions (control flow, ``jvp``, ``custom_gradient``),
  return Python values or read values on the host (``shape``, ``to_numpy``), whose output shape depends on
  values (``nonzero``, ``unique``, ``bincount``), or that are one conversion (``convert_to_tensor``);
* the ops of :data:`EAGER_UNLESS` called without the keyword that fixes their output shape (``unique`` without
  ``size``);
* a call with an argument that is neither an array nor a known static value (a function, an arbitrary object);
* a call inside another transformation whose values are unknown (a ``jax.jit`` trace, ``vmap``, an export):
  the outer program holds the op anyway, and a nested program would only add trace time;
* a call whose tracing fails where the eager path works (an op reads a value on the host, or returns a Python
  value): the op and its signature are remembered and not traced again; an error of the eager path itself is
  raised as it is;
* a signature that differs from :data:`MAX_FLOAT_VARIANTS` others of the op only in the values of static Python
  floats (a threshold or a factor that changes on every call): it runs eagerly, as will every later signature of
  that form, where a new value needs no new program;
* an op that has met more than :data:`MAX_SIGNATURES` different static signatures (a Python int that changes on
  every call): it stays eager from then on. Signatures that differ in ints, strings or structure (sizes, axes,
  modes) usually give arrays of other shapes, which the eager path compiles anew too: the bound is generous.

>>> import jax.numpy as jnp
>>> from highlevel.backends.jax import JaxBackend
>>> b = JaxBackend()
>>> f = b.door_op("logsumexp")
>>> float(f(jnp.zeros((4,)), axis=0)) == float(jnp.log(4.0))
True
>>> b.op_program_stats()["logsumexp"]["programs"]
1
"""

import inspect

import jax
import numpy as np
from jax._src import core as _jcore

#: Ops that always run eagerly (see the module docstring for why).
EAGER_OPS = frozenset(
    {
        # user functions and control flow
        "associative_scan",
        "cond",
        "custom_gradient",
        "fori_loop",
        "jvp",
        "map",
        "scan",
        "switch",
        "vectorized_map",
        "while_loop",
        # Python values, host reads and plain conversions
        "array",
        "convert_to_tensor",
        "dtype",
        "is_tensor",
        "ndim",
        "shape",
        "size",
        "to_numpy",
        # output shapes that depend on values
        "bincount",
        "nonzero",
    }
)

#: Ops whose output shape depends on values unless a keyword argument fixes it: eager when it is None.
EAGER_UNLESS = {"unique": "size"}

#: Ops whose Python float operands are traced (as JAX's weakly typed scalars, which the engine's promotion treats
#: exactly as Python floats), so that ``multiply(x, 0.5)`` and ``multiply(x, 0.25)`` share one program. Elsewhere a
#: float may steer Python code (a threshold, a fill value), so it stays static.
FLOAT_OPERAND_OPS = frozenset(
    {
        "add",
        "arctan2",
        "divide",
        "equal",
        "greater",
        "greater_equal",
        "less",
        "less_equal",
        "logaddexp",
        "maximum",
        "minimum",
        "multiply",
        "not_equal",
        "subtract",
        "where",
    }
)

#: Parameters that hold an op's tensor operands: a numpy scalar passed there is traced, as a 0-d array.
OPERAND_PARAMETERS = frozenset({"x", "x1", "x2", "y", "a", "b", "inputs", "images", "data"})

#: Distinct static signatures an op may compile before it stays eager.
MAX_SIGNATURES = 256

#: Programs an op may compile for signatures that differ only in the values of static Python floats.
MAX_FLOAT_VARIANTS = 16

#: Static numbers one call may carry (a longer literal list is data: the call runs eagerly).
MAX_STATIC_NUMBERS = 64

_NUMBER_TYPES = (bool, int, float, complex)
_EAGER = object()  # a program-table entry: this signature runs eagerly


class _NotStatic(Exception):
    """Raised by :func:`_static_key` for a leaf that is neither an array nor a known static value."""


def _static_key(x):
    """A hashable key that is equal for two leaves exactly when the op must treat them the same."""
    t = type(x)
    if t is float or t is complex:
        return t, repr(x)  # -0.0 is not 0.0, and nan equals itself here
    if t in (bool, int, str, bytes) or x is Ellipsis:
        return t, x
    if isinstance(x, np.generic):
        return t, x.dtype.str, x.tobytes()
    if isinstance(x, np.dtype):
        return np.dtype, x.str, str(x)
    if isinstance(x, type):
        return type, x
    if t is slice:
        return slice, _static_key(x.start), _static_key(x.stop), _static_key(x.step)
    if x is None:
        return None
    raise _NotStatic


def _float_blind(statics):
    """``statics`` with the values of Python floats (and complex numbers) left out: their form."""
    return tuple((s[0],) if type(s) is tuple and len(s) == 2 and s[0] in (float, complex) else s for s in statics)


def _function_of(method):
    """The function behind a bound method (a bound method is a new object on every attribute lookup)."""
    return getattr(method, "__func__", method)


def _is_traced_leaf(x):
    return isinstance(x, (jax.Array, np.ndarray))


class OpPrograms:
    """Mixin for the JAX backend: :meth:`door_op` gives the front door a one-program version of each op."""

    def _op_table(self):
        owner, table = self.__dict__.get("_op_programs_table", (None, None))
        if owner != id(self):
            # name -> {"wrapped": callable, "programs": {static key: jitted fn | _EAGER}, "eager": set of signatures}.
            # Keyed by the instance: an object that copies this one's __dict__ (a view of the engine with other
            # methods) must not run this one's programs.
            table = {}
            self.__dict__["_op_programs_table"] = (id(self), table)
        return table

    def door_op(self, name):
        """The callable that runs op ``name`` for the front door: one compiled program per signature.

        Args:
            name: the contract method, as the front door names it.

        Returns:
            A function with the method's signature.
        """
        raw = getattr(self, name)
        if name in EAGER_OPS or name.startswith("_"):
            return raw
        table = self._op_table()
        entry = table.get(name)
        # The method is looked up on every call, as the door did before: a method replaced after its first use (a
        # subclass's override set later, a spy in a test) gets a new entry, with programs traced from it.
        if entry is None or _function_of(entry["fn"]) is not _function_of(raw):
            entry = table[name] = _new_entry(raw)
            entry["wrapped"] = _make_wrapped(name, raw, entry)
        return entry["wrapped"]

    def door_composite(self, name, fn):
        """``fn`` (a public op written from other ops) as one compiled program per signature, like :meth:`door_op`.

        Args:
            name: the public op's name (its key in the table; the ops inside run inside its program).
            fn: the op's definition, a pure function.

        Returns:
            A function with ``fn``'s signature.
        """
        table = self._op_table()
        entry = table.get(name)
        if entry is None or entry["fn"] is not fn:
            entry = table[name] = _new_entry(fn)
            entry["wrapped"] = _make_wrapped(name, fn, entry)
        return entry["wrapped"]

    def op_program_stats(self):
        """Per op: how many programs (static signatures) it compiled, how many signatures run eagerly, and how many
        forms of signature run eagerly because a static float in them kept changing.

        >>> from highlevel.backends.jax import JaxBackend
        >>> JaxBackend().op_program_stats()
        {}
        """
        return {
            name: {
                "programs": sum(1 for p in e["programs"].values() if p is not _EAGER),
                "eager_signatures": len(e["eager"]) + sum(1 for p in e["programs"].values() if p is _EAGER),
                "eager_float_forms": sum(1 for n in e["forms"].values() if n >= MAX_FLOAT_VARIANTS),
                "all_eager": e["all_eager"],
                "calls": e["calls"],
            }
            for name, e in self._op_table().items()
        }


def _new_entry(fn):
    # programs: {static key: jitted fn | _EAGER}; eager: array signatures that run eagerly; forms: how many programs
    # each float-blind form of a static key compiled (an int: eager once it passes MAX_FLOAT_VARIANTS).
    return {"programs": {}, "eager": set(), "forms": {}, "all_eager": False, "calls": 0, "fn": fn}


def _should_trace(leaves, traced):
    """Whether this call may run as its own program: not inside a transformation with unknown values."""
    if _jcore.trace_state_clean():
        return True
    tracers = [leaves[i] for i in traced if isinstance(leaves[i], _jcore.Tracer)]
    # eager jax.grad / jvp / linearize: tracers with known values, where one program per op saves the most
    return bool(tracers) and all(_jcore.is_concrete(t) for t in tracers)


def _aval_key(a):
    if type(a) is float:
        return float
    return np.shape(a), str(a.dtype), bool(getattr(a, "weak_type", False))


def _any_unknown(args, kwargs):
    """A quick look at the top-level arguments for a tracer whose value is unknown (before flattening them)."""
    for a in args:
        if isinstance(a, _jcore.Tracer) and not _jcore.is_concrete(a):
            return True
    for a in kwargs.values():
        if isinstance(a, _jcore.Tracer) and not _jcore.is_concrete(a):
            return True
    return False


def _operand_slots(raw):
    """The positions and keywords of ``raw``'s parameters named in :data:`OPERAND_PARAMETERS`."""
    try:
        parameters = list(inspect.signature(raw).parameters.values())
    except (TypeError, ValueError):  # a callable without a signature: nothing is an operand by name
        return (), frozenset()
    positions, keywords = [], set()
    for i, p in enumerate(parameters):
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            break  # later parameters are keyword-only or unknown: positions no longer map to names
        if p.name in OPERAND_PARAMETERS:
            keywords.add(p.name)
            if p.kind is not p.KEYWORD_ONLY:
                positions.append(i)
    for p in parameters:
        if p.kind is p.KEYWORD_ONLY and p.name in OPERAND_PARAMETERS:
            keywords.add(p.name)
    return tuple(positions), frozenset(keywords)


def _is_numeric_scalar(x):
    return isinstance(x, np.generic) and x.dtype.kind in "biufc"


def _operands_as_arrays(args, kwargs, positions, keywords):
    """``args`` and ``kwargs`` with each numpy scalar in an operand slot as a 0-d array (traced, not static)."""
    if any(i < len(args) and _is_numeric_scalar(args[i]) for i in positions):
        args = tuple(np.asarray(a) if i in positions and _is_numeric_scalar(a) else a for i, a in enumerate(args))
    if keywords and any(k in keywords and _is_numeric_scalar(v) for k, v in kwargs.items()):
        kwargs = {k: np.asarray(v) if k in keywords and _is_numeric_scalar(v) else v for k, v in kwargs.items()}
    return args, kwargs


def _make_wrapped(name, raw, entry):
    programs, eager, forms = entry["programs"], entry["eager"], entry["forms"]
    floats_traced = name in FLOAT_OPERAND_OPS
    shape_keyword = EAGER_UNLESS.get(name)
    operand_positions, operand_keywords = _operand_slots(raw)

    def build(treedef, template, traced):
        def program(*arrays):
            leaves = list(template)
            for i, a in zip(traced, arrays):
                leaves[i] = a
            args, kwargs = jax.tree_util.tree_unflatten(treedef, leaves)
            return raw(*args, **kwargs)

        program.__name__ = program.__qualname__ = name
        return jax.jit(program)

    def wrapped(*args, **kwargs):
        entry["calls"] += 1
        if entry["all_eager"] or (shape_keyword is not None and kwargs.get(shape_keyword) is None):
            return raw(*args, **kwargs)
        if not _jcore.trace_state_clean() and _any_unknown(args, kwargs):
            return raw(*args, **kwargs)  # inside jax.jit (or vmap, an export): the outer program holds the op
        # the eager fallbacks below still get the caller's own arguments
        operands = _operands_as_arrays(args, kwargs, operand_positions, operand_keywords)
        leaves, treedef = jax.tree_util.tree_flatten(operands)
        traced, statics, numbers = [], [], 0
        try:
            for i, leaf in enumerate(leaves):
                if _is_traced_leaf(leaf) or (floats_traced and type(leaf) is float):
                    traced.append(i)
                    statics.append(None)
                else:
                    if isinstance(leaf, _NUMBER_TYPES):
                        numbers += 1
                    statics.append(_static_key(leaf))
        except _NotStatic:
            return raw(*args, **kwargs)
        if numbers > MAX_STATIC_NUMBERS or not _should_trace(leaves, traced):
            return raw(*args, **kwargs)
        key = (treedef, tuple(statics))
        program = programs.get(key)
        if program is None:
            if len(programs) >= MAX_SIGNATURES:
                entry["all_eager"] = True
                return raw(*args, **kwargs)
            form = (treedef, _float_blind(key[1]))
            seen = forms.get(form, 0)
            if seen >= MAX_FLOAT_VARIANTS:
                return raw(*args, **kwargs)  # a float that keeps changing: eager needs no new program for it
            if form[1] != key[1]:
                forms[form] = seen + 1
            template = [None if s is None else leaf for s, leaf in zip(statics, leaves)]
            program = programs[key] = build(treedef, template, tuple(traced))
        if program is _EAGER:
            return raw(*args, **kwargs)
        arrays = [leaves[i] for i in traced]
        signature = (key, tuple(_aval_key(a) for a in arrays))
        if signature in eager:
            return raw(*args, **kwargs)
        try:
            return program(*arrays)
        except Exception:  # noqa: BLE001 - the eager path decides: it raises the op's own error, or it works
            result = raw(*args, **kwargs)
            eager.add(signature)  # traced, it fails where eager works (a host read, a Python result): stay eager
            return result

    wrapped.__name__ = wrapped.__qualname__ = name
    wrapped.__doc__ = raw.__doc__
    wrapped.__wrapped__ = raw
    return wrapped
