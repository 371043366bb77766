"""GPTQ, the column-by-column weight quantizer that corrects each column's rounding error with the inverse
Hessian of the layer's inputs (Frantar et al., 2022), as Keras 3.15 runs it.

For a layer ``y = x @ W`` with ``W`` of shape ``(in, out)``, the Hessian of the squared output error with respect
to a row of ``Wᵀ`` is ``H = 2·XᵀX / n`` over the ``n`` calibration rows ``X``. Columns of ``Wᵀ`` (input features)
are rounded one after another to ``2**bits`` unsigned levels ``q`` with a scale and a zero point per output
channel and group of inputs (``w ≈ (q - zero) * scale``); the rounding error of column ``j``, divided by
``H⁻¹[j, j]``, is subtracted from the columns not rounded yet, weighted by ``H⁻¹[j, later]``, in blocks of 128
columns as the paper does. ``g_idx[i]`` stores ``position(i) / group_size`` (a float whose integer part is the
group of input ``i``), as Keras stores it.

All of this is host arithmetic on numpy: the weights and Hessians are copied off the engine
(``ops.convert_to_numpy``), the Hessian is accumulated and inverted in float64 and the rounding loop runs in
float32, so every engine gets the same integers.

>>> import numpy as np
>>> w = np.array([[0.5, -1.0], [0.25, 2.0]], "float32")   # (in=2, out=2)
>>> q, scale, zero, g_idx = gptq_quantize_kernel(w, np.eye(2) * 2.0, weight_bits=4, group_size=-1)
>>> np.allclose(dequantize(q, scale, zero, g_idx).T, w, atol=0.1), q.shape, g_idx.tolist()
(True, (2, 2), [0.0, 0.5])
"""

import numpy as np


def quantization_parameters(w, *, bits, symmetric=False, per_channel=True, group_size=-1):
    """The scale, zero point and largest level of unsigned ``bits``-bit quantization of ``w`` (shape
    ``(out, in)``), per output channel and group of ``group_size`` inputs.

    Args:
        w: float array ``(out, in)``.
        bits: the bit width.
        symmetric: a range symmetric around zero (the zero point is then the middle level).
        per_channel: one range per output channel (True) or one for the whole tensor.
        group_size: inputs per group; -1 for one group.

    Returns:
        ``(scale, zero, maxq)``: float32 ``(out, groups)``, uint8 ``(out, groups)`` and the float ``2**bits - 1``.

    >>> s, z, m = quantization_parameters(np.array([[0.0, 3.0]], "float32"), bits=2)
    >>> s.tolist(), z.tolist(), m
    ([[1.0]], [[0]], 3.0)
    """
    w = np.asarray(w, "float32")
    out, n_in = w.shape
    groups = -(-n_in // group_size) if per_channel and group_size > 0 else 1
    if groups > 1:
        padded = np.pad(w, [(0, 0), (0, groups * group_size - n_in)])
        grouped = padded.reshape(out, groups, group_size)
        lo, hi = grouped.min(axis=2), grouped.max(axis=2)
    else:
        flat = w.reshape(out, -1) if per_channel else w.reshape(1, -1)
        lo, hi = flat.min(axis=1), flat.max(axis=1)
    if not symmetric:
        # the range holds zero, so that the zero point is a level (0 .. maxq) and fits its uint8 storage
        lo, hi = np.minimum(lo, 0), np.maximum(hi, 0)
    if symmetric:
        top = np.maximum(np.abs(lo), hi)
        lo = np.where(lo < 0, -top, lo)
        hi = top
    flat_range = lo == hi
    lo = np.where(flat_range, lo - 1, lo).astype("float32")
    hi = np.where(flat_range, hi + 1, hi).astype("float32")
    maxq = float(2**bits - 1)
    scale = ((hi - lo) / np.float32(maxq)).astype("float32")
    scale = np.where(scale <= 0, np.float32(1e-8), scale).astype("float32")
    if symmetric:
        zero = np.full_like(scale, (maxq + 1) / 2)
    else:
        zero = np.round(-lo / scale)
    if groups == 1:
        scale = np.broadcast_to(scale.reshape(-1, 1), (out, 1)).copy()
        zero = np.broadcast_to(zero.reshape(-1, 1), (out, 1)).copy()
    return scale.astype("float32"), zero.astype("uint8"), maxq


def _round(column, scale, zero, maxq):
    return np.clip(np.round(column / scale + zero.astype("float32")), 0, maxq)


def damped_hessian(hessian, damping):
    """``hessian`` with its zero diagonal entries (inputs never active) set to 1 and ``damping`` times the mean
    diagonal added to the diagonal, so it can be inverted.

    Args:
        hessian: square float array.
        damping: the fraction of the mean diagonal to add.

    Returns:
        A float64 array.

    >>> damped_hessian(np.diag([2.0, 0.0]), 0.5).tolist()
    [[2.75, 0.0], [0.0, 1.75]]
    """
    h = np.array(hessian, "float64")
    diag = np.diagonal(h).copy()
    dead = diag == 0
    diag[dead] = 1.0
    diag = diag + damping * diag.mean()
    np.fill_diagonal(h, diag)
    return h


def gptq_quantize_kernel(
    kernel,
    hessian,
    *,
    weight_bits=4,
    group_size=128,
    symmetric=False,
    per_channel=True,
    activation_order=False,
    hessian_damping=0.01,
    blocksize=128,
):
    """Quantizes a kernel ``(in, out)`` with GPTQ against the Hessian ``(in, in)`` of its inputs.

    Args:
        kernel: float array ``(in, out)``.
        hessian: ``2·XᵀX / n`` of the layer's calibration inputs ``X`` (``(n, in)``).
        weight_bits: bits per weight.
        group_size: inputs per scale group; -1 for one group.
        symmetric: symmetric ranges.
        per_channel: a range per output channel.
        activation_order: round the inputs with the largest Hessian diagonal first.
        hessian_damping: the fraction of the mean diagonal added before inverting.
        blocksize: columns rounded before the accumulated error reaches the later columns.

    Returns:
        ``(q, scale, zero, g_idx)``: the levels (uint8 ``(out, in)``), float32 scales and uint8 zero points
        ``(out, groups)``, and float32 ``g_idx`` ``(in,)``.

    >>> w = np.random.default_rng(0).normal(size=(8, 3)).astype("float32")
    >>> q, scale, zero, g_idx = gptq_quantize_kernel(w, np.eye(8), group_size=4)
    >>> scale.shape, int(q.max()) <= 15
    ((3, 2), True)
    """
    weights = np.array(kernel, "float32").T.copy()
    n_in = weights.shape[1]
    h = damped_hessian(hessian, hessian_damping)
    inverse = np.linalg.inv(h)
    perm = None
    if activation_order:
        metric = np.diagonal(h) + np.arange(n_in) / n_in * 1e-12
        perm = np.argsort(-metric, kind="stable")
        weights = weights[:, perm]
        inverse = inverse[perm][:, perm]
    inverse = inverse.astype("float32")

    def params(w):
        return quantization_parameters(
            w, bits=weight_bits, symmetric=symmetric, per_channel=per_channel, group_size=group_size
        )

    group = n_in if group_size == -1 else group_size
    q = np.zeros(weights.shape, "float32")
    scales, zeros = [], []
    cached_start, scale, zero, maxq = -1, None, None, None
    for start in range(0, n_in, blocksize):
        end = min(start + blocksize, n_in)
        block = weights[:, start:end].copy()
        errors = np.zeros_like(block)
        block_inverse = inverse[start:end, start:end]
        for j in range(end - start):
            col = start + j
            group_start = (col // group) * group
            if group_start != cached_start:
                # a new group: its range is measured on the columns as corrected so far
                scale, zero, maxq = params(weights[:, group_start : min(group_start + group, n_in)])
                scales.append(scale)
                zeros.append(zero)
                cached_start = group_start
            levels = _round(block[:, j : j + 1], scale, zero, maxq)[:, 0]
            q[:, col] = levels
            rounded = scale[:, 0] * (levels - zero[:, 0].astype("float32"))
            err = (block[:, j] - rounded) / block_inverse[j, j]
            errors[:, j] = err
            block[:, j + 1 :] -= np.outer(err, block_inverse[j, j + 1 :])
        weights[:, end:] -= errors @ inverse[start:end, end:]
    g_idx = (np.arange(n_in) / group).astype("float32")
    if perm is not None:
        inverse_perm = np.argsort(perm)
        g_idx = g_idx[inverse_perm]
        q = q[:, inverse_perm]
    return q.astype("uint8"), np.concatenate(scales, axis=1), np.concatenate(zeros, axis=1), g_idx


def dequantize(q, scale, zero, g_idx):
    """The float weights ``(out, in)`` that GPTQ levels ``q`` stand for: ``(q - zero[g]) * scale[g]`` with the
    group ``g = int(g_idx)`` of each input.

    Args:
        q: levels ``(out, in)``.
        scale: scales ``(out, groups)``.
        zero: zero points ``(out, groups)``.
        g_idx: ``(in,)``.

    Returns:
        A float32 array ``(out, in)``.

    >>> dequantize(np.array([[3, 1]]), np.array([[0.5]]), np.array([[1]]), np.array([0.0, 0.5])).tolist()
    [[1.0, 0.0]]
    """
    groups = np.asarray(g_idx).astype("int32")
    scales = np.asarray(scale, "float32")[:, groups]
    zeros = np.asarray(zero).astype("float32")[:, groups]
    return ((np.asarray(q).astype("float32") - zeros) * scales).astype("float32")
