"""VGG19 (Simonyan and Zisserman, 2014): VGG16 with a fourth convolution in each of the last three blocks.

>>> import highlevel as hl
>>> model = hl.applications.VGG19(weights=None, include_top=False, input_shape=(32, 32, 3), pooling="avg")
>>> model.output_shape
(None, 512)
"""

from .vgg16 import decode_predictions, preprocess_input, vgg

__all__ = ["VGG19", "decode_predictions", "preprocess_input"]


def VGG19(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="vgg19",
):
    """VGG19: 16 convolutions in five blocks, then three dense layers with the top (arguments as
    :func:`highlevel.applications.VGG16`)."""
    args = (include_top, weights, input_tensor, input_shape, pooling, classes, classifier_activation, name)
    return vgg("vgg19", (2, 2, 4, 4, 4), *args)
