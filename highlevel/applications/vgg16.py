"""VGG16 (Simonyan and Zisserman, 2014), with Keras's layer names and weight files.

:func:`vgg` builds both VGG16 and VGG19 (:mod:`highlevel.applications.vgg19`): five blocks of 3x3 convolutions,
each ending in a 2x2 max pool, then two 4096-wide dense layers. Images go through :func:`preprocess_input` first
(``"caffe"`` scaling).

>>> import highlevel as hl
>>> model = hl.applications.VGG16(weights=None, include_top=False, input_shape=(32, 32, 3))
>>> model.output_shape
(None, 1, 1, 512)
"""

from highlevel import config as hl_config

from . import common, imagenet_utils
from . import weights as weights_lib

BASE_WEIGHTS_URL = "https://storage.googleapis.com/tensorflow/keras-applications/"

#: md5 of Keras's published files: (with the top, without it).
WEIGHTS_HASHES = {
    "vgg16": ("64373286793e3c8b2b4e3219cbf3544b", "6d6bbae143d832006294945121d1f1fc"),
    "vgg19": ("cbe5617147190e668d6c5d5026f83318", "253f8cb515780f3b799900260a226db6"),
}


def imagenet_file(family, include_top):
    """``(file name, url, md5)`` of Keras's ImageNet weights for ``"vgg16"`` or ``"vgg19"``."""
    file_name = f"{family}_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return file_name, f"{BASE_WEIGHTS_URL}{family}/{file_name}", WEIGHTS_HASHES[family][0 if include_top else 1]


def vgg(family, convs_per_block, include_top, weights, input_tensor, input_shape, pooling, classes, activation, name):
    """A VGG with ``convs_per_block[i]`` convolutions in block ``i + 1`` (see :func:`VGG16` for the arguments)."""
    from highlevel import layers

    weights_lib.check_weights_arg(weights, include_top, classes)
    common.check_pooling(pooling)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, 224, 32, hl_config.image_data_format(), require_flatten=include_top, weights=weights
    )
    image = common.image_input(input_tensor, input_shape)
    x = image
    for block, (filters, convs) in enumerate(zip((64, 128, 256, 512, 512), convs_per_block), start=1):
        for i in range(1, convs + 1):
            x = layers.Conv2D(filters, (3, 3), activation="relu", padding="same", name=f"block{block}_conv{i}")(x)
        x = layers.MaxPooling2D((2, 2), strides=(2, 2), name=f"block{block}_pool")(x)
    if include_top:
        x = layers.Flatten(name="flatten")(x)
        x = layers.Dense(4096, activation="relu", name="fc1")(x)
        x = layers.Dense(4096, activation="relu", name="fc2")(x)
        imagenet_utils.validate_activation(activation, weights)
        x = layers.Dense(classes, activation=activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D()(x)
    model = common.finish(image, input_tensor, x, name)
    return weights_lib.load(model, weights, imagenet_file(family, include_top))


def VGG16(
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="vgg16",
):
    """VGG16: 13 convolutions in five blocks, then three dense layers with the top.

    Args:
        include_top: end in ``flatten``, ``fc1``, ``fc2`` and the ``classes``-way ``predictions`` layer.
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
    args = (include_top, weights, input_tensor, input_shape, pooling, classes, classifier_activation, name)
    return vgg("vgg16", (2, 2, 3, 3, 3), *args)


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


preprocess_input.__doc__ = imagenet_utils.PREPROCESS_DOC.format(
    family="VGG", what="RGB to BGR, then each channel less its ImageNet mean, without scaling"
)

decode_predictions = imagenet_utils.decode_predictions
