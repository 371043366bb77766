"""Accuracy metrics: exact, binary (thresholded), categorical (argmax), sparse categorical and top-k —
each a per-sample function returning 1.0 / 0.0 and a :class:`MeanMetricWrapper` averaging it.

>>> float(BinaryAccuracy()([[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]]))
0.75
>>> float(SparseCategoricalAccuracy()([[2], [1]], [[0.1, 0.6, 0.3], [0.05, 0.95, 0]]))
0.5
>>> float(TopKCategoricalAccuracy(k=1)([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]]))
0.5
"""

from highlevel import ops
from highlevel.config import floatx
from highlevel.index_range import check_index_range, ignored_label
from highlevel.losses.reduction import squeeze_or_expand_to_same_rank

from .reduction_metrics import MeanMetricWrapper


def accuracy(y_true, y_pred):
    """Exact-match accuracy of each entry: 1.0 where ``y_true == y_pred``, else 0.0.

    Args:
        y_true: the labels, any shape.
        y_pred: the predictions, the same shape as ``y_true`` (a trailing axis of size 1 on either side is aligned).

    Returns:
        A float tensor of the inputs' shape: 1.0 where the prediction equals the label exactly, 0.0 elsewhere.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.metrics.accuracy([1, 2, 3], [1, 2, 4])).tolist()
    [1.0, 1.0, 0.0]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=ops.dtype(y_pred))
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return ops.cast(ops.equal(y_true, y_pred), floatx())


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """Binary accuracy of each entry: 1.0 where ``(y_pred > threshold) == y_true``, else 0.0.

    Args:
        y_true: 0/1 labels, shape ``(batch, ...)``.
        y_pred: predicted probabilities (or scores), the same shape as ``y_true``.
        threshold: predictions above it count as class 1 (default 0.5).

    Returns:
        A float tensor of the inputs' shape: 1.0 where the thresholded prediction equals the label, 0.0 elsewhere.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.metrics.binary_accuracy([[1], [0]], [[0.7], [0.6]])).tolist()
    [[1.0], [0.0]]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    y_pred = ops.cast(ops.greater(y_pred, threshold), ops.dtype(y_true))
    return ops.cast(ops.equal(y_true, y_pred), floatx())


def categorical_accuracy(y_true, y_pred):
    """Categorical accuracy of each sample: 1.0 where the argmax of ``y_pred`` is the one-hot label's class.

    Args:
        y_true: one-hot labels, shape ``(batch, ..., classes)``.
        y_pred: class scores or probabilities, the same shape.

    Returns:
        A float tensor of shape ``(batch, ...)``: 1.0 where the predicted class (argmax) is the labelled one.

    >>> import highlevel as hl
    >>> y_true, y_pred = [[0, 0, 1], [0, 1, 0]], [[0.1, 0.2, 0.7], [0.6, 0.3, 0.1]]
    >>> hl.ops.convert_to_numpy(hl.metrics.categorical_accuracy(y_true, y_pred)).tolist()
    [1.0, 0.0]
    """
    y_true = ops.argmax(ops.convert_to_tensor(y_true), axis=-1)
    y_pred = ops.argmax(ops.convert_to_tensor(y_pred), axis=-1)
    return ops.cast(ops.equal(y_true, y_pred), floatx())


def _checked_labels(y_true, y_pred, what):
    """Labels outside ``[0, num_classes)`` are refused (where known, or with index checks on) rather than counted
    as misses; the label the output's loss ignores passes (see :mod:`highlevel.index_range`)."""
    num_classes = ops.shape(y_pred)[-1] if len(ops.shape(y_pred)) else None
    template = (
        f"{what}: y_true holds labels from {{lo}} to {{hi}}, out of range for {num_classes} classes (valid labels "
        f"are 0 to {(num_classes or 0) - 1}). Check the labels and the number of units of the last layer."
    )
    return check_index_range(y_true, 0, num_classes, template, ignore=ignored_label())


def sparse_categorical_accuracy(y_true, y_pred):
    """Sparse categorical accuracy of each sample: 1.0 where the argmax of ``y_pred`` equals the integer label.

    Args:
        y_true: integer class labels, shape ``(batch, ...)`` (or with a trailing axis of size 1).
        y_pred: class scores or probabilities, shape ``(batch, ..., classes)``.

    Returns:
        A float tensor of shape ``(batch, ...)``: 1.0 where the predicted class (argmax) equals the label.

    Raises:
        IndexRangeError: (a ValueError) for a label outside ``[0, classes)`` where the values are known (Keras
            counts it as a miss); inside a compiled step only with ``hl.config.enable_index_checks()``.

    >>> import highlevel as hl
    >>> y_pred = [[0.1, 0.2, 0.7], [0.6, 0.3, 0.1]]
    >>> hl.ops.convert_to_numpy(hl.metrics.sparse_categorical_accuracy([2, 1], y_pred)).tolist()
    [1.0, 0.0]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = _checked_labels(ops.convert_to_tensor(y_true), y_pred, "sparse_categorical_accuracy")
    # Integer labels are compared with the int32 argmax as they are (equal promotes: no wrap-around, no copy);
    # float labels compare as floats.
    integer_labels = ops.dtype(y_true).startswith(("int", "uint"))
    if not integer_labels:
        y_true = ops.cast(y_true, ops.dtype(y_pred))
    if len(ops.shape(y_true)) == len(ops.shape(y_pred)) and ops.shape(y_true)[-1] == 1:
        y_true = ops.squeeze(y_true, -1)
    predicted = ops.argmax(y_pred, axis=-1)
    if not integer_labels:
        predicted = ops.cast(predicted, ops.dtype(y_true))
    matches = ops.cast(ops.equal(y_true, predicted), floatx())
    if len(ops.shape(matches)) > 1 and ops.shape(matches)[-1] == 1:
        matches = ops.squeeze(matches, -1)
    return matches


def in_top_k(targets, predictions, k):
    """Whether each integer target is among the ``k`` largest predictions of its row.

    As ``tf.math.in_top_k``: predictions tied with the k-th largest all count as in the top k; a row with a
    non-finite prediction, or a target out of range, gives False.
    """
    predictions = ops.convert_to_tensor(predictions)
    targets = ops.cast(targets, "int32")
    num_classes = ops.shape(predictions)[-1]
    in_range = ops.logical_and(ops.greater_equal(targets, 0), ops.less(targets, num_classes))
    safe = ops.where(in_range, targets, ops.zeros_like(targets))
    score = ops.take_along_axis(predictions, ops.expand_dims(safe, -1), axis=-1)
    num_greater = ops.sum(ops.cast(ops.greater(predictions, score), "int32"), axis=-1)
    finite = ops.all(ops.isfinite(predictions), axis=-1)
    return ops.logical_and(ops.logical_and(ops.less(num_greater, k), finite), in_range)


def _flatten_for_top_k(y_true, y_pred):
    if len(ops.shape(y_pred)) > 2:
        y_pred = ops.reshape(y_pred, (-1, ops.shape(y_pred)[-1]))
    original = tuple(ops.shape(y_true))
    if len(original) > 1:
        y_true = ops.reshape(y_true, (-1,))
    return y_true, y_pred, original


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """Top-k accuracy of each sample: 1.0 where the one-hot label's class is among the ``k`` largest predictions.

    Args:
        y_true: one-hot labels, shape ``(batch, ..., classes)``.
        y_pred: class scores, the same shape.
        k: how many of the highest scores count as a hit (default 5).

    Returns:
        A float tensor of shape ``(batch, ...)``: 1.0 where the labelled class is among the ``k`` highest scores.

    >>> import highlevel as hl
    >>> y_true, y_pred = [[0, 0, 1], [0, 1, 0]], [[0.1, 0.2, 0.7], [0.6, 0.3, 0.1]]
    >>> hl.ops.convert_to_numpy(hl.metrics.top_k_categorical_accuracy(y_true, y_pred, k=2)).tolist()
    [1.0, 1.0]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.argmax(ops.convert_to_tensor(y_true, dtype=ops.dtype(y_pred)), axis=-1)
    y_true, y_pred, original = _flatten_for_top_k(y_true, y_pred)
    matches = ops.cast(in_top_k(y_true, y_pred, k), floatx())
    return ops.reshape(matches, original) if len(original) > 1 else matches


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5, from_sorted_ids=False):
    """Sparse top-k accuracy of each sample: 1.0 where the integer label is among the ``k`` largest predictions.

    With ``from_sorted_ids``, ``y_pred`` holds class ids sorted by score (e.g. from a retrieval layer) and
    the label must be among its first ``k`` columns.

    Args:
        y_true: integer class labels, shape ``(batch, ...)``.
        y_pred: class scores, shape ``(batch, ..., classes)``; or, with ``from_sorted_ids``, class ids sorted by
            decreasing score.
        k: how many of the highest scores count as a hit (default 5).
        from_sorted_ids: whether ``y_pred`` holds sorted class ids (for instance from a retrieval layer) instead of
            scores (default False).

    Returns:
        A float tensor of ``y_true``'s shape: 1.0 where the label is among the ``k`` best classes.

    >>> import highlevel as hl
    >>> y_pred = [[0.1, 0.2, 0.7], [0.1, 0.3, 0.6]]
    >>> hl.ops.convert_to_numpy(hl.metrics.sparse_top_k_categorical_accuracy([2, 0], y_pred, k=2)).tolist()
    [1.0, 0.0]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=ops.dtype(y_pred) if from_sorted_ids else "int32")
    if not from_sorted_ids:
        y_true = _checked_labels(y_true, y_pred, "sparse_top_k_categorical_accuracy")
    y_true, y_pred, original = _flatten_for_top_k(y_true, y_pred)
    if from_sorted_ids:
        first_k = ops.getitem(y_pred, (slice(None), slice(None, k)))
        matches = ops.any(ops.equal(ops.expand_dims(y_true, 1), first_k), axis=1)
    else:
        matches = in_top_k(y_true, y_pred, k)
    matches = ops.cast(matches, floatx())
    return ops.reshape(matches, original) if len(original) > 1 else matches


class Accuracy(MeanMetricWrapper):
    """How often predictions equal labels exactly.

    Args:
        name: the metric's name (default ``"accuracy"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> float(hl.metrics.Accuracy()([1, 2, 3, 4], [1, 2, 3, 0]))
    0.75
    """

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name=name, dtype=dtype)

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}


class BinaryAccuracy(MeanMetricWrapper):
    """How often ``y_pred > threshold`` matches the 0/1 label.

    Args:
        threshold: the decision threshold (default 0.5).
        name: the metric's name (default ``"binary_accuracy"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> float(hl.metrics.BinaryAccuracy()([[1], [1], [0], [0]], [[0.98], [0.3], [0.1], [0.6]]))
    0.5
    """

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name=name, dtype=dtype, threshold=threshold)
        self.threshold = threshold

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "threshold": self.threshold}


class CategoricalAccuracy(MeanMetricWrapper):
    """How often the argmax of the prediction matches that of the one-hot label.

    Args:
        name: the metric's name (default ``"categorical_accuracy"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> y_true, y_pred = [[0, 0, 1], [0, 1, 0]], [[0.1, 0.2, 0.7], [0.6, 0.3, 0.1]]
    >>> float(hl.metrics.CategoricalAccuracy()(y_true, y_pred))
    0.5
    """

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name=name, dtype=dtype)

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}


class SparseCategoricalAccuracy(MeanMetricWrapper):
    """How often the argmax of the prediction matches the integer label.

    Args:
        name: the metric's name (default ``"sparse_categorical_accuracy"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> float(hl.metrics.SparseCategoricalAccuracy()([2, 1], [[0.1, 0.2, 0.7], [0.6, 0.3, 0.1]]))
    0.5
    """

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name=name, dtype=dtype)

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}


class TopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the one-hot label's class is among the top ``k`` predictions.

    Args:
        k: how many top predictions count (default 5).
        name: the metric's name (default ``"top_k_categorical_accuracy"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> y_true, y_pred = [[0, 0, 1], [1, 0, 0]], [[0.1, 0.2, 0.7], [0.1, 0.3, 0.6]]
    >>> float(hl.metrics.TopKCategoricalAccuracy(k=2)(y_true, y_pred))
    0.5
    """

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name=name, dtype=dtype, k=k)
        self.k = k

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "k": self.k}


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the integer label is among the top ``k`` predictions.

    Args:
        k: how many top predictions count (default 5).
        from_sorted_ids: ``y_pred`` holds class ids sorted by score instead of scores.
        name: the metric's name (default ``"sparse_top_k_categorical_accuracy"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> float(hl.metrics.SparseTopKCategoricalAccuracy(k=2)([2, 0], [[0.1, 0.2, 0.7], [0.1, 0.3, 0.6]]))
    0.5
    """

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None, from_sorted_ids=False):
        super().__init__(
            sparse_top_k_categorical_accuracy, name=name, dtype=dtype, k=k, from_sorted_ids=from_sorted_ids
        )
        self.k = k
        self.from_sorted_ids = from_sorted_ids

    def get_config(self):
        config = {"name": self.name, "dtype": self.dtype, "k": self.k}
        if self.from_sorted_ids:
            config["from_sorted_ids"] = True
        return config
