"""DenseNet121, DenseNet169 and DenseNet201 (Huang et al., 2017), with Keras's layer names and weight files.

Each dense block concatenates the output of every convolution block to its input; transition blocks halve the
channels and the image size between them. Images go through :func:`preprocess_input` first (``"torch"``
scaling).

>>> import highlevel as hl
>>> model = hl.applications.DenseNet121(weights=None, include_top=False, input_shape=(32, 32, 3), pooling="avg")
>>> model.output_shape
(None, 1024)
"""

from highlevel import config as hl_config

from . import common, imagenet_utils
from . import weights as weights_lib

BASE_WEIGHTS_URL = "https://storage.googleapis.com/tensorflow/keras-applications/densenet/"

#: blocks per stage -> (file stem, md5 with the top, md5 without it).
WEIGHTS = {
    (6, 12, 24, 16): ("densenet121", "9d60b8095a5708f2dcce2bca79d332c7", "30ee3e1110167f948a6b9946edeeb738"),
    (6, 12, 32, 32): ("densenet169", "d699b8f76981ab1b30698df4c175e90b", "b8c4d4c20dd625c148057b9ff1c1176b"),
    (6, 12, 48, 32): ("densenet201", "1ceb130c1ea1b78c3bf6114dbdfd8807", "c13680b51ded0fb44dff2d8f86ac8bb1"),
}

_EPSILON = 1.001e-5


def _bn(name):
    from highlevel import layers

    return layers.BatchNormalization(axis=common.channel_axis(), epsilon=_EPSILON, name=name)


def imagenet_file(blocks, include_top):
    """``(file name, url, md5)`` of Keras's ImageNet weights for the DenseNet of ``blocks``, or None."""
    if tuple(blocks) not in WEIGHTS:
        return None
    stem, with_top, without = WEIGHTS[tuple(blocks)]
    file_name = f"{stem}_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return file_name, BASE_WEIGHTS_URL + file_name, with_top if include_top else without


def conv_block(x, growth_rate, name):
    """Batch norm, relu, 1x1 convolution to 4 * ``growth_rate``, batch norm, relu, 3x3 convolution to
    ``growth_rate``, concatenated to ``x``."""
    from highlevel import layers

    y = _bn(f"{name}_0_bn")(x)
    y = layers.Activation("relu", name=f"{name}_0_relu")(y)
    y = layers.Conv2D(4 * growth_rate, 1, use_bias=False, name=f"{name}_1_conv")(y)
    y = _bn(f"{name}_1_bn")(y)
    y = layers.Activation("relu", name=f"{name}_1_relu")(y)
    y = layers.Conv2D(growth_rate, 3, padding="same", use_bias=False, name=f"{name}_2_conv")(y)
    return layers.Concatenate(axis=common.channel_axis(), name=f"{name}_concat")([x, y])


def dense_block(x, blocks, name):
    """``blocks`` convolution blocks of growth rate 32."""
    for i in range(blocks):
        x = conv_block(x, 32, name=f"{name}_block{i + 1}")
    return x


def transition_block(x, reduction, name):
    """Batch norm, relu, 1x1 convolution to ``reduction`` of the channels, 2x2 average pooling."""
    from highlevel import layers

    x = _bn(f"{name}_bn")(x)
    x = layers.Activation("relu", name=f"{name}_relu")(x)
    x = layers.Conv2D(int(x.shape[common.channel_axis()] * reduction), 1, use_bias=False, name=f"{name}_conv")(x)
    return layers.AveragePooling2D(2, strides=2, name=f"{name}_pool")(x)


def DenseNet(
    blocks,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="densenet",
):
    """A DenseNet with ``blocks[i]`` convolution blocks in dense block ``i`` (arguments as :func:`DenseNet121`)."""
    from highlevel import layers

    weights_lib.check_weights_arg(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, 224, 32, hl_config.image_data_format(), require_flatten=include_top, weights=weights
    )
    image = common.image_input(input_tensor, input_shape)
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)))(image)
    x = layers.Conv2D(64, 7, strides=2, use_bias=False, name="conv1_conv")(x)
    x = _bn("conv1_bn")(x)
    x = layers.Activation("relu", name="conv1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1")(x)
    for stage, count in enumerate(blocks, start=2):
        x = dense_block(x, count, name=f"conv{stage}")
        if stage < 5:
            x = transition_block(x, 0.5, name=f"pool{stage}")
    x = _bn("bn")(x)
    x = layers.Activation("relu", name="relu")(x)
    x = common.head(x, include_top, pooling, classes, classifier_activation, weights)
    model = common.finish(image, input_tensor, x, name)
    return weights_lib.load(model, weights, imagenet_file(blocks, include_top))


def DenseNet121(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="densenet121",
):
    """DenseNet121: dense blocks of 6, 12, 24 and 16 convolution blocks.

    Args:
        include_top: end in global average pooling and the ``classes``-way ``predictions`` layer.
        weights: None (random), ``"imagenet"`` (Keras's published weights, fetched once into
            ``~/.keras/models``) or the path of a weights file.
        input_tensor: a symbolic tensor to use as the image input.
        input_shape: the image shape without the batch axis; with the top and ImageNet weights it must be
            ``(224, 224, 3)``; at least 32x32.
        pooling: without the top: None (the last feature map), ``"avg"`` or ``"max"``.
        classes: the number of classes with the top (1000 for ImageNet weights).
        classifier_activation: the activation of ``predictions`` (``"softmax"`` or None with pretrained weights).
        name: the model's name.

    Returns:
        A functional model.
    """
    return DenseNet(
        (6, 12, 24, 16), include_top, weights, input_tensor, input_shape, pooling, classes, classifier_activation, name
    )


def DenseNet169(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="densenet169",
):
    """DenseNet169: dense blocks of 6, 12, 32 and 32 (arguments as :func:`DenseNet121`)."""
    return DenseNet(
        (6, 12, 32, 32), include_top, weights, input_tensor, input_shape, pooling, classes, classifier_activation, name
    )


def DenseNet201(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="densenet201",
):
    """DenseNet201: dense blocks of 6, 12, 48 and 32 (arguments as :func:`DenseNet121`)."""
    return DenseNet(
        (6, 12, 48, 32), include_top, weights, input_tensor, input_shape, pooling, classes, classifier_activation, name
    )


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="torch")


preprocess_input.__doc__ = imagenet_utils.PREPROCESS_DOC.format(
    family="DenseNet", what="to [0, 1], then each channel less its ImageNet mean, over its standard deviation"
)

decode_predictions = imagenet_utils.decode_predictions
