"""``hl.ops.image``: image ops with ``keras.ops.image``'s names, arguments and numerics.

Written once on top of ``hl.ops`` (no backend method of their own), so they run, and differentiate, on
every engine and on symbolic tensors. The numerics follow Keras 3 with its default TensorFlow backend:
``resize`` uses half-pixel centers like ``tf.image.resize``, ``affine_transform`` (and ``perspective_transform``,
built on it) reproduces ``ImageProjectiveTransformV3`` including its fill modes, ``sobel_edges`` reflects the
border as ``tf.image.sobel_edges``. Where TensorFlow's result is wrong or refused, the op follows the
definition instead and its docstring says so: ``map_coordinates``' mirror and reflect modes, ``gaussian_blur``
with a non-square window, integer images, and the two independent fields of ``elastic_transform``.
``extract_patches`` gathers its patches (exact for every dtype) rather than convolving with an identity kernel.

>>> import highlevel as hl
>>> x = hl.ops.reshape(hl.ops.arange(4, dtype="float32"), (1, 2, 2, 1))
>>> hl.ops.convert_to_numpy(hl.ops.image.resize(x, (1, 1)))[0, :, :, 0].tolist()
[[1.5]]
"""

import functools
import itertools

import numpy as np

from highlevel import ops
from highlevel.backends.contract import dtypes

from . import _args, _door, _resize_weights

__all__ = ["resize", "affine_transform"]


def _one_op(name):
    """Runs the decorated public op as one op of the engine (``_door.composite``: on JAX one compiled program per
    signature, instead of one per ``hl.ops`` call inside). For ops without random draws or host reads of values:
    where tracing fails the engine runs the function op by op, which raises the op's own errors."""

    def wrap(fn):
        @functools.wraps(fn)
        def public(*args, **kwargs):
            return _door.composite(name, fn, *args, **kwargs)

        return public

    return wrap


RESIZE_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "lanczos3", "lanczos5")
AFFINE_TRANSFORM_INTERPOLATIONS = ("nearest", "bilinear")
AFFINE_TRANSFORM_FILL_MODES = ("constant", "nearest", "wrap", "reflect")


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


def resize(
    images,
    size,
    interpolation="bilinear",
    antialias=False,
    crop_to_aspect_ratio=False,
    pad_to_aspect_ratio=False,
    fill_mode="constant",
    fill_value=0.0,
    data_format=None,
):
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
    return _door.composite(
        "image.resize",
        _resize,
        images=images,
        size=size,
        interpolation=interpolation,
        antialias=antialias,
        crop_to_aspect_ratio=crop_to_aspect_ratio,
        pad_to_aspect_ratio=pad_to_aspect_ratio,
        fill_mode=fill_mode,
        fill_value=fill_value,
        data_format=data_format,
    )


def _resize(
    images,
    size,
    interpolation="bilinear",
    antialias=False,
    crop_to_aspect_ratio=False,
    pad_to_aspect_ratio=False,
    fill_mode="constant",
    fill_value=0.0,
    data_format=None,
):
    data_format = _args.data_format(data_format, "resize")
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
    if (
        not isinstance(size, tuple)
        or len(size) != 2
        or not all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s > 0 for s in size)
    ):
        raise ValueError(
            f"Argument `size` must be a tuple of two positive integers (height, width). Received: size={size!r}"
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


def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant", fill_value=0, data_format=None):
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
    return _door.composite(
        "image.affine_transform",
        _affine_transform,
        images=images,
        transform=transform,
        interpolation=interpolation,
        fill_mode=fill_mode,
        fill_value=fill_value,
        data_format=data_format,
    )


def _affine_transform(
    images, transform, interpolation="bilinear", fill_mode="constant", fill_value=0, data_format=None
):
    data_format = _args.data_format(data_format, "affine_transform")
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


# ------------------------------------------------------------------------------------ shared helpers
def _float_work_dtype(dtype):
    """The dtype float math on a tensor of ``dtype`` runs in: its own if float, else floatx."""
    return dtype if dtypes.is_float_dtype(dtype) else dtypes.floatx()


def _constant(values, dtype):
    """A numpy constant (computed in float64 on the host) as a tensor of ``dtype``."""
    values = np.asarray(values, dtype=np.float64)
    if dtype == "bfloat16":
        return ops.cast(ops.convert_to_tensor(values.astype(np.float32)), dtype)
    return ops.convert_to_tensor(values.astype(dtype))


def _channel_axis(rank, data_format):
    return rank - 1 if data_format == "channels_last" else rank - 3


def _spatial_axes(rank, data_format):
    """The (height, width) axes of a 3D image or 4D batch."""
    if data_format == "channels_last":
        return rank - 3, rank - 2
    return rank - 2, rank - 1


def _static(size, what, op, shape):
    if size is None:
        raise ValueError(
            f"{op}: the {what} of the images must be known (a static size); received images of "
            f"shape {shape}. Give it in the input shape."
        )
    return size


def _reshape_keep_batch(x, tail):
    """Reshapes ``x`` to ``(batch,) + tail`` when the batch size may be unknown (symbolic tensors)."""
    batch = tuple(x.shape)[0]
    return ops.reshape(x, ((-1 if batch is None else batch),) + tuple(tail))


def _check_float_images(images, op):
    dtype = ops.dtype(images)
    if not dtypes.is_float_dtype(dtype):
        raise ValueError(
            f"{op}: invalid images dtype: expected a float dtype. Received: images.dtype={dtype}. "
            "Cast the images to float first (e.g. hl.ops.cast(images, 'float32') / 255)."
        )
    return dtype


# ------------------------------------------------------------------------------ crop_images / pad_images
def _non_negative(value, name, op):
    if value is None:
        return None
    value = _args.integer(value, name, op)
    if value < 0:
        raise ValueError(f"{op}: {name} must be >= 0. Received: {name}={value}")
    return value


def _three_parts(before, after, target, names, op):
    """Checks that exactly two of ``before``, ``after`` and ``target`` are given, each a non-negative int."""
    given = [before, after, target]
    if given.count(None) != 1:
        raise ValueError(
            f"{op}: must specify exactly two of {names[0]}, {names[1]}, {names[2]}. Received: "
            f"{names[0]}={before}, {names[1]}={after}, {names[2]}={target}"
        )
    return tuple(_non_negative(v, n, op) for v, n in zip(given, names))


def _crop_range(before, after, target, size, names, op, shape):
    """``(start, length)`` of the kept rows (or columns) of an axis of ``size`` pixels."""
    if target is None:
        target = _static(size, names[2].replace("target_", ""), op, shape) - before - after
        if target < 0:
            raise ValueError(
                f"{op}: {names[2]} must be >= 0. Received: {names[0]}={before} and {names[1]}={after} "
                f"crop more than the {size} pixels of the images (images.shape={shape})."
            )
    elif before is None:
        before = _static(size, names[2].replace("target_", ""), op, shape) - target - after
        if before < 0:
            raise ValueError(
                f"{op}: {names[0]} must be >= 0. Received: {names[2]}={target} and {names[1]}={after} "
                f"need more than the {size} pixels of the images (images.shape={shape})."
            )
    elif size is not None and before + target > size:
        raise ValueError(
            f"{op}: {names[0]}={before} plus {names[2]}={target} exceeds the {size} pixels of the "
            f"images (images.shape={shape})."
        )
    return before, target


def crop_images(
    images,
    top_cropping=None,
    left_cropping=None,
    bottom_cropping=None,
    right_cropping=None,
    target_height=None,
    target_width=None,
    data_format=None,
):
    """Crops images to a window given by two of (first crop, last crop, target size) per axis.

    Along the height, give exactly two of ``top_cropping``, ``bottom_cropping`` and ``target_height``; along
    the width, exactly two of ``left_cropping``, ``right_cropping`` and ``target_width``.

    Args:
        images: a 3D image or a 4D batch, channels last (or first with ``data_format``).
        top_cropping: rows removed at the top.
        left_cropping: columns removed on the left.
        bottom_cropping: rows removed at the bottom.
        right_cropping: columns removed on the right.
        target_height: the height of the result.
        target_width: the width of the result.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured default.

    Returns:
        The cropped images, with the dtype of ``images``.

    Raises:
        ValueError: if not exactly two of each triple are given, one is negative, or the window does not fit.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(16, dtype="float32"), (4, 4, 1))
    >>> y = hl.ops.image.crop_images(x, top_cropping=1, left_cropping=2, target_height=2, target_width=2)
    >>> hl.ops.convert_to_numpy(y)[:, :, 0].tolist()
    [[6.0, 7.0], [10.0, 11.0]]
    """
    op = "image.crop_images"
    data_format = _args.data_format(data_format, op)
    top, bottom, height = _three_parts(
        top_cropping, bottom_cropping, target_height, ("top_cropping", "bottom_cropping", "target_height"), op
    )
    left, right, width = _three_parts(
        left_cropping, right_cropping, target_width, ("left_cropping", "right_cropping", "target_width"), op
    )
    images = _as_image_tensor(images)
    shape = _check_images(images)
    h_axis, w_axis = _spatial_axes(len(shape), data_format)
    top, height = _crop_range(
        top, bottom, height, shape[h_axis], ("top_cropping", "bottom_cropping", "target_height"), op, shape
    )
    left, width = _crop_range(
        left, right, width, shape[w_axis], ("left_cropping", "right_cropping", "target_width"), op, shape
    )
    # take with index lists (not getitem with slices) keeps a symbolic graph serializable.
    out = images
    if not (top == 0 and height == shape[h_axis]):
        out = ops.take(out, np.arange(top, top + height, dtype="int32"), axis=h_axis)
    if not (left == 0 and width == shape[w_axis]):
        out = ops.take(out, np.arange(left, left + width, dtype="int32"), axis=w_axis)
    return out


def _pad_sides(before, after, target, size, names, op, shape):
    """``(before, after)`` padding of an axis of ``size`` pixels."""
    if before is not None and after is not None:
        return before, after
    size = _static(size, names[2].replace("target_", ""), op, shape)
    if before is None:
        before = target - after - size
        bad = names[0]
    else:
        after = target - before - size
        bad = names[1]
    if before < 0 or after < 0:
        raise ValueError(
            f"{op}: {bad} must be >= 0. Received: {names[2]}={target} is smaller than the {size} "
            f"pixels of the images plus the given padding (images.shape={shape})."
        )
    return before, after


def pad_images(
    images,
    top_padding=None,
    left_padding=None,
    bottom_padding=None,
    right_padding=None,
    target_height=None,
    target_width=None,
    data_format=None,
):
    """Pads images with zeros, given two of (first pad, last pad, target size) per axis.

    Along the height, give exactly two of ``top_padding``, ``bottom_padding`` and ``target_height``; along the
    width, exactly two of ``left_padding``, ``right_padding`` and ``target_width``.

    Args:
        images: a 3D image or a 4D batch, channels last (or first with ``data_format``).
        top_padding: rows of zeros added at the top.
        left_padding: columns of zeros added on the left.
        bottom_padding: rows of zeros added at the bottom.
        right_padding: columns of zeros added on the right.
        target_height: the height of the result.
        target_width: the width of the result.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured default.

    Returns:
        The padded images, with the dtype of ``images``.

    Raises:
        ValueError: if not exactly two of each triple are given, or a padding is (or would be) negative.

    >>> import highlevel as hl
    >>> x = hl.ops.ones((2, 2, 1))
    >>> y = hl.ops.image.pad_images(x, top_padding=1, left_padding=0, target_height=4, target_width=3)
    >>> hl.ops.convert_to_numpy(y)[:, :, 0].tolist()
    [[0.0, 0.0, 0.0], [1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    """
    op = "image.pad_images"
    data_format = _args.data_format(data_format, op)
    top, bottom, height = _three_parts(
        top_padding, bottom_padding, target_height, ("top_padding", "bottom_padding", "target_height"), op
    )
    left, right, width = _three_parts(
        left_padding, right_padding, target_width, ("left_padding", "right_padding", "target_width"), op
    )
    images = _as_image_tensor(images)
    shape = _check_images(images)
    rank = len(shape)
    h_axis, w_axis = _spatial_axes(rank, data_format)
    top, bottom = _pad_sides(
        top, bottom, height, shape[h_axis], ("top_padding", "bottom_padding", "target_height"), op, shape
    )
    left, right = _pad_sides(
        left, right, width, shape[w_axis], ("left_padding", "right_padding", "target_width"), op, shape
    )
    if top == bottom == left == right == 0:
        return images
    widths = [(0, 0)] * rank
    widths[h_axis], widths[w_axis] = (top, bottom), (left, right)
    return ops.pad(images, widths)


# ----------------------------------------------------------------------------- color space conversions
#: ITU-R BT.601 luma weights, as ``tf.image.rgb_to_grayscale`` (and so Keras) uses them.
_GRAY_WEIGHTS = (0.2989, 0.5870, 0.1140)


def _check_channels(shape, axis, allowed, op):
    channels = shape[axis]
    if channels not in allowed:
        raise ValueError(
            f"{op}: invalid channel size: expected {' or '.join(map(str, allowed))} channels "
            f"(axis {axis}). Received input with shape: images.shape={shape}"
        )
    return channels


def rgb_to_grayscale(images, data_format=None):
    """Converts RGB images to grayscale with the luma weights ``0.2989 R + 0.5870 G + 0.1140 B``.

    Args:
        images: a 3D image or a 4D batch with 3 channels (1-channel images are returned unchanged), channels
            last (or first with ``data_format``).
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured default.

    Returns:
        The grayscale images with 1 channel, in the dtype of ``images`` (integer images are computed in floatx
        and truncated back, as Keras does).

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]])  # a red and a blue pixel
    >>> [round(float(v), 4) for v in hl.ops.convert_to_numpy(hl.ops.image.rgb_to_grayscale(x)).ravel()]
    [0.2989, 0.114]
    """
    return _door.composite("image.rgb_to_grayscale", _rgb_to_grayscale, images=images, data_format=data_format)


def _rgb_to_grayscale(images, data_format=None):
    op = "image.rgb_to_grayscale"
    data_format = _args.data_format(data_format, op)
    images = _as_image_tensor(images)
    shape = _check_images(images)
    rank = len(shape)
    axis = _channel_axis(rank, data_format)
    if _check_channels(shape, axis, (1, 3), op) == 1:
        return images
    in_dtype = ops.dtype(images)
    work = _float_work_dtype(in_dtype)
    weights = _constant(np.reshape(_GRAY_WEIGHTS, [3 if a == axis else 1 for a in range(rank)]), work)
    gray = ops.sum(ops.multiply(ops.cast(images, work), weights), axis=axis, keepdims=True)
    return ops.cast(gray, in_dtype)


def _planes(images, axis):
    return [ops.take(images, i, axis=axis) for i in range(3)]


def rgb_to_hsv(images, data_format=None):
    """Converts RGB images to HSV (hue, saturation, value), each in ``[0, 1]`` for RGB values in ``[0, 1]``.

    A hue of 0 is red, 1/3 green and 2/3 blue; gray pixels (no chroma) get hue 0 and black pixels saturation 0.
    The arithmetic is that of ``tf.image.rgb_to_hsv``.

    Args:
        images: a 3D image or a 4D batch of float RGB values, channels last (or first with ``data_format``).
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured default.

    Returns:
        The HSV images, same shape and dtype.

    Raises:
        ValueError: for integer images or a channel count other than 3.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[[0.0, 0.5, 0.5]]])  # teal: hue 1/2
    >>> [round(float(v), 4) for v in hl.ops.convert_to_numpy(hl.ops.image.rgb_to_hsv(x)).ravel()]
    [0.5, 1.0, 0.5]
    """
    return _door.composite("image.rgb_to_hsv", _rgb_to_hsv, images=images, data_format=data_format)


def _rgb_to_hsv(images, data_format=None):
    op = "image.rgb_to_hsv"
    data_format = _args.data_format(data_format, op)
    images = _as_image_tensor(images)
    shape = _check_images(images)
    _check_float_images(images, op)
    axis = _channel_axis(len(shape), data_format)
    _check_channels(shape, axis, (3,), op)
    red, green, blue = _planes(images, axis)
    value = ops.maximum(ops.maximum(red, green), blue)
    spread = ops.subtract(value, ops.minimum(ops.minimum(red, green), blue))
    positive_value = ops.greater(value, 0.0)
    positive_spread = ops.greater(spread, 0.0)
    saturation = ops.where(positive_value, ops.divide(spread, ops.where(positive_value, value, 1.0)), 0.0)
    norm = ops.multiply(ops.reciprocal(ops.where(positive_spread, spread, 1.0)), 1.0 / 6.0)
    hue = ops.where(
        ops.equal(red, value),
        ops.multiply(norm, ops.subtract(green, blue)),
        ops.where(
            ops.equal(green, value),
            ops.add(ops.multiply(norm, ops.subtract(blue, red)), 2.0 / 6.0),
            ops.add(ops.multiply(norm, ops.subtract(red, green)), 4.0 / 6.0),
        ),
    )
    hue = ops.where(positive_spread, hue, 0.0)
    hue = ops.where(ops.less(hue, 0.0), ops.add(hue, 1.0), hue)
    return ops.stack([hue, saturation, value], axis=axis)


def hsv_to_rgb(images, data_format=None):
    """Converts HSV images (hue, saturation, value in ``[0, 1]``) to RGB.

    The arithmetic is that of ``tf.image.hsv_to_rgb``: the hue is not wrapped, so hues outside ``[0, 1]``
    clamp to the nearest end of the color wheel's ramps (Keras's JAX backend wraps them instead).

    Args:
        images: a 3D image or a 4D batch of float HSV values, channels last (or first with ``data_format``).
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured default.

    Returns:
        The RGB images, same shape and dtype.

    Raises:
        ValueError: for integer images or a channel count other than 3.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[[0.5, 1.0, 0.5]]])
    >>> [round(float(v), 4) for v in hl.ops.convert_to_numpy(hl.ops.image.hsv_to_rgb(x)).ravel()]
    [0.0, 0.5, 0.5]
    """
    return _door.composite("image.hsv_to_rgb", _hsv_to_rgb, images=images, data_format=data_format)


def _hsv_to_rgb(images, data_format=None):
    op = "image.hsv_to_rgb"
    data_format = _args.data_format(data_format, op)
    images = _as_image_tensor(images)
    shape = _check_images(images)
    _check_float_images(images, op)
    axis = _channel_axis(len(shape), data_format)
    _check_channels(shape, axis, (3,), op)
    hue, saturation, value = _planes(images, axis)
    dh = ops.multiply(hue, 6.0)
    ramp_r = ops.clip(ops.subtract(ops.abs(ops.subtract(dh, 3.0)), 1.0), 0.0, 1.0)
    ramp_g = ops.clip(ops.subtract(2.0, ops.abs(ops.subtract(dh, 2.0))), 0.0, 1.0)
    ramp_b = ops.clip(ops.subtract(2.0, ops.abs(ops.subtract(dh, 4.0))), 0.0, 1.0)
    one_minus_s = ops.subtract(1.0, saturation)
    planes = [
        ops.multiply(ops.add(one_minus_s, ops.multiply(saturation, ramp)), value) for ramp in (ramp_r, ramp_g, ramp_b)
    ]
    return ops.stack(planes, axis=axis)


# --------------------------------------------------------------------------- extract_patches (2D, 3D)
def _patch_indices(in_size, out_size, kernel, stride, dilation):
    """``index[o, k] = o * stride + k * dilation``: the input position of tap ``k`` of patch ``o``."""
    return (np.arange(out_size)[:, None] * stride + np.arange(kernel)[None, :] * dilation).astype("int32")


def _extract_patches(images, size, strides, dilation_rate, padding, data_format, n, op):
    size = _args.int_tuple(size, n, "size", op)
    strides = size if strides is None else _args.int_tuple(strides, n, "strides", op)
    dilation = _args.int_tuple(dilation_rate, n, "dilation_rate", op)
    padding = _args.padding(padding, op)
    data_format = _args.data_format(data_format, op)
    images = _as_image_tensor(images)
    shape = _args.shape_of(images)
    if len(shape) not in (n + 1, n + 2):
        kind = "image" if n == 2 else "volume"
        raise ValueError(
            f"{op}: invalid images rank: expected rank {n + 1} (a single {kind}) or {n + 2} (a batch) "
            f"for {n}D patches of size {size}. Received: images.shape={shape}"
        )
    unbatched = len(shape) == n + 1
    x = ops.expand_dims(images, 0) if unbatched else images
    if data_format == "channels_first":
        x = ops.moveaxis(x, 1, -1)
    xshape = tuple(x.shape)
    spatial = [_static(d, "spatial size", op, shape) for d in xshape[1 : 1 + n]]
    channels = _static(xshape[-1], "channel count", op, shape)

    outs, pads = [], []
    for in_size, k, s, d in zip(spatial, size, strides, dilation):
        span = (k - 1) * d + 1
        if padding == "same":
            out = -(-in_size // s)
            total = max((out - 1) * s + span - in_size, 0)
            pads.append((total // 2, total - total // 2))
        else:
            out = (in_size - span) // s + 1 if in_size >= span else 0
            pads.append((0, 0))
        if out <= 0:
            raise ValueError(
                f"{op}: a patch of size {size} with dilation_rate {dilation} spans more than the "
                f"images' spatial shape {tuple(spatial)} with padding='valid'. Received: "
                f"images.shape={shape}"
            )
        outs.append(out)
    if any(p != (0, 0) for p in pads):
        x = ops.pad(x, [(0, 0)] + pads + [(0, 0)])

    # One gather per spatial axis splits it into (patch position, tap): (B, ..., O_i, K_i, ..., C).
    for i in range(n):
        axis = 1 + 2 * i
        length = tuple(x.shape)[axis]
        index = _patch_indices(length, outs[i], size[i], strides[i], dilation[i])
        if not (index.size == length and (index.ravel() == np.arange(length)).all()):
            x = ops.take(x, index.ravel(), axis=axis)
        tail = tuple(x.shape)[1:axis] + (outs[i], size[i]) + tuple(x.shape)[axis + 1 :]
        x = _reshape_keep_batch(x, tail)
    # (B, O_1, K_1, ..., O_n, K_n, C) -> (B, O_1..O_n, K_1..K_n, C) -> (B, O_1..O_n, K_1 ... K_n C)
    perm = (0,) + tuple(1 + 2 * i for i in range(n)) + tuple(2 + 2 * i for i in range(n)) + (2 * n + 1,)
    x = ops.transpose(x, perm)
    x = _reshape_keep_batch(x, tuple(outs) + (int(np.prod(size)) * channels,))
    if data_format == "channels_first":
        x = ops.moveaxis(x, -1, 1)
    return ops.squeeze(x, 0) if unbatched else x


@_one_op("image.extract_patches")
def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    """Extracts patches of images (2D) or of volumes (3D) into the channel axis.

    Each output position holds one patch flattened in (rows, columns, channels) order (depth first for 3D
    patches), the layout of a convolution with an identity kernel. Patches are gathered, not convolved, so
    the values are copied exactly, for every dtype.

    Args:
        images: for 2D patches a 3D image ``(H, W, C)`` or a 4D batch ``(N, H, W, C)``; for 3D patches a 4D
            volume or a 5D batch (channels first with ``data_format="channels_first"``).
        size: the patch size: an int or a tuple ``(height, width)`` for 2D patches, a tuple
            ``(depth, height, width)`` for 3D patches.
        strides: the step between patches per spatial axis; None: ``size`` (patches that do not overlap).
        dilation_rate: the step between the taps of a patch (combinable with ``strides``).
        padding: ``"valid"`` (patches inside the image) or ``"same"`` (zero padding, as a ``"same"``
            convolution, so that there are ``ceil(size / strides)`` patches per axis).
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured default.

    Returns:
        The patches: ``(N, H', W', ph * pw * C)`` for a 2D batch (channels first: ``(N, ph * pw * C, H', W')``),
        without ``N`` for a single image, and the 3D analogues for volumes; the dtype of ``images``.

    Raises:
        TypeError: if ``size`` is not an int or a tuple.
        ValueError: for a tuple ``size`` of another length, an images rank that does not match it, or a patch
            larger than the images with ``padding="valid"``.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(16, dtype="float32"), (1, 4, 4, 1))
    >>> p = hl.ops.image.extract_patches(x, 2)
    >>> tuple(p.shape), hl.ops.convert_to_numpy(p)[0, 0, 1].tolist()
    ((1, 2, 2, 4), [2.0, 3.0, 6.0, 7.0])
    """
    op = "image.extract_patches"
    if not _args.is_int(size):
        if not isinstance(size, (tuple, list)):
            raise TypeError(
                f"{op}: invalid `size` argument. Expected an int or a tuple. Received: size={size!r} "
                f"of type {type(size).__name__}"
            )
        if len(size) not in (2, 3):
            raise ValueError(
                f"{op}: invalid `size` argument. Expected a tuple of length 2 (2D patches) or 3 "
                f"(3D patches). Received: size={size!r} with length {len(size)}"
            )
        if len(size) == 3:
            return _extract_patches(images, size, strides, dilation_rate, padding, data_format, 3, op)
    return _extract_patches(images, size, strides, dilation_rate, padding, data_format, 2, op)


@_one_op("image.extract_patches_3d")
def extract_patches_3d(volumes, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    """Extracts 3D patches of volumes into the channel axis (see :func:`extract_patches`).

    Args:
        volumes: a 4D volume ``(D, H, W, C)`` or a 5D batch ``(N, D, H, W, C)`` (channels first with
            ``data_format="channels_first"``).
        size: the patch size, an int or a tuple ``(depth, height, width)``.
        strides: the step between patches per spatial axis; None: ``size``.
        dilation_rate: the step between the taps of a patch.
        padding: ``"valid"`` or ``"same"``.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured default.

    Returns:
        The patches, ``(N, D', H', W', pd * ph * pw * C)`` (channels first: ``(N, pd * ph * pw * C, D', H', W')``),
        without ``N`` for a single volume; the dtype of ``volumes``.

    >>> import highlevel as hl
    >>> v = hl.ops.ones((4, 4, 4, 2))
    >>> tuple(hl.ops.image.extract_patches_3d(v, 2).shape)
    (2, 2, 2, 16)
    """
    return _extract_patches(volumes, size, strides, dilation_rate, padding, data_format, 3, "image.extract_patches_3d")


# ------------------------------------------------------------------------------------- map_coordinates
MAP_COORDINATES_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


def _mirror_index(index, size):
    """Folds integer-valued float indices into ``[0, size - 1]`` by mirroring about the end pixels
    (``c d c b | a b c d | c b a b``)."""
    if size == 1:
        return ops.zeros_like(index)
    period = float(2 * (size - 1))
    return ops.abs(ops.subtract(ops.mod(ops.add(index, float(size - 1)), period), float(size - 1)))


def _fold_index(index, size, fill_mode):
    """``(index in [0, size - 1], valid)`` for integer-valued float indices; ``valid`` only for ``"constant"``."""
    last = float(size - 1)
    if fill_mode == "constant":
        valid = ops.logical_and(ops.greater_equal(index, 0.0), ops.less_equal(index, last))
        return ops.clip(index, 0.0, last), valid
    if fill_mode == "nearest":
        return ops.clip(index, 0.0, last), None
    if fill_mode == "wrap":
        return ops.mod(index, float(size)), None
    if fill_mode == "mirror":
        return _mirror_index(index, size), None
    # reflect (d c b a | a b c d | d c b a): mirror the half-pixel lattice, then map back to pixels.
    doubled = _mirror_index(ops.add(ops.multiply(index, 2.0), 1.0), 2 * size + 1)
    return ops.floor_divide(ops.subtract(doubled, 1.0), 2.0), None


def _interpolation_nodes(coordinate, order):
    """``[(integer-valued float index, weight or None), ...]`` of one coordinate array."""
    if order == 0:
        return [(ops.round(coordinate), None)]
    lower = ops.floor(coordinate)
    upper_weight = ops.subtract(coordinate, lower)
    return [(lower, ops.subtract(1.0, upper_weight)), (ops.add(lower, 1.0), upper_weight)]


def _interpolate(flat, coordinates, sizes, order, fill_mode, fill_value, base=None, channels=False):
    """Samples ``flat`` (a tensor flattened over the sampled axes) at float ``coordinates`` (one per axis).

    Args:
        flat: ``(prod(sizes),)``, or ``(prod(sizes), C)`` with ``channels``, in the working float dtype.
        coordinates: one float tensor per sampled axis, all of the same shape ``S``.
        sizes: the lengths of the sampled axes.
        order: 0 (nearest) or 1 (linear).
        fill_mode, fill_value: what points outside the axes read (see :func:`map_coordinates`).
        base: an int32 offset added to every flat index (the start of each image in a batch), or None.
        channels: whether ``flat`` has a trailing channel axis (the result then has shape ``S + (C,)``).
    """
    strides = [int(np.prod(sizes[i + 1 :])) for i in range(len(sizes))]
    per_axis = []
    for coordinate, size in zip(coordinates, sizes):
        nodes = []
        for index, weight in _interpolation_nodes(coordinate, order):
            folded, valid = _fold_index(index, size, fill_mode)
            nodes.append((ops.cast(folded, "int32"), valid, weight))
        per_axis.append(nodes)
    fill = ops.cast(fill_value, ops.dtype(flat))
    total = None
    for combo in itertools.product(*per_axis):
        flat_index = base
        valid = weight = None
        for (index, ok, w), stride in zip(combo, strides):
            term = ops.multiply(index, stride) if stride != 1 else index
            flat_index = term if flat_index is None else ops.add(flat_index, term)
            if ok is not None:
                valid = ok if valid is None else ops.logical_and(valid, ok)
            if w is not None:
                weight = w if weight is None else ops.multiply(weight, w)
        values = ops.take(flat, flat_index, axis=0)
        if valid is not None:
            values = ops.where(ops.expand_dims(valid, -1) if channels else valid, values, fill)
        if weight is not None:
            values = ops.multiply(ops.expand_dims(weight, -1) if channels else weight, values)
        total = values if total is None else ops.add(total, values)
    return total


def _as_coordinates(coordinates):
    if isinstance(coordinates, (list, tuple)):
        if all(isinstance(c, (np.ndarray, list, tuple, int, float, np.number)) for c in coordinates):
            return ops.convert_to_tensor(np.asarray(coordinates))
        return ops.stack([_as_image_tensor(c) for c in coordinates], axis=0)
    return _as_image_tensor(coordinates)


def _round_to_dtype(x, dtype):
    """A float result of integer inputs, rounded (half to even) and cast back to ``dtype``."""
    if dtypes.is_float_dtype(dtype):
        return ops.cast(x, dtype)
    return ops.cast(ops.round(x), dtype)


@_one_op("image.map_coordinates")
def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    """Samples an array at arbitrary (float) coordinates by nearest-neighbour or linear interpolation.

    ``output[j...] = inputs(coordinates[0, j...], ..., coordinates[n - 1, j...])``, with the conventions of
    ``scipy.ndimage.map_coordinates`` (pixel ``i`` sits at coordinate ``i``), except at the borders: each of the
    interpolation's neighbours is filled on its own (as JAX and Keras do, which fixes scipy issue 2640).
    Nearest rounds halves to even. Gradients flow to ``inputs`` and, for ``order=1``, to ``coordinates``.
    The fill modes fold indices as documented below, as JAX and scipy do (Keras's TensorFlow backend fails on
    ``"mirror"`` and mirrors negative indices about the wrong point with ``"reflect"``).

    Args:
        inputs: the array to sample, any rank ``n``.
        coordinates: shape ``(n, ...)`` (or a sequence of ``n`` arrays of one shape): where to sample.
        order: 0 (nearest neighbour) or 1 (linear).
        fill_mode: what points outside ``inputs`` read: ``"constant"`` (``fill_value``, ``k k | a b c d | k k``),
            ``"nearest"`` (``a a | a b c d | d d``), ``"wrap"`` (``c d | a b c d | a b``), ``"mirror"``
            (``c b | a b c d | c b``) or ``"reflect"`` (``b a | a b c d | d c``).
        fill_value: the value of points outside with ``fill_mode="constant"``.

    Returns:
        The samples, shape ``coordinates.shape[1:]``, dtype of ``inputs`` (integer inputs are rounded).

    Raises:
        ValueError: for an ``order`` other than 0 or 1, an unknown ``fill_mode``, or coordinates whose first
            dimension is not the rank of ``inputs``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([0.0, 10.0, 20.0])
    >>> hl.ops.convert_to_numpy(hl.ops.image.map_coordinates(x, [[0.5, 1.25, 3.0]], order=1)).tolist()
    [5.0, 12.5, 0.0]
    """
    op = "image.map_coordinates"
    if not _args.is_int(order) or order not in (0, 1):
        raise ValueError(
            f"{op}: invalid value for argument `order`: expected 0 (nearest) or 1 (linear). Received: order={order!r}"
        )
    _args.one_of(fill_mode, MAP_COORDINATES_FILL_MODES, "fill_mode", op)
    inputs = _as_image_tensor(inputs)
    coordinates = _as_coordinates(coordinates)
    in_shape, c_shape = _args.shape_of(inputs), _args.shape_of(coordinates)
    if len(c_shape) < 2:
        raise ValueError(
            f"{op}: invalid coordinates rank: expected at least rank 2 (one row of coordinates per "
            f"input axis). Received coordinates with shape: {c_shape}"
        )
    if c_shape[0] != len(in_shape):
        raise ValueError(
            f"{op}: the first dimension of `coordinates` must be the rank of `inputs`. Received "
            f"inputs with shape {in_shape} and coordinates with shape {c_shape}"
        )
    if None in in_shape:
        raise ValueError(f"{op}: the shape of `inputs` must be known; received {in_shape}.")
    in_dtype, c_dtype = ops.dtype(inputs), ops.dtype(coordinates)
    if dtypes.is_float_dtype(in_dtype):
        work = in_dtype
    else:
        work = c_dtype if dtypes.is_float_dtype(c_dtype) else dtypes.floatx()
    coords = ops.cast(coordinates, work)
    axes = [ops.take(coords, i, axis=0) for i in range(len(in_shape))]
    flat = ops.reshape(ops.cast(inputs, work), (-1,))
    out = _interpolate(flat, axes, in_shape, order, fill_mode, fill_value)
    return _round_to_dtype(out, in_dtype)


# --------------------------------------------------------------------------------- perspective_transform
def _points(points, name, op):
    points = _as_image_tensor(points)
    shape = _args.shape_of(points)
    if len(shape) not in (2, 3) or shape[-2:] != (4, 2):
        raise ValueError(
            f"{op}: invalid {name} shape: expected (4, 2) for a single image or (N, 4, 2) for a "
            f"batch. Received shape: {shape}"
        )
    return points, shape


def _square_to_quad(px, py):
    """The projective map of the unit square's corners (0,0), (1,0), (1,1), (0,1) onto four points.

    ``px``, ``py``: the points' coordinates, four tensors each (one entry per image). Returns the 3x3 matrix
    as nested lists of tensors (Heckbert's closed form, exact for any four points in general position).
    """
    sub, mul, add, div = ops.subtract, ops.multiply, ops.add, ops.divide
    sx = add(sub(px[0], px[1]), sub(px[2], px[3]))
    sy = add(sub(py[0], py[1]), sub(py[2], py[3]))
    dx1, dx2 = sub(px[1], px[2]), sub(px[3], px[2])
    dy1, dy2 = sub(py[1], py[2]), sub(py[3], py[2])
    det = sub(mul(dx1, dy2), mul(dx2, dy1))
    g = div(sub(mul(sx, dy2), mul(dx2, sy)), det)
    h = div(sub(mul(dx1, sy), mul(sx, dy1)), det)
    return [
        [add(sub(px[1], px[0]), mul(g, px[1])), add(sub(px[3], px[0]), mul(h, px[3])), px[0]],
        [add(sub(py[1], py[0]), mul(g, py[1])), add(sub(py[3], py[0]), mul(h, py[3])), py[0]],
        [g, h, ops.ones_like(g)],
    ]


def _adjugate(m):
    """The adjugate of a 3x3 matrix of tensors (its inverse times its determinant)."""

    def minor(r0, r1, c0, c1):
        return ops.subtract(ops.multiply(m[r0][c0], m[r1][c1]), ops.multiply(m[r0][c1], m[r1][c0]))

    return [
        [minor(1, 2, 1, 2), ops.negative(minor(0, 2, 1, 2)), minor(0, 1, 1, 2)],
        [ops.negative(minor(1, 2, 0, 2)), minor(0, 2, 0, 2), ops.negative(minor(0, 1, 0, 2))],
        [minor(1, 2, 0, 1), ops.negative(minor(0, 2, 0, 1)), minor(0, 1, 0, 1)],
    ]


def _homography(start_points, end_points, dtype):
    """The ``(N, 8)`` transforms that map each end point to its start point (``affine_transform``'s rows)."""

    def corners(points):
        points = ops.cast(ops.reshape(points, (-1, 4, 2)), dtype)
        xs, ys = ops.take(points, 0, axis=2), ops.take(points, 1, axis=2)
        return [ops.take(xs, i, axis=1) for i in range(4)], [ops.take(ys, i, axis=1) for i in range(4)]

    to_start = _square_to_quad(*corners(start_points))
    from_end = _adjugate(_square_to_quad(*corners(end_points)))

    def entry(r, c):
        terms = [ops.multiply(to_start[r][k], from_end[k][c]) for k in range(3)]
        return ops.add(ops.add(terms[0], terms[1]), terms[2])

    rows = [[entry(r, c) for c in range(3)] for r in range(3)]
    scale = rows[2][2]
    return ops.stack([ops.divide(rows[r][c], scale) for r in range(3) for c in range(3)][:8], axis=-1)


def perspective_transform(images, start_points, end_points, interpolation="bilinear", fill_value=0, data_format=None):
    """Warps images by the perspective transform that moves ``start_points`` to ``end_points``.

    The four point pairs (``[x, y]`` in pixels) define a projective map; output pixel ``p`` reads the input at
    the start point that the map sends to ``p``. Points outside the input read ``fill_value``. Gradients flow
    to the images, not to the points (as in Keras).

    Args:
        images: a 3D image or a 4D batch, channels last (or first with ``data_format``).
        start_points: ``(4, 2)`` or ``(N, 4, 2)``: four points of the input image, no three on a line.
        end_points: the same shape: where those points land in the output.
        interpolation: ``"bilinear"`` (default) or ``"nearest"``.
        fill_value: the value of pixels that map outside the input.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured default.

    Returns:
        The warped images, shape and dtype of ``images``.

    Raises:
        ValueError: for points of another shape, or start and end points of different shapes.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(4, dtype="float32"), (1, 4, 1))  # one row: 0 1 2 3
    >>> square = [[0, 0], [1, 0], [1, 1], [0, 1]]
    >>> moved = [[1, 0], [2, 0], [2, 1], [1, 1]]  # everything one pixel to the right
    >>> hl.ops.convert_to_numpy(hl.ops.image.perspective_transform(x, square, moved))[0, :, 0].tolist()
    [0.0, 0.0, 1.0, 2.0]
    """
    return _door.composite(
        "image.perspective_transform",
        _perspective_transform,
        images=images,
        start_points=start_points,
        end_points=end_points,
        interpolation=interpolation,
        fill_value=fill_value,
        data_format=data_format,
    )


def _perspective_transform(images, start_points, end_points, interpolation="bilinear", fill_value=0, data_format=None):
    op = "image.perspective_transform"
    _args.one_of(interpolation, AFFINE_TRANSFORM_INTERPOLATIONS, "interpolation", op)
    data_format = _args.data_format(data_format, op)
    images = _as_image_tensor(images)
    _check_images(images)
    start_points, start_shape = _points(start_points, "start_points", op)
    end_points, end_shape = _points(end_points, "end_points", op)
    if start_shape != end_shape:
        raise ValueError(
            f"{op}: start_points and end_points must have the same shape. Received "
            f"start_points.shape={start_shape}, end_points.shape={end_shape}"
        )
    # The map is a parameter of the sampling grid, in float32 as TensorFlow's (float64 points stay float64).
    work = "float64" if "float64" in (ops.dtype(start_points), ops.dtype(end_points)) else "float32"
    transform = _homography(ops.stop_gradient(start_points), ops.stop_gradient(end_points), work)
    return affine_transform(
        images,
        transform,
        interpolation=interpolation,
        fill_mode="constant",
        fill_value=fill_value,
        data_format=data_format,
    )


# ------------------------------------------------------------------------------------------ gaussian_blur
def _gaussian_1d(size, sigma, dtype):
    """A normalized Gaussian window of ``size`` taps centered on ``(size - 1) / 2`` (``sigma`` may be a tensor)."""
    offsets = np.arange(size, dtype=np.float64) - (size - 1) / 2.0
    if _is_number(sigma):
        window = np.exp(-0.5 * (offsets / float(sigma)) ** 2)
        return _constant(window / window.sum(), dtype)
    x = ops.divide(_constant(offsets, dtype), ops.cast(sigma, dtype))
    window = ops.exp(ops.multiply(ops.square(x), -0.5))
    return ops.divide(window, ops.sum(window))


def _is_number(value):
    return isinstance(value, (int, float, np.number)) or (isinstance(value, np.ndarray) and value.ndim == 0)


def _positive_sigmas(value, name, op):
    """``value`` (one standard deviation or a pair) as a pair; numbers must be > 0, tensors pass as they are."""
    if isinstance(value, (list, tuple)):
        if len(value) != 2:
            raise ValueError(f"{op}: `{name}` must be a number or a pair of numbers; received {name}={value!r}.")
        pair = tuple(value)
    elif hasattr(value, "shape") and len(tuple(value.shape)) == 1:
        pair = (ops.take(value, 0), ops.take(value, 1))
    else:
        pair = (value, value)
    if any(_is_number(v) and not float(v) > 0 for v in pair):
        raise ValueError(f"{op}: `{name}` must be > 0; received {name}={value!r}.")
    return pair


def _blur(x, kernel_size, sigma, data_format, channels):
    """Depthwise ``"same"`` convolution of a float 4D batch with a separable Gaussian kernel.

    ``kernel_size`` and ``sigma`` are ``(along width, along height)`` pairs, Keras's order.
    """
    dtype = ops.dtype(x)
    across = _gaussian_1d(kernel_size[0], sigma[0], dtype)
    down = _gaussian_1d(kernel_size[1], sigma[1], dtype)
    kernel = ops.multiply(ops.reshape(down, (-1, 1, 1, 1)), ops.reshape(across, (1, -1, 1, 1)))
    if channels != 1:
        kernel = ops.tile(kernel, (1, 1, channels, 1))
    return ops.depthwise_conv(x, kernel, strides=1, padding="same", data_format=data_format)


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """Blurs images with a Gaussian kernel (zero padding, output of the input's size).

    The kernel is the outer product of two normalized 1D Gaussian windows. The first entry of ``kernel_size``
    and of ``sigma`` is the window along the width (x), the second the window along the height (y): every Keras
    backend reads ``sigma`` so, and Keras's JAX backend ``kernel_size`` too (its TensorFlow and PyTorch backends
    scramble a non-square window). With square sizes and one sigma the order does not matter.

    Args:
        images: a 3D image or a 4D batch, channels last (or first with ``data_format``).
        kernel_size: ``(width taps, height taps)``, or one int for both.
        sigma: ``(sigma along x, sigma along y)``, or one number for both.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured default.

    Returns:
        The blurred images, same shape and dtype (integer images are computed in float32, rounded and clipped
        to their dtype's range).

    >>> import highlevel as hl
    >>> x = hl.ops.pad(hl.ops.ones((1, 1, 1)), ((1, 1), (1, 1), (0, 0)))  # one bright pixel
    >>> y = hl.ops.convert_to_numpy(hl.ops.image.gaussian_blur(x, (3, 3), (1.0, 1.0)))
    >>> round(float(y.sum()), 5), bool(y[1, 1, 0] > y[0, 1, 0] > y[0, 0, 0])
    (1.0, True)
    """
    return _door.composite(
        "image.gaussian_blur",
        _gaussian_blur,
        images=images,
        kernel_size=kernel_size,
        sigma=sigma,
        data_format=data_format,
    )


def _gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    op = "image.gaussian_blur"
    kernel_size = _args.int_tuple(kernel_size, 2, "kernel_size", op)
    sigma = _positive_sigmas(sigma, "sigma", op)
    data_format = _args.data_format(data_format, op)
    images = _as_image_tensor(images)
    shape = _check_images(images)
    rank = len(shape)
    x = ops.expand_dims(images, 0) if rank == 3 else images
    channels = _static(tuple(x.shape)[_channel_axis(4, data_format)], "channel count", op, shape)
    in_dtype = ops.dtype(x)
    is_float = dtypes.is_float_dtype(in_dtype)
    if not is_float:
        x = ops.cast(x, "float32")
    out = _blur(x, kernel_size, sigma, data_format, channels)
    if not is_float:
        out = _saturate_round(out, in_dtype)
    return ops.squeeze(out, 0) if rank == 3 else out


# -------------------------------------------------------------------------------------- elastic_transform
ELASTIC_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


def _symbolic_node(public, args, kwargs, shape, dtype):
    """Records one graph node that replays ``hl.ops.<public>`` (a dotted name) on real tensors."""
    from highlevel.keras_tensor import KerasTensor
    from highlevel.node import Node, OpCall

    out = KerasTensor(shape, dtype)
    Node(OpCall(public), args, kwargs, out)
    return out


def elastic_transform(
    images,
    alpha=20.0,
    sigma=5.0,
    interpolation="bilinear",
    fill_mode="reflect",
    fill_value=0.0,
    seed=None,
    data_format=None,
    *,
    max_sigma=None,
):
    """Deforms images by a random smooth displacement field (elastic distortion, Simard et al. 2003).

    Two independent standard normal fields (one per direction, drawn with ``hl.random`` from ``seed``) are
    scaled by ``sigma``, blurred by a Gaussian of that ``sigma`` (a window of ``6 * int(sigma) | 1`` taps), and
    scaled by ``alpha``; each output pixel ``(y, x)`` then samples the input at ``(y + dy, x + dx)``, as
    :func:`map_coordinates` does. (Keras's TensorFlow and JAX backends draw both fields from one seed, so their
    displacements always point along the diagonal; its PyTorch backend draws them independently, as here.)

    Args:
        images: a 3D image or a 4D batch, channels last (or first with ``data_format``).
        alpha: the strength of the displacement, in pixels per unit of the blurred field.
        sigma: the standard deviation of the blur (the smoothness of the field), a positive number, or a scalar
            tensor (it may be traced, in a compiled step or a ``tf.data`` map, when ``max_sigma`` is given).
        interpolation: ``"bilinear"`` (default) or ``"nearest"``.
        fill_mode: what points outside the image read: ``"reflect"`` (default), ``"constant"``, ``"nearest"``,
            ``"wrap"`` or ``"mirror"`` (see :func:`map_coordinates`).
        fill_value: the value of points outside with ``fill_mode="constant"``.
        seed: an int, a :class:`highlevel.random.SeedGenerator`, or None (the global generator).
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured default.
        max_sigma: not in Keras: a number bounding ``sigma`` when ``sigma`` is a traced tensor, whose value is
            unknown while the program is built. The blur window's size (``6 * int(sigma) | 1`` taps) must be fixed
            then, so it is sized for ``max_sigma``; the Gaussian weights still follow ``sigma``. Ignored when
            ``sigma`` has a value.

    Returns:
        The deformed images, same shape and dtype (integer images are rounded).

    >>> import highlevel as hl
    >>> x = hl.random.uniform((2, 16, 16, 3), seed=0)
    >>> y = hl.ops.image.elastic_transform(x, alpha=5.0, sigma=2.0, seed=1)
    >>> tuple(y.shape), bool(hl.ops.convert_to_numpy(hl.ops.any(hl.ops.not_equal(x, y))))
    ((2, 16, 16, 3), True)
    """
    op = "image.elastic_transform"
    _args.one_of(interpolation, AFFINE_TRANSFORM_INTERPOLATIONS, "interpolation", op)
    _args.one_of(fill_mode, ELASTIC_FILL_MODES, "fill_mode", op)
    data_format = _args.data_format(data_format, op)
    images = _as_image_tensor(images)
    shape = _check_images(images)
    from highlevel.losses.host_values import concrete_value

    if ops.is_tensor(sigma):
        known = concrete_value(sigma)  # None while traced
        sigma_value = None if known is None else float(np.asarray(known))
    else:
        try:
            sigma_value = float(sigma)
        except (TypeError, ValueError):
            raise ValueError(
                f"{op}: `sigma` must be a number or a scalar tensor (it sets the size of the blur); received "
                f"sigma={sigma!r}."
            ) from None
    if sigma_value is None:
        if isinstance(max_sigma, bool) or not isinstance(max_sigma, (int, float)) or not max_sigma > 0:
            raise ValueError(
                f"{op}: `sigma` is a traced tensor, so the size of the blur window cannot be read from it; pass "
                f"max_sigma=<a positive number bounding sigma> to size the window. Received max_sigma={max_sigma!r}."
            )
        window_sigma = float(max_sigma)
    elif not sigma_value > 0:
        raise ValueError(f"{op}: `sigma` must be > 0; received sigma={sigma!r}.")
    else:
        window_sigma = sigma_value
    from highlevel.keras_tensor import any_symbolic

    if any_symbolic((images,), {}):
        # The random fields need the batch size, which a symbolic batch does not have yet: one node replays the
        # whole op on real tensors.
        return _symbolic_node(
            "image.elastic_transform",
            (images,),
            {
                "alpha": alpha,
                "sigma": sigma,
                "interpolation": interpolation,
                "fill_mode": fill_mode,
                "fill_value": fill_value,
                "seed": seed,
                "data_format": data_format,
                "max_sigma": max_sigma,
            },
            shape,
            ops.dtype(images),
        )
    from highlevel import random as hl_random

    rank = len(shape)
    height, width = (shape[a] for a in _spatial_axes(rank, data_format))
    batch = ops.shape(images)[0] if rank == 4 else 1  # a tensor when unknown while tracing (a tf.data map)
    work = _float_work_dtype(ops.dtype(images))
    taps = (6 * int(window_sigma)) | 1
    noise = hl_random.normal((batch, height, width, 2), dtype=work, seed=seed)
    blur_sigma = sigma_value if sigma_value is not None else sigma
    # The draw above is random; what follows is a pure function of the images and the noise: one op.
    return _door.composite(
        "image.elastic_transform",
        _elastic_sample,
        images,
        noise,
        sigma,
        blur_sigma,
        alpha,
        taps,
        interpolation,
        fill_mode,
        fill_value,
        data_format,
    )


def _elastic_sample(images, noise, sigma, blur_sigma, alpha, taps, interpolation, fill_mode, fill_value, data_format):
    """:func:`elastic_transform` after its random draw: blurs the noise into a field and samples along it."""
    rank = len(tuple(images.shape))
    x = _to_channels_last(images, data_format)
    if rank == 3:
        x = ops.expand_dims(x, 0)
    _, height, width, channels = tuple(x.shape)
    in_dtype = ops.dtype(x)
    work = ops.dtype(noise)
    field = _blur(
        ops.multiply(noise, ops.cast(sigma, work)), (taps, taps), (blur_sigma, blur_sigma), "channels_last", 2
    )
    field = ops.multiply(field, ops.cast(alpha, work))
    ys = ops.add(ops.take(field, 1, axis=3), _constant(np.arange(height).reshape(1, height, 1), work))
    xs = ops.add(ops.take(field, 0, axis=3), _constant(np.arange(width).reshape(1, 1, width), work))
    flat = ops.reshape(ops.cast(x, work), (-1, channels))
    # Each image's first row in ``flat``: (0, h * w, 2 * h * w, ...), counted so an unknown batch size works.
    first = ops.cumsum(ops.ones_like(ops.cast(x[:, :1, :1, 0], "int32")), axis=0)
    base = ops.multiply(ops.subtract(first, 1), height * width)
    out = _interpolate(
        flat,
        [ys, xs],
        (height, width),
        1 if interpolation == "bilinear" else 0,
        fill_mode,
        fill_value,
        base=base,
        channels=True,
    )
    out = _round_to_dtype(out, in_dtype)
    if rank == 3:
        out = ops.squeeze(out, 0)
    return _from_channels_last(out, data_format, rank)


# ------------------------------------------------------------------------------------ scale_and_translate
SCALE_AND_TRANSLATE_METHODS = (
    "linear",
    "bilinear",
    "trilinear",
    "triangle",
    "cubic",
    "bicubic",
    "tricubic",
    "lanczos3",
    "lanczos5",
)


def _triangle(x):
    return ops.maximum(ops.subtract(1.0, ops.abs(x)), 0.0)


def _keys_cubic(x):
    # Keys' cubic convolution with a = -0.5, for x >= 0.
    near = ops.add(ops.multiply(ops.multiply(ops.subtract(ops.multiply(x, 1.5), 2.5), x), x), 1.0)
    far = ops.add(ops.multiply(ops.subtract(ops.multiply(ops.add(ops.multiply(x, -0.5), 2.5), x), 4.0), x), 2.0)
    return ops.where(ops.greater_equal(x, 2.0), 0.0, ops.where(ops.greater_equal(x, 1.0), far, near))


def _lanczos(radius):
    def kernel(x):
        y = ops.multiply(
            ops.multiply(ops.sin(ops.multiply(x, np.pi)), ops.sin(ops.multiply(x, np.pi / radius))), radius
        )
        safe = ops.where(ops.not_equal(x, 0.0), ops.multiply(ops.square(x), np.pi**2), 1.0)
        out = ops.where(ops.greater(x, 1e-3), ops.divide(y, safe), 1.0)
        return ops.where(ops.greater(x, float(radius)), 0.0, out)

    return kernel


_SCALE_KERNELS = {"linear": _triangle, "cubic": _keys_cubic, "lanczos3": _lanczos(3.0), "lanczos5": _lanczos(5.0)}


def _scale_weights(in_size, out_size, scale, translation, kernel, antialias, dtype):
    """The ``(in_size, out_size)`` resampling matrix of one axis (``scale``, ``translation``: scalar tensors)."""
    inv_scale = ops.divide(1.0, scale)
    centers = _constant(np.arange(out_size) + 0.5, dtype)
    sample = ops.subtract(ops.subtract(ops.multiply(centers, inv_scale), ops.multiply(translation, inv_scale)), 0.5)
    distance = ops.abs(ops.subtract(ops.expand_dims(sample, 0), _constant(np.arange(in_size).reshape(-1, 1), dtype)))
    if antialias:
        distance = ops.divide(distance, ops.maximum(inv_scale, 1.0))
    weights = kernel(distance)
    total = ops.sum(weights, axis=0, keepdims=True)
    usable = ops.greater(ops.abs(total), 1000.0 * float(np.finfo(np.float32).eps))
    weights = ops.where(usable, ops.divide(weights, ops.where(ops.not_equal(total, 0.0), total, 1.0)), 0.0)
    inside = ops.logical_and(ops.greater_equal(sample, -0.5), ops.less_equal(sample, in_size - 0.5))
    return ops.where(ops.expand_dims(inside, 0), weights, 0.0)


@_one_op("image.scale_and_translate")
def scale_and_translate(images, output_shape, scale, translation, spatial_dims, method, antialias=True):
    """Resamples images under a scale and a translation of their spatial axes (``jax.image.scale_and_translate``).

    Along each axis ``d`` of ``spatial_dims``, an input point at ``x`` moves to ``x * scale + translation``
    (pixel centers at half-integers); each output pixel is the kernel-weighted average of the input pixels
    around its inverse image, with weights normalized to sum to 1. Output pixels whose inverse image falls
    outside the input are 0.

    Args:
        images: an array of any rank.
        output_shape: the full output shape (one int per axis of ``images``; axes not in ``spatial_dims`` keep
            their size).
        scale: ``K`` scales, one per spatial axis.
        translation: ``K`` translations, one per spatial axis.
        spatial_dims: the ``K`` axes to resample.
        method: ``"linear"`` (also ``"bilinear"``, ``"trilinear"``, ``"triangle"``), ``"cubic"`` (also
            ``"bicubic"``, ``"tricubic"``; Keys with a = -0.5), ``"lanczos3"`` or ``"lanczos5"``.
        antialias: when downsampling, widen the kernel by ``1 / scale`` so that every input pixel contributes.

    Returns:
        The resampled images, ``output_shape`` in the dtype of ``images`` (integer images are rounded and
        clipped to the input's range). Gradients flow to ``images``, ``scale`` and ``translation``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([0.0, 3.0, 6.0])
    >>> y = hl.ops.image.scale_and_translate(x, (5,), [5 / 3], [0.0], (0,), "linear")
    >>> [round(float(v), 4) for v in hl.ops.convert_to_numpy(y)]
    [0.0, 1.2, 3.0, 4.8, 6.0]
    """
    op = "image.scale_and_translate"
    _args.one_of(method, SCALE_AND_TRANSLATE_METHODS, "method", op)
    kind = {
        "bilinear": "linear",
        "trilinear": "linear",
        "triangle": "linear",
        "bicubic": "cubic",
        "tricubic": "cubic",
    }.get(method, method)
    images = _as_image_tensor(images)
    in_shape = _args.shape_of(images)
    rank = len(in_shape)
    output_shape = _args.shape(output_shape, op, "output_shape")
    if len(output_shape) != rank:
        raise ValueError(
            f"{op}: `output_shape` must give one size per axis of `images` ({rank}); received "
            f"output_shape={output_shape} for images of shape {in_shape}."
        )
    spatial_dims = _args.axes(spatial_dims, rank, op, "spatial_dims", keep_order=True)
    for d in range(rank):
        if d not in spatial_dims and in_shape[d] is not None and output_shape[d] != in_shape[d]:
            raise ValueError(
                f"{op}: axis {d} is not in spatial_dims={spatial_dims}, so its output size must be "
                f"its input size {in_shape[d]}; received output_shape={output_shape}."
            )
    scale, translation = _as_image_tensor(scale), _as_image_tensor(translation)
    for name, value in (("scale", scale), ("translation", translation)):
        if _args.shape_of(value) != (len(spatial_dims),):
            raise ValueError(
                f"{op}: `{name}` must hold one value per spatial axis ({len(spatial_dims)}); received "
                f"{name} of shape {_args.shape_of(value)}."
            )
    weight_dtype = dtypes.result_type(ops.dtype(scale), ops.dtype(translation))
    weight_dtype = weight_dtype if dtypes.is_float_dtype(weight_dtype) else dtypes.floatx()
    scale, translation = ops.cast(scale, weight_dtype), ops.cast(translation, weight_dtype)
    in_dtype = ops.dtype(images)
    is_float = dtypes.is_float_dtype(in_dtype)
    out = images if is_float else ops.cast(images, "float32")
    for i, d in enumerate(spatial_dims):
        size = _static(in_shape[d], f"size of axis {d}", op, in_shape)
        weights = _scale_weights(
            size,
            output_shape[d],
            ops.take(scale, i),
            ops.take(translation, i),
            _SCALE_KERNELS[kind],
            antialias,
            weight_dtype,
        )
        out = ops.moveaxis(ops.tensordot(out, ops.cast(weights, ops.dtype(out)), axes=[[d], [0]]), -1, d)
    if not is_float:
        low, high = ops.cast(ops.min(images), "float32"), ops.cast(ops.max(images), "float32")
        out = ops.cast(ops.minimum(ops.maximum(ops.round(out), low), high), in_dtype)
    return out


# ------------------------------------------------------------------------------------------ sobel_edges
#: The vertical (dy) and horizontal (dx) Sobel kernels, as cross-correlation taps (``tf.image.sobel_edges``).
_SOBEL = np.array([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]], dtype=np.float64)


@_one_op("image.sobel_edges")
def sobel_edges(images, data_format=None):
    """The Sobel gradients ``[dy, dx]`` of each channel of a batch of images.

    Each channel is correlated with the 3x3 Sobel kernels (``dy``: bottom minus top, ``dx``: right minus left,
    with weights 1 2 1 across), the border reflected (``d c | b c d ...``), as ``tf.image.sobel_edges`` does.

    Args:
        images: a 4D batch ``(N, H, W, C)`` (``(N, C, H, W)`` with ``data_format="channels_first"``), at least
            2x2 pixels.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured default.

    Returns:
        ``(N, H, W, C, 2)`` (channels first: ``(N, C, H, W, 2)``) holding ``[dy, dx]``, in the dtype of
        ``images`` (floatx for integer images, whose gradients can be negative).

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[[[0.0], [0.0], [1.0], [1.0]]] * 3])  # a vertical edge
    >>> e = hl.ops.convert_to_numpy(hl.ops.image.sobel_edges(x))
    >>> e.shape, e[0, 1, :, 0, 1].tolist(), float(abs(e[..., 0]).max())
    ((1, 3, 4, 1, 2), [0.0, 4.0, 4.0, 0.0], 0.0)
    """
    op = "image.sobel_edges"
    data_format = _args.data_format(data_format, op)
    images = _as_image_tensor(images)
    shape = _args.shape_of(images)
    if len(shape) != 4:
        raise ValueError(
            f"{op}: invalid images rank: expected rank 4 (a batch of images). Received: images.shape={shape}"
        )
    x = _to_channels_last(images, data_format)
    _, height, width, channels = tuple(x.shape)
    for what, size in (("height", height), ("width", width)):
        if _static(size, what, op, shape) < 2:
            raise ValueError(
                f"{op}: the images must be at least 2x2 pixels (the border is reflected); received images.shape={shape}"
            )
    channels = _static(channels, "channel count", op, shape)
    work = _float_work_dtype(ops.dtype(x))
    padded = ops.pad(ops.cast(x, work), ((0, 0), (1, 1), (1, 1), (0, 0)), mode="reflect")
    kernel = np.tile(np.transpose(_SOBEL, (1, 2, 0))[:, :, None, :], (1, 1, channels, 1))  # (3, 3, C, 2)
    out = ops.depthwise_conv(padded, _constant(kernel, work), strides=1, padding="valid")
    out = _reshape_keep_batch(out, (height, width, channels, 2))  # channel c, kernel m at c * 2 + m
    if data_format == "channels_first":
        out = ops.transpose(out, (0, 3, 1, 2, 4))
    return out


# ------------------------------------------------------------------------------------------------- ssim
@_one_op("image.ssim")
def ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, data_format=None):
    """The structural similarity index (SSIM, Wang et al. 2004) of two images or two batches of images.

    Local means, variances and covariance are Gaussian-weighted averages over ``filter_size`` windows (inside
    the image only); the SSIM map ``(2 mu1 mu2 + c1)(2 s12 + c2) / ((mu1^2 + mu2^2 + c1)(s1^2 + s2^2 + c2))``
    with ``c1 = (k1 max_val)^2``, ``c2 = (k2 max_val)^2`` is averaged over the pixels and channels.

    Args:
        image1: a 3D image or a 4D batch, channels last (or first with ``data_format``).
        image2: the same shape as ``image1``.
        max_val: the dynamic range of the pixel values (1.0 for ``[0, 1]``, 255.0 for 8-bit values).
        filter_size: the window size, an odd int no larger than the images.
        filter_sigma: the standard deviation of the Gaussian window.
        k1: the stabilizing constant of the luminance term.
        k2: the stabilizing constant of the contrast term.
        data_format: ``"channels_last"`` or ``"channels_first"``; None: the configured default.

    Returns:
        One SSIM per image pair, shape ``(batch,)`` (a scalar for 3D images), in the dtype of ``image1`` if it
        is float. For integer images it is floatx: Keras casts it back to the integer dtype, which truncates
        every SSIM below 1 to 0.

    Raises:
        ValueError: for images of other ranks or shapes, or a window larger than the images.

    >>> import highlevel as hl
    >>> x = hl.random.uniform((2, 16, 16, 3), seed=0)
    >>> [round(float(v), 4) for v in hl.ops.convert_to_numpy(hl.ops.image.ssim(x, x))]
    [1.0, 1.0]
    """
    op = "image.ssim"
    data_format = _args.data_format(data_format, op)
    filter_size = _args.positive_int(filter_size, "filter_size", op)
    _positive_sigmas(filter_sigma, "filter_sigma", op)
    image1, image2 = _as_image_tensor(image1), _as_image_tensor(image2)
    shape1, shape2 = _args.shape_of(image1), _args.shape_of(image2)
    for name, shape in (("image1", shape1), ("image2", shape2)):
        if len(shape) not in (3, 4):
            raise ValueError(
                f"{op}: invalid {name} rank: expected rank 3 (single image) or rank 4 (batch of "
                f"images). Received input with shape: {name}.shape={shape}"
            )
    if len(shape1) != len(shape2) or any(a is not None and b is not None and a != b for a, b in zip(shape1, shape2)):
        raise ValueError(f"{op}: image1 and image2 must have the same shape; received {shape1} and {shape2}.")
    rank = len(shape1)
    x1, x2 = (_to_channels_last(im, data_format) for im in (image1, image2))
    if rank == 3:
        x1, x2 = ops.expand_dims(x1, 0), ops.expand_dims(x2, 0)
    _, height, width, channels = tuple(x1.shape)
    for what, size in (("height", height), ("width", width)):
        if _static(size, what, op, shape1) < filter_size:
            raise ValueError(
                f"{op}: filter_size={filter_size} is larger than the images' {what} ({size}); "
                f"received image1.shape={shape1}. Use a smaller filter_size."
            )
    channels = _static(channels, "channel count", op, shape1)
    work = _float_work_dtype(dtypes.result_type(ops.dtype(image1), ops.dtype(image2)))
    x1, x2 = ops.cast(x1, work), ops.cast(x2, work)
    window = _gaussian_1d(filter_size, filter_sigma, work)
    kernel = ops.multiply(ops.reshape(window, (-1, 1, 1, 1)), ops.reshape(window, (1, -1, 1, 1)))
    if channels != 1:
        kernel = ops.tile(kernel, (1, 1, channels, 1))

    def local_mean(t):
        return ops.depthwise_conv(t, kernel, strides=1, padding="valid")

    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mu1, mu2 = local_mean(x1), local_mean(x2)
    mu1_sq, mu2_sq, mu12 = ops.square(mu1), ops.square(mu2), ops.multiply(mu1, mu2)
    var1 = ops.subtract(local_mean(ops.square(x1)), mu1_sq)
    var2 = ops.subtract(local_mean(ops.square(x2)), mu2_sq)
    cov = ops.subtract(local_mean(ops.multiply(x1, x2)), mu12)
    numerator = ops.multiply(ops.add(ops.multiply(mu12, 2.0), c1), ops.add(ops.multiply(cov, 2.0), c2))
    denominator = ops.multiply(ops.add(ops.add(mu1_sq, mu2_sq), c1), ops.add(ops.add(var1, var2), c2))
    value = ops.mean(ops.divide(numerator, denominator), axis=(1, 2, 3))
    return ops.squeeze(value, 0) if rank == 3 else value


__all__ += [
    "crop_images",
    "pad_images",
    "rgb_to_grayscale",
    "rgb_to_hsv",
    "hsv_to_rgb",
    "extract_patches",
    "extract_patches_3d",
    "map_coordinates",
    "perspective_transform",
    "gaussian_blur",
    "elastic_transform",
    "scale_and_translate",
    "sobel_edges",
    "ssim",
]
