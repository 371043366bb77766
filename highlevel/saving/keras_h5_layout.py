"""Where Keras 3 puts each object's state in a ``.weights.h5`` file, derived for highlevel's objects.

Keras walks a model's attributes and names each object's group after the ATTRIBUTE that holds it (``d1/vars``,
``optimizer/vars``, ``layers/lstm/cell/vars``), never after its ``.name``: a list or dict of objects gets one
entry per object, named after the object's class in snake case (``dense``, ``dense_1``, ...). Sequential and
functional models list their ``layers`` first; public attributes come before private ones (``_x``), each object
is written once, under the first path that reaches it. Each object's own arrays are the datasets ``0``, ``1``,
... of its ``vars`` group. The same walk over highlevel's objects gives Keras's paths because highlevel's
attribute names follow Keras's (``cell``, ``query_dense`` is reached through the ``_query_dense`` alias below).

>>> import highlevel as hl
>>> from highlevel.saving import keras_h5_layout
>>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(3), hl.layers.Dense(1)])
>>> [(path, len(state)) for path, _, state in keras_h5_layout.entries(model) if state]
[('layers/dense', 2), ('layers/dense_1', 2)]
"""

import re

import numpy as np

from highlevel.backends.contract.interop import front_class
from highlevel.naming import to_snake_case

# Private attributes that Keras reaches through a public property of the same name less the underscore
# (MultiHeadAttention's ``query_dense`` is ``_query_dense``): Keras visits the public name first.
_PUBLIC_ALIASES = {"MultiHeadAttention": ("_query_dense", "_key_dense", "_value_dense", "_output_dense")}

# Slot names Keras creates together in one call, interleaved per variable (``m0, v0, m1, v1``): highlevel
# creates each slot list on its own (``m0, m1, v0, v1``).
_INTERLEAVED_SLOTS = {
    ("momentum", "velocity"),
    ("momentum", "norm"),
    ("accumulated_grad", "accumulated_delta_var"),
    ("accumulator", "linear"),
}

_SKIP_CACHE = {}


def _name_key(name):
    return "~" + name if name.startswith("_") else name


def _kind(obj):
    from highlevel.layer import Layer
    from highlevel.optimizers.optimizer import Optimizer

    if isinstance(obj, Layer):
        return "layer"
    if isinstance(obj, Optimizer):
        return "optimizer"
    return None


def _skipset(obj):
    """Attribute names Keras does not walk: those every plain layer has (weights, variables, ...), plus the
    internal mirrors of a Sequential's layer list."""
    from highlevel.config import current_backend
    from highlevel.layer import Layer
    from highlevel.models.sequential import Sequential

    key = (_kind(obj), type(current_backend()))
    if key not in _SKIP_CACHE:
        # What a plain layer has, on this engine (a torch variant adds ``_modules``, ``_parameters``, ...).
        _SKIP_CACHE[key] = frozenset(dir(Layer(name="keras_h5_reference"))) if key[0] == "layer" else frozenset()
    skip = set(_SKIP_CACHE[key])
    if isinstance(obj, Sequential):
        skip.update(("_stack", "_graph"))
    return skip


class Unused:
    """A scalar Keras keeps and highlevel does not (a loss-scale wrapper's own step count and learning rate, which
    Keras never advances): written as ``value``, and on reading checked for its shape and dropped."""

    def __init__(self, value, dtype):
        self.value = np.asarray(value, dtype=dtype)
        self.shape = ()
        self.dtype = dtype

    def assign(self, value):
        del value


def _children(obj):
    """``[(attribute name, value)]`` in the order Keras visits them."""
    from highlevel.models.functional import Functional
    from highlevel.models.sequential import Sequential

    if _kind(obj) == "optimizer":  # a wrapper's inner optimizer (LossScaleOptimizer.inner_optimizer)
        return [(n, v) for n, v in sorted(vars(obj).items(), key=lambda t: _name_key(t[0])) if _kind(v)]
    if _kind(obj) != "layer":
        return []
    out = []
    if isinstance(obj, (Sequential, Functional)):
        out.append(("layers", obj.layers))
    skip = _skipset(obj)
    names = {n for n in vars(obj) if not n.startswith("__")}
    for klass in type(obj).__mro__:
        for n, value in vars(klass).items():
            if isinstance(value, property) and not n.startswith("_"):
                names.add(n)
    aliases = _PUBLIC_ALIASES.get(front_class(type(obj)).__name__, ())
    values = {}
    for name in names:
        if name in skip:
            continue
        try:
            value = getattr(obj, name)
        except Exception:  # a property that cannot answer now is not state
            continue
        if name in aliases:
            name = name[1:]
        values.setdefault(name, value)
    out.extend((name, values[name]) for name in sorted(values, key=_name_key))
    return out


def _walk(obj, path, visited, out):
    if id(obj) in visited:
        return
    visited.add(id(obj))
    out.append((path, obj))
    for attr, child in _children(obj):
        sub = f"{path}/{attr}" if path else attr
        if _kind(child) is not None:
            _walk(child, sub, visited, out)
        elif isinstance(child, (list, tuple, dict)):
            _walk_container(child, sub, visited, out, set())


def _walk_container(container, path, visited, out, seen_containers):
    if id(container) in seen_containers:
        return
    seen_containers.add(id(container))
    used = {}
    items = list(container.values()) if isinstance(container, dict) else list(container)
    for item in items:
        if _kind(item) is not None:
            base = to_snake_case(front_class(type(item)).__name__)
        elif isinstance(item, (list, tuple, dict)):
            base = "container"
        else:
            continue
        if base in used:
            used[base] += 1
            name = f"{base}_{used[base]}"
        else:
            used[base] = 0
            name = base
        if base == "container":
            _walk_container(item, f"{path}/{name}", visited, out, seen_containers)
        else:
            _walk(item, f"{path}/{name}", visited, out)


def keras_trainable_order(model):
    """The model's trainable variables in Keras's order: each layer's own, then its sub-layers', depth first."""
    out, seen = [], set()

    def visit(layer):
        if id(layer) in seen:
            return
        seen.add(id(layer))
        for v in layer._own_variables():
            if v.trainable and id(v) not in {id(x) for x in out}:
                out.append(v)
        for sub in layer._sublayers():
            visit(sub)

    visit(model)
    return out


def optimizer_state(optimizer, model=None):
    """The optimizer's variables in Keras's order: the step count, the learning rate (unless a schedule), then
    the slots, those Keras creates together interleaved per model variable, in Keras's variable order."""
    inner = getattr(optimizer, "inner_optimizer", None)
    if _kind(inner) == "optimizer":  # Keras's wrapper has its own unused step count and learning rate first
        placeholders = [Unused(0, "int32"), Unused(0.0, "float32")]
        return placeholders + list(optimizer._variables) + optimizer_state(inner, model)
    variables = list(optimizer.variables)
    if not getattr(optimizer, "built", False):
        return variables
    refs = list(optimizer._trainable_variables)
    n = len(refs)
    order = refs
    if model is not None:
        wanted = [v for v in keras_trainable_order(model) if id(v) in optimizer._index]
        if len(wanted) == n:
            order = wanted
    position = [optimizer._index[id(v)] for v in order]
    bases = [re.sub(r"[/:]", "_", v.path) for v in refs]

    def slot_name(run):
        names = set()
        for i, v in enumerate(run):
            prefix = bases[i] + "_"
            if not v.name.startswith(prefix):
                return None
            names.add(v.name[len(prefix) :])
        return names.pop() if len(names) == 1 else None

    out, i = [], 0
    while i < len(variables):
        run = variables[i : i + n] if n else []
        name = slot_name(run) if len(run) == n and n else None
        if name is None:
            out.append(variables[i])
            i += 1
            continue
        after = variables[i + n : i + 2 * n]
        other = slot_name(after) if len(after) == n else None
        if other is not None and (name, other) in _INTERLEAVED_SLOTS:
            for p in position:
                out.extend((run[p], after[p]))
            i += 2 * n
        else:
            out.extend(run[p] for p in position)
            i += n
    return out


def entries(obj):
    """``[(path, object, state)]`` for every object Keras would write, in walk order: ``state`` is the list of
    the object's own variables (``vars/0``, ``vars/1``, ...), or the dict its own ``save_own_variables`` hook
    fills for a layer that overrides it to keep its state its own way."""
    from .weights_io import _uses_own_hooks

    walked = []
    _walk(obj, "", set(), walked)
    out = []
    for path, item in walked:
        if _kind(item) == "optimizer":
            state = optimizer_state(item, obj)
        elif _uses_own_hooks(item):
            state = {}
            item.save_own_variables(state)
        else:
            state = item._own_variables()
        out.append((path, item, state))
    return out
