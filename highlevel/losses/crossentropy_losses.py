"""Cross-entropy losses — binary, categorical, sparse categorical and their focal variants — as functions
``fn(y_true, y_pred, ...) -> per-sample values`` and as :class:`Loss` classes, with Keras 3's numbers.

Numerics (as Keras' TensorFlow backend computes them):

* from logits, binary: ``max(x, 0) - x * z + log1p(exp(-|x|))``; categorical and sparse: ``-log_softmax``
  — finite for logits of +-1e4;
* from probabilities: predictions clipped to ``[epsilon, 1 - epsilon]`` (epsilon = 1e-7) before the log;
  categorical ones are first renormalised to sum to 1, and the sparse one takes ``log_softmax`` of the
  clipped log-probabilities, i.e. renormalises them too;
* binary focal from logits: the stable logits form for the cross-entropy, sigmoid probabilities for the
  focal factor; categorical focal from logits: softmax, then the clipped probability form (as Keras'
  TensorFlow backend).

Sparse labels out of ``[0, num_classes)`` (other than ``ignore_class``) raise a ValueError naming the bad
label, when the labels are concrete. Under ``jax.jit`` / ``tf.function`` the labels are not known while
tracing, so the check is skipped (see :mod:`highlevel.losses.host_values`); an out-of-range label then
gives whatever the engine's gather gives.

>>> import highlevel as hl
>>> y_true, y_pred = [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]]
>>> [round(v, 4) for v in hl.ops.convert_to_numpy(categorical_crossentropy(y_true, y_pred)).tolist()]
[0.0513, 2.3026]
>>> round(float(SparseCategoricalCrossentropy()([1, 2], y_pred)), 4)
1.1769
>>> round(float(BinaryCrossentropy(from_logits=True)([[1.0]], [[10000.0]])), 4)
0.0
"""

import warnings

from highlevel import ops
from highlevel.index_range import check_index_range

from .loss import LossFunctionWrapper
from .regression_losses import EPSILON


def _check_axis(axis):
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise ValueError(f"`axis` must be an int; received axis={axis!r} of type {type(axis).__name__}.")


def _elementwise_bce(target, output, from_logits):
    """Per-element binary cross-entropy: the op ``hl.ops.binary_crossentropy`` (one definition for both)."""
    return ops.binary_crossentropy(target, output, from_logits=from_logits)


def _same_shape(target, output, what):
    st, so = tuple(ops.shape(target)), tuple(ops.shape(output))
    if st != so:
        raise ValueError(
            f"{what}: y_true and y_pred must have the same shape; received y_true.shape={st}, y_pred.shape={so}."
        )


def _smooth_binary(y_true, label_smoothing):
    if label_smoothing:
        return y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return y_true


def _smooth_categorical(y_true, label_smoothing):
    if label_smoothing:
        num_classes = float(ops.shape(y_true)[-1])
        return y_true * (1.0 - label_smoothing) + label_smoothing / num_classes
    return y_true


def _warn_one_class(y_pred, fn_name):
    if ops.shape(y_pred) and ops.shape(y_pred)[-1] == 1:
        warnings.warn(
            f"In loss {fn_name}, expected y_pred.shape to be (batch_size, num_classes) with num_classes > 1. "
            f"Received: y_pred.shape={ops.shape(y_pred)}. Consider using 'binary_crossentropy' if you only "
            "have 2 classes.",
            SyntaxWarning,
            stacklevel=3,
        )


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary cross-entropy of each sample, averaged over ``axis``.

    Each entry is ``-(y * log(p) + (1 - y) * log(1 - p))`` with ``p`` the predicted probability of class 1 (clipped
    to ``[1e-7, 1 - 1e-7]``); from logits it is computed in a numerically stable form.

    Args:
        y_true: 0/1 labels (or soft labels in [0, 1]), the shape of ``y_pred``.
        y_pred: probabilities of class 1, or logits when ``from_logits``.
        from_logits: whether ``y_pred`` holds logits (True) or probabilities (False, the default).
        label_smoothing: float in [0, 1]; labels become ``y * (1 - s) + 0.5 * s`` (default 0: no smoothing).
        axis: the axis averaged over (default -1).

    Returns:
        A float tensor of ``y_pred``'s shape without ``axis``.

    >>> import highlevel as hl
    >>> [round(v, 3) for v in hl.ops.convert_to_numpy(
    ...     hl.losses.binary_crossentropy([[0.0, 1.0], [0.0, 0.0]], [[0.6, 0.4], [0.4, 0.6]])).tolist()]
    [0.916, 0.714]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, ops.dtype(y_pred))
    _same_shape(y_true, y_pred, "binary_crossentropy")
    y_true = _smooth_binary(y_true, label_smoothing)
    return ops.mean(_elementwise_bce(y_true, y_pred, from_logits), axis=axis)


def binary_focal_crossentropy(
    y_true, y_pred, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1
):
    """Binary focal cross-entropy of each sample (Lin et al., 2018), averaged over ``axis``.

    The binary cross-entropy of each entry multiplied by ``(1 - p_t) ** gamma``, where ``p_t`` is the probability
    given to the true label: well-classified entries count less, so training focuses on the hard ones.

    Args:
        y_true: 0/1 labels (or soft labels in [0, 1]), the shape of ``y_pred``.
        y_pred: probabilities of class 1, or logits when ``from_logits``.
        apply_class_balancing: if True, weight class-1 entries by ``alpha`` and class-0 entries by ``1 - alpha``.
        alpha: the class-1 weight when balancing (default 0.25).
        gamma: the focusing exponent (default 2.0; 0 gives the plain cross-entropy).
        from_logits: whether ``y_pred`` holds logits (True) or probabilities (False, the default).
        label_smoothing: float in [0, 1]; labels become ``y * (1 - s) + 0.5 * s`` (default 0: no smoothing).
        axis: the axis averaged over (default -1).

    Returns:
        A float tensor of ``y_pred``'s shape without ``axis``.

    >>> import highlevel as hl
    >>> import numpy as np
    >>> np.round(hl.ops.convert_to_numpy(
    ...     hl.losses.binary_focal_crossentropy([[0.0, 1.0], [0.0, 0.0]], [[0.6, 0.4], [0.4, 0.6]])), 3)
    array([0.33 , 0.206], dtype=float32)
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, ops.dtype(y_pred))
    _same_shape(y_true, y_pred, "binary_focal_crossentropy")
    y_true = _smooth_binary(y_true, label_smoothing)
    # From logits, the cross-entropy itself uses the stable logits form (Keras' TensorFlow backend does the
    # same: its sigmoid output remembers the logits); only the focal factor needs probabilities.
    bce = _elementwise_bce(y_true, y_pred, from_logits=from_logits)
    if from_logits:
        y_pred = ops.sigmoid(y_pred)
    p_t = y_true * y_pred + (1.0 - y_true) * (1.0 - y_pred)
    focal_bce = ops.power(1.0 - p_t, gamma) * bce
    if apply_class_balancing:
        weight = y_true * alpha + (1.0 - y_true) * (1.0 - alpha)
        focal_bce = weight * focal_bce
    return ops.mean(focal_bce, axis=axis)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Categorical cross-entropy of each sample: ``-sum(y_true * log(y_pred), axis)``.

    Probabilities are renormalized to sum to 1 along ``axis`` and clipped to ``[1e-7, 1 - 1e-7]``; logits go
    through a stable log-softmax.

    Args:
        y_true: one-hot (or soft) labels, the shape of ``y_pred``.
        y_pred: class probabilities, or logits when ``from_logits``.
        from_logits: whether ``y_pred`` holds logits (True) or probabilities (False, the default).
        label_smoothing: float in [0, 1]; labels become ``y * (1 - s) + s / num_classes`` (default 0).
        axis: the class axis (default -1).

    Returns:
        A float tensor of ``y_pred``'s shape without ``axis``.

    >>> import highlevel as hl
    >>> import numpy as np
    >>> y_true = [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    >>> y_pred = [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]]
    >>> np.round(hl.ops.convert_to_numpy(hl.losses.categorical_crossentropy(y_true, y_pred)), 4)
    array([0.0513, 2.3026], dtype=float32)
    """
    _check_axis(axis)
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, ops.dtype(y_pred))
    _warn_one_class(y_pred, "categorical_crossentropy")
    _same_shape(y_true, y_pred, "categorical_crossentropy")
    y_true = _smooth_categorical(y_true, label_smoothing)
    return ops.categorical_crossentropy(y_true, y_pred, from_logits=from_logits, axis=axis)


def categorical_focal_crossentropy(
    y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1
):
    """Categorical focal cross-entropy of each sample.

    ``-sum(alpha * (1 - p) ** gamma * y_true * log(p), axis)`` with ``p`` the renormalized, clipped probabilities:
    confident correct predictions count much less than in the plain cross-entropy.

    Args:
        y_true: one-hot (or soft) labels, the shape of ``y_pred``.
        y_pred: class probabilities, or logits when ``from_logits``.
        alpha: the weight of every class: a float (default 0.25) or one weight per class.
        gamma: the focusing exponent (default 2.0; 0 gives ``alpha`` times the cross-entropy).
        from_logits: whether ``y_pred`` holds logits (True) or probabilities (False, the default).
        label_smoothing: float in [0, 1]; labels become ``y * (1 - s) + s / num_classes`` (default 0).
        axis: the class axis (default -1).

    Returns:
        A float tensor of ``y_pred``'s shape without ``axis``.

    >>> import highlevel as hl
    >>> import numpy as np
    >>> y_true = [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    >>> y_pred = [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]]
    >>> np.round(hl.ops.convert_to_numpy(hl.losses.categorical_focal_crossentropy(y_true, y_pred)), 4)
    array([0.    , 0.4663], dtype=float32)
    """
    _check_axis(axis)
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, ops.dtype(y_pred))
    _warn_one_class(y_pred, "categorical_focal_crossentropy")
    y_true = _smooth_categorical(y_true, label_smoothing)
    if from_logits:
        y_pred = ops.softmax(y_pred, axis=axis)
    output = y_pred / ops.sum(y_pred, axis=axis, keepdims=True)
    output = ops.clip(output, EPSILON, 1.0 - EPSILON)
    cce = -y_true * ops.log(output)
    alpha = alpha if isinstance(alpha, (int, float)) else ops.convert_to_tensor(alpha, dtype=ops.dtype(y_pred))
    focal = ops.multiply(ops.power(1.0 - output, gamma), alpha) * cce
    return ops.sum(focal, axis=axis)


def _check_label_range(labels, num_classes):
    """``labels`` checked against ``[0, num_classes)`` (eagerly; in compiled steps when index checks are on)."""
    template = (
        "sparse_categorical_crossentropy: y_true holds labels from {lo} to {hi}, out of range for "
        f"{num_classes} classes (valid labels are 0 to {num_classes - 1}). Check the labels, the number of units "
        "of the last layer, or pass ignore_class= for a label that should not count."
    )
    return check_index_range(labels, 0, num_classes, template)


def _sparse_crossentropy_with_mask(y_true, y_pred, from_logits=False, ignore_class=None, axis=-1):
    """:func:`sparse_categorical_crossentropy`'s values and the boolean mask of counted entries (``None``
    without ``ignore_class``)."""
    _check_axis(axis)
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true)
    pred_shape, true_shape = tuple(ops.shape(y_pred)), tuple(ops.shape(y_true))
    rank = len(pred_shape)
    if rank < 1:
        raise ValueError("sparse_categorical_crossentropy: y_pred must have a class axis; received a scalar.")
    class_axis = axis % rank
    if len(true_shape) == rank and true_shape[class_axis] == 1:
        y_true = ops.squeeze(y_true, axis=class_axis)
        true_shape = true_shape[:class_axis] + true_shape[class_axis + 1 :]
    res_shape = pred_shape[:class_axis] + pred_shape[class_axis + 1 :]
    if true_shape != res_shape:
        raise ValueError(
            "sparse_categorical_crossentropy: y_true must have y_pred's shape without the class axis; received "
            f"y_true.shape={true_shape}, y_pred.shape={pred_shape} (class axis "
            f"{axis}). Integer labels go in y_true; for one-hot labels use categorical_crossentropy."
        )
    valid = None
    if ignore_class is not None:
        valid = ops.not_equal(y_true, ops.cast(ignore_class, ops.dtype(y_true)))
        y_true = ops.where(valid, y_true, ops.zeros_like(y_true))
        y_pred = ops.where(ops.expand_dims(valid, class_axis), y_pred, ops.zeros_like(y_pred))
    labels = y_true if ops.dtype(y_true) in ("int32", "int64") else ops.cast(y_true, "int32")
    num_classes = pred_shape[class_axis]
    labels = _check_label_range(labels, num_classes)
    # The op: one fused kernel (log_softmax, pick, negate); on probabilities, log_softmax(log p) = log(p / sum p).
    res = ops.sparse_categorical_crossentropy(labels, y_pred, from_logits=from_logits, axis=class_axis)
    if valid is not None:
        res = ops.where(valid, res, ops.zeros_like(res))
    return res, valid


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None, axis=-1):
    """Categorical cross-entropy of each sample, with integer class indices as labels.

    The same value as :func:`categorical_crossentropy` of the one-hot labels, without building them.

    Args:
        y_true: integer class indices, ``y_pred``'s shape without the class axis (a trailing axis of size 1 is
            squeezed).
        y_pred: class probabilities, or logits when ``from_logits``.
        from_logits: whether ``y_pred`` holds logits (True) or probabilities (False, the default).
        ignore_class: an optional label whose entries get loss 0 and, in a :class:`Loss`, do not count in the
            average (for instance a "void" class in segmentation).
        axis: the class axis (default -1).

    Returns:
        A float tensor of ``y_true``'s shape (after squeezing).

    Raises:
        ValueError: for concrete labels out of ``[0, num_classes)``, or mismatched shapes.

    >>> import highlevel as hl
    >>> import numpy as np
    >>> y_pred = [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]]
    >>> np.round(hl.ops.convert_to_numpy(hl.losses.sparse_categorical_crossentropy([1, 2], y_pred)), 4)
    array([0.0513, 2.3026], dtype=float32)
    """
    return _sparse_crossentropy_with_mask(
        y_true, y_pred, from_logits=from_logits, ignore_class=ignore_class, axis=axis
    )[0]


# Losses and metrics that honour masks use the (values, mask) twin.
sparse_categorical_crossentropy.with_mask = _sparse_crossentropy_with_mask


class BinaryCrossentropy(LossFunctionWrapper):
    """Binary cross-entropy between 0/1 labels and predicted probabilities (or logits).

    Calling the loss computes :func:`binary_crossentropy` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        from_logits: whether ``y_pred`` holds logits (True) or probabilities (False, the default).
        label_smoothing: float in [0, 1]; labels become ``y * (1 - s) + 0.5 * s`` (default 0: no smoothing).
        axis: the axis averaged over (default -1).
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"binary_crossentropy"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> round(float(hl.losses.BinaryCrossentropy()([[0.0, 1.0], [0.0, 0.0]], [[0.6, 0.4], [0.4, 0.6]])), 4)
    0.8149
    >>> round(float(hl.losses.BinaryCrossentropy(from_logits=True)([[0.0, 1.0]], [[-1.0, 2.0]])), 4)
    0.2201
    """

    def __init__(
        self,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction="sum_over_batch_size",
        name="binary_crossentropy",
        dtype=None,
    ):
        super().__init__(
            binary_crossentropy,
            name=name,
            reduction=reduction,
            dtype=dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def get_config(self):
        return {
            **super().get_config(),
            "from_logits": self.from_logits,
            "label_smoothing": self.label_smoothing,
            "axis": self.axis,
        }


class BinaryFocalCrossentropy(LossFunctionWrapper):
    """Binary focal cross-entropy: binary cross-entropy that down-weights easy examples.

    Calling the loss computes :func:`binary_focal_crossentropy` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        apply_class_balancing: if True, weight class-1 entries by ``alpha`` and class-0 entries by ``1 - alpha``.
        alpha: the class-1 weight when balancing (default 0.25).
        gamma: the focusing exponent (default 2.0; 0 gives the plain cross-entropy).
        from_logits: whether ``y_pred`` holds logits (True) or probabilities (False, the default).
        label_smoothing: float in [0, 1]; labels become ``y * (1 - s) + 0.5 * s`` (default 0: no smoothing).
        axis: the axis averaged over (default -1).
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"binary_focal_crossentropy"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> round(float(hl.losses.BinaryFocalCrossentropy()([[0.0, 1.0], [0.0, 0.0]], [[0.6, 0.4], [0.4, 0.6]])), 4)
    0.2678
    """

    def __init__(
        self,
        apply_class_balancing=False,
        alpha=0.25,
        gamma=2.0,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction="sum_over_batch_size",
        name="binary_focal_crossentropy",
        dtype=None,
    ):
        super().__init__(
            binary_focal_crossentropy,
            name=name,
            reduction=reduction,
            dtype=dtype,
            apply_class_balancing=apply_class_balancing,
            alpha=alpha,
            gamma=gamma,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
        self.apply_class_balancing = apply_class_balancing
        self.alpha = alpha
        self.gamma = gamma
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def get_config(self):
        return {
            **super().get_config(),
            "apply_class_balancing": self.apply_class_balancing,
            "alpha": self.alpha,
            "gamma": self.gamma,
            "from_logits": self.from_logits,
            "label_smoothing": self.label_smoothing,
            "axis": self.axis,
        }


class CategoricalCrossentropy(LossFunctionWrapper):
    """Categorical cross-entropy between one-hot labels and predicted class probabilities.

    Calling the loss computes :func:`categorical_crossentropy` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        from_logits: whether ``y_pred`` holds logits (True) or probabilities (False, the default).
        label_smoothing: float in [0, 1]; labels become ``y * (1 - s) + s / num_classes`` (default 0).
        axis: the class axis (default -1).
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"categorical_crossentropy"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> y_true = [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    >>> y_pred = [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]]
    >>> round(float(hl.losses.CategoricalCrossentropy()(y_true, y_pred)), 4)
    1.1769
    """

    def __init__(
        self,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction="sum_over_batch_size",
        name="categorical_crossentropy",
        dtype=None,
    ):
        super().__init__(
            categorical_crossentropy,
            name=name,
            reduction=reduction,
            dtype=dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def get_config(self):
        return {
            **super().get_config(),
            "from_logits": self.from_logits,
            "label_smoothing": self.label_smoothing,
            "axis": self.axis,
        }


class CategoricalFocalCrossentropy(LossFunctionWrapper):
    """Categorical focal cross-entropy: cross-entropy that down-weights confident predictions.

    Calling the loss computes :func:`categorical_focal_crossentropy` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        alpha: the weight of every class: a float (default 0.25) or one weight per class.
        gamma: the focusing exponent (default 2.0).
        from_logits: whether ``y_pred`` holds logits (True) or probabilities (False, the default).
        label_smoothing: float in [0, 1]; labels become ``y * (1 - s) + s / num_classes`` (default 0).
        axis: the class axis (default -1).
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"categorical_focal_crossentropy"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> y_true = [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    >>> y_pred = [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]]
    >>> round(float(hl.losses.CategoricalFocalCrossentropy()(y_true, y_pred)), 4)
    0.2332
    """

    def __init__(
        self,
        alpha=0.25,
        gamma=2.0,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction="sum_over_batch_size",
        name="categorical_focal_crossentropy",
        dtype=None,
    ):
        super().__init__(
            categorical_focal_crossentropy,
            name=name,
            reduction=reduction,
            dtype=dtype,
            alpha=alpha,
            gamma=gamma,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
        self.alpha = alpha
        self.gamma = gamma
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def get_config(self):
        return {
            **super().get_config(),
            "alpha": self.alpha,
            "gamma": self.gamma,
            "from_logits": self.from_logits,
            "label_smoothing": self.label_smoothing,
            "axis": self.axis,
        }


sparse_categorical_crossentropy._integer_labels = True  # its y_true holds class indices (see Loss.__call__)


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Categorical cross-entropy between integer class labels and predicted class probabilities.

    With ``ignore_class``, entries of that label count neither in the sum nor in the averaging divisor.

    Calling the loss computes :func:`sparse_categorical_crossentropy` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        from_logits: whether ``y_pred`` holds logits (True) or probabilities (False, the default).
        ignore_class: an optional label to leave out (for instance -1 or 255 for "void" pixels).
        axis: the class axis (default -1).
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"sparse_categorical_crossentropy"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> y_pred = [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]]
    >>> round(float(hl.losses.SparseCategoricalCrossentropy()([1, 2], y_pred)), 4)
    1.1769
    >>> round(float(hl.losses.SparseCategoricalCrossentropy(ignore_class=-1)([1, -1], y_pred)), 4)
    0.0513
    """

    def __init__(
        self,
        from_logits=False,
        ignore_class=None,
        reduction="sum_over_batch_size",
        axis=-1,
        name="sparse_categorical_crossentropy",
        dtype=None,
    ):
        super().__init__(
            sparse_categorical_crossentropy,
            name=name,
            reduction=reduction,
            dtype=dtype,
            from_logits=from_logits,
            ignore_class=ignore_class,
            axis=axis,
        )
        self.from_logits = from_logits
        self.ignore_class = ignore_class
        self.axis = axis

    def get_config(self):
        return {
            **super().get_config(),
            "from_logits": self.from_logits,
            "ignore_class": self.ignore_class,
            "axis": self.axis,
        }
