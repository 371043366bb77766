"""Losses between distributions or counts: Kullback-Leibler divergence and Poisson — each as a function
``fn(y_true, y_pred) -> per-sample values`` and as a :class:`Loss` class.

>>> import highlevel as hl
>>> round(float(KLDivergence()([[0.0, 1.0], [0.0, 0.0]], [[0.6, 0.4], [0.4, 0.6]])), 3)
0.458
>>> round(float(Poisson()([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [0.0, 0.0]])), 3)
0.5
"""

from highlevel import ops

from .loss import LossFunctionWrapper
from .regression_losses import EPSILON


def kl_divergence(y_true, y_pred):
    """Kullback-Leibler divergence of each sample: ``sum(y_true * log(y_true / y_pred), axis=-1)``.

    Both inputs are clipped to ``[1e-7, 1]`` first, so they should be probability distributions over the last axis.

    Args:
        y_true: the target distributions, shape ``(batch, ..., classes)``.
        y_pred: the predicted distributions, same shape.

    Returns:
        A float tensor of shape ``(batch, ...)``: one value per sample (the last axis reduced).

    >>> import highlevel as hl
    >>> import numpy as np
    >>> y_true, y_pred = [[0.5, 0.5], [1.0, 0.0]], [[0.5, 0.5], [0.5, 0.5]]
    >>> np.round(hl.ops.convert_to_numpy(hl.losses.kl_divergence(y_true, y_pred)), 4)
    array([0.    , 0.6931], dtype=float32)
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=ops.dtype(y_pred))
    y_true = ops.clip(y_true, EPSILON, 1.0)
    y_pred = ops.clip(y_pred, EPSILON, 1.0)
    return ops.sum(y_true * ops.log(y_true / y_pred), axis=-1)


def poisson(y_true, y_pred):
    """Poisson loss of each sample: ``mean(y_pred - y_true * log(y_pred + 1e-7), axis=-1)``.

    The negative log-likelihood of counts ``y_true`` under a Poisson distribution of rate ``y_pred``, up to a term that
    does not depend on ``y_pred``. ``y_pred`` should be positive (for instance the output of an exponential or
    softplus).

    Args:
        y_true: the observed counts, shape ``(batch, ..., d)``.
        y_pred: the predicted rates, same shape.

    Returns:
        A float tensor of shape ``(batch, ...)``: one value per sample (the last axis reduced).

    >>> import highlevel as hl
    >>> round(float(hl.losses.poisson([[0.0, 1.0]], [[1.0, 1.0]])[0]), 4)
    1.0
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=ops.dtype(y_pred))
    return ops.mean(y_pred - y_true * ops.log(y_pred + EPSILON), axis=-1)


class KLDivergence(LossFunctionWrapper):
    """Kullback-Leibler divergence between target and predicted distributions, averaged over the batch.

    Calling the loss computes :func:`kl_divergence` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"kl_divergence"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> round(float(hl.losses.KLDivergence()([[0.5, 0.5], [1.0, 0.0]], [[0.5, 0.5], [0.5, 0.5]])), 4)
    0.3466
    """

    def __init__(self, reduction="sum_over_batch_size", name="kl_divergence", dtype=None):
        super().__init__(kl_divergence, name=name, reduction=reduction, dtype=dtype)


class Poisson(LossFunctionWrapper):
    """Poisson negative log-likelihood of counts given predicted rates, averaged over the batch.

    Calling the loss computes :func:`poisson` per sample,
    multiplies by ``sample_weight`` if given, and reduces.

    Args:
        reduction: how the per-sample values are combined into one number: ``"sum_over_batch_size"`` (default:
            the weighted sum divided by the number of values), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            or ``"none"``/None for no reduction (one value per sample).
        name: the loss's name (default ``"poisson"``).
        dtype: the computation dtype; None uses ``hl.config.floatx()``. Both inputs are cast to it.

    >>> import highlevel as hl
    >>> round(float(hl.losses.Poisson()([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [0.0, 0.0]])), 4)
    0.5
    """

    def __init__(self, reduction="sum_over_batch_size", name="poisson", dtype=None):
        super().__init__(poisson, name=name, reduction=reduction, dtype=dtype)
