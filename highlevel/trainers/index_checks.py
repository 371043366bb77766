"""Integer values that index something — class labels and ``Embedding`` inputs — checked on the host, per batch.

A compiled training step cannot stop on a label out of ``[0, num_classes)``: depending on the engine it gives
NaN, a plausible loss, or an error from deep inside the engine. ``fit``, ``evaluate``, ``train_on_batch`` and
``test_on_batch`` therefore look at every batch while it is still a host (numpy) array — a minimum and a
maximum per array, before the step runs — and refuse it with a message that names the argument, the bad
values, the valid range and the fix. What is checked:

* targets of an output whose loss is sparse categorical cross-entropy (``ignore_class`` is allowed), or whose
  metrics include sparse categorical or sparse top-k accuracy (the loss's ``ignore_class`` of that output is
  allowed there too);
* model inputs that go straight into an ``Embedding`` layer: ``[0, input_dim)``.

Values the host does not see here (labels a custom loss shifts, indices computed inside the model, tensors a
custom ``train_step`` makes) are checked by the losses, metrics, ``Embedding`` and ``ops.take`` themselves
(:mod:`highlevel.index_range`): always where their values are known (eager calls, ``compile(run_eagerly=True)``),
and inside compiled steps once ``hl.config.enable_index_checks()`` is on. Keras checks none of this on the host:
it reports the engine's own error or, on JAX, NaN.

>>> import numpy as np
>>> import highlevel as hl
>>> rule = IndexRule("targets", 0, "output", 3, None, "sparse_categorical_crossentropy")
>>> try:
...     rule.check(np.array([0, 2, 5]))
... except ValueError as e:
...     print(str(e).split(",")[0])
Targets of output 'output' hold class 5
"""

import numpy as np


class IndexRule:
    """Integers of one flat array of a batch (``part`` "targets" or "inputs", ``index`` in the flat structure)
    must lie in ``[0, size)``, apart from ``ignore``."""

    def __init__(self, part, index, name, size, ignore, why):
        self.part, self.index, self.name, self.size, self.ignore, self.why = part, index, name, size, ignore, why

    def check(self, values):
        """Raises ValueError when ``values`` (a numpy array) holds a value outside the rule's range."""
        values = np.asarray(values)
        if values.size == 0 or values.dtype.kind not in "iuf":
            return
        if self.ignore is not None:
            values = values[values != self.ignore]
            if values.size == 0:
                return
        low, high = values.min(), values.max()
        if low >= 0 and high < self.size and (values.dtype.kind != "f" or np.all(values == np.floor(values))):
            return
        bad = values[(values < 0) | (values >= self.size) | (values != np.floor(values))]
        shown = ", ".join(_number(v) for v in np.unique(bad)[:5])
        if self.part == "targets":
            fix = (
                f"give labels 0 to {self.size - 1}, give the last layer as many units as there are classes, "
                "or pass ignore_class=<label> to the loss for a label that must not count"
            )
            raise ValueError(
                f"Targets of output '{self.name}' hold class {shown}, but {self.why} needs integer class indices "
                f"in [0, {self.size}) (the output has {self.size} classes): {fix}."
            )
        raise ValueError(
            f"Input '{self.name}' holds index {shown}, but it feeds {self.why}, whose input_dim is {self.size}: "
            f"valid indices are 0 to {self.size - 1}. Map the data into that range, or raise input_dim."
        )


def _number(v):
    return str(int(v)) if float(v).is_integer() else repr(float(v))


_SPARSE_METRICS = ("sparse_categorical_accuracy", "sparse_top_k_categorical_accuracy")


def _sparse_loss(loss):
    """``(ignore_class, axis)`` when ``loss`` is sparse categorical cross-entropy, else None."""
    from highlevel.losses.crossentropy_losses import sparse_categorical_crossentropy

    if getattr(loss, "fn", loss) is not sparse_categorical_crossentropy:
        return None
    kwargs = getattr(loss, "_fn_kwargs", {})
    return kwargs.get("ignore_class"), kwargs.get("axis", -1)


def _sparse_metric(metric):
    fn = getattr(metric, "_fn", None)
    name = getattr(fn, "__name__", "")
    if name not in _SPARSE_METRICS or getattr(metric, "_fn_kwargs", {}).get("from_sorted_ids"):
        return None
    return name


def target_rules(compile_loss, compile_metrics):
    """The rules for a built model's targets (see the module's docstring)."""
    rules = []
    if compile_loss is None or not getattr(compile_loss, "built", False):
        return rules
    metric_lists = []
    if compile_metrics is not None and getattr(compile_metrics, "built", False):
        metric_lists = [a + b for a, b in zip(compile_metrics.per_output, compile_metrics.per_output_weighted)]
    for i, (name, loss, shape) in enumerate(zip(compile_loss.names, compile_loss.losses, compile_loss._pred_shapes)):
        if shape is None or len(shape) < 1:
            continue
        sparse = _sparse_loss(loss) if loss is not None else None
        ignore, axis = sparse if sparse is not None else (None, -1)
        size = shape[axis] if -len(shape) <= axis < len(shape) else None
        why = "sparse_categorical_crossentropy" if sparse is not None else None
        if why is None:
            metrics = [m for m in (metric_lists[i] if i < len(metric_lists) else []) if _sparse_metric(m)]
            why = _sparse_metric(metrics[0]) if metrics else None
            size = shape[-1]
        if why is not None and size:
            rules.append(IndexRule("targets", i, name, int(size), ignore, why))
    return rules


def input_rules(model):
    """The rules for a model's inputs that go straight into an ``Embedding`` (functional and built Sequential)."""
    from highlevel.layers.core.embedding import Embedding

    graph = getattr(model, "_graph", None) or model
    flat_inputs = getattr(graph, "_flat_inputs", None)
    nodes = getattr(graph, "_nodes", None)
    if not flat_inputs or not nodes:
        return []
    positions = {id(t): i for i, t in enumerate(flat_inputs)}
    names = [getattr(t, "name", None) or f"input_{i}" for i, t in enumerate(flat_inputs)]
    rules = []
    for node in nodes:
        layer = node.operation
        if isinstance(layer, Embedding) and node.input_tensors and id(node.input_tensors[0]) in positions:
            i = positions[id(node.input_tensors[0])]
            why = f"Embedding layer '{layer.name}'"
            rules.append(IndexRule("inputs", i, names[i], int(layer.input_dim), None, why))
    return rules


def check_batch(rules, x, y):
    """Applies ``rules`` to a batch's host arrays (other kinds of arrays are left to the eager checks)."""
    if not rules:
        return
    flat_x = _leaves(x)
    flat_y = _targets(y, rules)
    for rule in rules:
        leaves = flat_x if rule.part == "inputs" else flat_y
        if rule.index < len(leaves) and isinstance(leaves[rule.index], np.ndarray):
            rule.check(leaves[rule.index])


def _leaves(x):
    if x is None:
        return []
    if isinstance(x, np.ndarray):
        return [x]  # one array, not a sequence of rows
    if isinstance(x, dict):
        return [a for k in sorted(x) for a in _leaves(x[k])]
    if isinstance(x, (list, tuple)):
        return [a for item in x for a in _leaves(item)]
    return [x]


def _targets(y, rules):
    if y is None:
        return []
    if isinstance(y, dict):
        names = {r.index: r.name for r in rules if r.part == "targets"}
        top = max(names, default=-1) + 1
        return [y.get(names.get(i)) for i in range(top)]
    if isinstance(y, (list, tuple)):
        return list(y)
    return [y] * (max((r.index for r in rules), default=0) + 1)
