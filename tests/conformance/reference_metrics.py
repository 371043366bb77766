"""Float64 numpy references of the metrics, written from their definitions (Keras 3's): each takes the
list of batches ``[(y_true, y_pred, sample_weight or None), ...]`` and returns the final result.

>>> import numpy as np
>>> float(mean_of(lambda t, p: (t == p).astype(float))([(np.array([1., 2.]), np.array([1., 3.]), None)]))
0.5
"""

import numpy as np

from . import reference_losses as L


def mean_of(per_sample):
    """The weighted mean of a per-sample function over all batches."""

    def result(batches):
        total = count = 0.0
        for t, p, sw in batches:
            v = np.asarray(per_sample(t, p), np.float64)
            v = v.reshape(v.shape[0], -1).mean(axis=1) if v.ndim > 1 else v
            w = np.ones(v.shape[0]) if sw is None else np.asarray(sw, np.float64)
            total += np.sum(v * w)
            count += np.sum(w)
        return total / count if count else 0.0

    return result


def sparse_accuracy(t, p):
    return (np.asarray(t).reshape(-1) == np.argmax(p, -1)).astype(float)


def categorical_accuracy(t, p):
    return (np.argmax(t, -1) == np.argmax(p, -1)).astype(float)


def binary_accuracy(t, p, threshold=0.5):
    return ((p > threshold).astype(float) == t).astype(float)


def top_k(t, p, k):
    t = np.asarray(t).reshape(-1).astype(int)
    score = p[np.arange(len(t)), t]
    return (np.sum(p > score[:, None], -1) < k).astype(float)


def rmse(batches):
    return np.sqrt(mean_of(lambda t, p: (t - p) ** 2)(batches))


def counts(batches, thresholds, top_k=None, class_id=None):
    """(tp, fp, tn, fn) per threshold, flattening labels."""
    thresholds = np.asarray(thresholds, np.float64)
    out = np.zeros((4, len(thresholds)))
    for t, p, sw in batches:
        t, p = np.asarray(t, np.float64), np.asarray(p, np.float64)
        w = np.ones_like(p) if sw is None else np.broadcast_to(np.asarray(sw, np.float64)[:, None], p.shape)
        if top_k is not None:
            kth = -np.sort(-p, axis=-1)[:, top_k - 1 : top_k]
            p = np.where(p >= kth, p, -1e10)
        if class_id is not None:
            t, p, w = t[:, class_id], p[:, class_id], w[:, class_id]
        pos = p.reshape(1, -1) > thresholds.astype(np.float32).astype(np.float64)[:, None]
        lab = t.reshape(1, -1) != 0
        w = w.reshape(1, -1)
        out += [
            np.sum(w * (lab & pos), 1),
            np.sum(w * (~lab & pos), 1),
            np.sum(w * (~lab & ~pos), 1),
            np.sum(w * (lab & ~pos), 1),
        ]
    return out


def _div(a, b):
    return np.where(b == 0, 0.0, a / np.where(b == 0, 1.0, b))


def precision(batches, thresholds=(0.5,), **kw):
    tp, fp, _, _ = counts(batches, thresholds, **kw)
    return _div(tp, tp + fp)


def recall(batches, thresholds=(0.5,), **kw):
    tp, _, _, fn = counts(batches, thresholds, **kw)
    return _div(tp, tp + fn)


def auc(batches, num_thresholds=200, curve="ROC"):
    eps = 1e-7
    th = [-eps] + [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)] + [1 + eps]
    tp, fp, tn, fn = counts([(t, np.clip(p, 0, 1), sw) for t, p, sw in batches], th)
    if curve == "ROC":
        x, y = _div(fp, fp + tn), _div(tp, tp + fn)
        return np.sum((x[:-1] - x[1:]) * (y[:-1] + y[1:]) / 2)
    dtp = tp[:-1] - tp[1:]
    pp = tp + fp
    dp = pp[:-1] - pp[1:]
    slope = _div(dtp, np.maximum(dp, 0))
    intercept = tp[1:] - slope * pp[1:]
    ratio = np.where((pp[:-1] > 0) & (pp[1:] > 0), _div(pp[:-1], np.maximum(pp[1:], 0)), 1.0)
    return np.sum(_div(slope * (dtp + intercept * np.log(ratio)), np.maximum(tp[1:] + fn[1:], 0)))


def fbeta(batches, beta=1.0, average=None, threshold=None):
    eps = 1e-7
    tp = fp = fn = support = 0.0
    for t, p, sw in batches:
        t, p = np.asarray(t, np.float64), np.asarray(p, np.float64)
        pred = (p > threshold) if threshold is not None else ((p >= p.max(-1, keepdims=True)) & (np.abs(p) > 1e-9))
        pred = pred.astype(float)
        w = np.ones((len(t), 1)) if sw is None else np.asarray(sw, np.float64)[:, None]
        axis = None if average == "micro" else 0
        tp += np.sum(w * pred * t, axis)
        fp += np.sum(w * pred * (1 - t), axis)
        fn += np.sum(w * (1 - pred) * t, axis)
        support += np.sum(w * t, axis)
    prec, rec = tp / (tp + fp + eps), tp / (tp + fn + eps)
    f = (1 + beta**2) * prec * rec / (beta**2 * prec + rec + eps)
    if average == "weighted":
        return np.sum(f * support / (np.sum(support) + eps))
    return np.mean(f) if average else f


def r2(batches):
    t = np.concatenate([b[0] for b in batches]).astype(np.float64)
    p = np.concatenate([b[1] for b in batches]).astype(np.float64)
    w = np.concatenate([np.ones(len(b[0])) if b[2] is None else b[2] for b in batches]).astype(np.float64)[:, None]
    mean = np.sum(w * t, 0) / np.sum(w * np.ones_like(t), 0)
    ss_tot = np.sum(w * (t - mean) ** 2, 0)
    ss_res = np.sum(w * (t - p) ** 2, 0)
    return np.mean(1 - ss_res / ss_tot)


def loss_mean(fn, **kw):
    return mean_of(lambda t, p: fn(t, p, **kw))


def sparse_ce(**kw):
    return mean_of(lambda t, p: L.sparse_categorical_crossentropy(t, p, **kw)[0])
