"""The interpolation matrices of ``hl.ops.image.resize``, computed on the host with numpy.

A resize from ``in_size`` to ``out_size`` pixels along one axis is a linear map: output pixel ``i`` is a
weighted sum of input pixels. Since both sizes are static, the weights form a small ``(out_size, in_size)``
matrix that depends on nothing else, so the resize itself becomes two matrix products (one per spatial
axis) that every engine runs and differentiates natively.

The weights reproduce TensorFlow's kernels (which Keras 3's ``keras.ops.image.resize`` runs with its
default backend) including their float32 arithmetic: ``resize_bilinear`` / ``resize_nearest_neighbor`` /
``resize_bicubic`` with half-pixel centers, and ``scale_and_translate`` for the antialiased and Lanczos
methods.
"""

import math

import numpy as np

_F = np.float32


def _scale(in_size, out_size):
    # TensorFlow's CalculateResizeScale (no align_corners): a float32 ratio.
    return _F(in_size) / _F(out_size)


def nearest_indices(in_size, out_size):
    """Source index of each output pixel (``resize_nearest_neighbor`` with half-pixel centers)."""
    scale = _scale(in_size, out_size)
    centers = (np.arange(out_size, dtype=_F) + _F(0.5)) * scale
    return np.clip(np.floor(centers).astype(np.int64), 0, in_size - 1)


def bilinear_matrix(in_size, out_size):
    """``resize_bilinear`` with half-pixel centers: the two neighbours, edges clamped."""
    scale = _scale(in_size, out_size)
    pos = (np.arange(out_size, dtype=_F) + _F(0.5)) * scale - _F(0.5)
    floor = np.floor(pos)
    lower = np.maximum(floor.astype(np.int64), 0)
    upper = np.minimum(np.ceil(pos).astype(np.int64), in_size - 1)
    lerp = (pos - floor).astype(np.float64)
    m = np.zeros((out_size, in_size))
    rows = np.arange(out_size)
    np.add.at(m, (rows, lower), 1.0 - lerp)
    np.add.at(m, (rows, upper), lerp)
    return m


_TABLE_SIZE = 1024


def _keys_table(a=-0.5):
    # resize_bicubic reads its Keys cubic coefficients from a 1024-entry table (it quantizes the
    # fractional offset to 1/1024): reproduce the table, not the exact polynomial.
    x = np.arange(_TABLE_SIZE + 1, dtype=_F) / _F(_TABLE_SIZE)
    a = _F(a)
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    x1 = x + _F(1.0)  # the outer taps sit one pixel further away
    far = ((a * x1 - 5 * a) * x1 + 8 * a) * x1 - 4 * a
    return near.astype(_F), far.astype(_F)


def bicubic_matrix(in_size, out_size):
    """``resize_bicubic`` with half-pixel centers (Keys a=-0.5; taps outside the image get weight 0 and
    the rest are renormalized)."""
    near, far = _keys_table()
    scale = _scale(in_size, out_size)
    m = np.zeros((out_size, in_size))
    for i in range(out_size):
        loc = (_F(i) + _F(0.5)) * scale - _F(0.5)
        base = int(np.floor(loc))
        offset = int(np.rint(_F(loc - _F(base)) * _F(_TABLE_SIZE)))
        weights = [far[offset], near[offset], near[_TABLE_SIZE - offset], far[_TABLE_SIZE - offset]]
        taps = [base - 1, base, base + 1, base + 2]
        kept = [(t, float(w)) for t, w in zip(taps, weights) if 0 <= t < in_size]
        total = np.float32(sum(np.float32(w) for _, w in kept))
        for t, w in kept:
            m[i, t] += w / float(total) if abs(total) >= 1000.0 * np.finfo(np.float32).tiny else w
    return m


def _triangle(x):
    return np.maximum(0.0, 1.0 - np.abs(x))


def _keys_cubic(x):
    x = np.abs(x)
    return np.where(
        x >= 2.0, 0.0, np.where(x >= 1.0, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0, ((1.5 * x - 2.5) * x) * x + 1.0)
    )


def _lanczos(radius):
    def kernel(x):
        x = np.abs(x)
        pi = 3.14159265359
        safe = np.where(x <= 1e-3, 1.0, x)
        value = radius * np.sin(pi * safe) * np.sin(pi * safe / radius) / (pi * pi * safe * safe)
        return np.where(x > radius, 0.0, np.where(x <= 1e-3, 1.0, value))

    return kernel


# (kernel, radius) of scale_and_translate's kernel types.
_KERNELS = {
    "bilinear": (_triangle, 1.0),
    "bicubic": (_keys_cubic, 2.0),
    "lanczos3": (_lanczos(3.0), 3.0),
    "lanczos5": (_lanczos(5.0), 5.0),
}


def scale_and_translate_matrix(in_size, out_size, method, antialias):
    """TensorFlow's ``scale_and_translate`` weights (no translation): the kernel widened by the
    downscaling factor when ``antialias``, weights renormalized over the taps inside the image."""
    kernel, radius = _KERNELS[method]
    scale = _F(out_size) / _F(in_size)
    inv_scale = _F(1.0) / scale
    kernel_scale = max(float(inv_scale), 1.0) if antialias else 1.0
    m = np.zeros((out_size, in_size))
    for i in range(out_size):
        sample = float(_F(_F(i) + _F(0.5)) * inv_scale)
        if sample < 0 or sample > in_size:
            continue
        start = math.ceil(sample - radius * kernel_scale - 0.5)
        end = math.floor(sample + radius * kernel_scale - 0.5)
        start = min(max(start, 0), in_size - 1)
        end = min(max(end, 0), in_size - 1) + 1
        src = np.arange(start, end)
        w = kernel((src + 0.5 - sample) / kernel_scale)
        total = w.sum()
        if abs(total) >= 1000.0 * np.finfo(np.float32).tiny:
            w = w / total
        m[i, start:end] = w
    return m


def resize_matrix(in_size, out_size, method, antialias):
    """The ``(out_size, in_size)`` weights of one axis for an interpolating ``method``."""
    if method == "bilinear" and not antialias:
        return bilinear_matrix(in_size, out_size)
    if method == "bicubic" and not antialias:
        return bicubic_matrix(in_size, out_size)
    return scale_and_translate_matrix(in_size, out_size, method, antialias)
