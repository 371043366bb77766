"""MobileNet (Howard et al., 2017), with Keras's layer names and weight files.

Thirteen depthwise-separable blocks (a 3x3 depthwise convolution, then a 1x1 convolution, each with batch norm
and relu6); ``alpha`` scales every layer's width and ``depth_multiplier`` the depthwise convolutions' outputs.
Images go through :func:`preprocess_input` first (``"tf"`` scaling, to [-1, 1]).

>>> import highlevel as hl
>>> model = hl.applications.MobileNet(weights=None, alpha=0.25, include_top=False, input_shape=(32, 32, 3))
>>> model.output_shape
(None, 1, 1, 256)
"""

import warnings

from highlevel import config as hl_config

from . import common, imagenet_utils
from . import weights as weights_lib

BASE_WEIGHTS_URL = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet/"

_ALPHA_TEXT = {1.0: "1_0", 0.75: "7_5", 0.5: "5_0", 0.25: "2_5"}
_SIZES = (128, 160, 192, 224)

#: (pointwise filters, strides) of the 13 depthwise-separable blocks.
_BLOCKS = (
    (64, 1),
    (128, 2),
    (128, 1),
    (256, 2),
    (256, 1),
    (512, 2),
    (512, 1),
    (512, 1),
    (512, 1),
    (512, 1),
    (512, 1),
    (1024, 2),
    (1024, 1),
)


def imagenet_file(alpha, rows, include_top):
    """``(file name, url, None)`` of Keras's ImageNet weights for ``alpha`` and size ``rows`` (Keras publishes no
    hash for these files)."""
    file_name = f"mobilenet_{_ALPHA_TEXT[alpha]}_{rows}_tf{'' if include_top else '_no_top'}.h5"
    return file_name, BASE_WEIGHTS_URL + file_name, None


def _conv_block(inputs, filters, alpha, kernel=(3, 3), strides=(1, 1)):
    from highlevel import layers

    x = layers.Conv2D(int(filters * alpha), kernel, padding="same", use_bias=False, strides=strides, name="conv1")(
        inputs
    )
    x = layers.BatchNormalization(axis=common.channel_axis(), name="conv1_bn")(x)
    return layers.ReLU(6.0, name="conv1_relu")(x)


def _depthwise_conv_block(inputs, pointwise_filters, alpha, depth_multiplier=1, strides=(1, 1), block_id=1):
    from highlevel import layers

    axis = common.channel_axis()
    x = inputs
    if strides != (1, 1):
        x = layers.ZeroPadding2D(((0, 1), (0, 1)), name=f"conv_pad_{block_id}")(x)
    x = layers.DepthwiseConv2D(
        (3, 3),
        padding="same" if strides == (1, 1) else "valid",
        depth_multiplier=depth_multiplier,
        strides=strides,
        use_bias=False,
        name=f"conv_dw_{block_id}",
    )(x)
    x = layers.BatchNormalization(axis=axis, name=f"conv_dw_{block_id}_bn")(x)
    x = layers.ReLU(6.0, name=f"conv_dw_{block_id}_relu")(x)
    x = layers.Conv2D(
        int(pointwise_filters * alpha), (1, 1), padding="same", use_bias=False, name=f"conv_pw_{block_id}"
    )(x)
    x = layers.BatchNormalization(axis=axis, name=f"conv_pw_{block_id}_bn")(x)
    return layers.ReLU(6.0, name=f"conv_pw_{block_id}_relu")(x)


def _size(input_shape):
    if input_shape is None:
        return None, None
    first = hl_config.image_data_format() == "channels_first"
    return (input_shape[1], input_shape[2]) if first else (input_shape[0], input_shape[1])


def MobileNet(
    input_shape=None,
    alpha=1.0,
    depth_multiplier=1,
    dropout=1e-3,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name=None,
):
    """MobileNet.

    Args:
        input_shape: the image shape without the batch axis (at least 32x32); by default 224x224, or the size
            given when it is square and one of 128, 160, 192, 224.
        alpha: the width multiplier of every layer (ImageNet weights exist for 0.25, 0.5, 0.75 and 1.0).
        depth_multiplier: the depthwise convolutions' channel multiplier (1 for ImageNet weights).
        dropout: the dropout rate before the classifier.
        include_top: end in global average pooling, dropout and the ``classes``-way 1x1 convolution.
        weights: None (random), ``"imagenet"`` (Keras's published weights, fetched once into
            ``~/.keras/models``) or the path of a weights file.
        input_tensor: a symbolic tensor to use as the image input.
        pooling: without the top: None (the last feature map), ``"avg"`` or ``"max"``.
        classes: the number of classes with the top (1000 for ImageNet weights).
        classifier_activation: the activation of ``predictions`` (``"softmax"`` or None with pretrained weights).
        name: the model's name; by default ``mobilenet_{alpha:.2f}_{rows}``.

    Returns:
        A functional model.
    """
    from highlevel import layers

    weights_lib.check_weights_arg(weights, include_top, classes)
    common.check_pooling(pooling)
    rows, cols = _size(input_shape)
    default_size = rows if rows == cols and rows in _SIZES else 224
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size, 32, hl_config.image_data_format(), require_flatten=include_top, weights=weights
    )
    rows, cols = _size(input_shape)
    if weights == "imagenet":
        if depth_multiplier != 1:
            raise ValueError(f"ImageNet weights need depth_multiplier=1; received depth_multiplier={depth_multiplier}.")
        if alpha not in _ALPHA_TEXT:
            raise ValueError(f"ImageNet weights exist for alpha 0.25, 0.5, 0.75 and 1.0; received alpha={alpha}.")
        if rows != cols or rows not in _SIZES:
            rows = 224
            warnings.warn(
                "The input shape is not given, not square, or not 128, 160, 192 or 224 wide: the ImageNet weights "
                "of the 224x224 model are loaded.",
                stacklevel=2,
            )
    image = common.image_input(input_tensor, input_shape)
    x = _conv_block(image, 32, alpha, strides=(2, 2))
    for block_id, (filters, stride) in enumerate(_BLOCKS, start=1):
        x = _depthwise_conv_block(x, filters, alpha, depth_multiplier, strides=(stride, stride), block_id=block_id)
    if include_top:
        x = layers.GlobalAveragePooling2D(keepdims=True)(x)
        x = layers.Dropout(dropout, name="dropout")(x)
        x = layers.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
        x = layers.Reshape((classes,), name="reshape_2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Activation(activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D()(x)
    model = common.finish(image, input_tensor, x, name or f"mobilenet_{alpha:0.2f}_{rows}")
    published = imagenet_file(alpha, rows, include_top) if weights == "imagenet" else None
    return weights_lib.load(model, weights, published)


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


preprocess_input.__doc__ = imagenet_utils.PREPROCESS_DOC.format(family="MobileNet", what="to [-1, 1]")

decode_predictions = imagenet_utils.decode_predictions
