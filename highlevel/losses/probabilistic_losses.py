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
    """``sum(y_true * log(y_true / y_pred), axis=-1)``, both clipped to ``[epsilon, 1]`` first.

    >>> import highlevel as hl
    >>> [round(v, 3) for v in hl.ops.convert_to_numpy(kl_divergence([[0.5, 0.5]], [[0.5, 0.5]])).tolist()]
    [0.0]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=ops.dtype(y_pred))
    y_true = ops.clip(y_true, EPSILON, 1.0)
    y_pred = ops.clip(y_pred, EPSILON, 1.0)
    return ops.sum(y_true * ops.log(y_true / y_pred), axis=-1)


def poisson(y_true, y_pred):
    """``mean(y_pred - y_true * log(y_pred + epsilon), axis=-1)``."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=ops.dtype(y_pred))
    return ops.mean(y_pred - y_true * ops.log(y_pred + EPSILON), axis=-1)


class KLDivergence(LossFunctionWrapper):
    """Kullback-Leibler divergence of ``y_pred`` from ``y_true`` (:func:`kl_divergence`)."""

    def __init__(self, reduction="sum_over_batch_size", name="kl_divergence", dtype=None):
        super().__init__(kl_divergence, name=name, reduction=reduction, dtype=dtype)


class Poisson(LossFunctionWrapper):
    """Poisson negative log-likelihood up to a constant (:func:`poisson`)."""

    def __init__(self, reduction="sum_over_batch_size", name="poisson", dtype=None):
        super().__init__(poisson, name=name, reduction=reduction, dtype=dtype)
