"""InceptionV3 (Szegedy et al., 2016), with Keras's layer names and weight files.

A stem of five convolutions and two max pools, then eleven Inception modules: parallel branches of 1x1, factorized
nxn (1xn then nx1) and pooled convolutions, concatenated along the channels (``mixed0`` ... ``mixed10``). Every
convolution has no bias and is followed by a batch normalization without scale and a ReLU; those layers are
unnamed, so they take the automatic names (``conv2d``, ``batch_normalization_5``, ``activation_12``) in a fresh
session, as Keras's do. Its default size is 299x299, its smallest 75x75. Images go through
:func:`preprocess_input` first (``"tf"`` scaling, to [-1, 1]).

>>> import highlevel as hl
>>> hl.applications.InceptionV3 is hl.applications.inception_v3.InceptionV3
True
"""

from highlevel import config as hl_config

from . import common, imagenet_utils
from . import weights as weights_lib

BASE_WEIGHTS_URL = "https://storage.googleapis.com/tensorflow/keras-applications/inception_v3/"
WEIGHTS_HASHES = ("9a0d58056eeedaa3f26cb7ebd46da564", "bcbd6486424b2319ff4ef7d526e38f63")


def imagenet_file(include_top):
    """``(file name, url, md5)`` of Keras's ImageNet weights for InceptionV3, with or without its top.

    Args:
        include_top: whether the file holds the ``predictions`` layer too.

    Returns:
        The tuple ``(file name, url, md5 hash)``.

    >>> imagenet_file(False)[0]
    'inception_v3_weights_tf_dim_ordering_tf_kernels_notop.h5'
    """
    file_name = f"inception_v3_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return file_name, BASE_WEIGHTS_URL + file_name, WEIGHTS_HASHES[0 if include_top else 1]


def _conv_bn(x, filters, rows, cols, strides=(1, 1), padding="same"):
    """An unnamed convolution without bias, a batch normalization without scale, and a ReLU."""
    from highlevel import layers

    x = layers.Conv2D(filters, (rows, cols), strides=strides, padding=padding, use_bias=False)(x)
    x = layers.BatchNormalization(axis=common.channel_axis(), scale=False)(x)
    return layers.Activation("relu")(x)


def _avg_pool_branch(x, filters):
    from highlevel import layers

    pooled = layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same")(x)
    return _conv_bn(pooled, filters, 1, 1)


def _concat(branches, name=None):
    from highlevel import layers

    return layers.Concatenate(axis=common.channel_axis(), name=name)(branches)


def _module_35(x, pool_filters, name):
    """1x1, 5x5 and double 3x3 branches and an average-pooled 1x1 branch (``mixed0`` to ``mixed2``)."""
    b1 = _conv_bn(x, 64, 1, 1)
    b5 = _conv_bn(_conv_bn(x, 48, 1, 1), 64, 5, 5)
    b3 = _conv_bn(_conv_bn(_conv_bn(x, 64, 1, 1), 96, 3, 3), 96, 3, 3)
    return _concat([b1, b5, b3, _avg_pool_branch(x, pool_filters)], name)


def _module_17(x, width, name):
    """1x1, factorized 7x7 and double factorized 7x7 branches of ``width`` inner channels, and an average-pooled
    1x1 branch (``mixed4`` to ``mixed7``)."""
    b1 = _conv_bn(x, 192, 1, 1)
    b7 = _conv_bn(_conv_bn(_conv_bn(x, width, 1, 1), width, 1, 7), 192, 7, 1)
    b7d = _conv_bn(x, width, 1, 1)
    for rows, cols in ((7, 1), (1, 7), (7, 1)):
        b7d = _conv_bn(b7d, width, rows, cols)
    b7d = _conv_bn(b7d, 192, 1, 7)
    return _concat([b1, b7, b7d, _avg_pool_branch(x, 192)], name)


def _module_8(x, index):
    """1x1, split 3x3 and double split 3x3 branches and an average-pooled 1x1 branch (``mixed9``, ``mixed10``)."""
    b1 = _conv_bn(x, 320, 1, 1)
    b3 = _conv_bn(x, 384, 1, 1)
    b3 = _concat([_conv_bn(b3, 384, 1, 3), _conv_bn(b3, 384, 3, 1)], f"mixed9_{index}")
    b3d = _conv_bn(_conv_bn(x, 448, 1, 1), 384, 3, 3)
    b3d = _concat([_conv_bn(b3d, 384, 1, 3), _conv_bn(b3d, 384, 3, 1)])
    return _concat([b1, b3, b3d, _avg_pool_branch(x, 192)], f"mixed{9 + index}")


def InceptionV3(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="inception_v3",
):
    """InceptionV3, optionally with Keras's ImageNet weights.

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
    >>> hl.applications.InceptionV3(weights=None, input_shape=(64, 64, 3), include_top=False)
    Traceback (most recent call last):
    ...
    ValueError: This model needs images of at least 75x75; received input_shape=(64, 64, 3).
    """
    from highlevel import layers

    weights_lib.check_weights_arg(weights, include_top, classes)
    common.check_pooling(pooling)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, 299, 75, hl_config.image_data_format(), require_flatten=include_top, weights=weights
    )
    image = common.image_input(input_tensor, input_shape)
    x = _conv_bn(image, 32, 3, 3, strides=(2, 2), padding="valid")
    x = _conv_bn(x, 32, 3, 3, padding="valid")
    x = _conv_bn(x, 64, 3, 3)
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = _conv_bn(x, 80, 1, 1, padding="valid")
    x = _conv_bn(x, 192, 3, 3, padding="valid")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)

    for i, pool_filters in enumerate((32, 64, 64)):
        x = _module_35(x, pool_filters, f"mixed{i}")

    b3 = _conv_bn(x, 384, 3, 3, strides=(2, 2), padding="valid")
    b3d = _conv_bn(_conv_bn(x, 64, 1, 1), 96, 3, 3)
    b3d = _conv_bn(b3d, 96, 3, 3, strides=(2, 2), padding="valid")
    x = _concat([b3, b3d, layers.MaxPooling2D((3, 3), strides=(2, 2))(x)], "mixed3")

    for i, width in enumerate((128, 160, 160, 192)):
        x = _module_17(x, width, f"mixed{4 + i}")

    b3 = _conv_bn(_conv_bn(x, 192, 1, 1), 320, 3, 3, strides=(2, 2), padding="valid")
    b7 = _conv_bn(_conv_bn(_conv_bn(x, 192, 1, 1), 192, 1, 7), 192, 7, 1)
    b7 = _conv_bn(b7, 192, 3, 3, strides=(2, 2), padding="valid")
    x = _concat([b3, b7, layers.MaxPooling2D((3, 3), strides=(2, 2))(x)], "mixed8")

    for i in range(2):
        x = _module_8(x, i)

    x = common.head(x, include_top, pooling, classes, classifier_activation, weights, named_pooling=False)
    model = common.finish(image, input_tensor, x, name)
    return weights_lib.load(model, weights, imagenet_file(include_top))


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


preprocess_input.__doc__ = imagenet_utils.PREPROCESS_DOC.format(family="InceptionV3", what="to [-1, 1]")

decode_predictions = imagenet_utils.decode_predictions
