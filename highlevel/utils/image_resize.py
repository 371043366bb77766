"""Resizing images on the host (numpy), with every method ``image_dataset_from_directory`` accepts.

``bilinear``, ``nearest``, ``bicubic``, ``lanczos3`` and ``lanczos5`` run ``hl.ops.image.resize`` on the
native (numpy) engine; ``area``, ``gaussian`` and ``mitchellcubic``, which ``hl.ops.image.resize`` does not
offer, are separable resamplings written here with the same definitions as ``tf.image.resize`` (no
antialiasing): ``area`` averages the input pixels under each output pixel, weighted by the overlap;
``gaussian`` (sigma 0.5, radius 1.5) and ``mitchellcubic`` (B = C = 1/3, radius 2) weight the input pixels
near each output pixel's center and normalize the weights.

>>> import numpy as np
>>> image = np.arange(4, dtype="float32").reshape(1, 4, 1)
>>> resize_image(image, (1, 2), "area")[0, :, 0].tolist()
[0.5, 2.5]
"""

import numpy as np

#: The interpolation methods ``resize_image`` accepts (``tf.image.resize``'s).
INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")
_ENGINE_METHODS = ("bilinear", "nearest", "bicubic", "lanczos3", "lanczos5")


def _gaussian(x):
    x = np.abs(x)
    return np.where(x < 1.5, np.exp(-x * x / (2 * 0.5 * 0.5)), 0.0)


def _mitchell(x):
    b = c = 1.0 / 3.0
    x = np.abs(x)
    near = ((12 - 9 * b - 6 * c) * x**3 + (-18 + 12 * b + 6 * c) * x**2 + (6 - 2 * b)) / 6
    far = ((-b - 6 * c) * x**3 + (6 * b + 30 * c) * x**2 + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6
    return np.where(x < 1, near, np.where(x < 2, far, 0.0))


_KERNELS = {"gaussian": (_gaussian, 1.5), "mitchellcubic": (_mitchell, 2.0)}


def _kernel_matrix(in_size, out_size, method):
    """The ``(out_size, in_size)`` matrix of weights that maps one spatial axis to its resized version."""
    weights = np.zeros((out_size, in_size), dtype="float64")
    scale = out_size / in_size
    if method == "area":
        step = in_size / out_size  # each output pixel covers [o * step, (o + 1) * step) of the input
        edges = np.arange(in_size + 1, dtype="float64")
        for o in range(out_size):
            lo, hi = o * step, (o + 1) * step
            overlap = np.clip(np.minimum(edges[1:], hi) - np.maximum(edges[:-1], lo), 0, None)
            weights[o] = overlap / step
        return weights
    kernel, radius = _KERNELS[method]
    sources = np.arange(in_size, dtype="float64")
    for o in range(out_size):
        center = (o + 0.5) / scale  # the output pixel's center, in input coordinates
        start = max(int(np.ceil(center - radius - 0.5)), 0)
        stop = min(int(np.floor(center + radius - 0.5)), in_size - 1) + 1
        w = kernel(sources[start:stop] + 0.5 - center)
        total = w.sum()
        if abs(total) > 1000 * np.finfo("float32").tiny:
            w = w / total
        weights[o, start:stop] = w
    return weights


def resize_image(image, size, interpolation="bilinear"):
    """Resizes one ``(height, width, channels)`` image held in numpy.

    Args:
        image: a 3D numpy array, channels last.
        size: ``(height, width)`` of the result.
        interpolation: one of :data:`INTERPOLATIONS`.

    Returns:
        A float32 numpy array of shape ``size + (channels,)``.
    """
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"`interpolation` must be one of {INTERPOLATIONS}; received interpolation={interpolation!r}.")
    image = np.asarray(image, dtype="float32")
    height, width = int(size[0]), int(size[1])
    if image.shape[:2] == (height, width):
        return image
    if interpolation in _ENGINE_METHODS:
        from highlevel import ops
        from highlevel.config import backend_scope

        with backend_scope("native"):
            out = ops.image.resize(image, (height, width), interpolation=interpolation, data_format="channels_last")
            return np.asarray(ops.convert_to_numpy(out), dtype="float32")
    rows = _kernel_matrix(image.shape[0], height, interpolation)
    cols = _kernel_matrix(image.shape[1], width, interpolation)
    out = np.einsum("oh,hwc->owc", rows, image.astype("float64"))
    out = np.einsum("pw,owc->opc", cols, out)
    return out.astype("float32")
