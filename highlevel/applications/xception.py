"""Xception (Chollet, 2017), with Keras's layer names and weight files.

An entry flow of separable convolutions with strided 1x1 convolution shortcuts, eight middle blocks of three
separable convolutions with identity shortcuts, and an exit flow. Its default size is 299x299, its smallest
71x71. Images go through :func:`preprocess_input` first (``"tf"`` scaling, to [-1, 1]).

>>> import highlevel as hl
>>> model = hl.applications.Xception(weights=None, include_top=False, input_shape=(71, 71, 3), pooling="avg")
>>> model.output_shape
(None, 2048)
"""

from highlevel import config as hl_config

from . import common, imagenet_utils
from . import weights as weights_lib

BASE_WEIGHTS_URL = "https://storage.googleapis.com/tensorflow/keras-applications/xception/"
WEIGHTS_HASHES = ("0a58e3b7378bc2990ea3b43d5981f1f6", "b0042744bf5b25fce3cb969f33bebb97")


def imagenet_file(include_top):
    """``(file name, url, md5)`` of Keras's ImageNet weights for Xception, with or without its top."""
    file_name = f"xception_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return file_name, BASE_WEIGHTS_URL + file_name, WEIGHTS_HASHES[0 if include_top else 1]


def _bn(name=None):
    from highlevel import layers

    return layers.BatchNormalization(axis=common.channel_axis(), name=name)


def _sep(filters, name):
    from highlevel import layers

    return layers.SeparableConv2D(filters, (3, 3), padding="same", use_bias=False, name=name)


def _shortcut(x, filters):
    from highlevel import layers

    residual = layers.Conv2D(filters, (1, 1), strides=(2, 2), padding="same", use_bias=False)(x)
    return _bn()(residual)


def _entry_block(x, filters, block, first_act=True):
    """Two separable convolutions and a strided max pool, added to a strided 1x1 convolution of the input."""
    from highlevel import layers

    residual = _shortcut(x, filters[1])
    if first_act:
        x = layers.Activation("relu", name=f"block{block}_sepconv1_act")(x)
    x = _sep(filters[0], f"block{block}_sepconv1")(x)
    x = _bn(f"block{block}_sepconv1_bn")(x)
    x = layers.Activation("relu", name=f"block{block}_sepconv2_act")(x)
    x = _sep(filters[1], f"block{block}_sepconv2")(x)
    x = _bn(f"block{block}_sepconv2_bn")(x)
    x = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same", name=f"block{block}_pool")(x)
    return layers.add([x, residual])


def Xception(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="xception",
):
    """Xception.

    Args:
        include_top: end in global average pooling and the ``classes``-way ``predictions`` layer.
        weights: None (random), ``"imagenet"`` (Keras's published weights, fetched once into
            ``~/.keras/models``) or the path of a weights file.
        input_tensor: a symbolic tensor to use as the image input.
        input_shape: the image shape without the batch axis; with the top and ImageNet weights it must be
            ``(299, 299, 3)``; at least 71x71.
        pooling: without the top: None (the last feature map), ``"avg"`` or ``"max"``.
        classes: the number of classes with the top (1000 for ImageNet weights).
        classifier_activation: the activation of ``predictions`` (``"softmax"`` or None with pretrained weights).
        name: the model's name.

    Returns:
        A functional model.
    """
    from highlevel import layers

    weights_lib.check_weights_arg(weights, include_top, classes)
    common.check_pooling(pooling)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, 299, 71, hl_config.image_data_format(), require_flatten=include_top, weights=weights
    )
    image = common.image_input(input_tensor, input_shape)
    x = layers.Conv2D(32, (3, 3), strides=(2, 2), use_bias=False, name="block1_conv1")(image)
    x = _bn("block1_conv1_bn")(x)
    x = layers.Activation("relu", name="block1_conv1_act")(x)
    x = layers.Conv2D(64, (3, 3), use_bias=False, name="block1_conv2")(x)
    x = _bn("block1_conv2_bn")(x)
    x = layers.Activation("relu", name="block1_conv2_act")(x)
    x = _entry_block(x, (128, 128), 2, first_act=False)
    x = _entry_block(x, (256, 256), 3)
    x = _entry_block(x, (728, 728), 4)
    for i in range(8):
        residual = x
        prefix = f"block{i + 5}"
        for j in (1, 2, 3):
            x = layers.Activation("relu", name=f"{prefix}_sepconv{j}_act")(x)
            x = _sep(728, f"{prefix}_sepconv{j}")(x)
            x = _bn(f"{prefix}_sepconv{j}_bn")(x)
        x = layers.add([x, residual])
    x = _entry_block(x, (728, 1024), 13)
    x = _sep(1536, "block14_sepconv1")(x)
    x = _bn("block14_sepconv1_bn")(x)
    x = layers.Activation("relu", name="block14_sepconv1_act")(x)
    x = _sep(2048, "block14_sepconv2")(x)
    x = _bn("block14_sepconv2_bn")(x)
    x = layers.Activation("relu", name="block14_sepconv2_act")(x)
    x = common.head(x, include_top, pooling, classes, classifier_activation, weights, named_pooling=False)
    model = common.finish(image, input_tensor, x, name)
    return weights_lib.load(model, weights, imagenet_file(include_top))


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


preprocess_input.__doc__ = imagenet_utils.PREPROCESS_DOC.format(family="Xception", what="to [-1, 1]")

decode_predictions = imagenet_utils.decode_predictions
