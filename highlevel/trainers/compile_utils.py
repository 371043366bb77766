"""What ``compile(loss=..., metrics=...)`` turns into: per-output losses and metrics, matched to outputs.

Losses and metrics may be given once (a single-output model), as a list (one per output, in order) or as a
dict keyed by output name. Metric strings such as ``"accuracy"`` resolve to the variant that fits the loss
and the shapes, as in Keras (binary, categorical or sparse categorical accuracy).
"""

from highlevel import ops
from highlevel.index_range import ignoring_label


def _flatten_outputs(struct, names):
    """``(names, values)`` of a model's outputs given as one value, a list or a dict."""
    if isinstance(struct, dict):
        keys = list(struct)
        return keys, [struct[k] for k in keys]
    if isinstance(struct, (list, tuple)):
        return (
            list(names) if names and len(names) == len(struct) else [f"output_{i}" for i in range(len(struct))],
            list(struct),
        )
    return ([names[0]] if names else ["output"]), [struct]


def _match(spec, names, what):
    """One entry of ``spec`` per output name: None for outputs without one."""
    if spec is None:
        return [None] * len(names)
    if isinstance(spec, dict):
        unknown = sorted(set(spec) - set(names))
        if unknown:
            raise ValueError(f"{what} names outputs {unknown} that the model does not have; its outputs are {names}.")
        return [spec.get(n) for n in names]
    if isinstance(spec, (list, tuple)) and len(names) > 1:
        if len(spec) != len(names):
            raise ValueError(
                f"{what} was given as a list of {len(spec)} entries, but the model has {len(names)} outputs "
                f"({names}). Give one entry per output, or a dict keyed by output name."
            )
        return list(spec)
    return [spec] * len(names)  # one entry for every output, as Keras does with a single loss


class _Shaped:
    """Something with a ``shape``: an output's recorded shape, checked like a tensor."""

    def __init__(self, shape):
        self.shape = shape


class CompileLoss:
    """The total loss of a (possibly multi-output) model: the weighted sum of its outputs' losses."""

    def __init__(self, loss, loss_weights=None, output_names=None):
        self._loss_spec = loss
        self._weights_spec = loss_weights
        self._output_names = output_names
        self.built = False

    def build(self, y_true, y_pred):
        from highlevel import losses, metrics

        names, _ = _flatten_outputs(y_pred, self._output_names)
        specs = _match(self._loss_spec, names, "loss")
        weights = _match(self._weights_spec, names, "loss_weights")
        self.names = names
        self.losses = [losses.get(s) if s is not None else None for s in specs]
        self.weights = [1.0 if w is None else float(w) for w in weights]
        # Per-output loss trackers, reported as "<output>_loss" for multi-output models.
        self.trackers = [
            metrics.Mean(name=f"{n}_loss") if l is not None and len(names) > 1 else None
            for n, l in zip(names, self.losses)
        ]
        # The outputs' shapes (batch axis left open), against which each fit/evaluate checks its targets.
        _, preds = _flatten_outputs(y_pred, self._output_names)
        self._pred_shapes = [(None, *tuple(p.shape)[1:]) if hasattr(p, "shape") else None for p in preds]
        self.built = True
        self.check_targets(y_true)

    def check_targets(self, y_true):
        """Raises a clear error when a target's shape cannot match its output under an element-wise loss (see
        :mod:`highlevel.losses.target_shapes`); called on the first batch of every ``fit`` and ``evaluate``."""
        from highlevel.losses.target_shapes import check_targets

        if not self.built or y_true is None:
            return
        trues = self._flatten_targets(y_true, len(self._pred_shapes))
        for loss, t, shape, name in zip(self.losses, trues, self._pred_shapes, self.names):
            if loss is not None and t is not None and shape is not None:
                check_targets(loss, t, _Shaped(shape), name)

    @property
    def metrics(self):
        return [t for t in self.trackers if t is not None] if self.built else []

    def __call__(self, y_true, y_pred, sample_weight=None):
        if not self.built:
            self.build(y_true, y_pred)
        _, preds = _flatten_outputs(y_pred, self._output_names)
        trues = self._flatten_targets(y_true, len(preds))
        sws = self._flatten_targets(sample_weight, len(preds)) if sample_weight is not None else [None] * len(preds)
        total = None
        for loss, w, t, p, sw, tracker in zip(self.losses, self.weights, trues, preds, sws, self.trackers):
            if loss is None or t is None:
                continue
            value = loss(t, p, sample_weight=sw)
            if tracker is not None:
                tracker.update_state(value, sample_weight=ops.shape(p)[0])
            value = value * w if w != 1.0 else value
            total = value if total is None else total + value
        return total

    def _flatten_targets(self, y, n):
        if isinstance(y, dict):
            return [y.get(name) for name in self.names]
        if isinstance(y, (list, tuple)) and n > 1:
            if len(y) != n:
                raise ValueError(f"The model has {n} outputs but {len(y)} target arrays were given.")
            return list(y)
        if n > 1:
            return [y] * n
        return [y]


class CompileMetrics:
    """The metrics given to ``compile``, updated per output and reported under Keras' names."""

    def __init__(self, metrics=None, weighted_metrics=None, output_names=None, loss=None):
        self._metrics_spec = metrics
        self._weighted_spec = weighted_metrics
        self._output_names = output_names
        self._loss_spec = loss
        self.built = False

    def build(self, y_true, y_pred):
        names, preds = _flatten_outputs(y_pred, self._output_names)
        multi = len(names) > 1
        loss_specs = _match(self._loss_spec, names, "loss") if self._loss_spec is not None else [None] * len(names)
        self.names = names
        self.per_output = []
        self.per_output_weighted = []
        # The label each output's loss ignores (ignore_class) passes the sparse metrics' label check too.
        self.ignored_labels = [_ignored_label(spec) for spec in loss_specs]
        y_list = _targets_list(y_true, names)
        for i, name in enumerate(names):
            plain = _metric_list(self._metrics_spec, names, i)
            weighted = _metric_list(self._weighted_spec, names, i)
            self.per_output.append(
                [_resolve(m, loss_specs[i], y_list[i], preds[i], name if multi else None) for m in plain]
            )
            self.per_output_weighted.append(
                [_resolve(m, loss_specs[i], y_list[i], preds[i], name if multi else None) for m in weighted]
            )
        _name_uniquely(self.per_output, self.per_output_weighted, names if multi else None)
        self.built = True

    @property
    def metrics(self):
        if not self.built:
            return []
        out = []
        for a, b in zip(self.per_output, self.per_output_weighted):
            out.extend(a)
            out.extend(b)
        return out

    def update_state(self, y_true, y_pred, sample_weight=None, only=None):
        """Updates every metric (``only``: a list of them, the others left alone) with one batch."""
        if not self.built:
            self.build(y_true, y_pred)
        chosen = None if only is None else {id(m) for m in only}
        _, preds = _flatten_outputs(y_pred, self._output_names)
        trues = _targets_list(y_true, self.names)
        sws = _targets_list(sample_weight, self.names) if sample_weight is not None else [None] * len(preds)
        for plain, weighted, t, p, sw, ignored in zip(
            self.per_output, self.per_output_weighted, trues, preds, sws, self.ignored_labels
        ):
            if t is None:
                continue
            with ignoring_label(ignored):
                for m in plain:
                    if chosen is None or id(m) in chosen:
                        m.update_state(t, p)
                for m in weighted:
                    if chosen is None or id(m) in chosen:
                        m.update_state(t, p, sample_weight=sw)


def _ignored_label(loss_spec):
    from .index_checks import _sparse_loss

    sparse = _sparse_loss(loss_spec) if loss_spec is not None else None
    return sparse[0] if sparse is not None else None


def _name_uniquely(per_output, per_output_weighted, output_names):
    """Gives every metric the name it is logged under, one name per metric, as Keras names its results.

    The plain metrics of every output come first: a name already taken gets a counter (``mae``, ``mae_1``). A weighted
    metric keeps its own name (``mae``) unless a metric before it took it; then it is ``weighted_mae``
    (``<output>_weighted_mae`` for a model with several outputs), then ``weighted_mae_1``... Without this, two
    metrics of one name would write one entry of the logs, and the second would silently hide the first.
    """
    counters = {}

    def claim(name):
        if name not in counters:
            counters[name] = 1
            return name
        index = counters[name]
        counters[name] += 1
        return f"{name}_{index}"

    for metrics in per_output:
        for m in metrics:
            m.name = claim(m.name)
    for i, metrics in enumerate(per_output_weighted):
        for m in metrics:
            if m.name in counters:
                own = m.name[len(output_names[i]) + 1 :] if output_names else m.name
                m.name = f"{output_names[i]}_weighted_{own}" if output_names else f"weighted_{own}"
            m.name = claim(m.name)


def _targets_list(y, names):
    n = len(names)
    if isinstance(y, dict):
        return [y.get(name) for name in names]
    if isinstance(y, (list, tuple)) and n > 1:
        return list(y)
    if n > 1:
        return [y] * n
    return [y]


def _metric_list(spec, names, i):
    if spec is None:
        return []
    if isinstance(spec, dict):
        entry = spec.get(names[i])
    elif (
        isinstance(spec, (list, tuple))
        and len(names) > 1
        and len(spec) == len(names)
        and all(isinstance(s, (list, tuple)) or s is None for s in spec)
    ):
        entry = spec[i]
    else:
        entry = spec
    if entry is None:
        return []
    return list(entry) if isinstance(entry, (list, tuple)) else [entry]


def _loss_name(loss):
    if loss is None:
        return ""
    if isinstance(loss, str):
        return loss.lower()
    name = getattr(loss, "name", None) or getattr(loss, "__name__", "") or type(loss).__name__
    return str(name).lower()


def _resolve(identifier, loss, y_true, y_pred, prefix):
    """A metric object for ``identifier``; "accuracy"/"crossentropy" pick the variant the loss implies."""
    from highlevel import metrics

    if isinstance(identifier, str) and identifier.lower() in ("accuracy", "acc", "crossentropy", "ce"):
        kind = "accuracy" if identifier.lower() in ("accuracy", "acc") else "crossentropy"
        lname = _loss_name(loss)
        y_shape = tuple(ops.shape(y_true)) if y_true is not None else ()
        p_shape = tuple(ops.shape(y_pred))
        if "binary" in lname or (p_shape and p_shape[-1] == 1):
            variant = "binary"
        elif "sparse" in lname or len(y_shape) < len(p_shape) or (y_shape and y_shape[-1] == 1 and p_shape[-1] > 1):
            variant = "sparse_categorical"
        else:
            variant = "categorical"
        metric = metrics.get(f"{variant}_{kind}")
        metric.name = identifier if prefix is None else f"{prefix}_{identifier}"
        return metric
    metric = metrics.get(identifier)
    if isinstance(identifier, str):
        metric.name = identifier  # Keras reports a metric given by name under that name ("mae")
    if prefix is not None:
        metric.name = f"{prefix}_{metric.name}"
    return metric
