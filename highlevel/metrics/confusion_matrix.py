"""Accumulating confusion-matrix counts (true/false positives/negatives) at a list of thresholds — the
engine behind Precision, Recall, AUC and the TruePositives family (Keras' ``metrics_utils``).

A prediction is positive at threshold ``t`` when ``y_pred > t``. Two ways to count, with Keras' numbers:

* any thresholds: compare every prediction with every threshold (``(thresholds, predictions)`` booleans);
* evenly spaced thresholds ``0, 1/(n-1), ..., 1`` (as AUC uses): put each prediction in the bucket
  ``ceil(p * (n - 1)) - 1`` and take reverse cumulative sums of the per-bucket weights — linear in the
  number of predictions instead of quadratic in memory.

>>> import highlevel as hl
>>> tp = hl.Variable([0.0, 0.0], trainable=False)
>>> update_confusion_matrix_variables({"tp": tp}, [1, 1, 0], [0.9, 0.4, 0.8], thresholds=[0.3, 0.5])
>>> hl.ops.convert_to_numpy(tp.value).tolist()
[2.0, 1.0]
"""

import numpy as np

from highlevel import ops
from highlevel.losses.reduction import squeeze_or_expand_to_same_rank

#: The stand-in for "minus infinity" that top-k filtering gives to predictions outside the top k.
NEG_INF = -1e10

#: Keys of the counts :func:`update_confusion_matrix_variables` can update.
CONDITIONS = ("tp", "fp", "tn", "fn")

_EPSILON = 1e-7


def parse_init_thresholds(thresholds, default_threshold=0.5):
    """The thresholds as a list of floats in [0, 1] (``[default_threshold]`` when None).

    Raises:
        ValueError: for a threshold outside [0, 1].
    """
    if thresholds is not None:
        values = list(thresholds) if isinstance(thresholds, (list, tuple, np.ndarray)) else [thresholds]
        bad = [t for t in values if t is None or t < 0 or t > 1]
        if bad:
            raise ValueError(f"Threshold values must be in [0, 1]. Received: {bad}")
        return [float(t) for t in values]
    return [float(default_threshold)]


def is_evenly_distributed_thresholds(thresholds):
    """True for three or more thresholds equal (within 1e-7) to ``0, 1/(n-1), ..., 1``."""
    n = len(thresholds)
    if n < 3:
        return False
    even = np.arange(n, dtype=np.float32) / (n - 1)
    return bool(np.allclose(np.asarray(thresholds, dtype=np.float64), even, atol=_EPSILON))


def filter_top_k(x, k):
    """``x`` with every entry outside the ``k`` largest of its last axis replaced by :data:`NEG_INF`."""
    _, idx = ops.top_k(x, k)
    mask = ops.sum(ops.one_hot(idx, ops.shape(x)[-1], dtype=ops.dtype(x)), axis=-2)
    return x * mask + NEG_INF * (1.0 - mask)


def _reverse_cumsum(x, axis):
    return ops.flip(ops.cumsum(ops.flip(x, axis=axis), axis=axis), axis=axis)


def _bucket_sums(values, buckets, num_thresholds, axis):
    """Sums ``values`` per bucket index (``segment_sum``; indices outside ``[0, n)`` are dropped) over
    ``axis`` 0, giving the bucket axis last."""
    hit = ops.equal(ops.expand_dims(buckets, -1), ops.arange(num_thresholds, dtype="int32"))
    contributions = ops.where(hit, ops.expand_dims(values, -1), ops.zeros((), dtype=ops.dtype(values)))
    return ops.sum(contributions, axis=axis)


def _update_evenly(
    variables, y_true, y_pred, num_thresholds, multi_label, sample_weight, label_weights, thresholds_with_epsilon
):
    dtype = ops.dtype(y_pred)
    weights = ops.ones((), dtype=dtype)
    if sample_weight is not None:
        sample_weight = ops.broadcast_to(ops.cast(sample_weight, dtype), ops.shape(y_pred))
        weights = sample_weight if multi_label else ops.reshape(sample_weight, (-1,))
    if label_weights is not None:
        lw = ops.broadcast_to(ops.expand_dims(label_weights, 0), ops.shape(y_pred))
        weights = weights * (lw if multi_label else ops.reshape(lw, (-1,)))
    y_pred = ops.clip(y_pred, 0.0, 1.0)
    y_true = ops.cast(ops.cast(y_true, "bool"), dtype)
    if not multi_label:
        y_true = ops.reshape(y_true, (-1,))
        y_pred = ops.reshape(y_pred, (-1,))
    true_labels = y_true * weights
    false_labels = (1.0 - y_true) * weights
    buckets = ops.ceil(y_pred * float(num_thresholds - 1)) - 1.0
    if thresholds_with_epsilon:
        buckets = ops.relu(buckets)
    buckets = ops.cast(buckets, "int32")
    # Per-bucket sums over the samples (axis 0); multi-label keeps a label axis: (labels, thresholds).
    tp = _reverse_cumsum(_bucket_sums(true_labels, buckets, num_thresholds, axis=0), axis=-1)
    fp = _reverse_cumsum(_bucket_sums(false_labels, buckets, num_thresholds, axis=0), axis=-1)
    if multi_label:
        tp, fp = ops.transpose(tp), ops.transpose(fp)
    total_true = ops.sum(true_labels, axis=0)
    total_false = ops.sum(false_labels, axis=0)
    new = {"tp": tp, "fp": fp, "tn": total_false - fp, "fn": total_true - tp}
    for key, variable in variables.items():
        variable.assign_add(new[key])


def _update_general(variables, y_true, y_pred, thresholds, multi_label, sample_weight, label_weights):
    dtype = ops.dtype(y_pred)
    thresholds = ops.convert_to_tensor(np.asarray(thresholds, dtype=np.float64), dtype=dtype)
    n = ops.shape(thresholds)[0]
    if multi_label:
        preds = ops.expand_dims(y_pred, 0)
        labels = ops.expand_dims(ops.cast(y_true, "bool"), 0)
        thresh = ops.reshape(thresholds, (n, 1, 1))
    else:
        preds = ops.reshape(y_pred, (1, -1))
        labels = ops.reshape(ops.cast(y_true, "bool"), (1, -1))
        thresh = ops.reshape(thresholds, (n, 1))
    flat = tuple(ops.shape(preds))
    pred_is_pos = ops.greater(preds, thresh)
    weights = None
    if sample_weight is not None:
        weights = ops.reshape(ops.broadcast_to(ops.cast(sample_weight, dtype), ops.shape(y_pred)), flat)
    if label_weights is not None and not multi_label:
        lw = ops.reshape(ops.broadcast_to(ops.expand_dims(label_weights, 0), ops.shape(y_pred)), flat)
        weights = lw if weights is None else weights * lw
    label_is_pos = ops.broadcast_to(labels, ops.shape(pred_is_pos))
    conditions = {
        "tp": lambda: ops.logical_and(label_is_pos, pred_is_pos),
        "fp": lambda: ops.logical_and(ops.logical_not(label_is_pos), pred_is_pos),
        "tn": lambda: ops.logical_and(ops.logical_not(label_is_pos), ops.logical_not(pred_is_pos)),
        "fn": lambda: ops.logical_and(label_is_pos, ops.logical_not(pred_is_pos)),
    }
    for key, variable in variables.items():
        hit = conditions[key]()
        if weights is not None:
            counted = ops.where(hit, ops.cast(weights, variable.dtype), ops.zeros((), dtype=variable.dtype))
        else:
            counted = ops.cast(hit, variable.dtype)
        variable.assign_add(ops.sum(counted, axis=1))


def update_confusion_matrix_variables(
    variables_to_update,
    y_true,
    y_pred,
    thresholds,
    top_k=None,
    class_id=None,
    sample_weight=None,
    multi_label=False,
    label_weights=None,
    thresholds_distributed_evenly=False,
):
    """Adds one batch's confusion-matrix counts to the given variables.

    Args:
        variables_to_update: ``{"tp" | "fp" | "tn" | "fn": Variable}``; each variable has one entry per
            threshold (``(thresholds, labels)`` with ``multi_label``).
        y_true: 0/1 labels (anything non-zero is positive).
        y_pred: scores, usually probabilities in [0, 1].
        thresholds: a list of floats.
        top_k: only the ``top_k`` largest predictions of each row may be positive.
        class_id: only this column (class) is counted.
        sample_weight: optional per-sample or per-element weights.
        multi_label: keep the label axis (one count per threshold and label) instead of flattening.
        label_weights: optional per-label weights (not with ``multi_label``).
        thresholds_distributed_evenly: use the bucket method (thresholds ``0, 1/(n-1), ..., 1``, possibly
            with ``-epsilon`` and ``1 + epsilon`` at the ends).

    Raises:
        ValueError: for an unknown key, ``label_weights`` with ``multi_label``, or ``class_id`` with 1-D
            predictions.
    """
    if multi_label and label_weights is not None:
        raise ValueError(
            "`label_weights` for multilabel data should be handled outside of "
            "`update_confusion_matrix_variables` when `multi_label` is True."
        )
    if not variables_to_update:
        return
    bad = [k for k in variables_to_update if k not in CONDITIONS]
    if bad:
        raise ValueError(f"Invalid keys: {bad}. Valid keys are {list(CONDITIONS)}.")
    dtype = next(iter(variables_to_update.values())).dtype
    y_true = ops.cast(ops.convert_to_tensor(y_true), dtype)
    y_pred = ops.cast(ops.convert_to_tensor(y_pred), dtype)
    y_pred, y_true = squeeze_or_expand_to_same_rank(y_pred, y_true)
    if sample_weight is not None:
        sample_weight = ops.expand_dims(ops.cast(ops.convert_to_tensor(sample_weight), dtype), -1)
        _, sample_weight = squeeze_or_expand_to_same_rank(y_true, sample_weight, expand_rank_1=False)
    if label_weights is not None:
        label_weights = ops.convert_to_tensor(label_weights, dtype=dtype)
    if top_k is not None:
        y_pred = filter_top_k(y_pred, top_k)
    if class_id is not None:
        if len(ops.shape(y_pred)) == 1:
            raise ValueError(
                "When class_id is provided, y_pred must be a 2D array with shape (num_samples, "
                f"num_classes), found shape: {tuple(ops.shape(y_pred))}"
            )
        index = ops.convert_to_tensor([class_id], dtype="int32")
        y_true = ops.take(y_true, index, axis=-1)
        y_pred = ops.take(y_pred, index, axis=-1)
    if thresholds_distributed_evenly:
        with_epsilon = thresholds[0] < 0.0 or thresholds[-1] > 1.0
        _update_evenly(
            variables_to_update,
            y_true,
            y_pred,
            len(thresholds),
            multi_label,
            sample_weight,
            label_weights,
            with_epsilon,
        )
    else:
        _update_general(variables_to_update, y_true, y_pred, thresholds, multi_label, sample_weight, label_weights)
