"""Intersection over union for segmentation and classification: IoU, MeanIoU, BinaryIoU, OneHotIoU and
OneHotMeanIoU (``keras.metrics``).

The state is a ``(num_classes, num_classes)`` confusion matrix (rows: true class, columns: predicted class),
accumulated over batches. The IoU of class ``c`` is ``cm[c, c] / (row_c + column_c - cm[c, c])``; the result is
the mean over the target classes that occurred at all (in the labels or the predictions).

As in Keras the matrix holds integers by default (``dtype="int32"``), so fractional sample weights are truncated;
pass ``dtype="float32"`` to count fractional weights.

>>> m = MeanIoU(num_classes=2)
>>> round(float(m([0, 0, 1, 1], [0, 1, 0, 1])), 4)
0.3333
>>> round(float(BinaryIoU(target_class_ids=[1])([0, 1, 1], [0.2, 0.7, 0.4])), 4)
0.5
"""

import warnings

from highlevel import ops

from .metric import Metric

_EPSILON = 1e-7


class _ConfusionIoU(Metric):
    """The accumulated confusion matrix; subclasses read IoUs from it."""

    _direction = "up"  # larger is better (for callbacks that monitor it)

    def __init__(
        self,
        num_classes,
        name=None,
        dtype=None,
        ignore_class=None,
        sparse_y_true=True,
        sparse_y_pred=True,
        axis=-1,
    ):
        if not isinstance(num_classes, int) or num_classes < 1:
            raise ValueError(
                f"{type(self).__name__} expects num_classes, a positive int; received num_classes={num_classes!r}."
            )
        super().__init__(name=name, dtype=dtype or "int32")
        self.num_classes = num_classes
        self.ignore_class = ignore_class
        self.sparse_y_true = sparse_y_true
        self.sparse_y_pred = sparse_y_pred
        self.axis = axis
        self.total_cm = self.add_variable((num_classes, num_classes), "zeros", name="total_confusion_matrix")

    def _labels(self, y, sparse):
        y = ops.convert_to_tensor(y)
        if not sparse:
            y = ops.argmax(y, axis=self.axis)
        return ops.cast(y, "int32")

    def _weights(self, sample_weight, shape):
        if sample_weight is None:
            return ops.ones(shape, dtype=self.dtype)
        sample_weight = ops.convert_to_tensor(sample_weight)
        if "int" in self.dtype and "float" in ops.dtype(sample_weight):
            warnings.warn(
                f"{type(self).__name__} counts in {self.dtype}: the float sample weights are truncated to "
                "integers. Pass integer weights, or dtype='float32' to count fractional weights.",
                stacklevel=3,
            )
        weights = ops.cast(sample_weight, self.dtype)
        # Per-sample weights of per-pixel labels apply to every pixel of their sample.
        while 0 < len(ops.shape(weights)) < len(shape):
            weights = ops.expand_dims(weights, -1)
        return ops.broadcast_to(weights, shape)

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the batch's (weighted) pairs of true and predicted classes to the confusion matrix.

        Pairs with a class outside ``[0, num_classes)`` or a true class equal to ``ignore_class`` are left out.
        Sample weights may be given per sample, even for per-pixel labels (Keras needs them per pixel there).
        """
        y_true = self._labels(y_true, self.sparse_y_true)
        y_pred = self._labels(y_pred, self.sparse_y_pred)
        weights = ops.reshape(self._weights(sample_weight, ops.shape(y_true)), (-1,))
        y_true, y_pred = ops.reshape(y_true, (-1,)), ops.reshape(y_pred, (-1,))
        if ops.shape(y_true)[0] != ops.shape(y_pred)[0]:
            raise ValueError(
                f"{type(self).__name__} needs one predicted class per true class; received "
                f"{ops.shape(y_true)[0]} true and {ops.shape(y_pred)[0]} predicted classes. Check sparse_y_true / "
                "sparse_y_pred: one-hot or probability inputs need sparse_*=False."
            )
        n = self.num_classes
        inside = ops.logical_and(
            ops.logical_and(ops.greater_equal(y_true, 0), ops.less(y_true, n)),
            ops.logical_and(ops.greater_equal(y_pred, 0), ops.less(y_pred, n)),
        )
        if self.ignore_class is not None:
            inside = ops.logical_and(inside, ops.not_equal(y_true, self.ignore_class))
        weights = ops.where(inside, weights, ops.zeros((), dtype=self.dtype))
        # cm[t, p] = sum of the weights of the pairs (t, p): one-hot rows multiplied out (traceable, unlike a
        # bincount whose length would depend on the values).
        count_dtype = self.dtype if "float" in self.dtype else "float32"
        weights = ops.cast(weights, count_dtype)
        true_rows = ops.one_hot(ops.where(inside, y_true, 0), n, dtype=count_dtype)
        pred_rows = ops.one_hot(ops.where(inside, y_pred, 0), n, dtype=count_dtype) * ops.expand_dims(weights, -1)
        counts = ops.matmul(ops.transpose(true_rows), pred_rows)
        self.total_cm.assign(self.total_cm.value + ops.cast(counts, self.dtype))

    def _class_ious(self, class_ids):
        cm = ops.cast(self.total_cm.value, "float32")
        hits = ops.diagonal(cm)
        union = ops.sum(cm, axis=0) + ops.sum(cm, axis=1) - hits
        index = ops.convert_to_tensor(list(class_ids), dtype="int32")
        hits, union = ops.take(hits, index), ops.take(union, index)
        present = ops.greater(union, 1e-9)
        ious = ops.where(present, hits / (union + _EPSILON), ops.zeros_like(hits))
        return ious, ops.sum(ops.cast(present, "float32"))


class IoU(_ConfusionIoU):
    """The mean IoU of the classes ``target_class_ids`` (those that occurred).

    Args:
        num_classes: the number of classes.
        target_class_ids: the classes averaged over.
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the accumulated confusion matrix (default ``"int32"``).
        ignore_class: an optional true class to leave out (for instance 255 for "void" pixels).
        sparse_y_true: whether ``y_true`` holds class indices (True, default) or one score per class (False: argmax).
        sparse_y_pred: whether ``y_pred`` holds class indices (True, default) or one score per class (False: argmax).
        axis: the class axis of inputs that hold one score per class (default -1).

    Raises:
        ValueError: for a target class id outside ``[0, num_classes)``.

    >>> round(float(IoU(num_classes=3, target_class_ids=[0])([0, 0, 1, 2], [0, 1, 1, 2])), 4)
    0.5
    """

    def __init__(
        self,
        num_classes,
        target_class_ids,
        name=None,
        dtype=None,
        ignore_class=None,
        sparse_y_true=True,
        sparse_y_pred=True,
        axis=-1,
    ):
        super().__init__(
            num_classes,
            name=name,
            dtype=dtype,
            ignore_class=ignore_class,
            sparse_y_true=sparse_y_true,
            sparse_y_pred=sparse_y_pred,
            axis=axis,
        )
        target_class_ids = [int(c) for c in target_class_ids]
        bad = [c for c in target_class_ids if not 0 <= c < num_classes]
        if not target_class_ids or bad:
            raise ValueError(
                f"target_class_ids must be a non-empty list of classes in [0, {num_classes}); received "
                f"{target_class_ids!r}."
            )
        self.target_class_ids = target_class_ids

    def result(self):
        ious, present = self._class_ious(self.target_class_ids)
        return ops.sum(ious) / (present + _EPSILON)

    def get_config(self):
        return {
            **super().get_config(),
            "num_classes": self.num_classes,
            "target_class_ids": self.target_class_ids,
            "ignore_class": self.ignore_class,
            "sparse_y_true": self.sparse_y_true,
            "sparse_y_pred": self.sparse_y_pred,
            "axis": self.axis,
        }


class BinaryIoU(IoU):
    """IoU of two classes from probabilities: a prediction of at least ``threshold`` is class 1.

    Args:
        target_class_ids: the classes averaged over (default ``(0, 1)``: both).
        threshold: predictions above it count as class 1 (default 0.5).
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the accumulated confusion matrix (default ``"int32"``).

    >>> round(float(BinaryIoU()([0, 1, 1, 0], [0.3, 0.9, 0.2, 0.1])), 4)
    0.5833
    """

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = ops.convert_to_tensor(y_pred, dtype="float32")
        y_pred = ops.cast(ops.greater_equal(y_pred, self.threshold), "int32")
        super().update_state(ops.cast(ops.convert_to_tensor(y_true), "int32"), y_pred, sample_weight)

    def get_config(self):
        return {
            "target_class_ids": self.target_class_ids,
            "threshold": self.threshold,
            "name": self.name,
            "dtype": self._dtype,
        }


class MeanIoU(IoU):
    """The mean IoU over all ``num_classes`` classes (those that occurred).

    Args:
        num_classes: the number of classes; every class that occurs is averaged over.
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the accumulated confusion matrix (default ``"int32"``).
        ignore_class: an optional true class to leave out (for instance 255 for "void" pixels).
        sparse_y_true: whether ``y_true`` holds class indices (True, default) or one score per class (False: argmax).
        sparse_y_pred: whether ``y_pred`` holds class indices (True, default) or one score per class (False: argmax).
        axis: the class axis of inputs that hold one score per class (default -1).

    >>> round(float(MeanIoU(num_classes=3)([0, 1, 2, 2], [0, 1, 2, 1])), 4)
    0.6667
    """

    def __init__(
        self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_true=True, sparse_y_pred=True, axis=-1
    ):
        super().__init__(
            num_classes,
            list(range(num_classes)) if isinstance(num_classes, int) and num_classes > 0 else [0],
            name=name,
            dtype=dtype,
            ignore_class=ignore_class,
            sparse_y_true=sparse_y_true,
            sparse_y_pred=sparse_y_pred,
            axis=axis,
        )

    def get_config(self):
        return {
            "num_classes": self.num_classes,
            "name": self.name,
            "dtype": self._dtype,
            "ignore_class": self.ignore_class,
            "sparse_y_true": self.sparse_y_true,
            "sparse_y_pred": self.sparse_y_pred,
            "axis": self.axis,
        }


class OneHotIoU(IoU):
    """:class:`IoU` of one-hot labels and per-class scores (both reduced by argmax over ``axis``).

    Args:
        num_classes: the number of classes.
        target_class_ids: the classes averaged over.
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the accumulated confusion matrix (default ``"int32"``).
        ignore_class: an optional true class to leave out (for instance 255 for "void" pixels).
        sparse_y_pred: whether ``y_pred`` already holds class indices (default False: one score per class, argmax).
        axis: the class axis of inputs that hold one score per class (default -1).

    >>> round(float(OneHotIoU(3, [1])([[0, 1, 0], [0, 0, 1]], [[0.1, 0.8, 0.1], [0.2, 0.5, 0.3]])), 4)
    0.5
    """

    def __init__(
        self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None, sparse_y_pred=False, axis=-1
    ):
        super().__init__(
            num_classes,
            target_class_ids,
            name=name,
            dtype=dtype,
            ignore_class=ignore_class,
            sparse_y_true=False,
            sparse_y_pred=sparse_y_pred,
            axis=axis,
        )

    def get_config(self):
        return {
            "num_classes": self.num_classes,
            "target_class_ids": self.target_class_ids,
            "name": self.name,
            "dtype": self._dtype,
            "ignore_class": self.ignore_class,
            "sparse_y_pred": self.sparse_y_pred,
            "axis": self.axis,
        }


class OneHotMeanIoU(MeanIoU):
    """:class:`MeanIoU` of one-hot labels and per-class scores (both reduced by argmax over ``axis``).

    Args:
        num_classes: the number of classes; every class that occurs is averaged over.
        name: the metric's name (default None: derived from the class name).
        dtype: the dtype of the accumulated confusion matrix (default ``"int32"``).
        ignore_class: an optional true class to leave out (for instance 255 for "void" pixels).
        sparse_y_pred: whether ``y_pred`` already holds class indices (default False: one score per class, argmax).
        axis: the class axis of inputs that hold one score per class (default -1).

    >>> round(float(OneHotMeanIoU(2)([[1, 0], [0, 1]], [[0.9, 0.1], [0.4, 0.6]])), 4)
    1.0
    """

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_pred=False, axis=-1):
        super().__init__(
            num_classes,
            name=name,
            dtype=dtype,
            ignore_class=ignore_class,
            sparse_y_true=False,
            sparse_y_pred=sparse_y_pred,
            axis=axis,
        )

    def get_config(self):
        return {
            "num_classes": self.num_classes,
            "name": self.name,
            "dtype": self._dtype,
            "ignore_class": self.ignore_class,
            "sparse_y_pred": self.sparse_y_pred,
            "axis": self.axis,
        }
