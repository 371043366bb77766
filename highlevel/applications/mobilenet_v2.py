"""MobileNetV2 (Sandler et al., 2018), with Keras's layer names and weight files.

Seventeen inverted residual blocks: a 1x1 expansion, a 3x3 depthwise convolution and a linear 1x1 projection,
with a residual connection where the shapes allow. ``alpha`` scales the widths (rounded to multiples of 8).
Images go through :func:`preprocess_input` first (``"tf"`` scaling, to [-1, 1]).

>>> import highlevel as hl
>>> model = hl.applications.MobileNetV2(weights=None, alpha=0.35, include_top=False, input_shape=(32, 32, 3))
>>> model.output_shape
(None, 1, 1, 1280)
"""

import warnings

from highlevel import config as hl_config

from . import common, imagenet_utils
from . import weights as weights_lib

BASE_WEIGHTS_URL = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet_v2/"

_ALPHAS = (0.35, 0.5, 0.75, 1.0, 1.3, 1.4)
_SIZES = (96, 128, 160, 192, 224)

#: (filters, stride, expansion) of the inverted residual blocks 0..16.
_BLOCKS = (
    (16, 1, 1),
    (24, 2, 6),
    (24, 1, 6),
    (32, 2, 6),
    (32, 1, 6),
    (32, 1, 6),
    (64, 2, 6),
    (64, 1, 6),
    (64, 1, 6),
    (64, 1, 6),
    (96, 1, 6),
    (96, 1, 6),
    (96, 1, 6),
    (160, 2, 6),
    (160, 1, 6),
    (160, 1, 6),
    (320, 1, 6),
)


def _make_divisible(v, divisor, min_value=None):
    """``v`` rounded to the nearest multiple of ``divisor`` (at least ``min_value``), never 10% below ``v``."""
    min_value = divisor if min_value is None else min_value
    rounded = max(min_value, int(v + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * v else rounded


def imagenet_file(alpha, rows, include_top):
    """``(file name, url, None)`` of Keras's ImageNet weights (Keras publishes no hash for these files)."""
    stem = f"mobilenet_v2_weights_tf_dim_ordering_tf_kernels_{float(alpha)}_{rows}"
    file_name = stem + ("" if include_top else "_no_top") + ".h5"
    return file_name, BASE_WEIGHTS_URL + file_name, None


def _bn(name):
    from highlevel import layers

    return layers.BatchNormalization(axis=common.channel_axis(), epsilon=1e-3, momentum=0.999, name=name)


def _inverted_res_block(inputs, expansion, stride, alpha, filters, block_id):
    from highlevel import layers

    in_channels = inputs.shape[common.channel_axis()]
    pointwise_filters = _make_divisible(int(filters * alpha), 8)
    x = inputs
    prefix = f"block_{block_id}_"
    if block_id:
        x = layers.Conv2D(
            expansion * in_channels, kernel_size=1, padding="same", use_bias=False, name=f"{prefix}expand"
        )(x)
        x = _bn(f"{prefix}expand_BN")(x)
        x = layers.ReLU(6.0, name=f"{prefix}expand_relu")(x)
    else:
        prefix = "expanded_conv_"
    if stride == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3), name=f"{prefix}pad")(x)
    x = layers.DepthwiseConv2D(
        kernel_size=3,
        strides=stride,
        use_bias=False,
        padding="same" if stride == 1 else "valid",
        name=f"{prefix}depthwise",
    )(x)
    x = _bn(f"{prefix}depthwise_BN")(x)
    x = layers.ReLU(6.0, name=f"{prefix}depthwise_relu")(x)
    x = layers.Conv2D(pointwise_filters, kernel_size=1, padding="same", use_bias=False, name=f"{prefix}project")(x)
    x = _bn(f"{prefix}project_BN")(x)
    if in_channels == pointwise_filters and stride == 1:
        return layers.Add(name=f"{prefix}add")([inputs, x])
    return x


def _rows_cols(shape, first):
    return (shape[1], shape[2]) if first else (shape[0], shape[1])


def MobileNetV2(
    input_shape=None,
    alpha=1.0,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name=None,
):
    """MobileNetV2.

    Args:
        input_shape: the image shape without the batch axis (at least 32x32); by default 224x224, or the size
            given (or that of ``input_tensor``) when it is square and one of 96, 128, 160, 192, 224.
        alpha: the width multiplier (ImageNet weights exist for 0.35, 0.5, 0.75, 1.0, 1.3 and 1.4).
        include_top: end in global average pooling and the ``classes``-way ``predictions`` layer.
        weights: None (random), ``"imagenet"`` (Keras's published weights, fetched once into
            ``~/.keras/models``) or the path of a weights file.
        input_tensor: a symbolic tensor to use as the image input.
        pooling: without the top: None (the last feature map), ``"avg"`` or ``"max"``.
        classes: the number of classes with the top (1000 for ImageNet weights).
        classifier_activation: the activation of ``predictions`` (``"softmax"`` or None with pretrained weights).
        name: the model's name; by default ``mobilenetv2_{alpha:.2f}_{rows}``.

    Returns:
        A functional model.
    """
    from highlevel import backend, layers

    weights_lib.check_weights_arg(weights, include_top, classes)
    common.check_pooling(pooling)
    first = hl_config.image_data_format() == "channels_first"
    if input_shape is not None and input_tensor is not None and backend.is_keras_tensor(input_tensor):
        given = tuple(input_tensor.shape)[1:]
        if _rows_cols(given, first)[1] != _rows_cols(input_shape, first)[1]:
            raise ValueError(
                f"input_tensor has shape {tuple(input_tensor.shape)} but input_shape={tuple(input_shape)}: their "
                "widths differ. Pass only one of them, or make them agree."
            )
    if input_shape is None and input_tensor is not None and backend.is_keras_tensor(input_tensor):
        rows, cols = _rows_cols(tuple(input_tensor.shape)[1:], first)
    elif input_shape is not None:
        rows, cols = _rows_cols(input_shape, first)
    else:
        rows = cols = None
    default_size = rows if rows == cols and rows in _SIZES else 224
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size, 32, hl_config.image_data_format(), require_flatten=include_top, weights=weights
    )
    rows, cols = _rows_cols(input_shape, first)
    if weights == "imagenet":
        if alpha not in _ALPHAS:
            raise ValueError(
                f"ImageNet weights exist for alpha 0.35, 0.5, 0.75, 1.0, 1.3 and 1.4; received alpha={alpha}."
            )
        if rows != cols or rows not in _SIZES:
            rows = 224
            warnings.warn(
                "The input shape is not given, not square, or not 96, 128, 160, 192 or 224 wide: the ImageNet "
                "weights of the 224x224 model are loaded.",
                stacklevel=2,
            )
    image = common.image_input(input_tensor, input_shape)
    x = layers.Conv2D(
        _make_divisible(32 * alpha, 8), kernel_size=3, strides=(2, 2), padding="same", use_bias=False, name="Conv1"
    )(image)
    x = _bn("bn_Conv1")(x)
    x = layers.ReLU(6.0, name="Conv1_relu")(x)
    for block_id, (filters, stride, expansion) in enumerate(_BLOCKS):
        x = _inverted_res_block(x, filters=filters, alpha=alpha, stride=stride, expansion=expansion, block_id=block_id)
    last = _make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
    x = layers.Conv2D(last, kernel_size=1, use_bias=False, name="Conv_1")(x)
    x = _bn("Conv_1_bn")(x)
    x = layers.ReLU(6.0, name="out_relu")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D()(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D()(x)
    model = common.finish(image, input_tensor, x, name or f"mobilenetv2_{alpha:0.2f}_{rows}")
    published = imagenet_file(alpha, rows, include_top) if weights == "imagenet" else None
    return weights_lib.load(model, weights, published)


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


preprocess_input.__doc__ = imagenet_utils.PREPROCESS_DOC.format(family="MobileNetV2", what="to [-1, 1]")

decode_predictions = imagenet_utils.decode_predictions
