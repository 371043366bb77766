"""ResNet50V2, ResNet101V2 and ResNet152V2 (He et al., 2016): residual networks of pre-activation blocks.

Images go through :func:`preprocess_input` first (``"tf"`` scaling, to [-1, 1]).

>>> import highlevel as hl
>>> model = hl.applications.ResNet50V2(weights=None, include_top=False, input_shape=(32, 32, 3), pooling="max")
>>> model.output_shape
(None, 2048)
"""

from . import imagenet_utils
from .resnet import ResNet, stack_residual_blocks_v2


def _v2(depths):
    def stack_fn(x):
        x = stack_residual_blocks_v2(x, 64, depths[0], name="conv2")
        x = stack_residual_blocks_v2(x, 128, depths[1], name="conv3")
        x = stack_residual_blocks_v2(x, 256, depths[2], name="conv4")
        return stack_residual_blocks_v2(x, 512, depths[3], stride1=1, name="conv5")

    return stack_fn


def _build(depths, weights_name, include_top, weights, input_tensor, input_shape, pooling, classes, activation, name):
    return ResNet(
        _v2(depths),
        True,
        True,
        include_top,
        weights,
        input_tensor,
        input_shape,
        pooling,
        classes,
        activation,
        name,
        weights_name,
    )


def ResNet50V2(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet50v2",
):
    """ResNet50V2 (arguments as :func:`highlevel.applications.ResNet50`)."""
    args = (include_top, weights, input_tensor, input_shape, pooling, classes, classifier_activation, name)
    return _build((3, 4, 6, 3), "resnet50v2", *args)


def ResNet101V2(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet101v2",
):
    """ResNet101V2 (arguments as :func:`highlevel.applications.ResNet50`)."""
    args = (include_top, weights, input_tensor, input_shape, pooling, classes, classifier_activation, name)
    return _build((3, 4, 23, 3), "resnet101v2", *args)


def ResNet152V2(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="resnet152v2",
):
    """ResNet152V2 (arguments as :func:`highlevel.applications.ResNet50`)."""
    args = (include_top, weights, input_tensor, input_shape, pooling, classes, classifier_activation, name)
    return _build((3, 8, 36, 3), "resnet152v2", *args)


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


preprocess_input.__doc__ = imagenet_utils.PREPROCESS_DOC.format(family="ResNetV2", what="to [-1, 1]")

decode_predictions = imagenet_utils.decode_predictions
