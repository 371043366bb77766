"""ResNet50, ResNet101 and ResNet152 (He et al., 2015), with Keras's layer names and weight files.

``ResNet`` builds both generations: the original residual blocks (batch norm after each convolution) and, with
``preact=True``, the pre-activation blocks of ResNetV2 (:mod:`highlevel.applications.resnet_v2`). Images go
through :func:`preprocess_input` first (``"caffe"`` scaling: BGR, less the ImageNet means).

>>> import highlevel as hl
>>> model = hl.applications.ResNet50(weights=None, include_top=False, input_shape=(32, 32, 3), pooling="avg")
>>> model.output_shape
(None, 2048)
"""

from highlevel import config as hl_config

from . import common, imagenet_utils
from . import weights as weights_lib

BASE_WEIGHTS_URL = "https://storage.googleapis.com/tensorflow/keras-applications/resnet/"

#: md5 of Keras's published files: (with the top, without it).
WEIGHTS_HASHES = {
    "resnet50": ("2cb95161c43110f7111970584f804107", "4d473c1dd8becc155b73f8504c6f6626"),
    "resnet101": ("f1aeb4b969a6efcfb50fad2f0c20cfc5", "88cf7a10940856eca736dc7b7e228a21"),
    "resnet152": ("100835be76be38e30d865e96f2aaae62", "ee4c566cf9a93f14d82f913c2dc6dd0c"),
    "resnet50v2": ("3ef43a0b657b3be2300d5770ece849e0", "fac2f116257151a9d068a22e544a4917"),
    "resnet101v2": ("6343647c601c52e1368623803854d971", "c0ed64b8031c3730f411d2eb4eea35b5"),
    "resnet152v2": ("a49b44d1979771252814e80f8ec446f9", "ed17cf2e0169df9d443503ef94b23b33"),
}

_EPSILON = 1.001e-5


def _bn(name):
    from highlevel import layers

    return layers.BatchNormalization(axis=common.channel_axis(), epsilon=_EPSILON, name=name)


def imagenet_file(weights_name, include_top):
    """``(file name, url, md5)`` of Keras's ImageNet weights for a ResNet, with or without its top."""
    suffix = "" if include_top else "_notop"
    file_name = f"{weights_name}_weights_tf_dim_ordering_tf_kernels{suffix}.h5"
    return file_name, BASE_WEIGHTS_URL + file_name, WEIGHTS_HASHES[weights_name][0 if include_top else 1]


def ResNet(
    stack_fn,
    preact,
    use_bias,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet",
    weights_name=None,
):
    """A ResNet whose residual stages ``stack_fn`` adds (see :func:`ResNet50` for the arguments).

    Args:
        stack_fn: ``x -> x``, the residual stages between the stem and the head.
        preact: pre-activation blocks (ResNetV2): no batch norm in the stem, one after the last stage.
        use_bias: whether the stem's convolution has a bias.
        weights_name: the key of :data:`WEIGHTS_HASHES` for ``weights="imagenet"``.
    """
    from highlevel import layers

    weights_lib.check_weights_arg(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, 224, 32, hl_config.image_data_format(), require_flatten=include_top, weights=weights
    )
    image = common.image_input(input_tensor, input_shape)
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)), name="conv1_pad")(image)
    x = layers.Conv2D(64, 7, strides=2, use_bias=use_bias, name="conv1_conv")(x)
    if not preact:
        x = _bn("conv1_bn")(x)
        x = layers.Activation("relu", name="conv1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name="pool1_pad")(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1_pool")(x)
    x = stack_fn(x)
    if preact:
        x = _bn("post_bn")(x)
        x = layers.Activation("relu", name="post_relu")(x)
    x = common.head(x, include_top, pooling, classes, classifier_activation, weights)
    model = common.finish(image, input_tensor, x, name)
    published = imagenet_file(weights_name, include_top) if weights_name in WEIGHTS_HASHES else None
    return weights_lib.load(model, weights, published)


def residual_block_v1(x, filters, kernel_size=3, stride=1, conv_shortcut=True, name=None):
    """An original bottleneck block: 1x1, ``kernel_size``, 1x1 convolutions (4 * ``filters`` out), each with
    batch norm, added to the shortcut (a strided 1x1 convolution when ``conv_shortcut``), then relu."""
    from highlevel import layers

    if conv_shortcut:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(x)
        shortcut = _bn(f"{name}_0_bn")(shortcut)
    else:
        shortcut = x
    x = layers.Conv2D(filters, 1, strides=stride, name=f"{name}_1_conv")(x)
    x = _bn(f"{name}_1_bn")(x)
    x = layers.Activation("relu", name=f"{name}_1_relu")(x)
    x = layers.Conv2D(filters, kernel_size, padding="same", name=f"{name}_2_conv")(x)
    x = _bn(f"{name}_2_bn")(x)
    x = layers.Activation("relu", name=f"{name}_2_relu")(x)
    x = layers.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    x = _bn(f"{name}_3_bn")(x)
    x = layers.Add(name=f"{name}_add")([shortcut, x])
    return layers.Activation("relu", name=f"{name}_out")(x)


def stack_residual_blocks_v1(x, filters, blocks, stride1=2, name=None):
    """``blocks`` original blocks; the first has the convolution shortcut and the stride ``stride1``."""
    x = residual_block_v1(x, filters, stride=stride1, name=f"{name}_block1")
    for i in range(2, blocks + 1):
        x = residual_block_v1(x, filters, conv_shortcut=False, name=f"{name}_block{i}")
    return x


def residual_block_v2(x, filters, kernel_size=3, stride=1, conv_shortcut=False, name=None):
    """A pre-activation bottleneck block: batch norm and relu first, then 1x1, ``kernel_size`` (strided), 1x1
    convolutions, added to the shortcut (a 1x1 convolution, a strided 1x1 max pool, or the input)."""
    from highlevel import layers

    preact = _bn(f"{name}_preact_bn")(x)
    preact = layers.Activation("relu", name=f"{name}_preact_relu")(preact)
    if conv_shortcut:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(preact)
    else:
        shortcut = layers.MaxPooling2D(1, strides=stride)(x) if stride > 1 else x
    x = layers.Conv2D(filters, 1, strides=1, use_bias=False, name=f"{name}_1_conv")(preact)
    x = _bn(f"{name}_1_bn")(x)
    x = layers.Activation("relu", name=f"{name}_1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name=f"{name}_2_pad")(x)
    x = layers.Conv2D(filters, kernel_size, strides=stride, use_bias=False, name=f"{name}_2_conv")(x)
    x = _bn(f"{name}_2_bn")(x)
    x = layers.Activation("relu", name=f"{name}_2_relu")(x)
    x = layers.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    return layers.Add(name=f"{name}_out")([shortcut, x])


def stack_residual_blocks_v2(x, filters, blocks, stride1=2, name=None):
    """``blocks`` pre-activation blocks: the first with the convolution shortcut, the last with the stride."""
    x = residual_block_v2(x, filters, conv_shortcut=True, name=f"{name}_block1")
    for i in range(2, blocks):
        x = residual_block_v2(x, filters, name=f"{name}_block{i}")
    return residual_block_v2(x, filters, stride=stride1, name=f"{name}_block{blocks}")


def _v1(depths):
    def stack_fn(x):
        x = stack_residual_blocks_v1(x, 64, depths[0], stride1=1, name="conv2")
        x = stack_residual_blocks_v1(x, 128, depths[1], name="conv3")
        x = stack_residual_blocks_v1(x, 256, depths[2], name="conv4")
        return stack_residual_blocks_v1(x, 512, depths[3], name="conv5")

    return stack_fn


def ResNet50(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet50",
):
    """ResNet50: the original residual network, 50 layers deep.

    Args:
        include_top: end in the global average pooling and the ``classes``-way ``predictions`` layer.
        weights: None (random), ``"imagenet"`` (Keras's published weights, fetched once into
            ``~/.keras/models``) or the path of a weights file.
        input_tensor: a symbolic tensor to use as the image input.
        input_shape: the image shape without the batch axis; with the top and ImageNet weights it must be
            ``(224, 224, 3)``; at least 32x32.
        pooling: without the top: None (the last feature map), ``"avg"`` or ``"max"`` (a vector per image).
        classes: the number of classes with the top (1000 for ImageNet weights).
        classifier_activation: the activation of ``predictions`` (``"softmax"`` or None with pretrained weights).
        name: the model's name.

    Returns:
        A functional model.
    """
    return ResNet(
        _v1((3, 4, 6, 3)),
        False,
        True,
        include_top,
        weights,
        input_tensor,
        input_shape,
        pooling,
        classes,
        classifier_activation,
        name,
        "resnet50",
    )


def ResNet101(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet101",
):
    """ResNet101: the original residual network, 101 layers deep (arguments as :func:`ResNet50`)."""
    return ResNet(
        _v1((3, 4, 23, 3)),
        False,
        True,
        include_top,
        weights,
        input_tensor,
        input_shape,
        pooling,
        classes,
        classifier_activation,
        name,
        "resnet101",
    )


def ResNet152(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet152",
):
    """ResNet152: the original residual network, 152 layers deep (arguments as :func:`ResNet50`)."""
    return ResNet(
        _v1((3, 8, 36, 3)),
        False,
        True,
        include_top,
        weights,
        input_tensor,
        input_shape,
        pooling,
        classes,
        classifier_activation,
        name,
        "resnet152",
    )


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


preprocess_input.__doc__ = imagenet_utils.PREPROCESS_DOC.format(
    family="ResNet", what="RGB to BGR, then each channel less its ImageNet mean, without scaling"
)

decode_predictions = imagenet_utils.decode_predictions
