"""InceptionResNetV2 (Szegedy et al., 2017), with Keras's layer names and weight files.

The InceptionV3 stem, then three stages of Inception-ResNet blocks (10 ``block35``, 20 ``block17``, 10 ``block8``)
with reduction modules between them (``mixed_5b``, ``mixed_6a``, ``mixed_7a``). A block concatenates its branches
(``<block>_mixed``), projects them back to its input's width with a biased 1x1 convolution (``<block>_conv``) and
adds them to its input scaled down (:class:`CustomScaleLayer`: ``x + scale * residual``), then applies a ReLU
(``<block>_ac``). The branch convolutions are unnamed and take the automatic names in a fresh session, as Keras's
do. Its default size is 299x299, its smallest 75x75. Images go through :func:`preprocess_input` first (``"tf"``
scaling, to [-1, 1]).

>>> import highlevel as hl
>>> hl.applications.InceptionResNetV2 is hl.applications.inception_resnet_v2.InceptionResNetV2
True
"""

import highlevel as hl
from highlevel import config as hl_config

from . import common, imagenet_utils
from . import weights as weights_lib

BASE_WEIGHTS_URL = "https://storage.googleapis.com/tensorflow/keras-applications/inception_resnet_v2/"
WEIGHTS_HASHES = ("e693bd0210a403b3192acc6073ad2e96", "d19885ff4a710c122648d3b5c3b684e4")

#: Block type -> the residual scale of its repeats, and how many there are.
BLOCKS = (("block35", 0.17, 10), ("block17", 0.1, 20), ("block8", 0.2, 10))


def imagenet_file(include_top):
    """``(file name, url, md5)`` of Keras's ImageNet weights for InceptionResNetV2, with or without its top.

    Args:
        include_top: whether the file holds the ``predictions`` layer too.

    Returns:
        The tuple ``(file name, url, md5 hash)``.

    >>> imagenet_file(True)[0]
    'inception_resnet_v2_weights_tf_dim_ordering_tf_kernels.h5'
    """
    file_name = f"inception_resnet_v2_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return file_name, BASE_WEIGHTS_URL + file_name, WEIGHTS_HASHES[0 if include_top else 1]


@hl.saving.register_keras_serializable(package="highlevel.applications")
class CustomScaleLayer(hl.Layer):
    """Adds a residual scaled by a constant to a shortcut: ``inputs[0] + scale * inputs[1]``.

    It has no weights; ``scale`` is saved in its config, so a model that holds it saves and loads.

    Args:
        scale: the factor of the residual (a float).
        **kwargs: the arguments of every layer (``name``, ``dtype``, ...).

    Raises:
        ValueError: ``scale`` is not a real number.

    >>> import numpy as np
    >>> layer = CustomScaleLayer(0.5)
    >>> np.asarray(layer([np.ones((1, 2), "float32"), np.full((1, 2), 4.0, "float32")])).tolist()
    [[3.0, 3.0]]
    """

    def __init__(self, scale, **kwargs):
        super().__init__(**kwargs)
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            raise ValueError(
                f"CustomScaleLayer: scale must be a real number (the residual's factor); received scale={scale!r}."
            )
        self.scale = float(scale)

    def call(self, inputs):
        shortcut, residual = inputs
        return hl.ops.add(shortcut, hl.ops.multiply(residual, self.scale))

    def compute_output_shape(self, input_shape):
        return input_shape[0]

    def get_config(self):
        return {**super().get_config(), "scale": self.scale}


def _conv_bn(x, filters, kernel_size, strides=1, padding="same", activation="relu", use_bias=False, name=None):
    """A convolution, a batch normalization without scale when it has no bias, and ``activation``; ``name``
    names the convolution, ``<name>_bn`` and ``<name>_ac`` the others (unnamed without it)."""
    from highlevel import layers

    x = layers.Conv2D(filters, kernel_size, strides=strides, padding=padding, use_bias=use_bias, name=name)(x)
    if not use_bias:
        bn_name = None if name is None else f"{name}_bn"
        x = layers.BatchNormalization(axis=common.channel_axis(), scale=False, name=bn_name)(x)
    if activation is not None:
        x = layers.Activation(activation, name=None if name is None else f"{name}_ac")(x)
    return x


def _concat(branches, name):
    from highlevel import layers

    return layers.Concatenate(axis=common.channel_axis(), name=name)(branches)


def _branches(x, block_type):
    if block_type == "block35":
        return [
            _conv_bn(x, 32, 1),
            _conv_bn(_conv_bn(x, 32, 1), 32, 3),
            _conv_bn(_conv_bn(_conv_bn(x, 32, 1), 48, 3), 64, 3),
        ]
    if block_type == "block17":
        return [_conv_bn(x, 192, 1), _conv_bn(_conv_bn(_conv_bn(x, 128, 1), 160, (1, 7)), 192, (7, 1))]
    return [_conv_bn(x, 192, 1), _conv_bn(_conv_bn(_conv_bn(x, 192, 1), 224, (1, 3)), 256, (3, 1))]


def _block(x, scale, block_type, index, activation="relu"):
    """One Inception-ResNet block: ``activation(x + scale * conv1x1(concat(branches(x))))``."""
    from highlevel import layers

    name = f"{block_type}_{index}"
    mixed = _concat(_branches(x, block_type), f"{name}_mixed")
    up = _conv_bn(mixed, x.shape[common.channel_axis()], 1, activation=None, use_bias=True, name=f"{name}_conv")
    x = CustomScaleLayer(scale)([x, up])
    if activation is not None:
        x = layers.Activation(activation, name=f"{name}_ac")(x)
    return x


def InceptionResNetV2(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="inception_resnet_v2",
):
    """InceptionResNetV2, optionally with Keras's ImageNet weights.

    Args:
        include_top: end in global average pooling and the ``classes``-way ``predictions`` layer.
        weights: None (random), ``"imagenet"`` (Keras's published weights, fetched once into
            ``~/.keras/models``) or the path of a weights file.
        input_tensor: a symbolic tensor to use as the image input.
        input_shape: the image shape without the batch axis; with the top and ImageNet weights it must be
            ``(299, 299, 3)``; at least 75x75.
        pooling: without the top: None (the last feature map), ``"avg"`` or ``"max"``.
        classes: the number of classes with the top (1000 for ImageNet weights).
        classifier_activation: the activation of ``predictions`` (``"softmax"`` or None with pretrained weights).
        name: the model's name.

    Returns:
        A functional model.

    Raises:
        ValueError: ``weights``, ``classes``, ``pooling``, ``classifier_activation`` or the input shape do not fit
            (an image under 75x75, for one); the message says which and what is allowed.

    >>> import highlevel as hl
    >>> hl.applications.InceptionResNetV2(weights="imagenet", classes=10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: With weights='imagenet' and include_top=True, classes must be 1000 ...
    """
    from highlevel import layers

    weights_lib.check_weights_arg(weights, include_top, classes)
    common.check_pooling(pooling)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, 299, 75, hl_config.image_data_format(), require_flatten=include_top, weights=weights
    )
    image = common.image_input(input_tensor, input_shape)
    x = _conv_bn(image, 32, 3, strides=2, padding="valid")
    x = _conv_bn(x, 32, 3, padding="valid")
    x = _conv_bn(x, 64, 3)
    x = layers.MaxPooling2D(3, strides=2)(x)
    x = _conv_bn(x, 80, 1, padding="valid")
    x = _conv_bn(x, 192, 3, padding="valid")
    x = layers.MaxPooling2D(3, strides=2)(x)

    b0 = _conv_bn(x, 96, 1)
    b1 = _conv_bn(_conv_bn(x, 48, 1), 64, 5)
    b2 = _conv_bn(_conv_bn(_conv_bn(x, 64, 1), 96, 3), 96, 3)
    pooled = _conv_bn(layers.AveragePooling2D(3, strides=1, padding="same")(x), 64, 1)
    x = _concat([b0, b1, b2, pooled], "mixed_5b")
    x = _stage(x, *BLOCKS[0])

    b0 = _conv_bn(x, 384, 3, strides=2, padding="valid")
    b1 = _conv_bn(_conv_bn(_conv_bn(x, 256, 1), 256, 3), 384, 3, strides=2, padding="valid")
    x = _concat([b0, b1, layers.MaxPooling2D(3, strides=2, padding="valid")(x)], "mixed_6a")
    x = _stage(x, *BLOCKS[1])

    b0 = _conv_bn(_conv_bn(x, 256, 1), 384, 3, strides=2, padding="valid")
    b1 = _conv_bn(_conv_bn(x, 256, 1), 288, 3, strides=2, padding="valid")
    b2 = _conv_bn(_conv_bn(_conv_bn(x, 256, 1), 288, 3), 320, 3, strides=2, padding="valid")
    x = _concat([b0, b1, b2, layers.MaxPooling2D(3, strides=2, padding="valid")(x)], "mixed_7a")
    block_type, scale, repeats = BLOCKS[2]
    x = _stage(x, block_type, scale, repeats - 1)
    x = _block(x, 1.0, block_type, repeats, activation=None)
    x = _conv_bn(x, 1536, 1, name="conv_7b")

    x = common.head(x, include_top, pooling, classes, classifier_activation, weights, named_pooling=False)
    model = common.finish(image, input_tensor, x, name)
    return weights_lib.load(model, weights, imagenet_file(include_top))


def _stage(x, block_type, scale, repeats):
    for index in range(1, repeats + 1):
        x = _block(x, scale, block_type, index)
    return x


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


preprocess_input.__doc__ = imagenet_utils.PREPROCESS_DOC.format(family="InceptionResNetV2", what="to [-1, 1]")

decode_predictions = imagenet_utils.decode_predictions
