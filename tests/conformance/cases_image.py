"""Conformance cases: ``hl.ops.image`` (the ops of ``keras.ops.image``, written on ``hl.ops``).

Each case names its op with the namespace (``"image.crop_images"``). The references below are float64 numpy,
written from the definitions (explicit loops over windows and taps where that is clearest), not from the ops'
code. Where Keras's backends disagree, the case follows Keras's default TensorFlow backend, except where it is
wrong (the reasons are in ``tests/ops/test_image.py``, next to the checks against Keras itself):

* ``map_coordinates`` with ``fill_mode="reflect"``/``"mirror"``: TensorFlow mirrors negative indices about
  the wrong point and indexes past the end for ``"mirror"`` (an error); the references fold indices as scipy
  and JAX (and Keras's documentation) define the modes.
* ``gaussian_blur`` with a non-square ``kernel_size``: TensorFlow and PyTorch reshape a ``(ky, kx)`` window to
  ``(kx, ky)``, scrambling it; the reference is the separable window of JAX and numpy (``kernel_size`` and
  ``sigma`` are (x, y) pairs, which all four backends agree on for square windows).
* ``elastic_transform`` draws from the engine's generator, so only its deterministic part is a conformance case
  (``alpha=0`` is the identity); its randomness is checked in ``tests/ops/test_image.py``.
"""

import colorsys
import itertools

import numpy as np

from .harness import F32_64, FLOATS, INTS, SAME, C, const, fixed, ints, uniform

#: the float dtypes of most lines; the exact ops (copies of pixels) and a few filters run in all of FLOATS
FLOAT_IMAGES = F32_64


# ------------------------------------------------------------------------------------------- layouts
def _cl(x, data_format, rank):
    """To channels last (a numpy view)."""
    if data_format == "channels_first":
        return np.moveaxis(x, rank - 3, -1)
    return x


def _back(x, data_format, rank):
    if data_format == "channels_first":
        return np.moveaxis(x, -1, rank - 3)
    return x


def _batched(x, rank):
    return x[None] if rank == 3 else x


def _unbatched(x, rank):
    return x[0] if rank == 3 else x


# ------------------------------------------------------------------------------------------ crop / pad
def ref_crop_images(
    images,
    top_cropping=None,
    left_cropping=None,
    bottom_cropping=None,
    right_cropping=None,
    target_height=None,
    target_width=None,
    data_format=None,
):
    rank = images.ndim
    x = _cl(images, data_format, rank)
    height, width = x.shape[-3], x.shape[-2]
    top = top_cropping if top_cropping is not None else height - target_height - bottom_cropping
    left = left_cropping if left_cropping is not None else width - target_width - right_cropping
    bottom = height - bottom_cropping if target_height is None else top + target_height
    right = width - right_cropping if target_width is None else left + target_width
    return _back(x[..., top:bottom, left:right, :], data_format, rank)


def ref_pad_images(
    images,
    top_padding=None,
    left_padding=None,
    bottom_padding=None,
    right_padding=None,
    target_height=None,
    target_width=None,
    data_format=None,
):
    rank = images.ndim
    x = _cl(images, data_format, rank)
    height, width = x.shape[-3], x.shape[-2]
    top = top_padding if top_padding is not None else target_height - height - bottom_padding
    bottom = bottom_padding if bottom_padding is not None else target_height - height - top
    left = left_padding if left_padding is not None else target_width - width - right_padding
    right = right_padding if right_padding is not None else target_width - width - left
    widths = [(0, 0)] * (rank - 3) + [(top, bottom), (left, right), (0, 0)]
    return _back(np.pad(x, widths), data_format, rank)


# --------------------------------------------------------------------------------------------- color
def ref_rgb_to_grayscale(images, data_format=None):
    rank = images.ndim
    x = _cl(images, data_format, rank)
    gray = (x.astype(np.float64) @ np.array([0.2989, 0.5870, 0.1140]))[..., None]
    if images.dtype.kind in "iu":
        gray = gray.astype(images.dtype)  # Keras truncates back to the integer dtype
    return _back(gray, data_format, rank)


def _per_pixel(fn, images, data_format):
    rank = images.ndim
    x = _cl(images, data_format, rank)
    flat = x.reshape(-1, 3)
    out = np.array([fn(*p) for p in flat], dtype=np.float64).reshape(x.shape)
    return _back(out, data_format, rank)


def ref_rgb_to_hsv(images, data_format=None):
    return _per_pixel(colorsys.rgb_to_hsv, images, data_format)


def ref_hsv_to_rgb(images, data_format=None):
    return _per_pixel(colorsys.hsv_to_rgb, images, data_format)


# ----------------------------------------------------------------------------------- extract_patches
def ref_extract_patches(images, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    n = 3 if isinstance(size, (tuple, list)) and len(size) == 3 else 2

    def tup(v):
        return (v,) * n if isinstance(v, int) else tuple(v)

    size = tup(size)
    strides = size if strides is None else tup(strides)
    dilation = tup(dilation_rate)
    unbatched = images.ndim == n + 1
    x = images[None] if unbatched else images
    if data_format == "channels_first":
        x = np.moveaxis(x, 1, -1)
    spans = [(k - 1) * d + 1 for k, d in zip(size, dilation)]
    if padding == "same":
        outs = [-(-s // st) for s, st in zip(x.shape[1:-1], strides)]
        totals = [max((o - 1) * st + sp - s, 0) for o, st, sp, s in zip(outs, strides, spans, x.shape[1:-1])]
        x = np.pad(x, [(0, 0)] + [(t // 2, t - t // 2) for t in totals] + [(0, 0)])
    else:
        outs = [(s - sp) // st + 1 for s, st, sp in zip(x.shape[1:-1], strides, spans)]
    out = np.zeros((x.shape[0],) + tuple(outs) + (int(np.prod(size)) * x.shape[-1],), dtype=x.dtype)
    for pos in itertools.product(*[range(o) for o in outs]):
        window = x[
            (slice(None),) + tuple(slice(p * st, p * st + sp, d) for p, st, sp, d in zip(pos, strides, spans, dilation))
        ]
        out[(slice(None),) + pos] = window.reshape(x.shape[0], -1)
    if data_format == "channels_first":
        out = np.moveaxis(out, -1, 1)
    return out[0] if unbatched else out


def ref_extract_patches_3d(volumes, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    size = (size,) * 3 if isinstance(size, int) else tuple(size)
    return ref_extract_patches(volumes, size, strides, dilation_rate, padding, data_format)


# ----------------------------------------------------------------------------------- map_coordinates
def _fold(index, n, mode):
    """Integer indices folded into [0, n) by the fill mode (None: outside, for "constant")."""
    if mode == "constant":
        return np.where((index >= 0) & (index < n), index, -1)
    if mode == "nearest":
        return np.clip(index, 0, n - 1)
    if mode == "wrap":
        return index % n
    if mode == "mirror":  # period 2n - 2: a b c d c b | a b c d c b
        if n == 1:
            return np.zeros_like(index)
        m = index % (2 * n - 2)
        return np.where(m < n, m, 2 * n - 2 - m)
    m = index % (2 * n)  # reflect, period 2n: a b c d d c b a
    return np.where(m < n, m, 2 * n - 1 - m)


def ref_map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    coords = np.asarray(coordinates, np.float64)
    data = inputs.astype(np.float64)
    nodes = []
    for c in coords:
        if order == 0:
            nodes.append([(np.round(c).astype(np.int64), np.ones_like(c))])
        else:
            low = np.floor(c)
            nodes.append([(low.astype(np.int64), 1.0 - (c - low)), (low.astype(np.int64) + 1, c - low)])
    out = np.zeros(coords.shape[1:])
    for combo in itertools.product(*nodes):
        idx = [_fold(i, n, fill_mode) for (i, _), n in zip(combo, inputs.shape)]
        outside = np.any([i < 0 for i in idx], axis=0)
        values = np.where(outside, float(fill_value), data[tuple(np.maximum(i, 0) for i in idx)])
        out = out + np.prod([w for _, w in combo], axis=0) * values
    if inputs.dtype.kind in "iu":
        return np.round(out).astype(inputs.dtype)
    return out


# ---------------------------------------------------------------------------- perspective_transform
def _homography(start, end):
    """The 8 parameters of the map end -> start, from the 8 linear equations of the four pairs."""
    a, b = [], []
    for (xs, ys), (xe, ye) in zip(start, end):
        a.append([xe, ye, 1, 0, 0, 0, -xs * xe, -xs * ye])
        a.append([0, 0, 0, xe, ye, 1, -ys * xe, -ys * ye])
        b.extend([xs, ys])
    return np.linalg.solve(np.array(a, np.float64), np.array(b, np.float64))


def _sample_projective(image, t, interpolation, fill):
    """One (H, W, C) image warped by the 8 parameters ``t`` (output pixel -> input point), constant fill."""
    height, width, _ = image.shape
    out = np.zeros_like(image, dtype=np.float64)

    def read(y, x):
        if 0 <= y < height and 0 <= x < width:
            return image[y, x].astype(np.float64)
        return np.full(image.shape[-1], float(fill))

    for y in range(height):
        for x in range(width):
            k = t[6] * x + t[7] * y + 1.0
            sx, sy = (t[0] * x + t[1] * y + t[2]) / k, (t[3] * x + t[4] * y + t[5]) / k
            if interpolation == "nearest":  # halves away from zero, as C's round
                out[y, x] = read(int(np.sign(sy) * np.floor(abs(sy) + 0.5)), int(np.sign(sx) * np.floor(abs(sx) + 0.5)))
                continue
            x0, y0 = int(np.floor(sx)), int(np.floor(sy))
            fx, fy = sx - x0, sy - y0
            out[y, x] = (1 - fy) * ((1 - fx) * read(y0, x0) + fx * read(y0, x0 + 1)) + fy * (
                (1 - fx) * read(y0 + 1, x0) + fx * read(y0 + 1, x0 + 1)
            )
    return out


def ref_perspective_transform(
    images, start_points, end_points, interpolation="bilinear", fill_value=0, data_format=None
):
    rank = images.ndim
    x = _batched(_cl(images, data_format, rank), rank)
    start = np.reshape(start_points, (-1, 4, 2))
    end = np.reshape(end_points, (-1, 4, 2))
    out = np.stack(
        [
            _sample_projective(x[i], _homography(start[i % len(start)], end[i % len(end)]), interpolation, fill_value)
            for i in range(x.shape[0])
        ]
    )
    return _back(_unbatched(out, rank), data_format, rank)


# ------------------------------------------------------------------------------------- gaussian_blur
def _window(size, sigma):
    w = np.exp(-0.5 * ((np.arange(size) - (size - 1) / 2.0) / sigma) ** 2)
    return w / w.sum()


def _correlate_same(plane, kernel):
    """Zero-padded 'same' cross-correlation of one (H, W) plane (TensorFlow's split of odd/even padding)."""
    kh, kw = kernel.shape
    top, left = (kh - 1) // 2, (kw - 1) // 2
    padded = np.pad(plane, ((top, kh - 1 - top), (left, kw - 1 - left)))
    return _correlate_valid(padded, kernel)


def _correlate_valid(plane, kernel):
    kh, kw = kernel.shape
    out = np.zeros((plane.shape[0] - kh + 1, plane.shape[1] - kw + 1))
    for i in range(kh):
        for j in range(kw):
            out += kernel[i, j] * plane[i : i + out.shape[0], j : j + out.shape[1]]
    return out


def _per_plane(fn, x):
    """``fn`` on every (H, W) plane of a channels-last batch."""
    out = [np.stack([fn(x[b, :, :, c]) for c in range(x.shape[-1])], axis=-1) for b in range(x.shape[0])]
    return np.stack(out)


def ref_gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    rank = images.ndim
    x = _batched(_cl(images, data_format, rank), rank).astype(np.float64)
    kernel = np.outer(_window(kernel_size[1], sigma[1]), _window(kernel_size[0], sigma[0]))  # (y taps, x taps)
    out = _per_plane(lambda p: _correlate_same(p, kernel), x)
    return _back(_unbatched(out, rank), data_format, rank)


# ------------------------------------------------------------------------------- scale_and_translate
def _kernel(method, x):
    x = np.abs(x)
    if method == "linear":
        return np.maximum(0.0, 1.0 - x)
    if method == "cubic":  # Keys, a = -0.5
        return np.where(x < 1, 1.5 * x**3 - 2.5 * x**2 + 1, np.where(x < 2, -0.5 * x**3 + 2.5 * x**2 - 4 * x + 2, 0.0))
    radius = 3.0 if method == "lanczos3" else 5.0
    return np.where(x < radius, np.sinc(x) * np.sinc(x / radius), 0.0)


def ref_scale_and_translate(images, output_shape, scale, translation, spatial_dims, method, antialias=True):
    method = {"bilinear": "linear", "bicubic": "cubic"}.get(method, method)
    out = images.astype(np.float64)
    for i, d in enumerate(spatial_dims):
        n_in, n_out = images.shape[d], output_shape[d]
        s, t = float(scale[i]), float(translation[i])
        # output pixel j's center, mapped back into input coordinates (centers at half-integers)
        centers = ((np.arange(n_out) + 0.5) - t) / s
        stretch = max(1.0 / s, 1.0) if antialias else 1.0
        weights = _kernel(method, (centers[None, :] - 0.5 - np.arange(n_in)[:, None]) / stretch)
        total = weights.sum(axis=0, keepdims=True)
        weights = np.where(np.abs(total) > 1000 * np.finfo(np.float32).eps, weights / np.where(total == 0, 1, total), 0)
        weights[:, (centers < 0) | (centers > n_in)] = 0.0
        out = np.moveaxis(np.tensordot(out, weights, axes=([d], [0])), -1, d)
    return out


# ---------------------------------------------------------------------------------------- sobel, ssim
def ref_sobel_edges(images, data_format=None):
    x = _cl(images, data_format, 4).astype(np.float64)
    dy = np.array([[-1, -2, -1], [0, 0, 0], [1, 2, 1]], np.float64)
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), mode="reflect")
    edges = np.stack([_per_plane(lambda p: _correlate_valid(p, k), padded) for k in (dy, dy.T)], axis=-1)
    if data_format == "channels_first":
        edges = np.moveaxis(edges, 3, 1)
    return edges


def ref_ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, data_format=None):
    rank = image1.ndim
    a = _batched(_cl(image1, data_format, rank), rank).astype(np.float64)
    b = _batched(_cl(image2, data_format, rank), rank).astype(np.float64)
    w = _window(filter_size, filter_sigma)
    kernel = np.outer(w, w)

    def mean(t):
        return _per_plane(lambda p: _correlate_valid(p, kernel), t)

    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mu1, mu2 = mean(a), mean(b)
    s11, s22, s12 = mean(a * a) - mu1**2, mean(b * b) - mu2**2, mean(a * b) - mu1 * mu2
    ssim_map = (2 * mu1 * mu2 + c1) * (2 * s12 + c2) / ((mu1**2 + mu2**2 + c1) * (s11 + s22 + c2))
    out = ssim_map.mean(axis=(1, 2, 3))
    return out[0] if rank == 3 else out


def ref_identity(images, *args, **kwargs):
    return images.astype(np.float64) if images.dtype.kind == "f" else images


# ---------------------------------------------------------------------------------------------- inputs
def pixels(*shape, away=None):
    """Values in [0, 1), as image pixels."""
    return uniform(*shape, low=0.0, high=1.0, away=away, margin=0.02)


#: hue values at multiples of 1/6 are the kinks of hsv_to_rgb's ramps
HUE_KINKS = [k / 6.0 for k in range(7)]
#: an affine map whose grid is exact in float32: input x = 0.5 x + 0.25, input y = 0.75 y - 0.5
EXACT_START = fixed(np.array([[0.25, -0.5], [2.25, -0.5], [2.25, 2.5], [0.25, 2.5]], np.float32))
EXACT_END = fixed(np.array([[0, 0], [4, 0], [4, 4], [0, 4]], np.float32))
#: two projective maps (the grid of affine_transform is float32, as TensorFlow's: see tolerances.py)
PROJ_START = fixed(np.array([[[0, 0], [5, 0], [5, 4], [0, 4]], [[0, 0], [0, 4], [5, 0], [5, 4]]], np.float32))
PROJ_END = fixed(
    np.array(
        [[[0.5, 0.2], [4.6, -0.3], [5.2, 3.7], [-0.4, 4.1]], [[1.0, 0.5], [0.3, 3.2], [4.5, 0.3], [4.8, 4.4]]],
        np.float32,
    )
)
#: map_coordinates' sample points: inside and outside the array, kept 0.05 from integers (the kinks)
INTEGERS = list(range(-6, 12))

I = "image."
CASES = [
    # crop_images / pad_images: exact copies of the window, any dtype
    C(
        I + "crop_images",
        "target",
        (pixels(2, 5, 6, 3),),
        ref_crop_images,
        dtypes=FLOATS + INTS,
        out=SAME,
        grad=(0,),
        top_cropping=1,
        left_cropping=2,
        target_height=3,
        target_width=3,
    ),
    C(
        I + "crop_images",
        "bottom-right",
        (pixels(5, 6, 2),),
        ref_crop_images,
        out=SAME,
        grad=(0,),
        top_cropping=0,
        bottom_cropping=2,
        left_cropping=1,
        right_cropping=1,
    ),
    C(
        I + "crop_images",
        "channels-first",
        (pixels(2, 3, 5, 6),),
        ref_crop_images,
        out=SAME,
        grad=(0,),
        bottom_cropping=1,
        target_height=3,
        right_cropping=2,
        target_width=4,
        data_format="channels_first",
    ),
    C(
        I + "crop_images",
        "empty",
        (pixels(2, 5, 6, 3),),
        ref_crop_images,
        out=SAME,
        top_cropping=2,
        left_cropping=0,
        target_height=0,
        target_width=6,
    ),
    C(
        I + "pad_images",
        "target",
        (pixels(2, 4, 5, 3),),
        ref_pad_images,
        dtypes=FLOATS + INTS,
        out=SAME,
        grad=(0,),
        top_padding=1,
        left_padding=2,
        target_height=7,
        target_width=8,
    ),
    C(
        I + "pad_images",
        "sides",
        (pixels(4, 5, 2),),
        ref_pad_images,
        out=SAME,
        grad=(0,),
        top_padding=0,
        bottom_padding=2,
        left_padding=3,
        right_padding=1,
    ),
    C(
        I + "pad_images",
        "channels-first",
        (pixels(2, 3, 4, 5),),
        ref_pad_images,
        out=SAME,
        grad=(0,),
        bottom_padding=1,
        target_height=6,
        right_padding=0,
        target_width=5,
        data_format="channels_first",
    ),
    # color spaces
    C(I + "rgb_to_grayscale", "basic", (pixels(2, 4, 5, 3),), ref_rgb_to_grayscale, dtypes=FLOATS, out=SAME, grad=(0,)),
    C(
        I + "rgb_to_grayscale",
        "uint8",
        (ints(2, 4, 5, 3, low=0, high=256),),
        ref_rgb_to_grayscale,
        dtypes=("uint8", "int32"),
        out=SAME,
    ),
    C(
        I + "rgb_to_grayscale",
        "channels-first",
        (pixels(3, 4, 5),),
        ref_rgb_to_grayscale,
        out=SAME,
        grad=(0,),
        data_format="channels_first",
    ),
    C(I + "rgb_to_grayscale", "one-channel", (pixels(2, 4, 5, 1),), ref_identity, out=SAME),
    C(I + "rgb_to_hsv", "basic", (pixels(2, 4, 5, 3),), ref_rgb_to_hsv, dtypes=FLOAT_IMAGES, out=SAME, grad=(0,)),
    C(
        I + "rgb_to_hsv",
        "channels-first",
        (pixels(2, 3, 4, 5),),
        ref_rgb_to_hsv,
        out=SAME,
        grad=(0,),
        data_format="channels_first",
    ),
    # black, white, grays (no chroma: hue 0), pure primaries and a max tie between red and green
    C(
        I + "rgb_to_hsv",
        "special",
        (
            const(
                [
                    [[0, 0, 0], [1, 1, 1], [0.5, 0.5, 0.5], [1, 0, 0]],
                    [[0, 1, 0], [0, 0, 1], [0.6, 0.6, 0.2], [0.2, 0.4, 0.4]],
                ]
            ),
        ),
        ref_rgb_to_hsv,
        dtypes=FLOAT_IMAGES,
        out=SAME,
    ),
    C(
        I + "hsv_to_rgb",
        "basic",
        (pixels(2, 4, 5, 3, away=HUE_KINKS),),
        ref_hsv_to_rgb,
        dtypes=FLOAT_IMAGES,
        out=SAME,
        grad=(0,),
    ),
    C(
        I + "hsv_to_rgb",
        "channels-first",
        (pixels(3, 4, 5, away=HUE_KINKS),),
        ref_hsv_to_rgb,
        out=SAME,
        grad=(0,),
        data_format="channels_first",
    ),
    # extract_patches: gathered windows (exact for every dtype)
    C(
        I + "extract_patches",
        "vit",
        (pixels(2, 6, 8, 3),),
        ref_extract_patches,
        dtypes=FLOATS + INTS,
        out=SAME,
        grad=(0,),
        size=2,
    ),
    C(
        I + "extract_patches",
        "overlap",
        (pixels(1, 5, 6, 2),),
        ref_extract_patches,
        out=SAME,
        grad=(0,),
        size=(3, 2),
        strides=(1, 2),
    ),
    C(
        I + "extract_patches",
        "same",
        (pixels(2, 5, 7, 2),),
        ref_extract_patches,
        out=SAME,
        grad=(0,),
        size=(3, 3),
        strides=2,
        padding="same",
    ),
    C(
        I + "extract_patches",
        "dilated",
        (pixels(1, 7, 6, 2),),
        ref_extract_patches,
        out=SAME,
        grad=(0,),
        size=2,
        strides=1,
        dilation_rate=(2, 3),
    ),
    # TensorFlow refuses dilation with strides > 1; the gathered patches need no such limit
    C(
        I + "extract_patches",
        "dilated-strided",
        (pixels(1, 9, 8, 1),),
        ref_extract_patches,
        out=SAME,
        size=(2, 2),
        strides=(2, 3),
        dilation_rate=2,
        padding="same",
    ),
    C(I + "extract_patches", "unbatched", (pixels(6, 6, 2),), ref_extract_patches, out=SAME, grad=(0,), size=(3, 2)),
    C(
        I + "extract_patches",
        "channels-first",
        (pixels(2, 3, 6, 5),),
        ref_extract_patches,
        out=SAME,
        grad=(0,),
        size=(2, 3),
        strides=1,
        data_format="channels_first",
    ),
    C(
        I + "extract_patches",
        "volume",
        (pixels(1, 4, 5, 4, 2),),
        ref_extract_patches,
        out=SAME,
        grad=(0,),
        size=(2, 3, 2),
    ),
    C(
        I + "extract_patches_3d",
        "basic",
        (pixels(2, 4, 4, 6, 2),),
        ref_extract_patches_3d,
        dtypes=FLOATS + INTS,
        out=SAME,
        grad=(0,),
        size=2,
    ),
    C(
        I + "extract_patches_3d",
        "same",
        (pixels(1, 3, 4, 5, 1),),
        ref_extract_patches_3d,
        out=SAME,
        grad=(0,),
        size=(2, 3, 2),
        strides=(1, 2, 2),
        padding="same",
    ),
    C(
        I + "extract_patches_3d",
        "unbatched-cf",
        (pixels(2, 4, 5, 4),),
        ref_extract_patches_3d,
        out=SAME,
        grad=(0,),
        size=(2, 2, 3),
        strides=1,
        dilation_rate=(1, 2, 1),
        data_format="channels_first",
    ),
    # map_coordinates: every fill mode, order 0 and 1, gradients to the array and (order 1) to the coordinates
    *[
        C(
            I + "map_coordinates",
            f"linear-{mode}",
            (pixels(4, 5), uniform(2, 3, 4, low=-5, high=10, away=INTEGERS)),
            ref_map_coordinates,
            dtypes=FLOAT_IMAGES,
            out=SAME,
            grad=(0, 1),
            order=1,
            fill_mode=mode,
            fill_value=0.5,
        )
        for mode in ("constant", "nearest", "wrap", "mirror", "reflect")
    ],
    *[
        C(
            I + "map_coordinates",
            f"nearest-{mode}",
            (pixels(4, 5), uniform(2, 3, 4, low=-5, high=10, away=INTEGERS)),
            ref_map_coordinates,
            dtypes=FLOAT_IMAGES,
            out=SAME,
            grad=(0,),
            order=0,
            fill_mode=mode,
            fill_value=-1.0,
        )
        for mode in ("constant", "nearest", "wrap", "mirror", "reflect")
    ],
    C(
        I + "map_coordinates",
        "3d",
        (pixels(3, 4, 2), uniform(3, 6, low=-1, high=4, away=INTEGERS)),
        ref_map_coordinates,
        out=SAME,
        grad=(0, 1),
        order=1,
        fill_mode="reflect",
    ),
    C(
        I + "map_coordinates",
        "length-1-axis",
        (pixels(1, 4), uniform(2, 5, low=-2, high=5, away=INTEGERS)),
        ref_map_coordinates,
        out=SAME,
        grad=(0, 1),
        order=1,
        fill_mode="mirror",
    ),
    C(
        I + "map_coordinates",
        "int-array",
        (ints(4, 5, low=0, high=200), uniform(2, 6, low=-1, high=5, away=INTEGERS)),
        ref_map_coordinates,
        dtypes=(("int32", "float32"),),
        out=SAME,
        order=1,
        fill_mode="nearest",
    ),
    C(
        I + "map_coordinates",
        "empty",
        (pixels(4, 5), uniform(2, 0, low=0, high=3)),
        ref_map_coordinates,
        out=SAME,
        order=1,
    ),
    # perspective_transform
    C(
        I + "perspective_transform",
        "exact-affine",
        (pixels(1, 5, 5, 2), EXACT_START, EXACT_END),
        ref_perspective_transform,
        dtypes=FLOAT_IMAGES,
        out=SAME,
        grad=(0,),
    ),
    C(
        I + "perspective_transform",
        "exact-nearest",
        (pixels(5, 5, 2), EXACT_START, EXACT_END),
        ref_perspective_transform,
        out=SAME,
        interpolation="nearest",
        fill_value=0.5,
    ),
    C(
        I + "perspective_transform",
        "projective",
        (pixels(2, 5, 6, 2), PROJ_START, PROJ_END),
        ref_perspective_transform,
        dtypes=FLOAT_IMAGES,
        out=SAME,
        tol_op="image.projective-grid",
        fill_value=0.25,
    ),
    C(
        I + "perspective_transform",
        "projective-cf",
        (pixels(2, 2, 5, 6), PROJ_START, PROJ_END),
        ref_perspective_transform,
        out=SAME,
        tol_op="image.projective-grid",
        data_format="channels_first",
    ),
    # gaussian_blur
    C(I + "gaussian_blur", "basic", (pixels(2, 5, 6, 3),), ref_gaussian_blur, dtypes=FLOATS, out=SAME, grad=(0,)),
    C(
        I + "gaussian_blur",
        "anisotropic",
        (pixels(1, 6, 7, 2),),
        ref_gaussian_blur,
        out=SAME,
        grad=(0,),
        kernel_size=(5, 5),
        sigma=(0.7, 2.0),
    ),
    C(
        I + "gaussian_blur",
        "even",
        (pixels(1, 5, 6, 1),),
        ref_gaussian_blur,
        out=SAME,
        grad=(0,),
        kernel_size=(4, 4),
        sigma=(1.5, 1.5),
    ),
    C(
        I + "gaussian_blur",
        "non-square",
        (pixels(1, 6, 7, 2),),
        ref_gaussian_blur,
        out=SAME,
        grad=(0,),
        kernel_size=(3, 5),
        sigma=(1.0, 2.0),
    ),
    C(
        I + "gaussian_blur",
        "unbatched-cf",
        (pixels(2, 5, 6),),
        ref_gaussian_blur,
        out=SAME,
        grad=(0,),
        kernel_size=(3, 3),
        sigma=(1.0, 0.5),
        data_format="channels_first",
    ),
    # elastic_transform: alpha = 0 leaves every pixel in place, whatever the random field
    C(
        I + "elastic_transform",
        "alpha-0",
        (pixels(2, 5, 6, 2),),
        ref_identity,
        dtypes=FLOAT_IMAGES,
        out=SAME,
        grad=(0,),
        alpha=0.0,
        sigma=1.0,
        seed=3,
    ),
    C(
        I + "elastic_transform",
        "alpha-0-nearest",
        (pixels(5, 6, 2),),
        ref_identity,
        out=SAME,
        alpha=0.0,
        sigma=2.0,
        interpolation="nearest",
        fill_mode="constant",
        seed=4,
    ),
    # scale_and_translate: gradients to the images and to the translation
    *[
        C(
            I + "scale_and_translate",
            f"{method}-{'aa' if aa else 'plain'}",
            (pixels(2, 5, 6, 1), fixed((2, 7, 4, 1)), const([1.4, 0.6]), uniform(2, low=-0.8, high=0.8)),
            ref_scale_and_translate,
            dtypes=FLOAT_IMAGES,
            out=SAME,
            grad=(0, 3),
            spatial_dims=(1, 2),
            method=method,
            antialias=aa,
        )
        for method in ("linear", "cubic", "lanczos3", "lanczos5")
        for aa in (True, False)
    ],
    C(
        I + "scale_and_translate",
        "1d",
        (pixels(7, 2), fixed((4, 2)), const([0.5]), const([0.3])),
        ref_scale_and_translate,
        out=SAME,
        grad=(0, 3),
        spatial_dims=(0,),
        method="bicubic",
    ),
    C(
        I + "scale_and_translate",
        "outside",
        (pixels(5, 4), fixed((6, 4)), const([1.0]), const([2.5])),
        ref_scale_and_translate,
        out=SAME,
        grad=(0,),
        spatial_dims=(-2,),
        method="bilinear",
    ),
    # sobel_edges
    C(I + "sobel_edges", "basic", (pixels(2, 4, 5, 3),), ref_sobel_edges, dtypes=FLOATS, out=SAME, grad=(0,)),
    C(
        I + "sobel_edges",
        "channels-first",
        (pixels(1, 2, 3, 4),),
        ref_sobel_edges,
        out=SAME,
        grad=(0,),
        data_format="channels_first",
    ),
    C(I + "sobel_edges", "2x2", (pixels(1, 2, 2, 1),), ref_sobel_edges, out=SAME, grad=(0,)),
    # ssim
    C(
        I + "ssim",
        "basic",
        (pixels(2, 6, 7, 2), pixels(2, 6, 7, 2)),
        ref_ssim,
        dtypes=FLOAT_IMAGES,
        out=SAME,
        grad=(0, 1),
        filter_size=3,
    ),
    C(
        I + "ssim",
        "unbatched",
        (pixels(7, 6, 1), pixels(7, 6, 1)),
        ref_ssim,
        out=SAME,
        grad=(0, 1),
        filter_size=5,
        filter_sigma=1.0,
        max_val=2.0,
        k1=0.02,
        k2=0.05,
    ),
    C(
        I + "ssim",
        "channels-first",
        (pixels(1, 2, 5, 6), pixels(1, 2, 5, 6)),
        ref_ssim,
        out=SAME,
        grad=(0, 1),
        filter_size=3,
        data_format="channels_first",
    ),
    C(I + "ssim", "default-window", (pixels(1, 11, 12, 1), pixels(1, 11, 12, 1)), ref_ssim, out=SAME),
]
