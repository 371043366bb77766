"""MobileNetV3 Small and Large (Howard et al., 2019, "Searching for MobileNetV3").

Layer names and weight order follow Keras, so Keras's published weight files load. The models rescale their
input themselves (``include_preprocessing=True``): feed pixels in [0, 255].

>>> import highlevel as hl
>>> model = hl.applications.MobileNetV3Small(weights=None, input_shape=(32, 32, 3), classes=4)
>>> model.output_shape
(None, 4)
"""

import warnings

import highlevel as hl
from highlevel import layers

from . import common, imagenet_utils
from . import weights as weights_lib

BASE_WEIGHT_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet_v3/"
# name -> (md5 of the file with the classifier, md5 of the file without it)
WEIGHTS_HASHES = {
    "large_224_0.75_float": ("765b44a33ad4005b3ac83185abf1d0eb", "40af19a13ebea4e2ee0c676887f69a2e"),
    "large_224_1.0_float": ("59e551e166be033d707958cf9e29a6a7", "07fb09a5933dd0c8eaafa16978110389"),
    "large_minimalistic_224_1.0_float": ("675e7b876c45c57e9e63e6d90a36599c", "ec5221f64a2f6d1ef965a614bdae7973"),
    "small_224_0.75_float": ("cb65d4e5be93758266aa0a7f2c6708b7", "ebdb5cc8e0b497cd13a7c275d475c819"),
    "small_224_1.0_float": ("8768d4c2e7dee89b9d02b2d03d65d862", "d3e8ec802a04aa4fc771ee12a9a9b836"),
    "small_minimalistic_224_1.0_float": ("99cd97fb2fcdad2bf028eb838de69e37", "cde8136e733e811080d9fcd8a252f7e4"),
}

# (expansion, filters, kernel ("k" = the family's kernel), stride, squeeze-excite?, activation ("a" = family's))
_SMALL = [
    (1, 16, 3, 2, True, "relu"),
    (72.0 / 16, 24, 3, 2, False, "relu"),
    (88.0 / 24, 24, 3, 1, False, "relu"),
    (4, 40, "k", 2, True, "a"),
    (6, 40, "k", 1, True, "a"),
    (6, 40, "k", 1, True, "a"),
    (3, 48, "k", 1, True, "a"),
    (3, 48, "k", 1, True, "a"),
    (6, 96, "k", 2, True, "a"),
    (6, 96, "k", 1, True, "a"),
    (6, 96, "k", 1, True, "a"),
]
_LARGE = [
    (1, 16, 3, 1, False, "relu"),
    (4, 24, 3, 2, False, "relu"),
    (3, 24, 3, 1, False, "relu"),
    (3, 40, "k", 2, True, "relu"),
    (3, 40, "k", 1, True, "relu"),
    (3, 40, "k", 1, True, "relu"),
    (6, 80, 3, 2, False, "a"),
    (2.5, 80, 3, 1, False, "a"),
    (2.3, 80, 3, 1, False, "a"),
    (2.3, 80, 3, 1, False, "a"),
    (6, 112, 3, 1, True, "a"),
    (6, 112, 3, 1, True, "a"),
    (6, 160, "k", 2, True, "a"),
    (6, 160, "k", 1, True, "a"),
    (6, 160, "k", 1, True, "a"),
]


def _depth(v, divisor=8, min_value=None):
    """Rounds a channel count to a multiple of ``divisor``, never more than 10% below ``v``."""
    min_value = divisor if min_value is None else min_value
    rounded = max(min_value, int(v + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * v else rounded


def _relu(x):
    return layers.ReLU()(x)


def _hard_sigmoid(x):
    return layers.ReLU(6.0)(x + 3.0) * (1.0 / 6.0)


def _hard_swish(x):
    return layers.Activation("hard_swish")(x)


def _bn(name):
    axis = 1 if hl.config.image_data_format() == "channels_first" else -1
    return layers.BatchNormalization(axis=axis, epsilon=1e-3, momentum=0.999, name=name)


def _squeeze_excite(inputs, filters, se_ratio, prefix):
    x = layers.GlobalAveragePooling2D(keepdims=True, name=f"{prefix}squeeze_excite_avg_pool")(inputs)
    x = layers.Conv2D(_depth(filters * se_ratio), 1, padding="same", name=f"{prefix}squeeze_excite_conv")(x)
    x = layers.ReLU(name=f"{prefix}squeeze_excite_relu")(x)
    x = layers.Conv2D(filters, 1, padding="same", name=f"{prefix}squeeze_excite_conv_1")(x)
    x = _hard_sigmoid(x)
    return layers.Multiply(name=f"{prefix}squeeze_excite_mul")([inputs, x])


def _inverted_res_block(x, expansion, filters, kernel_size, stride, se_ratio, activation, block_id):
    channel_axis = 1 if hl.config.image_data_format() == "channels_first" else -1
    shortcut = x
    in_filters = x.shape[channel_axis]
    prefix = "expanded_conv_"
    if block_id:
        prefix = f"expanded_conv_{block_id}_"
        x = layers.Conv2D(_depth(in_filters * expansion), 1, padding="same", use_bias=False, name=f"{prefix}expand")(x)
        x = _bn(f"{prefix}expand_bn")(x)
        x = activation(x)
    if stride == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size), name=f"{prefix}depthwise_pad")(x)
    x = layers.DepthwiseConv2D(
        kernel_size,
        strides=stride,
        padding="same" if stride == 1 else "valid",
        use_bias=False,
        name=f"{prefix}depthwise",
    )(x)
    x = _bn(f"{prefix}depthwise_bn")(x)
    x = activation(x)
    if se_ratio:
        x = _squeeze_excite(x, _depth(in_filters * expansion), se_ratio, prefix)
    x = layers.Conv2D(filters, 1, padding="same", use_bias=False, name=f"{prefix}project")(x)
    x = _bn(f"{prefix}project_bn")(x)
    if stride == 1 and in_filters == filters:
        x = layers.Add(name=f"{prefix}add")([shortcut, x])
    return x


def MobileNetV3(
    blocks,
    last_point_ch,
    input_shape=None,
    alpha=1.0,
    model_type="large",
    minimalistic=False,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    classes=1000,
    pooling=None,
    dropout_rate=0.2,
    classifier_activation="softmax",
    include_preprocessing=True,
    name=None,
):
    """Builds a MobileNetV3 from its table of blocks (see :func:`MobileNetV3Small` for the arguments)."""
    weights_lib.check_weights_arg(weights, include_top, classes)
    first = hl.config.image_data_format() == "channels_first"
    if input_shape is None and input_tensor is not None:
        rows, cols = input_tensor.shape[2:4] if first else input_tensor.shape[1:3]
        input_shape = (3, cols, rows) if first else (cols, rows, 3)
    if input_shape is None:
        input_shape = (3, None, None) if first else (None, None, 3)
    rows, cols = input_shape[1:3] if first else input_shape[0:2]
    if rows and cols and (rows < 32 or cols < 32):
        raise ValueError(f"MobileNetV3 needs inputs of at least 32x32; received input_shape={input_shape}.")
    if weights == "imagenet":
        if (not minimalistic and alpha not in (0.75, 1.0)) or (minimalistic and alpha != 1.0):
            raise ValueError(
                "ImageNet weights exist for alpha 0.75 or 1.0 (and only 1.0 when minimalistic=True); "
                f"received alpha={alpha}, minimalistic={minimalistic}."
            )
        if rows != cols or rows != 224:
            warnings.warn(
                "input_shape is undefined, non-square or not 224x224; the weights for 224x224 are loaded.",
                stacklevel=3,
            )
    img_input = common.image_input(input_tensor, input_shape)
    channel_axis = 1 if first else -1
    if minimalistic:
        kernel, activation, se_ratio = 3, _relu, None
    else:
        kernel, activation, se_ratio = 5, _hard_swish, 0.25

    x = img_input
    if include_preprocessing:
        x = layers.Rescaling(scale=1.0 / 127.5, offset=-1.0)(x)
    x = layers.Conv2D(16, 3, strides=(2, 2), padding="same", use_bias=False, name="conv")(x)
    x = _bn("conv_bn")(x)
    x = activation(x)
    for block_id, (expansion, filters, k, stride, se, act) in enumerate(blocks):
        x = _inverted_res_block(
            x,
            expansion,
            _depth(filters * alpha),
            kernel if k == "k" else k,
            stride,
            se_ratio if se else None,
            _relu if act == "relu" else activation,
            block_id,
        )
    last_conv_ch = _depth(x.shape[channel_axis] * 6)
    if alpha > 1.0:
        last_point_ch = _depth(last_point_ch * alpha)
    x = layers.Conv2D(last_conv_ch, 1, padding="same", use_bias=False, name="conv_1")(x)
    x = _bn("conv_1_bn")(x)
    x = activation(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(keepdims=True)(x)
        x = layers.Conv2D(last_point_ch, 1, padding="same", use_bias=True, name="conv_2")(x)
        x = activation(x)
        if dropout_rate > 0:
            x = layers.Dropout(dropout_rate)(x)
        x = layers.Conv2D(classes, 1, padding="same", name="logits")(x)
        x = layers.Flatten()(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Activation(activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D(name="max_pool")(x)
    model = common.finish(img_input, input_tensor, x, name)

    if weights == "imagenet":
        key = f"{model_type}{'_minimalistic' if minimalistic else ''}_224_{alpha}_float"
        suffix, file_hash = (
            (".h5", WEIGHTS_HASHES[key][0]) if include_top else ("_no_top_v2.h5", WEIGHTS_HASHES[key][1])
        )
        file_name = f"weights_mobilenet_v3_{key}{suffix}"
        weights_lib.load(model, weights, (file_name, BASE_WEIGHT_PATH + file_name, file_hash))
    else:
        weights_lib.load(model, weights)
    return model


_ARGS_DOC = """
    Args:
        input_shape: the image shape without the batch, e.g. ``(224, 224, 3)``; at least 32x32. Defaults to
            ``input_tensor``'s shape, or to any size.
        alpha: width multiplier: below 1.0 thins every layer, above 1.0 widens it.
        minimalistic: use 3x3 kernels, ReLU and no squeeze-and-excite (faster, less accurate).
        include_top: include the classifier at the top.
        weights: ``None`` (random), ``"imagenet"`` or the path of a weights file.
        input_tensor: a symbolic tensor to use as the image input.
        classes: number of classes (only with ``include_top=True`` and no ImageNet weights).
        pooling: ``None``, ``"avg"`` or ``"max"``: the pooling of the features when ``include_top=False``.
        dropout_rate: the dropout rate before the classifier.
        classifier_activation: activation of the top layer (``None`` returns logits).
        include_preprocessing: rescale the [0, 255] input inside the model.
        name: the model's name.

    Returns:
        A ``Model``.
"""


def MobileNetV3Small(
    input_shape=None,
    alpha=1.0,
    minimalistic=False,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    classes=1000,
    pooling=None,
    dropout_rate=0.2,
    classifier_activation="softmax",
    include_preprocessing=True,
    name="MobileNetV3Small",
):
    return MobileNetV3(
        _SMALL,
        1024,
        input_shape,
        alpha,
        "small",
        minimalistic,
        include_top,
        weights,
        input_tensor,
        classes,
        pooling,
        dropout_rate,
        classifier_activation,
        include_preprocessing,
        name=name,
    )


def MobileNetV3Large(
    input_shape=None,
    alpha=1.0,
    minimalistic=False,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    classes=1000,
    pooling=None,
    dropout_rate=0.2,
    classifier_activation="softmax",
    include_preprocessing=True,
    name="MobileNetV3Large",
):
    return MobileNetV3(
        _LARGE,
        1280,
        input_shape,
        alpha,
        "large",
        minimalistic,
        include_top,
        weights,
        input_tensor,
        classes,
        pooling,
        dropout_rate,
        classifier_activation,
        include_preprocessing,
        name=name,
    )


MobileNetV3Small.__doc__ = (
    "The small MobileNetV3 (about 2.5M parameters at 224x224).\n"
    + _ARGS_DOC
    + """
    >>> import highlevel as hl
    >>> hl.applications.MobileNetV3Small(weights=None, include_top=False, input_shape=(32, 32, 3)).output_shape
    (None, 1, 1, 576)
"""
)
MobileNetV3Large.__doc__ = (
    "The large MobileNetV3 (about 5.5M parameters at 224x224).\n"
    + _ARGS_DOC
    + """
    >>> import highlevel as hl
    >>> hl.applications.MobileNetV3Large(weights=None, include_top=False, input_shape=(32, 32, 3)).output_shape
    (None, 1, 1, 960)
"""
)


preprocess_input = imagenet_utils.unchanged_input
decode_predictions = imagenet_utils.decode_predictions
