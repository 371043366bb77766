"""``hl.ops.image``: image ops with ``keras.ops.image``'s names, arguments and numerics.

Written once on top of ``hl.ops`` (no backend method of their own), so they run, and differentiate, on
every engine and on symbolic tensors. The numerics follow Keras 3 with its default TensorFlow backend:
``resize`` uses half-pixel centers like ``tf.image.resize``, ``affine_transform`` reproduces
``ImageProjectiveTransformV3`` including its fill modes.

>>> import highlevel as hl
>>> x = hl.ops.reshape(hl.ops.arange(4, dtype="float32"), (1, 2, 2, 1))
>>> hl.ops.convert_to_numpy(hl.ops.image.resize(x, (1, 1)))[0, :, :, 0].tolist()
[[1.5]]
"""

import numpy as np

from highlevel import ops
from highlevel.backends.contract import dtypes

from . import _resize_weights

__all__ = ["resize", "affine_transform"]

RESIZE_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "lanczos3", "lanczos5")
AFFINE_TRANSFORM_INTERPOLATIONS = ("nearest", "bilinear")
AFFINE_TRANSFORM_FILL_MODES = ("constant", "nearest", "wrap", "reflect")


def _data_format(data_format):
    from highlevel.layers.reshaping.flatten import standardize_data_format

    return standardize_data_format(data_format)


def _check_images(images):
    shape = tuple(images.shape)
    if len(shape) not in (3, 4):
        raise ValueError(
            "Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). Received input "
            f"with shape: images.shape={shape}"
        )
    return shape


def _to_channels_last(images, data_format):
    if data_format == "channels_first":
        perm = (0, 2, 3, 1) if len(images.shape) == 4 else (1, 2, 0)
        return ops.transpose(images, perm)
    return images


def _from_channels_last(images, data_format, rank):
    if data_format == "channels_first":
        perm = (0, 3, 1, 2) if rank == 4 else (2, 0, 1)
        return ops.transpose(images, perm)
    return images


def _as_image_tensor(images):
    if not hasattr(images, "shape") or isinstance(images, (list, tuple)):
        return ops.convert_to_tensor(images)
    if isinstance(images, np.ndarray) or np.isscalar(images):
        return ops.convert_to_tensor(images)
    return images


def _resize_axis(images, axis, out_size, interpolation, antialias):
    """Resizes one spatial axis of a float (or, for nearest, any) tensor."""
    in_size = images.shape[axis]
    if interpolation == "nearest":
        # A gather keeps integer values exact and costs nothing; antialias does not apply (as in TF).
        index = _resize_weights.nearest_indices(in_size, out_size).astype("int32")
        return ops.take(images, ops.convert_to_tensor(index), axis=axis)
    weights = _resize_weights.resize_matrix(in_size, out_size, interpolation, antialias)
    weights = ops.convert_to_tensor(weights.astype(ops.dtype(images)))
    # (out, in) x (..., in, ...) -> (..., out, ...): contract the axis, then put it back in place.
    moved = ops.tensordot(images, weights, axes=[[axis], [1]])
    return ops.moveaxis(moved, -1, axis)


def _crop_to_aspect(images, size):
    height, width = images.shape[-3], images.shape[-2]
    target_h, target_w = size
    crop_h = max(min(height, int(np.float32(width * target_h) / np.float32(target_w))), 1)
    crop_w = max(min(width, int(np.float32(height * target_w) / np.float32(target_h))), 1)
    top = int(np.float32(height - crop_h) / np.float32(2))
    left = int(np.float32(width - crop_w) / np.float32(2))
    # take with index lists (not getitem with slices) keeps a symbolic graph serializable.
    rank = len(images.shape)
    images = ops.take(images, np.arange(top, top + crop_h, dtype="int32"), axis=rank - 3)
    return ops.take(images, np.arange(left, left + crop_w, dtype="int32"), axis=rank - 2)


def _pad_to_aspect(images, size, fill_value):
    height, width = images.shape[-3], images.shape[-2]
    target_h, target_w = size
    pad_h = max(height, int(np.float32(width * target_h) / np.float32(target_w)))
    pad_w = max(width, int(np.float32(height * target_w) / np.float32(target_h)))
    # Keras pads the same amount, (pad - size) // 2, on both sides.
    top = int(np.float32(pad_h - height) / np.float32(2))
    left = int(np.float32(pad_w - width) / np.float32(2))
    if top == 0 and left == 0:
        return images
    widths = [(0, 0)] * (len(images.shape) - 3) + [(top, top), (left, left), (0, 0)]
    return ops.pad(images, widths, constant_values=fill_value)


def resize(images, size, interpolation="bilinear", antialias=False, crop_to_aspect_ratio=False,
           pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, data_format=None):
    """Resizes images to ``size`` (``keras.ops.image.resize``).

    Pixel centers are at half-integers (like ``tf.image.resize``, which Keras runs by default), so
    upsampling by 2 interpolates between neighbours and the edges repeat the border pixels.

    Args:
        images: a 3D image ``(height, width, channels)`` or a 4D batch ``(batch, height, width, channels)``
            (channels first with ``data_format="channels_first"``).
        size: ``(height, width)`` of the output, positive ints.
        interpolation: ``"bilinear"`` (default), ``"nearest"``, ``"bicubic"`` (Keys, a=-0.5),
            ``"lanczos3"`` or ``"lanczos5"``.
        antialias: when downsampling, widen the interpolation kernel so that every input pixel contributes
            (ignored by ``"nearest"``).
        crop_to_aspect_ratio: first crop the largest centered window with the target's aspect ratio.
        pad_to_aspect_ratio: first pad the short side evenly with ``fill_value`` to the target's aspect
            ratio.
        fill_mode: the padding mode; only ``"constant"`` is supported (as in Keras).
        fill_value: the padding value with ``pad_to_aspect_ratio``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured default.

    Returns:
        The resized images, with the input's dtype (integer inputs are rounded and clipped to their range).

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[[0.0], [4.0]]])  # one 1x2 image
    >>> hl.ops.convert_to_numpy(hl.ops.image.resize(x, (1, 4)))[0, :, 0].tolist()
    [0.0, 1.0, 3.0, 4.0]
    """
    data_format = _data_format(data_format)
    if interpolation not in RESIZE_INTERPOLATIONS:
        raise ValueError(
            f"Invalid value for argument `interpolation`. Expected one of {RESIZE_INTERPOLATIONS}. "
            f"Received: interpolation={interpolation!r}"
        )
    if fill_mode != "constant":
        raise ValueError(
            f"Invalid value for argument `fill_mode`. Only 'constant' is supported. Received: fill_mode={fill_mode!r}"
        )
    if pad_to_aspect_ratio and crop_to_aspect_ratio:
        raise ValueError("Only one of `pad_to_aspect_ratio` & `crop_to_aspect_ratio` can be `True`.")
    size = tuple(size) if isinstance(size, (list, tuple)) else size
    if (not isinstance(size, tuple) or len(size) != 2
            or not all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s > 0 for s in size)):
        raise ValueError(
            "Argument `size` must be a tuple of two positive integers (height, width). Received: "
            f"size={size!r}"
        )
    size = (int(size[0]), int(size[1]))
    images = _as_image_tensor(images)
    shape = _check_images(images)
    rank = len(shape)
    x = _to_channels_last(images, data_format)
    spatial = tuple(x.shape)[-3:-1]
    if any(d is None for d in spatial):
        raise ValueError(
            f"resize needs static height and width; received images of shape {shape}. Give the spatial "
            "dimensions in the input shape."
        )
    if crop_to_aspect_ratio:
        x = _crop_to_aspect(x, size)
    elif pad_to_aspect_ratio:
        x = _pad_to_aspect(x, size, fill_value)

    in_dtype = ops.dtype(x)
    is_float = dtypes.is_float_dtype(in_dtype)
    if interpolation != "nearest" and not is_float:
        x = ops.cast(x, "float32")
    out = _resize_axis(x, rank - 3, size[0], interpolation, antialias)
    out = _resize_axis(out, rank - 2, size[1], interpolation, antialias)
    if interpolation != "nearest" and not is_float:
        out = _saturate_round(out, in_dtype)
    return _from_channels_last(out, data_format, rank)


def _saturate_round(x, dtype):
    """Rounds floats and casts them to an integer ``dtype`` without wrapping around."""
    if dtype == "bool":
        return ops.cast(x, dtype)
    info = np.iinfo(np.dtype(dtype))
    return ops.cast(ops.clip(ops.round(x), float(info.min), float(info.max)), dtype)


# ------------------------------------------------------------------------------------- affine_transform
def _trunc(x):
    # C's float -> integer conversion: toward zero.
    return ops.where(ops.less(x, 0.0), ops.ceil(x), ops.floor(x))


def _map_coordinate(coord, length, fill_mode):
    """ImageProjectiveTransformV3's MapCoordinate: folds a source coordinate into ``[0, length - 1]``."""
    if fill_mode == "constant":
        return coord
    last = float(length - 1)
    if fill_mode == "nearest" or length <= 1:
        return ops.clip(coord, 0.0, last)
    if fill_mode == "reflect":
        period = float(2 * length)
        # Negative side: mirror around -0.5 after removing whole periods.
        neg = _trunc(ops.negative(coord) / period) * period + coord
        neg = ops.where(ops.less(neg, -float(length)), neg + period, ops.negative(neg) - 1.0)
        pos = coord - period * _trunc(coord / period)
        pos = ops.where(ops.greater_equal(pos, float(length)), period - pos - 1.0, pos)
        out = ops.where(ops.less(coord, 0.0), neg, ops.where(ops.greater(coord, last), pos, coord))
    else:  # wrap, with TensorFlow's arithmetic (periods counted in units of length - 1)
        neg = coord + float(length) * (_trunc(ops.negative(coord) / last) + 1.0)
        pos = coord - float(length) * _trunc(coord / last)
        out = ops.where(ops.less(coord, 0.0), neg, ops.where(ops.greater(coord, last), pos, coord))
    return ops.clip(out, 0.0, last)


def _read(flat, iy, ix, height, width, fill):
    """Pixels at integer float coordinates ``(iy, ix)`` of shape (T, H, W); ``fill`` outside the image."""
    inside = ops.logical_and(
        ops.logical_and(ops.greater_equal(iy, 0.0), ops.less_equal(iy, float(height - 1))),
        ops.logical_and(ops.greater_equal(ix, 0.0), ops.less_equal(ix, float(width - 1))),
    )
    yi = ops.cast(ops.clip(iy, 0.0, float(height - 1)), "int32")
    xi = ops.cast(ops.clip(ix, 0.0, float(width - 1)), "int32")
    index = ops.reshape(ops.add(ops.multiply(yi, width), xi), (-1, height * width, 1))
    values = ops.take_along_axis(flat, index, axis=1)  # (B, H*W, C)
    mask = ops.reshape(inside, (-1, height * width, 1))
    return ops.where(mask, values, fill)


def _round_half_away(v):
    # C's std::round: halves away from zero (ops.round rounds them to even).
    return ops.where(ops.less(v, 0.0), ops.negative(ops.floor(ops.subtract(0.5, v))), ops.floor(ops.add(v, 0.5)))


def _as_weight(w, dtype):
    """Bilinear weights of shape (T, H, W) as (T, H*W, 1) in the images' dtype."""
    height, width = tuple(w.shape)[1:3]
    return ops.cast(ops.reshape(w, (-1, height * width, 1)), dtype)


def _lerp_row(flat, yy, x0, x1, wx, fill):
    """The horizontal interpolation between columns x0 and x1 of row ``yy``."""
    height, width = tuple(yy.shape)[1:3]
    left = _read(flat, yy, x0, height, width, fill)
    right = _read(flat, yy, x1, height, width, fill)
    return ops.add(ops.multiply(wx[0], left), ops.multiply(wx[1], right))


def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant", fill_value=0,
                     data_format=None):
    """Applies projective transforms to images (``keras.ops.image.affine_transform``).

    Each transform row ``[a0, a1, a2, b0, b1, b2, c0, c1]`` maps an OUTPUT pixel ``(x, y)`` to the input
    point ``((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)`` with ``k = c0 x + c1 y + 1`` (the inverse of
    the image's motion). Gradients flow to the images, not to the transform (as in Keras).

    Args:
        images: a 3D image or a 4D batch, channels last (or first with ``data_format``).
        transform: shape ``(8,)`` (one transform for all images) or ``(batch, 8)``.
        interpolation: ``"bilinear"`` (default) or ``"nearest"``.
        fill_mode: how points outside the input are filled: ``"constant"`` (``fill_value``), ``"nearest"``
            (the border pixel), ``"wrap"`` (tile the image), ``"reflect"`` (mirror about the border pixel's
            edge).
        fill_value: the value for ``fill_mode="constant"``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured default.

    Returns:
        The transformed images, shape and dtype of ``images``.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(3, dtype="float32"), (1, 3, 1))  # one row: 0 1 2
    >>> shift = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0]  # output x reads input x + 1
    >>> hl.ops.convert_to_numpy(hl.ops.image.affine_transform(x, shift))[0, :, 0].tolist()
    [1.0, 2.0, 0.0]
    """
    data_format = _data_format(data_format)
    if interpolation not in AFFINE_TRANSFORM_INTERPOLATIONS:
        raise ValueError(
            f"Invalid value for argument `interpolation`. Expected one of {AFFINE_TRANSFORM_INTERPOLATIONS}. "
            f"Received: interpolation={interpolation!r}"
        )
    if fill_mode not in AFFINE_TRANSFORM_FILL_MODES:
        raise ValueError(
            f"Invalid value for argument `fill_mode`. Expected one of {AFFINE_TRANSFORM_FILL_MODES}. "
            f"Received: fill_mode={fill_mode!r}"
        )
    images = _as_image_tensor(images)
    shape = _check_images(images)
    transform = _as_image_tensor(transform)
    if len(tuple(transform.shape)) not in (1, 2) or tuple(transform.shape)[-1] != 8:
        raise ValueError(
            "Invalid transform shape: expected (8,) for one transform or (batch, 8) for one per image. "
            f"Received: transform.shape={tuple(transform.shape)}"
        )
    rank = len(shape)
    x = _to_channels_last(images, data_format)
    if rank == 3:
        x = ops.expand_dims(x, 0)
    height, width = tuple(x.shape)[1:3]
    if height is None or width is None:
        raise ValueError(f"affine_transform needs static height and width; received images of shape {shape}.")
    in_dtype = ops.dtype(x)
    work = in_dtype if dtypes.is_float_dtype(in_dtype) else "float32"
    flat = ops.reshape(ops.cast(x, work), (-1, height * width, tuple(x.shape)[-1]))

    # The transform is a parameter of the sampling grid only: like TF, no gradient reaches it.
    t = ops.stop_gradient(ops.cast(ops.reshape(transform, (-1, 8)), "float32"))
    col = [ops.reshape(ops.take(t, i, axis=1), (-1, 1, 1)) for i in range(8)]
    xs = ops.convert_to_tensor(np.arange(width, dtype="float32").reshape(1, 1, width))
    ys = ops.convert_to_tensor(np.arange(height, dtype="float32").reshape(1, height, 1))
    mul, add = ops.multiply, ops.add
    proj = add(add(mul(col[6], xs), mul(col[7], ys)), 1.0)
    degenerate = ops.equal(proj, 0.0)
    safe = ops.where(degenerate, 1.0, proj)
    src_x = _map_coordinate(ops.divide(add(add(mul(col[0], xs), mul(col[1], ys)), col[2]), safe), width, fill_mode)
    src_y = _map_coordinate(ops.divide(add(add(mul(col[3], xs), mul(col[4], ys)), col[5]), safe), height, fill_mode)
    # Push degenerate points far outside so that every read gives the fill value.
    src_x = ops.where(degenerate, -2.0, src_x)
    src_y = ops.where(degenerate, -2.0, src_y)
    fill = ops.cast(fill_value, work)

    if interpolation == "nearest":
        out = _read(flat, _round_half_away(src_y), _round_half_away(src_x), height, width, fill)
    else:
        y0, x0 = ops.floor(src_y), ops.floor(src_x)
        y1, x1 = ops.add(y0, 1.0), ops.add(x0, 1.0)
        wx = (_as_weight(ops.subtract(x1, src_x), work), _as_weight(ops.subtract(src_x, x0), work))
        wy0, wy1 = _as_weight(ops.subtract(y1, src_y), work), _as_weight(ops.subtract(src_y, y0), work)
        top = _lerp_row(flat, y0, x0, x1, wx, fill)
        bottom = _lerp_row(flat, y1, x0, x1, wx, fill)
        out = add(mul(wy0, top), mul(wy1, bottom))
    out = ops.reshape(out, (-1, height, width, tuple(x.shape)[-1]))
    if not dtypes.is_float_dtype(in_dtype):
        out = ops.cast(_trunc(out), in_dtype)
    if rank == 3:
        out = ops.squeeze(out, 0)
    return _from_channels_last(out, data_format, rank)
