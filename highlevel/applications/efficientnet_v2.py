"""EfficientNetV2 B0 to B3, S, M and L (Tan and Le, 2021, "EfficientNetV2: Smaller Models and Faster Training").

Layer names and weight order follow Keras, so Keras's published weight files load. With
``include_preprocessing=True`` (the default) the models take pixels in [0, 255].

>>> import highlevel as hl
>>> model = hl.applications.EfficientNetV2B0(weights=None, input_shape=(32, 32, 3), classes=3)
>>> model.output_shape
(None, 3)
"""

import copy
import math

import highlevel as hl
from highlevel import layers

from . import common, imagenet_utils
from . import weights as weights_lib

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/efficientnet_v2/"
# variant -> (md5 of the file with the classifier, md5 of the file without it)
WEIGHTS_HASHES = {
    "b0": ("21ecbf6da12460d5c40bb2f29ceb2188", "893217f2bb855e2983157299931e43ff"),
    "b1": ("069f0534ff22adf035c89e2d9547a9dc", "0e80663031ca32d657f9caa404b6ec37"),
    "b2": ("424e49f28180edbde1e94797771950a7", "1dfe2e7a5d45b6632553a8961ea609eb"),
    "b3": ("1f1fc43bd98a6e4fd8fdfd551e02c7a0", "f6abf7b5849ac99a89b50dd3fd532856"),
    "-s": ("e1d88a8495beba45748fedd0cecbe016", "af0682fb74e8c54910f2d4393339c070"),
    "-m": ("a3bf6aa3276309f4fc6a34aa114c95cd", "1b8dc055df72dde80d614482840fe342"),
    "-l": ("27e6d408b53c7ebc868fefa357689935", "b0b66b5c863aef5b46e8608fe1711615"),
}

_FIELDS = (
    "kernel_size",
    "num_repeat",
    "input_filters",
    "output_filters",
    "expand_ratio",
    "se_ratio",
    "strides",
    "conv_type",
)


def _stages(*rows):
    return [dict(zip(_FIELDS, row)) for row in rows]


# conv_type 1 = fused MBConv (one full convolution), 0 = MBConv (expand, depthwise, project)
_B = _stages(
    (3, 1, 32, 16, 1, 0, 1, 1),
    (3, 2, 16, 32, 4, 0, 2, 1),
    (3, 2, 32, 48, 4, 0, 2, 1),
    (3, 3, 48, 96, 4, 0.25, 2, 0),
    (3, 5, 96, 112, 6, 0.25, 1, 0),
    (3, 8, 112, 192, 6, 0.25, 2, 0),
)
#: The stages of each variant, before width and depth scaling (keyed by the model's default name).
DEFAULT_BLOCKS_ARGS = {
    "efficientnetv2-s": _stages(
        (3, 2, 24, 24, 1, 0.0, 1, 1),
        (3, 4, 24, 48, 4, 0.0, 2, 1),
        (3, 4, 48, 64, 4, 0, 2, 1),
        (3, 6, 64, 128, 4, 0.25, 2, 0),
        (3, 9, 128, 160, 6, 0.25, 1, 0),
        (3, 15, 160, 256, 6, 0.25, 2, 0),
    ),
    "efficientnetv2-m": _stages(
        (3, 3, 24, 24, 1, 0, 1, 1),
        (3, 5, 24, 48, 4, 0, 2, 1),
        (3, 5, 48, 80, 4, 0, 2, 1),
        (3, 7, 80, 160, 4, 0.25, 2, 0),
        (3, 14, 160, 176, 6, 0.25, 1, 0),
        (3, 18, 176, 304, 6, 0.25, 2, 0),
        (3, 5, 304, 512, 6, 0.25, 1, 0),
    ),
    "efficientnetv2-l": _stages(
        (3, 4, 32, 32, 1, 0, 1, 1),
        (3, 7, 32, 64, 4, 0, 2, 1),
        (3, 7, 64, 96, 4, 0, 2, 1),
        (3, 10, 96, 192, 4, 0.25, 2, 0),
        (3, 19, 192, 224, 6, 0.25, 1, 0),
        (3, 25, 224, 384, 6, 0.25, 2, 0),
        (3, 7, 384, 640, 6, 0.25, 1, 0),
    ),
    "efficientnetv2-b0": _B,
    "efficientnetv2-b1": _B,
    "efficientnetv2-b2": _B,
    "efficientnetv2-b3": _B,
}

CONV_KERNEL_INITIALIZER = {
    "class_name": "VarianceScaling",
    "config": {"scale": 2.0, "mode": "fan_out", "distribution": "truncated_normal"},
}
DENSE_KERNEL_INITIALIZER = {
    "class_name": "VarianceScaling",
    "config": {"scale": 1.0 / 3.0, "mode": "fan_out", "distribution": "uniform"},
}


def round_filters(filters, width_coefficient, min_depth, depth_divisor):
    """A channel count scaled by ``width_coefficient``, rounded to a multiple of ``depth_divisor``.

    >>> round_filters(32, 1.1, 8, 8)
    32
    """
    filters *= width_coefficient
    return int(max(min_depth or depth_divisor, int(filters + depth_divisor / 2) // depth_divisor * depth_divisor))


def round_repeats(repeats, depth_coefficient):
    """A stage's block count scaled by ``depth_coefficient``, rounded up.

    >>> round_repeats(3, 1.4)
    5
    """
    return int(math.ceil(depth_coefficient * repeats))


def _bn_axis():
    return 3 if hl.config.image_data_format() == "channels_last" else 1


def _squeeze_excite(x, filters, input_filters, se_ratio, activation, name):
    se = layers.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
    se_shape = (filters, 1, 1) if _bn_axis() == 1 else (1, 1, filters)
    se = layers.Reshape(se_shape, name=f"{name}se_reshape")(se)
    se = layers.Conv2D(
        max(1, int(input_filters * se_ratio)),
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
    return layers.multiply([x, se], name=f"{name}se_excite")


def _residual(x, inputs, strides, input_filters, output_filters, survival_probability, name):
    if strides == 1 and input_filters == output_filters:
        if survival_probability:
            # as in Keras, the argument is used as the rate at which a sample's whole branch is dropped
            x = layers.Dropout(survival_probability, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = layers.add([x, inputs], name=f"{name}add")
    return x


def _conv(filters, kernel_size, strides, name):
    return layers.Conv2D(
        filters,
        kernel_size=kernel_size,
        strides=strides,
        kernel_initializer=CONV_KERNEL_INITIALIZER,
        padding="same",
        use_bias=False,
        name=name,
    )


def MBConvBlock(
    input_filters,
    output_filters,
    expand_ratio=1,
    kernel_size=3,
    strides=1,
    se_ratio=0.0,
    bn_momentum=0.9,
    activation="swish",
    survival_probability=0.8,
    name=None,
):
    """Mobile inverted bottleneck: 1x1 expand, depthwise, squeeze-and-excite, 1x1 project; returns a function."""
    name = name if name is not None else hl.backend.get_uid("block0")
    bn_axis = _bn_axis()

    def apply(inputs):
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = _conv(filters, 1, 1, f"{name}expand_conv")(x)
            x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name=f"{name}expand_bn")(x)
            x = layers.Activation(activation, name=f"{name}expand_activation")(x)
        x = layers.DepthwiseConv2D(
            kernel_size=kernel_size,
            strides=strides,
            depthwise_initializer=CONV_KERNEL_INITIALIZER,
            padding="same",
            use_bias=False,
            name=f"{name}dwconv2",
        )(x)
        x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name=f"{name}bn")(x)
        x = layers.Activation(activation, name=f"{name}activation")(x)
        if 0 < se_ratio <= 1:
            x = _squeeze_excite(x, filters, input_filters, se_ratio, activation, name)
        x = _conv(output_filters, 1, 1, f"{name}project_conv")(x)
        x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name=f"{name}project_bn")(x)
        return _residual(x, inputs, strides, input_filters, output_filters, survival_probability, name)

    return apply


def FusedMBConvBlock(
    input_filters,
    output_filters,
    expand_ratio=1,
    kernel_size=3,
    strides=1,
    se_ratio=0.0,
    bn_momentum=0.9,
    activation="swish",
    survival_probability=0.8,
    name=None,
):
    """Fused bottleneck: one full convolution replaces expand + depthwise; returns a function."""
    name = name if name is not None else hl.backend.get_uid("block0")
    bn_axis = _bn_axis()

    def apply(inputs):
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = _conv(filters, kernel_size, strides, f"{name}expand_conv")(x)
            x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name=f"{name}expand_bn")(x)
            x = layers.Activation(activation, name=f"{name}expand_activation")(x)
        if 0 < se_ratio <= 1:
            x = _squeeze_excite(x, filters, input_filters, se_ratio, activation, name)
        expanded = expand_ratio != 1
        x = _conv(output_filters, 1 if expanded else kernel_size, 1 if expanded else strides, f"{name}project_conv")(x)
        x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name=f"{name}project_bn")(x)
        if not expanded:
            x = layers.Activation(activation, name=f"{name}project_activation")(x)
        return _residual(x, inputs, strides, input_filters, output_filters, survival_probability, name)

    return apply


def EfficientNetV2(
    width_coefficient,
    depth_coefficient,
    default_size,
    dropout_rate=0.2,
    drop_connect_rate=0.2,
    depth_divisor=8,
    min_depth=8,
    bn_momentum=0.9,
    activation="swish",
    blocks_args="default",
    name="efficientnetv2",
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    include_preprocessing=True,
    weights_name=None,
):
    """Builds an EfficientNetV2 from its stages, scaled by width and depth.

    Args:
        width_coefficient: scales every layer's channel count.
        depth_coefficient: scales every stage's number of blocks.
        default_size: the image size the variant is trained at.
        dropout_rate: dropout before the classifier.
        drop_connect_rate: the largest stochastic-depth rate (it grows linearly with the block's depth).
        depth_divisor: channel counts are multiples of this.
        min_depth: the smallest channel count.
        bn_momentum: momentum of every BatchNormalization.
        activation: the activation of every block.
        blocks_args: ``"default"`` (the stages of :data:`DEFAULT_BLOCKS_ARGS` under ``name``) or a list of
            stage dicts.
        name: the model's name (also the stem of the weight file's name).
        include_top, weights, input_tensor, input_shape, pooling, classes, classifier_activation,
            include_preprocessing: see :func:`EfficientNetV2B0`.
        weights_name: the key of :data:`WEIGHTS_HASHES` for ``weights="imagenet"``.

    Returns:
        A ``Model``.

    >>> m = EfficientNetV2(0.25, 0.2, 32, blocks_args=DEFAULT_BLOCKS_ARGS["efficientnetv2-b0"], weights=None,
    ...                    input_shape=(32, 32, 3), classes=2)
    >>> m.output_shape
    (None, 2)
    """
    if blocks_args == "default":
        if name not in DEFAULT_BLOCKS_ARGS:
            raise ValueError(
                f"blocks_args='default' needs the name of a known variant ({sorted(DEFAULT_BLOCKS_ARGS)}); "
                f"received name={name!r}. Pass blocks_args explicitly for another name."
            )
        blocks_args = DEFAULT_BLOCKS_ARGS[name]
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

    def filters_of(n):
        return round_filters(n, width_coefficient, min_depth, depth_divisor)

    x = img_input
    if include_preprocessing:
        if name.split("-")[-1].startswith("b") and input_shape[bn_axis - 1] == 3:
            # the B variants were trained on ImageNet-normalized images, S/M/L on [-1, 1]
            x = layers.Rescaling(scale=1.0 / 255)(x)
            x = layers.Normalization(mean=[0.485, 0.456, 0.406], variance=[0.229**2, 0.224**2, 0.225**2], axis=bn_axis)(
                x
            )
        else:
            x = layers.Rescaling(scale=1.0 / 128.0, offset=-1)(x)
    x = _conv(filters_of(blocks_args[0]["input_filters"]), 3, 2, "stem_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name="stem_bn")(x)
    x = layers.Activation(activation, name="stem_activation")(x)

    blocks_args = copy.deepcopy(blocks_args)
    done = 0
    total = float(sum(args["num_repeat"] for args in blocks_args))
    for i, args in enumerate(blocks_args):
        if args["num_repeat"] <= 0:
            raise ValueError(
                f"Every EfficientNetV2 stage needs num_repeat > 0; stage {i} has num_repeat={args['num_repeat']}."
            )
        args["input_filters"] = filters_of(args["input_filters"])
        args["output_filters"] = filters_of(args["output_filters"])
        make = FusedMBConvBlock if args.pop("conv_type") == 1 else MBConvBlock
        for j in range(round_repeats(args.pop("num_repeat"), depth_coefficient)):
            if j > 0:
                args["strides"] = 1
                args["input_filters"] = args["output_filters"]
            x = make(
                activation=activation,
                bn_momentum=bn_momentum,
                survival_probability=drop_connect_rate * done / total,
                name=f"block{i + 1}{chr(j + 97)}_",
                **args,
            )(x)
            done += 1

    x = _conv(filters_of(1280), 1, 1, "top_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name="top_bn")(x)
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
            bias_initializer="zeros",
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


_DOC = """EfficientNetV2-{v} ({size}x{size} by default).

    Args:
        include_top: include the classifier at the top.
        weights: ``None`` (random), ``"imagenet"`` or the path of a weights file.
        input_tensor: a symbolic tensor to use as the image input.
        input_shape: the image shape without the batch (at least 32x32).
        pooling: ``None``, ``"avg"`` or ``"max"``: the pooling of the features when ``include_top=False``.
        classes: number of classes (only with ``include_top=True`` and no ImageNet weights).
        classifier_activation: activation of the top layer (``None`` returns logits).
        include_preprocessing: normalize the [0, 255] input inside the model.
        name: the model's name.

    Returns:
        A ``Model``.

    >>> import highlevel as hl
    >>> hl.applications.EfficientNetV2{v}(weights=None, include_top=False, input_shape=(32, 32, 3)).output_shape[-1]
    {top}
"""

# variant -> (width, depth, default size, key of WEIGHTS_HASHES)
_VARIANTS = {
    "B0": (1.0, 1.0, 224, "b0"),
    "B1": (1.0, 1.1, 240, "b1"),
    "B2": (1.1, 1.2, 260, "b2"),
    "B3": (1.2, 1.4, 300, "b3"),
    "S": (1.0, 1.0, 384, "-s"),
    "M": (1.0, 1.0, 480, "-m"),
    "L": (1.0, 1.0, 480, "-l"),
}


def _variant(v):
    width, depth, size, key = _VARIANTS[v]

    default_name = f"efficientnetv2-{v.lower()}"

    def build(
        include_top=True,
        weights="imagenet",
        input_tensor=None,
        input_shape=None,
        pooling=None,
        classes=1000,
        classifier_activation="softmax",
        include_preprocessing=True,
        name=default_name,
    ):
        return EfficientNetV2(
            width_coefficient=width,
            depth_coefficient=depth,
            default_size=size,
            name=name,
            include_top=include_top,
            weights=weights,
            input_tensor=input_tensor,
            input_shape=input_shape,
            pooling=pooling,
            classes=classes,
            classifier_activation=classifier_activation,
            include_preprocessing=include_preprocessing,
            weights_name=key,
        )

    build.__name__ = build.__qualname__ = f"EfficientNetV2{v}"
    build.__doc__ = _DOC.format(v=v, size=size, top=round_filters(1280, width, 8, 8))
    return build


EfficientNetV2B0 = _variant("B0")
EfficientNetV2B1 = _variant("B1")
EfficientNetV2B2 = _variant("B2")
EfficientNetV2B3 = _variant("B3")
EfficientNetV2S = _variant("S")
EfficientNetV2M = _variant("M")
EfficientNetV2L = _variant("L")


preprocess_input = imagenet_utils.unchanged_input
decode_predictions = imagenet_utils.decode_predictions
