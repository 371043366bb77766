"""What the image augmentation layers share: argument checks, the random-layer base and affine matrices.

The random layers (RandomFlip, RandomRotation, RandomTranslation, RandomZoom, RandomContrast) act only
when called with ``training=True`` — the default of a direct call, as in Keras, while ``predict`` and
``evaluate`` pass ``training=False`` — and then draw from a :class:`highlevel.random.SeedGenerator` the
layer owns, so each call draws anew and a seeded layer repeats its sequence of draws.
"""

import math
import numbers

from highlevel import ops, random
from highlevel.config import standardize_data_format
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer
from highlevel.layers.regularization._checks import check_seed

from ._boxes import check_box_format, transform_dict

FILL_MODES = ("reflect", "wrap", "constant", "nearest")
INTERPOLATIONS = ("nearest", "bilinear")


def check_choice(value, name, choices, who):
    if value not in choices:
        raise ValueError(
            f"Invalid value received for argument `{name}` of {who}. Expected one of {choices}. "
            f"Received: {name}={value!r}"
        )
    return value


def _is_number(v):
    return isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(v)


def parse_factor(factor, name, who, low=-1.0, high=1.0, low_open=False, symmetric_low=None):
    """``(lower, upper)`` from a number ``f`` (``(-|f|, |f|)``, the lower end raised to ``symmetric_low``
    when given) or a pair (sorted); every number must lie in ``[low, high]`` (``(low, high]`` when
    ``low_open``)."""
    lo_bracket = "(" if low_open else "["

    def bad():
        return ValueError(
            f"Invalid value received for argument `{name}` of {who}. Expected a number or a list of two "
            f"numbers in the range {lo_bracket}{low}, {high}]. Received: {name}={factor!r}"
        )

    def in_range(v):
        return _is_number(v) and (v > low if low_open else v >= low) and v <= high

    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or not all(in_range(v) for v in factor):
            raise bad()
        lower, upper = sorted(float(v) for v in factor)
        return lower, upper
    if not in_range(factor):
        raise bad()
    f = abs(float(factor))
    return (max(-f, symmetric_low) if symmetric_low is not None else -f), f


def take_base_factor(layer, factor, accepted):
    """Handles the ``factor`` keyword that Keras's image-layer base class takes for the layers that do not define
    a ``factor`` of their own.

    Some of them (``accepted``) store it as ``layer.factor`` (``(lower, upper)``, default ``(-0.0, 0.0)``) without
    using it, as Keras does; the others refuse any value but None.
    """
    who = type(layer).__name__
    if accepted:
        layer.factor = parse_factor(0.0 if factor is None else factor, "factor", who)
    elif factor is not None:
        raise ValueError(
            f"Layer {who} does not take a `factor` argument; received factor={factor!r}. Remove it: this layer's "
            "strength is set by its own arguments (see its documentation)."
        )


def config_factor(factor):
    """A factor as given, with tuples as lists (JSON-like configs)."""
    return list(factor) if isinstance(factor, tuple) else factor


def check_image_rank(shape, who):
    if len(shape) not in (3, 4):
        raise ValueError(
            f"{who} expects images of rank 3 (height, width, channels) or 4 (batch, height, width, channels). "
            f"Received input with shape {tuple(shape)}."
        )


def spatial_size(shape, data_format):
    """``(height, width)`` of a rank-4 ``shape``."""
    return (shape[1], shape[2]) if data_format == "channels_last" else (shape[2], shape[3])


def rotation_matrix(angle, height, width):
    """Keras' transform rows for a rotation about the image center, shape ``(batch, 8)``; ``angle`` of
    shape ``(batch,)`` in degrees (the output pixel samples the input rotated by ``angle``)."""
    radians = ops.multiply(angle, math.pi / 180.0)
    cx, cy = 0.5 * (width - 1), 0.5 * (height - 1)
    cos, sin = ops.cos(radians), ops.sin(radians)
    a0, a1, b0, b1 = cos, ops.negative(sin), sin, cos
    a2 = ops.subtract(ops.subtract(cx, ops.multiply(a0, cx)), ops.multiply(a1, cy))
    b2 = ops.subtract(ops.subtract(cy, ops.multiply(b0, cx)), ops.multiply(b1, cy))
    zeros = ops.zeros_like(angle)
    return ops.stack([a0, a1, a2, b0, b1, b2, zeros, zeros], axis=1)


class BaseRandomImageLayer(Layer):
    """The common part of the random image layers: seed, data format, the training switch, rank checks and dict
    inputs with bounding boxes.

    A subclass defines either ``_augment(images)``, the training-mode transform of a rank-4 batch in the layer's
    compute dtype, or its two halves: ``_draw(images)`` (the random transformation) and
    ``_apply(images, transformation)``. A geometric layer also defines ``_box_mover(transformation)``, which
    returns ``f(boxes, height, width) -> (boxes, out_height, out_width)`` on absolute ``xyxy`` boxes, and sets
    ``_geometric = True`` so that segmentation masks follow the images.
    """

    _geometric = False
    #: whether the ``factor`` keyword of the base class is accepted (and stored, unused) rather than refused; a
    #: subclass with a ``factor`` of its own consumes it before it gets here (see :func:`take_base_factor`)
    _accepts_base_factor = False

    def __init__(self, seed=None, data_format=None, bounding_box_format=None, *, factor=None, **kwargs):
        super().__init__(**kwargs)
        take_base_factor(self, factor, self._accepts_base_factor)
        self.seed = check_seed(seed, type(self).__name__)
        self.data_format = standardize_data_format(data_format)
        self.bounding_box_format = check_box_format(bounding_box_format, type(self).__name__)
        # Not a weight: SeedGenerator is neither a Layer nor a Variable, so tracking skips it.
        self.seed_generator = random.SeedGenerator(self.seed)
        self.built = True

    def _uniform(self, shape, minval, maxval, dtype="float32"):
        return random.uniform(shape, minval=minval, maxval=maxval, dtype=dtype, seed=self.seed_generator)

    def _draw(self, images):
        return None

    def _apply(self, images, transformation):
        return self._augment(images)

    def _augment(self, images):
        return self._apply(images, self._draw(images))

    def _box_mover(self, transformation):
        return None

    def call(self, inputs, training=True):
        if isinstance(inputs, dict):
            return self._call_dict(inputs, training)
        check_image_rank(ops.shape(inputs), type(self).__name__)
        x = ops.cast(inputs, self.compute_dtype)
        if not training:
            return x
        unbatched = ops.ndim(x) == 3
        if unbatched:
            x = ops.expand_dims(x, 0)
        out = self._augment(x)
        return ops.squeeze(out, 0) if unbatched else out

    def _call_dict(self, data, training):
        def cast(x):
            return ops.cast(x, self.compute_dtype)

        if not training:
            return transform_dict(self, data, cast, None, transform_masks=self._geometric)
        images = ops.convert_to_tensor(data.get("images")) if "images" in data else None
        if images is not None and len(ops.shape(images)) == 3:
            images = ops.expand_dims(images, 0)
        transformation = self._draw(cast(images)) if images is not None else None
        return transform_dict(
            self,
            data,
            lambda x: self._apply(cast(x), transformation),
            self._box_mover(transformation),
            transform_masks=self._geometric,
        )

    def compute_output_spec(self, inputs, *args, **kwargs):
        # The shape is the input's in both modes; no need to trace the random draws.
        check_image_rank(inputs.shape, type(self).__name__)
        return KerasTensor(tuple(inputs.shape), self.compute_dtype)

    def compute_output_shape(self, input_shape):
        check_image_rank(input_shape, type(self).__name__)
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"seed": self.seed, "data_format": self.data_format})
        if self.bounding_box_format is not None:
            config["bounding_box_format"] = self.bounding_box_format
        return config
