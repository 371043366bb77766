"""AWQ, activation-aware weight quantization (Lin et al., 2023), as Keras 3.15 runs it: 4-bit weights whose
input channels are first multiplied by a scale that grows with how large that channel's activations get.

For a kernel ``W`` (``(in, out)``) and the largest absolute activation ``a`` of each input channel over the
calibration data, the scales ``s = a**r`` (normalised by ``sqrt(max(s) * min(s))``) are tried for ``r`` on a grid
of ``num_grid_points + 1`` points in ``[0, 1]``; the one whose rounded ``(Wᵀ * s) / s`` is closest to ``Wᵀ``,
each channel's error weighted by ``a²``, wins. The layer stores the 4-bit levels of ``Wᵀ * s`` (asymmetric, one
scale and zero point per output and group of inputs) and ``s`` (``awq_scales``), and computes with
``dequantized / s``. Host arithmetic on numpy (float32), so every engine gets the same integers.

>>> import numpy as np
>>> w = np.random.default_rng(0).normal(size=(8, 3)).astype("float32")
>>> q, scale, zero, awq_scales, g_idx = awq_quantize_kernel(w, np.linspace(0.1, 4, 8), group_size=4)
>>> q.shape, scale.shape, awq_scales.shape, g_idx.tolist()
((3, 8), (3, 2), (8,), [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0])
"""

import numpy as np

from .gptq import _round, quantization_parameters


def _round_trip(w, group_size):
    """``(levels, scale, zero, group of each input)`` of 4-bit asymmetric quantization of ``w`` ``(out, in)``."""
    scale, zero, maxq = quantization_parameters(w, bits=4, symmetric=False, per_channel=True, group_size=group_size)
    groups = np.zeros(w.shape[1], "int64") if group_size == -1 else np.arange(w.shape[1]) // group_size
    levels = _round(w, scale[:, groups], zero[:, groups], maxq)
    return levels, scale, zero, groups


def awq_scales_search(weights, magnitudes, *, num_grid_points=20, group_size=-1):
    """The per-input-channel scales that minimise the activation-weighted rounding error of ``weights``.

    Args:
        weights: float array ``(out, in)`` (the transposed kernel).
        magnitudes: the largest absolute activation of each input channel, ``(in,)``.
        num_grid_points: the grid of exponents has this many steps from 0 to 1.
        group_size: inputs per quantization group; -1 for one group.

    Returns:
        float32 scales ``(in,)``.

    >>> awq_scales_search(np.ones((2, 3), "float32"), np.ones(3), num_grid_points=2).tolist()
    [1.0, 1.0, 1.0]
    """
    weights = np.asarray(weights, "float32")
    a = np.asarray(magnitudes, "float32")
    a = np.where(a < 1e-8, np.float32(1.0), a)
    best_loss, best = None, np.ones(weights.shape[1], "float32")
    for i in range(num_grid_points + 1):
        ratio = i / num_grid_points
        scales = np.ones_like(a) if ratio == 0 else np.power(a, np.float32(ratio))
        scales = np.maximum(scales, np.float32(1e-4))
        scales = (scales / max(np.sqrt(scales.max() * scales.min()), np.float32(1e-8))).astype("float32")
        scaled = weights * scales
        levels, scale, zero, groups = _round_trip(scaled, group_size)
        restored = (levels - zero[:, groups].astype("float32")) * scale[:, groups] / scales
        loss = np.mean(np.square(weights - restored) * np.square(a))
        if best_loss is None or loss < best_loss:
            best_loss, best = loss, scales
    return best.astype("float32")


def awq_quantize_kernel(kernel, magnitudes, *, group_size=128, num_grid_points=20):
    """Quantizes a kernel ``(in, out)`` with AWQ given its inputs' largest absolute activations.

    Args:
        kernel: float array ``(in, out)``.
        magnitudes: ``(in,)`` largest absolute activation per input channel on the calibration data.
        group_size: inputs per scale group; -1 for one group.
        num_grid_points: grid steps of the scale search.

    Returns:
        ``(q, scale, zero, awq_scales, g_idx)``: uint8 levels ``(out, in)``, float32 scales and uint8 zero
        points ``(out, groups)``, float32 ``awq_scales`` ``(in,)`` and ``g_idx`` ``(in,)`` (each input's group).

    >>> q, scale, zero, s, g = awq_quantize_kernel(np.eye(2, dtype="float32"), np.ones(2), group_size=-1)
    >>> q.tolist(), g.tolist()
    ([[15, 0], [0, 15]], [0.0, 0.0])
    """
    weights = np.asarray(kernel, "float32").T
    scales = awq_scales_search(weights, magnitudes, num_grid_points=num_grid_points, group_size=group_size)
    levels, scale, zero, groups = _round_trip(weights * scales, group_size)
    return levels.astype("uint8"), scale, zero, scales, groups.astype("float32")
