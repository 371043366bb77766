"""Float64 numpy references for the rest of ``keras.ops.nn`` (``cases_nn_more.py``), written as directly as
possible: loops over windows, blocks, time steps and prefixes, nothing shared with the engines' definitions.

>>> sparsemax(np.array([0.0, 3.0, 0.5, 2.5])).tolist()
[0.0, 0.75, 0.0, 0.25]
>>> round(float(ctc_loss(np.array([[1]]), np.zeros((1, 2, 2)), np.array([1]), np.array([2]))[0]), 4)
0.2877
"""

import collections
import itertools
import math

import numpy as np

from . import reference_nn as R

NEG_INF = -np.inf


# ------------------------------------------------------------------------------------------------ activations
def sigmoid(x):
    return 0.5 * (1.0 + np.tanh(0.5 * x))


def celu(x, alpha=1.0):
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0.0) / alpha))


def glu(x, axis=-1):
    a, b = np.split(x, 2, axis=axis)
    return a * sigmoid(b)


def hard_shrink(x, threshold=0.5):
    return np.where(np.abs(x) > threshold, x, 0.0)


def hard_silu(x):
    return x * np.clip(x / 6.0 + 0.5, 0.0, 1.0)


def hard_tanh(x):
    return np.clip(x, -1.0, 1.0)


def log_sigmoid(x):
    return -np.logaddexp(0.0, -x)


def soft_shrink(x, threshold=0.5):
    return np.where(x > threshold, x - threshold, np.where(x < -threshold, x + threshold, 0.0))


def sparse_plus(x):
    return np.where(x <= -1.0, 0.0, np.where(x < 1.0, (x + 1.0) ** 2 / 4.0, x))


def sparse_sigmoid(x):
    return np.clip((x + 1.0) / 2.0, 0.0, 1.0)


def squareplus(x, b=4):
    return (x + np.sqrt(x * x + b)) / 2.0


def tanh_shrink(x):
    return x - np.tanh(x)


def threshold(x, threshold, default_value):
    return np.where(x > threshold, x, default_value)


def _simplex_projection(z):
    """The Euclidean projection of a vector onto the probability simplex (Martins & Astudillo, 2016)."""
    ordered = np.sort(z)[::-1]
    cumsum = np.cumsum(ordered)
    k = max(j + 1 for j in range(len(z)) if 1.0 + (j + 1) * ordered[j] > cumsum[j])
    tau = (cumsum[k - 1] - 1.0) / k
    return np.maximum(z - tau, 0.0)


def sparsemax(x, axis=-1):
    x = np.asarray(x, np.float64)
    return np.apply_along_axis(_simplex_projection, axis, x)


# --------------------------------------------------------------------------------------------- normalizations
def _along(v, ndim, axis):
    shape = [1] * ndim
    shape[axis] = -1
    return np.reshape(v, shape)


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    n = x.ndim
    y = (x - _along(mean, n, axis)) / np.sqrt(_along(variance, n, axis) + epsilon)
    if scale is not None:
        y = y * _along(scale, n, axis)
    if offset is not None:
        y = y + _along(offset, n, axis)
    return y


def _norm_axes(axis, ndim):
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return tuple(sorted(a % ndim for a in axes))


def _param(v, x, axes):
    if v is None:
        return None
    if v.ndim != x.ndim and axes != (x.ndim - 1,):
        return v.reshape([x.shape[d] if d in axes else 1 for d in range(x.ndim)])
    return v


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=1e-7, rms_scaling=False):
    axes = _norm_axes(axis, x.ndim)
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    gamma, beta = _param(gamma, x, axes), _param(beta, x, axes)
    if rms_scaling:
        y = x / np.sqrt(var + epsilon)
        return y if gamma is None else y * gamma
    y = (x - mean) / np.sqrt(var + epsilon)
    if gamma is not None:
        y = y * gamma
    if beta is not None:
        y = y + beta
    return y


def rms_normalization(x, scale=None, axis=-1, epsilon=1e-7):
    axes = _norm_axes(axis, x.ndim)
    y = x / np.sqrt((x * x).mean(axis=axes, keepdims=True) + epsilon)
    return y if scale is None else y * scale


def normalize(x, axis=-1, order=2, epsilon=1e-7):
    x = np.atleast_1d(np.asarray(x, np.float64))
    axes = None if axis is None else _norm_axes(axis, x.ndim)
    norm = (np.abs(x) ** order).sum(axis=axes, keepdims=True) ** (1.0 / order)
    return x / np.maximum(norm, epsilon)


def psnr(x1, x2, max_val):
    mse = np.mean((np.asarray(x1, np.float64) - np.asarray(x2, np.float64)) ** 2)
    return np.asarray(20.0 * np.log10(max_val) - 10.0 * np.log10(mse))


# ---------------------------------------------------------------------------------------------- cross-entropy
EPS = 1e-7


def binary_crossentropy(target, output, from_logits=False):
    if from_logits:
        return -(target * log_sigmoid(output) + (1.0 - target) * log_sigmoid(-output))
    p = np.clip(output, EPS, 1.0 - EPS)
    return -(target * np.log(p) + (1.0 - target) * np.log(1.0 - p))


def _log_softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    if from_logits:
        log_p = _log_softmax(output, axis)
    else:
        log_p = np.log(np.clip(output / output.sum(axis=axis, keepdims=True), EPS, 1.0 - EPS))
    return -(target * log_p).sum(axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    axis = axis % output.ndim
    target = np.asarray(target, np.int64)
    if target.ndim == output.ndim and target.shape[-1] == 1:
        target = target[..., 0]
    logits = output if from_logits else np.log(np.clip(output, EPS, 1.0 - EPS))
    log_p = _log_softmax(logits, axis)
    picked = np.take_along_axis(log_p, np.expand_dims(target, axis), axis=axis)
    return -np.squeeze(picked, axis=axis)


def multi_hot(inputs, num_classes, axis=-1, dtype=None):
    inputs = np.asarray(inputs)
    hot = np.zeros(inputs.shape + (num_classes,))
    for idx in np.ndindex(inputs.shape):
        label = inputs[idx]
        if 0 <= label < num_classes:
            hot[idx + (label,)] = 1.0
    if axis != -1:
        hot = np.moveaxis(hot, -1, axis)
    out = hot.max(axis=1 if inputs.ndim > 1 else 0)
    return out.astype(dtype or "float32")


# ------------------------------------------------------------------------------------- pooling, convolutions
def _adaptive(x, output_size, data_format, reduce):
    x = np.asarray(x)
    x = R._to_last(x, data_format)
    spatial = x.shape[1:-1]
    sizes = (output_size,) * len(spatial) if isinstance(output_size, int) else tuple(output_size)
    out = np.zeros((x.shape[0],) + sizes + (x.shape[-1],), np.float64 if reduce is np.mean else x.dtype)
    for cell in itertools.product(*(range(o) for o in sizes)):
        window = tuple(
            slice(math.floor(i * n / o), math.ceil((i + 1) * n / o)) for i, n, o in zip(cell, spatial, sizes)
        )
        block = x[(slice(None),) + window + (slice(None),)]
        out[(slice(None),) + cell + (slice(None),)] = reduce(block, axis=tuple(range(1, 1 + len(sizes))))
    return R._from_last(out, data_format)


def adaptive_average_pool(inputs, output_size, data_format=None):
    return _adaptive(np.asarray(inputs, np.float64), output_size, data_format, np.mean)


def adaptive_max_pool(inputs, output_size, data_format=None):
    return _adaptive(inputs, output_size, data_format, np.max)


def separable_conv(
    inputs, depthwise_kernel, pointwise_kernel, strides=1, padding="valid", data_format=None, dilation_rate=1
):
    mid = R.depthwise_conv(
        inputs, depthwise_kernel, strides=strides, padding=padding, data_format=data_format, dilation_rate=dilation_rate
    )
    return R.conv(mid, pointwise_kernel, data_format=data_format)


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = map(_pair, (kernel_size, dilation, padding, stride))
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    nh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    nw = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, c * kh * kw, nh * nw), x.dtype)
    for ci, i, j, r, q in itertools.product(range(c), range(kh), range(kw), range(nh), range(nw)):
        out[:, (ci * kh + i) * kw + j, r * nw + q] = xp[:, ci, r * sh + i * dh, q * sw + j * dw]
    return out


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    (oh, ow), (kh, kw), (dh, dw), (ph, pw), (sh, sw) = map(_pair, (output_size, kernel_size, dilation, padding, stride))
    n, ckk, _ = x.shape
    c = ckk // (kh * kw)
    nh = (oh + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    nw = (ow + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, c, oh + 2 * ph, ow + 2 * pw), x.dtype)
    for ci, i, j, r, q in itertools.product(range(c), range(kh), range(kw), range(nh), range(nw)):
        out[:, ci, r * sh + i * dh, q * sw + j * dw] += x[:, (ci * kh + i) * kw + j, r * nw + q]
    return out[:, :, ph : ph + oh, pw : pw + ow]


def depth_to_space(x, block_size, data_format="channels_last"):
    r = block_size
    if data_format == "channels_first":
        n, c, h, w = x.shape
        out = np.zeros((n, c // (r * r), h * r, w * r), x.dtype)
        for ci, y, z, i, j in itertools.product(range(c // (r * r)), range(h), range(w), range(r), range(r)):
            out[:, ci, y * r + i, z * r + j] = x[:, ci * r * r + i * r + j, y, z]
        return out
    n, h, w, c = x.shape
    out = np.zeros((n, h * r, w * r, c // (r * r)), x.dtype)
    for ci, y, z, i, j in itertools.product(range(c // (r * r)), range(h), range(w), range(r), range(r)):
        out[:, y * r + i, z * r + j, ci] = x[:, y, z, (i * r + j) * (c // (r * r)) + ci]
    return out


def space_to_depth(x, block_size, data_format="channels_last"):
    r = block_size
    if data_format == "channels_first":
        n, c, h, w = x.shape
        out = np.zeros((n, c * r * r, h // r, w // r), x.dtype)
        for ci, y, z, i, j in itertools.product(range(c), range(h // r), range(w // r), range(r), range(r)):
            out[:, ci * r * r + i * r + j, y, z] = x[:, ci, y * r + i, z * r + j]
        return out
    n, h, w, c = x.shape
    out = np.zeros((n, h // r, w // r, c * r * r), x.dtype)
    for ci, y, z, i, j in itertools.product(range(c), range(h // r), range(w // r), range(r), range(r)):
        out[:, y, z, (i * r + j) * c + ci] = x[:, y * r + i, z * r + j, ci]
    return out


# ------------------------------------------------------------------------------------------------- attention
def dot_product_attention(
    query,
    key,
    value,
    bias=None,
    mask=None,
    scale=None,
    is_causal=False,
    flash_attention=None,
    attn_logits_soft_cap=None,
):
    b, t, n, h = query.shape
    s, kv = key.shape[1], key.shape[2]
    scale = 1.0 / math.sqrt(h) if scale is None else scale
    out = np.zeros((b, t, n, value.shape[3]))
    keep = np.ones((b, n, t, s), bool)
    if mask is not None:
        keep &= np.broadcast_to(np.asarray(mask, bool), (b, n, t, s))
    if is_causal:
        keep &= np.tril(np.ones((t, s), bool))
    logits_bias = np.zeros((b, n, t, s)) if bias is None else np.broadcast_to(bias, (b, n, t, s))
    for bi, head in itertools.product(range(b), range(n)):
        kvh = head // (n // kv)  # grouped-query attention: n // kv query heads share a key/value head
        logits = scale * query[bi, :, head, :] @ key[bi, :, kvh, :].T + logits_bias[bi, head]
        if attn_logits_soft_cap is not None:
            logits = attn_logits_soft_cap * np.tanh(logits / attn_logits_soft_cap)
        logits = np.where(keep[bi, head], logits, -1e300)  # a fully masked row: equal logits, a plain average
        e = np.exp(logits - logits.max(axis=-1, keepdims=True))
        out[bi, :, head, :] = (e / e.sum(axis=-1, keepdims=True)) @ value[bi, :, kvh, :]
    return out


# ------------------------------------------------------------------------------------------------------- CTC
def _log_softmax_last(x):
    return _log_softmax(np.asarray(x, np.float64), -1)


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """The CTC negative log-likelihood by the textbook alpha recursion (Graves et al., 2006), one sequence at a
    time, with -inf for impossible states."""
    log_probs = _log_softmax_last(output)
    losses = []
    for b in range(len(target)):
        labels = [int(v) for v in target[b][: int(target_length[b])]]
        ext = [mask_index]
        for label in labels:
            ext += [label, mask_index]
        steps = int(output_length[b])
        alpha = np.full(len(ext), NEG_INF)
        alpha[0] = log_probs[b, 0, ext[0]] if steps else 0.0
        if len(ext) > 1 and steps:
            alpha[1] = log_probs[b, 0, ext[1]]
        for t in range(1, steps):
            new = np.full(len(ext), NEG_INF)
            for s in range(len(ext)):
                terms = [alpha[s]] + ([alpha[s - 1]] if s >= 1 else [])
                if s >= 2 and ext[s] != mask_index and ext[s] != ext[s - 2]:
                    terms.append(alpha[s - 2])
                new[s] = np.logaddexp.reduce(terms) + log_probs[b, t, ext[s]]
            alpha = new
        end = alpha[-1] if len(ext) == 1 else np.logaddexp(alpha[-1], alpha[-2])
        losses.append(-end)
    return np.array(losses)


def _greedy(logits, length, merge_repeated, blank):
    best = [int(np.argmax(logits[t])) for t in range(length)]
    score = -sum(float(np.max(logits[t])) for t in range(length))
    labels, previous = [], None
    for c in best:
        if not (merge_repeated and c == previous) and c != blank:
            labels.append(c)
        previous = c
    return labels, score


def _beam(logits, length, beam_width, blank):
    """CTC prefix beam search with a dictionary of prefixes: ``{prefix: (log p ending in blank, log p ending in a
    label)}``, the ``beam_width`` most probable prefixes kept after each step."""
    log_probs = _log_softmax_last(logits)
    beams = {(): (0.0, NEG_INF)}
    for t in range(length):
        lp = log_probs[t]
        grown = collections.defaultdict(lambda: [NEG_INF, NEG_INF])
        for prefix, (pb, pnb) in beams.items():
            total = np.logaddexp(pb, pnb)
            grown[prefix][0] = np.logaddexp(grown[prefix][0], total + lp[blank])
            if prefix:
                grown[prefix][1] = np.logaddexp(grown[prefix][1], pnb + lp[prefix[-1]])
            for c in range(len(lp)):
                if c == blank:
                    continue
                longer = prefix + (c,)
                source = pb if prefix and prefix[-1] == c else total
                grown[longer][1] = np.logaddexp(grown[longer][1], source + lp[c])
        ranked = sorted(grown.items(), key=lambda kv: -np.logaddexp(*kv[1]))
        beams = dict(ranked[:beam_width])
    return sorted(((list(p), float(np.logaddexp(*v))) for p, v in beams.items()), key=lambda e: -e[1])


def ctc_decode(
    inputs, sequence_lengths, strategy="greedy", beam_width=100, top_paths=1, merge_repeated=True, mask_index=0
):
    inputs = np.asarray(inputs, np.float64)
    batch, steps, classes = inputs.shape
    blank = classes - 1 if mask_index is None else mask_index % classes
    count = 1 if strategy == "greedy" else top_paths
    paths = np.full((count, batch, steps), -1, np.int32)
    scores = np.zeros((batch, count))
    for b in range(batch):
        length = int(sequence_lengths[b])
        if strategy == "greedy":
            found = [_greedy(inputs[b], length, merge_repeated, blank)]
        else:
            found = _beam(inputs[b], length, beam_width, blank)[:top_paths]
        for p, (labels, score) in enumerate(found):
            paths[p, b, : len(labels)] = labels
            scores[b, p] = score
    return paths, scores
