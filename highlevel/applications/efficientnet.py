"""EfficientNet B0 to B7 (Tan and Le, 2019, "EfficientNet: Rethinking Model Scaling for CNNs").

Layer names and weight order follow Keras, so Keras's published weight files load. The models normalize their
input themselves: feed pixels in [0, 255].

>>> import highlevel as hl
>>> model = hl.applications.EfficientNetB0(weights=None, input_shape=(32, 32, 3), classes=3)
>>> model.output_shape
(None, 3)
"""

import copy
import math

import highlevel as hl
from highlevel import layers

from . import common, imagenet_utils
from . import weights as weights_lib

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/keras-applications/"
# variant -> (md5 of the file with the classifier, md5 of the file without it)
WEIGHTS_HASHES = {
    "b0": ("902e53a9f72be733fc0bcb005b3ebbac", "50bc09e76180e00e4465e1a485ddc09d"),
    "b1": ("1d254153d4ab51201f1646940f018540", "74c4e6b3e1f6a1eea24c589628592432"),
    "b2": ("b15cce36ff4dcbd00b6dd88e7857a6ad", "111f8e2ac8aa800a7a99e3239f7bfb39"),
    "b3": ("ffd1fdc53d0ce67064dc6a9c7960ede0", "af6d107764bb5b1abb91932881670226"),
    "b4": ("18c95ad55216b8f92d7e70b3a046e2fc", "ebc24e6d6c33eaebbd558eafbeedf1ba"),
    "b5": ("ace28f2a6363774853a83a0b21b9421a", "38879255a25d3c92d5e44e04ae6cec6f"),
    "b6": ("165f6e37dce68623721b423839de8be5", "9ecce42647a20130c1f39a5d4cb75743"),
    "b7": ("8c03f828fec3ef71311cd463b6759d99", "cbcfe4450ddf6f3ad90b1b398090fe4a"),
}


def _stage(kernel_size, repeats, filters_in, filters_out, expand_ratio, strides):
    return {
        "kernel_size": kernel_size,
        "repeats": repeats,
        "filters_in": filters_in,
        "filters_out": filters_out,
        "expand_ratio": expand_ratio,
        "id_skip": True,
        "strides": strides,
        "se_ratio": 0.25,
    }


#: The seven stages of EfficientNet-B0, before width and depth scaling.
DEFAULT_BLOCKS_ARGS = [
    _stage(3, 1, 32, 16, 1, 1),
    _stage(3, 2, 16, 24, 6, 2),
    _stage(5, 2, 24, 40, 6, 2),
    _stage(3, 3, 40, 80, 6, 2),
    _stage(5, 3, 80, 112, 6, 1),
    _stage(5, 4, 112, 192, 6, 2),
    _stage(3, 1, 192, 320, 6, 1),
]

CONV_KERNEL_INITIALIZER = {
    "class_name": "VarianceScaling",
    "config": {"scale": 2.0, "mode": "fan_out", "distribution": "truncated_normal"},
}
DENSE_KERNEL_INITIALIZER = {
    "class_name": "VarianceScaling",
    "config": {"scale": 1.0 / 3.0, "mode": "fan_out", "distribution": "uniform"},
}
IMAGENET_STDDEV_RGB = [0.229, 0.224, 0.225]


def _bn_axis():
    return 3 if hl.config.image_data_format() == "channels_last" else 1


def block(
    inputs,
    activation="swish",
    drop_rate=0.0,
    name="",
    filters_in=32,
    filters_out=16,
    kernel_size=3,
    strides=1,
    expand_ratio=1,
    se_ratio=0.0,
    id_skip=True,
):
    """One mobile inverted bottleneck: expand, depthwise, squeeze-and-excite, project (+ residual)."""
    bn_axis = _bn_axis()
    filters = filters_in * expand_ratio
    x = inputs
    if expand_ratio != 1:
        x = layers.Conv2D(
            filters,
            1,
            padding="same",
            use_bias=False,
            kernel_initializer=CONV_KERNEL_INITIALIZER,
            name=f"{name}expand_conv",
        )(x)
        x = layers.BatchNormalization(axis=bn_axis, name=f"{name}expand_bn")(x)
        x = layers.Activation(activation, name=f"{name}expand_activation")(x)
    if strides == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size), name=f"{name}dwconv_pad")(x)
    x = layers.DepthwiseConv2D(
        kernel_size,
        strides=strides,
        padding="valid" if strides == 2 else "same",
        use_bias=False,
        depthwise_initializer=CONV_KERNEL_INITIALIZER,
        name=f"{name}dwconv",
    )(x)
    x = layers.BatchNormalization(axis=bn_axis, name=f"{name}bn")(x)
    x = layers.Activation(activation, name=f"{name}activation")(x)
    if 0 < se_ratio <= 1:
        se = layers.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
        se_shape = (filters, 1, 1) if bn_axis == 1 else (1, 1, filters)
        se = layers.Reshape(se_shape, name=f"{name}se_reshape")(se)
        se = layers.Conv2D(
            max(1, int(filters_in * se_ratio)),
            1,
            padding="same",
            activation=activation,
            kernel_initializer=CONV_KERNEL_INITIALIZER,
            name=f"{name}se_reduce",
        )(se)
        se = layers.Conv2D(
            filters,
            1,
            padding="same",
            activation="sigmoid",
            kernel_initializer=CONV_KERNEL_INITIALIZER,
            name=f"{name}se_expand",
        )(se)
        x = layers.multiply([x, se], name=f"{name}se_excite")
    x = layers.Conv2D(
        filters_out,
        1,
        padding="same",
        use_bias=False,
        kernel_initializer=CONV_KERNEL_INITIALIZER,
        name=f"{name}project_conv",
    )(x)
    x = layers.BatchNormalization(axis=bn_axis, name=f"{name}project_bn")(x)
    if id_skip and strides == 1 and filters_in == filters_out:
        if drop_rate > 0:
            # stochastic depth: the whole residual branch of a sample is dropped
            x = layers.Dropout(drop_rate, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = layers.add([x, inputs], name=f"{name}add")
    return x


def EfficientNet(
    width_coefficient,
    depth_coefficient,
    default_size,
    dropout_rate=0.2,
    drop_connect_rate=0.2,
    depth_divisor=8,
    activation="swish",
    blocks_args="default",
    name="efficientnet",
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    weights_name=None,
):
    """Builds an EfficientNet scaled by ``width_coefficient`` and ``depth_coefficient``.

    Args:
        width_coefficient: scales every layer's channel count.
        depth_coefficient: scales every stage's number of blocks.
        default_size: the image size the variant is trained at.
        dropout_rate: dropout before the classifier.
        drop_connect_rate: the largest stochastic-depth rate (it grows linearly with the block's depth).
        depth_divisor: channel counts are multiples of this.
        activation: the activation of every block.
        blocks_args: ``"default"`` or a list of stage dicts like :data:`DEFAULT_BLOCKS_ARGS`.
        name: the model's name (also the stem of the weight file's name).
        include_top, weights, input_tensor, input_shape, pooling, classes, classifier_activation: see
            :func:`EfficientNetB0`.
        weights_name: the key of :data:`WEIGHTS_HASHES` for ``weights="imagenet"``.

    Returns:
        A ``Model``.

    >>> EfficientNet(0.1, 0.1, 32, weights=None, input_shape=(32, 32, 3), classes=2).output_shape
    (None, 2)
    """
    blocks_args = DEFAULT_BLOCKS_ARGS if blocks_args == "default" else blocks_args
    weights_lib.check_weights_arg(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape,
        default_size=default_size,
        min_size=32,
        data_format=hl.config.image_data_format(),
        require_flatten=include_top,
        weights=weights,
    )
    img_input = common.image_input(input_tensor, input_shape)
    bn_axis = _bn_axis()

    def round_filters(filters, divisor=depth_divisor):
        filters *= width_coefficient
        rounded = max(divisor, int(filters + divisor / 2) // divisor * divisor)
        return int(rounded + divisor if rounded < 0.9 * filters else rounded)

    def round_repeats(repeats):
        return int(math.ceil(depth_coefficient * repeats))

    x = layers.Rescaling(1.0 / 255.0)(img_input)
    x = layers.Normalization(axis=bn_axis)(x)
    if weights == "imagenet":
        # the published weights hold the variance where the standard deviation belongs; this undoes it
        x = layers.Rescaling([1.0 / math.sqrt(s) for s in IMAGENET_STDDEV_RGB])(x)
    x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3), name="stem_conv_pad")(x)
    x = layers.Conv2D(
        round_filters(32),
        3,
        strides=2,
        padding="valid",
        use_bias=False,
        kernel_initializer=CONV_KERNEL_INITIALIZER,
        name="stem_conv",
    )(x)
    x = layers.BatchNormalization(axis=bn_axis, name="stem_bn")(x)
    x = layers.Activation(activation, name="stem_activation")(x)

    blocks_args = copy.deepcopy(blocks_args)
    done = 0
    total = float(sum(round_repeats(args["repeats"]) for args in blocks_args))
    for i, args in enumerate(blocks_args):
        if args["repeats"] <= 0:
            raise ValueError(f"Every EfficientNet stage needs repeats > 0; stage {i} has repeats={args['repeats']}.")
        args["filters_in"] = round_filters(args["filters_in"])
        args["filters_out"] = round_filters(args["filters_out"])
        for j in range(round_repeats(args.pop("repeats"))):
            if j > 0:
                args["strides"] = 1
                args["filters_in"] = args["filters_out"]
            x = block(x, activation, drop_connect_rate * done / total, name=f"block{i + 1}{chr(j + 97)}_", **args)
            done += 1

    x = layers.Conv2D(
        round_filters(1280),
        1,
        padding="same",
        use_bias=False,
        kernel_initializer=CONV_KERNEL_INITIALIZER,
        name="top_conv",
    )(x)
    x = layers.BatchNormalization(axis=bn_axis, name="top_bn")(x)
    x = layers.Activation(activation, name="top_activation")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout_rate > 0:
            x = layers.Dropout(dropout_rate, name="top_dropout")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(
            classes,
            activation=classifier_activation,
            kernel_initializer=DENSE_KERNEL_INITIALIZER,
            name="predictions",
        )(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D(name="max_pool")(x)
    model = common.finish(img_input, input_tensor, x, name)

    if weights == "imagenet":
        suffix, file_hash = (
            (".h5", WEIGHTS_HASHES[weights_name][0]) if include_top else ("_notop.h5", WEIGHTS_HASHES[weights_name][1])
        )
        file_name = name + suffix
        weights_lib.load(model, weights, (file_name, BASE_WEIGHTS_PATH + file_name, file_hash))
    else:
        weights_lib.load(model, weights)
    return model


_DOC = """EfficientNet-{v} ({size}x{size} by default).

    Args:
        include_top: include the classifier at the top.
        weights: ``None`` (random), ``"imagenet"`` or the path of a weights file.
        input_tensor: a symbolic tensor to use as the image input.
        input_shape: the image shape without the batch (at least 32x32); with ``include_top`` and ImageNet
            weights it must be ``({size}, {size}, 3)``.
        pooling: ``None``, ``"avg"`` or ``"max"``: the pooling of the features when ``include_top=False``.
        classes: number of classes (only with ``include_top=True`` and no ImageNet weights).
        classifier_activation: activation of the top layer (``None`` returns logits).
        name: the model's name.

    Returns:
        A ``Model``; it takes pixels in [0, 255].

    >>> import highlevel as hl
    >>> hl.applications.EfficientNet{v}(weights=None, include_top=False, input_shape=(32, 32, 3)).output_shape[-1]
    {top}
"""

# variant -> (width, depth, default size, dropout)
_VARIANTS = {
    "B0": (1.0, 1.0, 224, 0.2),
    "B1": (1.0, 1.1, 240, 0.2),
    "B2": (1.1, 1.2, 260, 0.3),
    "B3": (1.2, 1.4, 300, 0.3),
    "B4": (1.4, 1.8, 380, 0.4),
    "B5": (1.6, 2.2, 456, 0.4),
    "B6": (1.8, 2.6, 528, 0.5),
    "B7": (2.0, 3.1, 600, 0.5),
}


def _variant(v):
    width, depth, size, dropout = _VARIANTS[v]

    default_name = f"efficientnet{v.lower()}"

    def build(
        include_top=True,
        weights="imagenet",
        input_tensor=None,
        input_shape=None,
        pooling=None,
        classes=1000,
        classifier_activation="softmax",
        name=default_name,
    ):
        return EfficientNet(
            width,
            depth,
            size,
            dropout,
            name=name,
            include_top=include_top,
            weights=weights,
            input_tensor=input_tensor,
            input_shape=input_shape,
            pooling=pooling,
            classes=classes,
            classifier_activation=classifier_activation,
            weights_name=v.lower(),
        )

    top = max(8, int(1280 * width + 4) // 8 * 8)
    build.__name__ = build.__qualname__ = f"EfficientNet{v}"
    build.__doc__ = _DOC.format(v=v, size=size, top=top)
    return build


EfficientNetB0 = _variant("B0")
EfficientNetB1 = _variant("B1")
EfficientNetB2 = _variant("B2")
EfficientNetB3 = _variant("B3")
EfficientNetB4 = _variant("B4")
EfficientNetB5 = _variant("B5")
EfficientNetB6 = _variant("B6")
EfficientNetB7 = _variant("B7")


preprocess_input = imagenet_utils.unchanged_input
decode_predictions = imagenet_utils.decode_predictions
