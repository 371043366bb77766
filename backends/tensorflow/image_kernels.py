"""TensorFlow's own kernels for image ops the front end writes as composites (``_door.composite``).

Run op by op, ``image.affine_transform`` builds some 500 graph ops per call, and a ``tf.data`` map (where the
preprocessing layers always run on TensorFlow) traces them all: most of a RandomRotation map's tracing time.
TensorFlow has one kernel for it (``ImageProjectiveTransformV3``), and for the HSV colour conversions.

An override runs only for inputs the composite accepts and computes the same thing; for anything else (an
invalid argument, a dtype or shape it does not cover) it returns :data:`DECLINE` and the composite runs, so the
errors stay the composite's own. Overrides also step aside while a gradient tape may be recording: the
composite's gradient is the exact adjoint of its sampling, ``ImageProjectiveTransformV3``'s registered gradient
only resamples the output gradient through the inverse transform, and ``HSVToRGB`` has none. And
``affine_transform`` steps aside inside an XLA-compiled function, which cannot compile
``ImageProjectiveTransformV3``.

>>> sorted(KERNELS)
['image.affine_transform', 'image.hsv_to_rgb', 'image.rgb_to_hsv']
"""

import functools

import tensorflow as tf
from tensorflow.python.eager import record
from tensorflow.python.framework import ops as tf_ops
from tensorflow.python.ops import control_flow_util

from highlevel.config import standardize_data_format

from .convert import convert

#: What an override returns for inputs it leaves to the composite.
DECLINE = object()

_FLOATS = (tf.float16, tf.bfloat16, tf.float32, tf.float64)


def _as_tensor(value):
    """``value`` as the engine converts any operand (:func:`.convert.convert`), or None where it cannot: the
    composite then runs and says what is wrong."""
    try:
        return convert(value)
    except (TypeError, ValueError):
        return None


def _float_images(images, data_format):
    """``(images as a tensor, data format)``, or None where the composite must decide (errors, integer images)."""
    try:
        data_format = standardize_data_format(data_format, "image")
    except ValueError:
        return None
    images = _as_tensor(images)
    if images is None or images.dtype not in _FLOATS or images.shape.rank not in (3, 4):
        return None
    return images, data_format


def _in_xla():
    """Whether the graph being traced (or one it is nested in) is compiled by XLA (``jit_compile=True``)."""
    return control_flow_util.GraphOrParentsInXlaContext(tf_ops.get_default_graph())


def _to_nhwc(images, data_format):
    """A 4D channels-last batch of ``images`` (3D or 4D, either data format)."""
    if data_format == "channels_first":
        images = tf.transpose(images, (0, 2, 3, 1) if images.shape.rank == 4 else (1, 2, 0))
    return images if images.shape.rank == 4 else images[None]


def _from_nhwc(out, data_format, rank):
    if rank == 3:
        out = out[0]
    if data_format == "channels_first":
        out = tf.transpose(out, (0, 3, 1, 2) if rank == 4 else (2, 0, 1))
    return out


# The composite folds coordinates with ImageProjectiveTransformV3's MapCoordinate, interpolates as it does and
# rounds nearest-neighbour reads half away from zero as it does, so every fill mode and interpolation agrees (the
# tests compare them mode by mode): all four modes go to the kernel.
_FILL_MODES = {"constant": "CONSTANT", "nearest": "NEAREST", "wrap": "WRAP", "reflect": "REFLECT"}
_INTERPOLATIONS = {"nearest": "NEAREST", "bilinear": "BILINEAR"}


def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant", fill_value=0, data_format=None):
    """``image.affine_transform`` as one ``ImageProjectiveTransformV3``, or :data:`DECLINE`."""
    if not isinstance(interpolation, str) or interpolation not in _INTERPOLATIONS:
        return DECLINE
    if not isinstance(fill_mode, str) or fill_mode not in _FILL_MODES:
        return DECLINE
    checked = _float_images(images, data_format)
    transform = _as_tensor(transform)
    if checked is None or transform is None or transform.shape.rank not in (1, 2) or transform.shape[-1] != 8:
        return DECLINE
    images, data_format = checked
    if _in_xla():
        # XLA has no ImageProjectiveTransformV3: a jit-compiled function would fail to compile where the
        # composite's generic ops compile.
        return DECLINE
    if images.dtype == tf.float64:
        # The kernel interpolates in float32 (errors ~1e-8), the composite in float64.
        return DECLINE
    rank = images.shape.rank
    x = _to_nhwc(images, data_format)
    height, width = x.shape[1], x.shape[2]
    if height is None or width is None:
        return DECLINE  # the composite's message asks for static sizes
    transforms = tf.reshape(tf.cast(transform, tf.float32), (-1, 8))
    batch, rows = x.shape[0], transforms.shape[0]
    if batch is not None and rows is not None and rows not in (1, batch):
        return DECLINE
    fill = _as_tensor(fill_value)
    if fill is None or fill.shape.rank != 0:
        return DECLINE  # a per-channel fill broadcasts in the composite; the kernel takes one number
    # The composite fills in the images' dtype: round the number to it first.
    fill = tf.cast(tf.cast(fill, x.dtype), tf.float32)
    out = tf.raw_ops.ImageProjectiveTransformV3(
        images=x,
        transforms=transforms,
        output_shape=tf.constant([height, width], tf.int32),
        fill_value=fill,
        interpolation=_INTERPOLATIONS[interpolation],
        fill_mode=_FILL_MODES[fill_mode],
    )
    return _from_nhwc(out, data_format, rank)


def _colour(kernel):
    """An HSV conversion on the channel axis of 3-channel float images through ``kernel`` (channels last)."""

    def convert(images, data_format=None):
        checked = _float_images(images, data_format)
        if checked is None:
            return DECLINE
        images, data_format = checked
        axis = -1 if data_format == "channels_last" else images.shape.rank - 3
        if images.shape[axis] != 3:
            return DECLINE
        if data_format == "channels_last":
            return kernel(images)
        rank = images.shape.rank
        return _from_nhwc(kernel(_to_nhwc(images, data_format)), data_format, rank)

    return convert


#: The overrides by composite name.
KERNELS = {
    "image.affine_transform": affine_transform,
    "image.rgb_to_hsv": _colour(tf.image.rgb_to_hsv),
    "image.hsv_to_rgb": _colour(tf.image.hsv_to_rgb),
}


class TensorFlowImageKernelsMixin:
    """``door_composite`` that runs TensorFlow's own kernel for the composites in :data:`KERNELS`."""

    def door_composite(self, name, fn):
        """``fn`` itself, or for a name in :data:`KERNELS` a function that tries TensorFlow's kernel first.

        The kernel runs unless it declines the arguments or a gradient tape may be recording; then ``fn`` runs.

        >>> from highlevel.backends.tensorflow import TensorFlowBackend
        >>> f = lambda x: x
        >>> TensorFlowBackend().door_composite("identity", f) is f
        True
        """
        kernel = KERNELS.get(name)
        if kernel is None:
            return fn
        return _with_kernel(kernel, fn)


@functools.lru_cache(maxsize=None)
def _with_kernel(kernel, fn):
    @functools.wraps(fn)
    def run(*args, **kwargs):
        if not record.could_possibly_record():
            out = kernel(*args, **kwargs)
            if out is not DECLINE:
                return out
        return fn(*args, **kwargs)

    return run
