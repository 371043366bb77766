"""Float64 numpy references of every loss (per-sample values) and of the loss reductions, written from the
formulas (Keras 3's definitions), independent of highlevel's code.

>>> import numpy as np
>>> float(mse(np.array([[0.0, 1.0]]), np.array([[1.0, 1.0]]))[0])
0.5
"""

import numpy as np

EPS = 1e-7


def _clip_f32(p):
    # The backends clip in float32: 1 - 1e-7 rounds to the float32 just below 1.
    return np.clip(p, EPS, float(np.float32(1.0) - np.float32(EPS)))


def mse(t, p):
    return np.mean((t - p) ** 2, axis=-1)


def mae(t, p):
    return np.mean(np.abs(t - p), axis=-1)


def mape(t, p):
    return 100.0 * np.mean(np.abs((t - p) / np.maximum(np.abs(t), EPS)), axis=-1)


def msle(t, p):
    return np.mean((np.log(np.maximum(p, EPS) + 1) - np.log(np.maximum(t, EPS) + 1)) ** 2, axis=-1)


def huber(t, p, delta=1.0):
    e = np.abs(p - t)
    return np.mean(np.where(e <= delta, 0.5 * e**2, delta * e - 0.5 * delta**2), axis=-1)


def log_cosh(t, p):
    x = p - t
    return np.mean(np.logaddexp(x, -x) - np.log(2.0), axis=-1)


def _l2n(x, axis):
    n = np.sqrt(np.sum(x * x, axis=axis, keepdims=True))
    return x / np.maximum(n, EPS)


def cosine_similarity(t, p, axis=-1):
    return -np.sum(_l2n(t, axis) * _l2n(p, axis), axis=axis)


def _bce(z, p, from_logits):
    if from_logits:
        return np.logaddexp(0.0, p) - p * z  # softplus(x) - x z, exact in float64
    p = _clip_f32(p)
    return -(z * np.log(p) + (1 - z) * np.log(1 - p))


def binary_crossentropy(t, p, from_logits=False, label_smoothing=0.0):
    t = t * (1 - label_smoothing) + 0.5 * label_smoothing
    return np.mean(_bce(t, p, from_logits), axis=-1)


def _sigmoid(x):
    return np.exp(-np.logaddexp(0.0, -x))


def binary_focal_crossentropy(
    t, p, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0
):
    t = t * (1 - label_smoothing) + 0.5 * label_smoothing
    bce = _bce(t, p, from_logits)
    prob = _sigmoid(p) if from_logits else p
    p_t = t * prob + (1 - t) * (1 - prob)
    out = (1 - p_t) ** gamma * bce
    if apply_class_balancing:
        out = (t * alpha + (1 - t) * (1 - alpha)) * out
    return np.mean(out, axis=-1)


def _log_softmax(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


def categorical_crossentropy(t, p, from_logits=False, label_smoothing=0.0, axis=-1):
    t = t * (1 - label_smoothing) + label_smoothing / t.shape[-1]
    if from_logits:
        return -np.sum(t * _log_softmax(p, axis), axis=axis)
    p = _clip_f32(p / np.sum(p, axis=axis, keepdims=True))
    return -np.sum(t * np.log(p), axis=axis)


def categorical_focal_crossentropy(t, p, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0):
    t = t * (1 - label_smoothing) + label_smoothing / t.shape[-1]
    if from_logits:
        p = np.exp(_log_softmax(p))
    p = _clip_f32(p / np.sum(p, axis=-1, keepdims=True))
    return np.sum(alpha * (1 - p) ** gamma * -t * np.log(p), axis=-1)


def sparse_categorical_crossentropy(t, p, from_logits=False, ignore_class=None):
    """Returns ``(values, valid_mask or None)``."""
    t = np.asarray(t).astype(np.int64)
    valid = None if ignore_class is None else t != ignore_class
    safe = t if valid is None else np.where(valid, t, 0)
    logits = p if from_logits else np.log(_clip_f32(p))
    out = -np.take_along_axis(_log_softmax(logits), safe[..., None], axis=-1)[..., 0]
    if valid is not None:
        out = np.where(valid, out, 0.0)
    return out, valid


def kl_divergence(t, p):
    t, p = np.clip(t, EPS, 1), np.clip(p, EPS, 1)
    return np.sum(t * np.log(t / p), axis=-1)


def poisson(t, p):
    return np.mean(p - t * np.log(p + EPS), axis=-1)


def _hinge_labels(t):
    return 2 * t - 1 if np.all((t == 0) | (t == 1)) else t


def hinge(t, p):
    return np.mean(np.maximum(1 - _hinge_labels(t) * p, 0), axis=-1)


def squared_hinge(t, p):
    return np.mean(np.maximum(1 - _hinge_labels(t) * p, 0) ** 2, axis=-1)


def categorical_hinge(t, p):
    return np.maximum(np.max((1 - t) * p, axis=-1) - np.sum(t * p, axis=-1) + 1, 0)


def reduce(values, sample_weight=None, mask=None, reduction="sum_over_batch_size"):
    """Keras' weighting and reduction of per-sample values, in float64."""
    values = np.asarray(values, np.float64)
    sw = None if sample_weight is None else np.asarray(sample_weight, np.float64)
    if mask is not None:
        m = mask.astype(np.float64)
        if reduction in ("mean", "sum_over_batch_size"):
            m = m * (m.size / m.sum() if m.sum() else 0.0)
        if sw is None:
            sw = m
        else:
            sw = sw.reshape(sw.shape + (1,) * (m.ndim - sw.ndim)) * m
    if sw is not None:
        if sw.ndim == values.ndim + 1 and sw.shape[-1] == 1:
            sw = sw[..., 0]
        values = values * sw.reshape(sw.shape + (1,) * (values.ndim - sw.ndim))
    if reduction in (None, "none") or values.ndim == 0:
        return values
    total = values.sum()
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and sw is not None:
        return total / sw.sum() if sw.sum() else 0.0
    return total / values.size


mean_squared_error, mean_absolute_error = mse, mae
mean_absolute_percentage_error, mean_squared_logarithmic_error = mape, msle
