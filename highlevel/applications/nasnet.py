"""NASNet-A (Zoph et al., 2018), with Keras's layer names and weight files.

A network of cells found by architecture search: a strided stem convolution, two reduction cells, then three
stacks of ``num_blocks`` normal cells separated by two more reduction cells. Each cell combines its input with
the previous cell's output (the "previous path", resized by an adjust block when the shapes differ) through
separable convolutions, poolings and sums, and concatenates the results. NASNetMobile (4 @ 1056, 224x224 by
default) and NASNetLarge (6 @ 4032, 331x331) are the two published configurations; any input of at least 32x32
works without the top. Images go through :func:`preprocess_input` first (``"tf"`` scaling, to [-1, 1]). Only
the channels-last data format is supported, as in Keras.

>>> import highlevel as hl
>>> model = hl.applications.NASNetMobile(weights=None, include_top=False, input_shape=(32, 32, 3), pooling="avg")
>>> model.output_shape
(None, 1056)
"""

from highlevel import config as hl_config

from . import common, imagenet_utils
from . import weights as weights_lib

BASE_WEIGHTS_URL = "https://storage.googleapis.com/tensorflow/keras-applications/nasnet/"

#: default size -> {include_top: (cached file name, published file name, md5)}.
WEIGHTS = {
    224: {
        True: ("nasnet_mobile.h5", "NASNet-mobile.h5", "020fb642bf7360b370c678b08e0adf61"),
        False: ("nasnet_mobile_no_top.h5", "NASNet-mobile-no-top.h5", "1ed92395b5b598bdda52abe5c0dbfd63"),
    },
    331: {
        True: ("nasnet_large.h5", "NASNet-large.h5", "11577c9a518f0070763c2b964a382f17"),
        False: ("nasnet_large_no_top.h5", "NASNet-large-no-top.h5", "d81d89dc07e6e56530c4e77faddd61b5"),
    },
}

_MOMENTUM = 0.9997
_EPSILON = 1e-3


def imagenet_file(default_size, include_top):
    """Where Keras's ImageNet weights for a NASNet are published, and under which name they are cached.

    Args:
        default_size: 224 (NASNetMobile) or 331 (NASNetLarge).
        include_top: the weights of the model with its classifier (True) or without.

    Returns:
        ``(file name, url, md5)``, or None for a size without published weights.

    >>> imagenet_file(224, include_top=False)[0]
    'nasnet_mobile_no_top.h5'
    """
    entry = WEIGHTS.get(default_size, {}).get(bool(include_top))
    if entry is None:
        return None
    cached, published, md5 = entry
    return cached, BASE_WEIGHTS_URL + published, md5


def _bn(name):
    from highlevel import layers

    return layers.BatchNormalization(axis=-1, momentum=_MOMENTUM, epsilon=_EPSILON, name=name)


def _conv1x1(filters, name, strides=(1, 1)):
    from highlevel import layers

    return layers.Conv2D(
        filters,
        (1, 1),
        strides=strides,
        padding="same",
        use_bias=False,
        kernel_initializer="he_normal",
        name=name,
    )


def _relu(name=None):
    from highlevel import layers

    return layers.Activation("relu", name=name)


def _avg_pool(strides, padding, name):
    from highlevel import layers

    return layers.AveragePooling2D((3, 3), strides=strides, padding=padding, name=name)


def _sep_block(x, filters, kernel_size=(3, 3), strides=(1, 1), block_id=""):
    """Twice ReLU, separable convolution and batch norm; the first convolution may be strided (then it pads
    the input itself, as a 'same' convolution of an odd size would)."""
    from highlevel import layers

    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    x = _relu()(x)
    padding = "same"
    if tuple(strides) == (2, 2):
        pad = imagenet_utils.correct_pad(x, kernel_size)
        x = layers.ZeroPadding2D(padding=pad, name=f"separable_conv_1_pad_{block_id}")(x)
        padding = "valid"
    for i in (1, 2):
        if i == 2:
            x = _relu()(x)
        x = layers.SeparableConv2D(
            filters,
            kernel_size,
            strides=strides if i == 1 else (1, 1),
            padding=padding if i == 1 else "same",
            use_bias=False,
            name=f"separable_conv_{i}_{block_id}",
        )(x)
        x = _bn(f"separable_conv_{i}_bn_{block_id}")(x)
    return x


def _adjust(p, ip, filters, block_id):
    """The previous path ``p`` brought to the shape of the cell's input ``ip``: ``ip`` itself when there is no
    previous path; halved in size (two offset strided 1x1 convolutions, concatenated) when its size differs;
    projected by a 1x1 convolution when only its channels differ."""
    from highlevel import layers

    if p is None:
        return ip
    if p.shape[-2] != ip.shape[-2]:
        p = _relu(f"adjust_relu_1_{block_id}")(p)
        p1 = layers.AveragePooling2D((1, 1), strides=(2, 2), padding="valid", name=f"adjust_avg_pool_1_{block_id}")(p)
        p1 = _conv1x1(filters // 2, f"adjust_conv_1_{block_id}")(p1)
        # The second half samples the odd pixels: shift the map by one (pad at the end, crop at the start).
        p2 = layers.ZeroPadding2D(padding=((0, 1), (0, 1)))(p)
        p2 = layers.Cropping2D(cropping=((1, 0), (1, 0)))(p2)
        p2 = layers.AveragePooling2D((1, 1), strides=(2, 2), padding="valid", name=f"adjust_avg_pool_2_{block_id}")(p2)
        p2 = _conv1x1(filters // 2, f"adjust_conv_2_{block_id}")(p2)
        p = layers.concatenate([p1, p2], axis=-1)
        return _bn(f"adjust_bn_{block_id}")(p)
    if p.shape[-1] != filters:
        p = _relu()(p)
        p = _conv1x1(filters, f"adjust_conv_projection_{block_id}")(p)
        return _bn(f"adjust_bn_{block_id}")(p)
    return p


def _squeeze(ip, filters, kind, block_id):
    """The cell's input through ReLU, a 1x1 convolution to ``filters`` channels and batch norm."""
    h = _relu()(ip)
    h = _conv1x1(filters, f"{kind}_conv_1_{block_id}")(h)
    return _bn(f"{kind}_bn_1_{block_id}")(h)


def normal_cell(ip, p, filters, block_id):
    """A NASNet-A normal cell: keeps the size, outputs ``6 * filters`` channels.

    Args:
        ip: the cell's input (the previous cell's output).
        p: the output of the cell before that, or None.
        filters: the channels of each of the cell's six branches.
        block_id: the suffix of the cell's layer names.

    Returns:
        ``(output, ip)``: the cell's output and the previous path of the next cell.

    >>> import highlevel as hl
    >>> x, p = normal_cell(hl.Input((8, 8, 4)), None, 4, "demo")
    >>> x.shape
    (None, 8, 8, 24)
    """
    from highlevel import layers

    p = _adjust(p, ip, filters, block_id)
    h = _squeeze(ip, filters, "normal", block_id)
    tag = f"_{block_id}"
    x1 = layers.add(
        [
            _sep_block(h, filters, (5, 5), block_id=f"normal_left1{tag}"),
            _sep_block(p, filters, block_id=f"normal_right1{tag}"),
        ],
        name=f"normal_add_1{tag}",
    )
    x2 = layers.add(
        [
            _sep_block(p, filters, (5, 5), block_id=f"normal_left2{tag}"),
            _sep_block(p, filters, (3, 3), block_id=f"normal_right2{tag}"),
        ],
        name=f"normal_add_2{tag}",
    )
    x3 = layers.add([_avg_pool((1, 1), "same", f"normal_left3{tag}")(h), p], name=f"normal_add_3{tag}")
    x4 = layers.add(
        [_avg_pool((1, 1), "same", f"normal_left4{tag}")(p), _avg_pool((1, 1), "same", f"normal_right4{tag}")(p)],
        name=f"normal_add_4{tag}",
    )
    x5 = layers.add([_sep_block(h, filters, block_id=f"normal_left5{tag}"), h], name=f"normal_add_5{tag}")
    x = layers.concatenate([p, x1, x2, x3, x4, x5], axis=-1, name=f"normal_concat{tag}")
    return x, ip


def reduction_cell(ip, p, filters, block_id):
    """A NASNet-A reduction cell: halves the size, outputs ``4 * filters`` channels.

    Args:
        ip: the cell's input (the previous cell's output).
        p: the output of the cell before that, or None.
        filters: the channels of each of the cell's four branches.
        block_id: the suffix of the cell's layer names.

    Returns:
        ``(output, ip)``: the cell's output and the previous path of the next cell.

    >>> import highlevel as hl
    >>> x, p = reduction_cell(hl.Input((8, 8, 16)), None, 4, "demo")
    >>> x.shape
    (None, 4, 4, 16)
    """
    from highlevel import layers

    p = _adjust(p, ip, filters, block_id)
    h = _squeeze(ip, filters, "reduction", block_id)
    h3 = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(h, 3), name=f"reduction_pad_1_{block_id}")(h)
    tag = f"_{block_id}"
    x1 = layers.add(
        [
            _sep_block(h, filters, (5, 5), (2, 2), block_id=f"reduction_left1{tag}"),
            _sep_block(p, filters, (7, 7), (2, 2), block_id=f"reduction_right1{tag}"),
        ],
        name=f"reduction_add_1{tag}",
    )
    x2 = layers.add(
        [
            layers.MaxPooling2D((3, 3), strides=(2, 2), padding="valid", name=f"reduction_left2{tag}")(h3),
            _sep_block(p, filters, (7, 7), (2, 2), block_id=f"reduction_right2{tag}"),
        ],
        name=f"reduction_add_2{tag}",
    )
    x3 = layers.add(
        [
            _avg_pool((2, 2), "valid", f"reduction_left3{tag}")(h3),
            _sep_block(p, filters, (5, 5), (2, 2), block_id=f"reduction_right3{tag}"),
        ],
        name=f"reduction_add3{tag}",
    )
    x4 = layers.add([x2, _avg_pool((1, 1), "same", f"reduction_left4{tag}")(x1)])
    x5 = layers.add(
        [
            _sep_block(x1, filters, (3, 3), block_id=f"reduction_left4{tag}"),
            layers.MaxPooling2D((3, 3), strides=(2, 2), padding="valid", name=f"reduction_right5{tag}")(h3),
        ],
        name=f"reduction_add4{tag}",
    )
    x = layers.concatenate([x2, x3, x4, x5], axis=-1, name=f"reduction_concat{tag}")
    return x, ip


def NASNet(
    input_shape=None,
    penultimate_filters=4032,
    num_blocks=6,
    stem_block_filters=96,
    skip_reduction=True,
    filter_multiplier=2,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    pooling=None,
    classes=1000,
    default_size=None,
    classifier_activation="softmax",
    name="NASNet",
):
    """A NASNet-A network of any size ("N @ P": ``num_blocks`` normal cells per stack, ``penultimate_filters``).

    Args:
        input_shape: the image shape without the batch axis, channels last; with the top and ImageNet weights
            it must be ``(default_size, default_size, 3)``; at least 32x32.
        penultimate_filters: the channels of the last normal cells' output; a multiple of
            ``24 * filter_multiplier ** 2``.
        num_blocks: the normal cells in each of the three stacks.
        stem_block_filters: the channels of the stem convolution.
        skip_reduction: whether the cells after each of the last two reduction cells take their previous path
            from before the reduction (True) or from the reduction cell's own input (False).
        filter_multiplier: the factor the cells' width grows by at each reduction.
        include_top: end in global average pooling and the ``classes``-way ``predictions`` layer.
        weights: None (random), ``"imagenet"`` (Keras's published weights for ``default_size`` 224 or 331, fetched
            once into ``~/.keras/models``) or the path of a weights file.
        input_tensor: a symbolic tensor to use as the image input.
        pooling: without the top: None (the last feature map), ``"avg"`` or ``"max"``.
        classes: the number of classes with the top (1000 for ImageNet weights).
        default_size: the image size with the top and ImageNet weights (None: 331); 224 picks the Mobile
            weights, 331 the Large ones.
        classifier_activation: the activation of ``predictions`` (``"softmax"`` or None with pretrained weights).
        name: the model's name.

    Returns:
        A functional model.

    Raises:
        ValueError: the channels-first data format; ``weights``, ``classes``, ``pooling`` or ``input_shape``
            not valid (see :func:`highlevel.applications.imagenet_utils.obtain_input_shape`); a shape with
            None entries with ImageNet weights; ``penultimate_filters`` not a multiple of
            ``24 * filter_multiplier ** 2``; ImageNet weights for a ``default_size`` other than 224 or 331.

    >>> import highlevel as hl
    >>> from highlevel.applications import nasnet
    >>> model = nasnet.NASNet((32, 32, 3), 96, 1, 8, weights=None, include_top=False, default_size=224)
    >>> model.output_shape
    (None, 1, 1, 96)
    """
    from highlevel import layers

    if hl_config.image_data_format() == "channels_first":
        raise ValueError(
            "NASNet supports only the channels_last image data format; the global setting is channels_first. "
            "Call hl.config.set_image_data_format('channels_last') before building it."
        )
    weights_lib.check_weights_arg(weights, include_top, classes)
    common.check_pooling(pooling)
    if include_top:
        imagenet_utils.validate_activation(classifier_activation, weights)
    if weights == "imagenet" and input_shape is not None and None in tuple(input_shape):
        raise ValueError(
            "With weights='imagenet' NASNet needs a fully known input shape; received "
            f"input_shape={tuple(input_shape)}. Give every dimension, or use weights=None."
        )
    if default_size is None:
        default_size = 331
    if weights == "imagenet" and imagenet_file(default_size, include_top) is None:
        raise ValueError(
            f"ImageNet weights exist only for NASNetMobile (default_size=224) and NASNetLarge (331); received "
            f"default_size={default_size}. Use weights=None, or one of those sizes."
        )
    unit = 24 * filter_multiplier**2
    if penultimate_filters % unit != 0:
        raise ValueError(
            f"penultimate_filters must be a multiple of 24 * filter_multiplier ** 2 = {unit}; received "
            f"penultimate_filters={penultimate_filters} (filter_multiplier={filter_multiplier})."
        )
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size, 32, "channels_last", require_flatten=include_top, weights=weights
    )
    image = common.image_input(input_tensor, input_shape)
    filters = penultimate_filters // 24
    x = layers.Conv2D(
        stem_block_filters,
        (3, 3),
        strides=(2, 2),
        padding="valid",
        use_bias=False,
        kernel_initializer="he_normal",
        name="stem_conv1",
    )(image)
    x = _bn("stem_bn1")(x)
    x, p = reduction_cell(x, None, filters // filter_multiplier**2, "stem_1")
    x, p = reduction_cell(x, p, filters // filter_multiplier, "stem_2")
    for i in range(num_blocks):
        x, p = normal_cell(x, p, filters, f"{i}")
    for stack in (1, 2):
        width = filters * filter_multiplier**stack
        x, p_reduced = reduction_cell(x, p, width, f"reduce_{stack * num_blocks}")
        if not skip_reduction:
            p = p_reduced
        for i in range(num_blocks):
            x, p = normal_cell(x, p, width, f"{stack * num_blocks + i + 1}")
    x = _relu()(x)
    if include_top:
        x = layers.GlobalAveragePooling2D()(x)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D()(x)
    model = common.finish(image, input_tensor, x, name)
    return weights_lib.load(model, weights, imagenet_file(default_size, include_top))


def NASNetMobile(
    input_shape=None,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="nasnet_mobile",
):
    """NASNet-A Mobile (4 @ 1056): 224x224 by default, 1056 features.

    Args:
        input_shape: the image shape without the batch axis, channels last; with the top and ImageNet weights it
            must be ``(224, 224, 3)``; at least 32x32. Without the top it defaults to ``(224, 224, 3)``.
        include_top: end in global average pooling and the ``classes``-way ``predictions`` layer.
        weights: None (random), ``"imagenet"`` (Keras's published weights, fetched once into
            ``~/.keras/models``) or the path of a weights file.
        input_tensor: a symbolic tensor to use as the image input.
        pooling: without the top: None (the last feature map), ``"avg"`` or ``"max"``.
        classes: the number of classes with the top (1000 for ImageNet weights).
        classifier_activation: the activation of ``predictions`` (``"softmax"`` or None with pretrained weights).
        name: the model's name.

    Returns:
        A functional model.

    >>> import highlevel as hl
    >>> model = hl.applications.NASNetMobile(weights=None, input_shape=(32, 32, 3), classes=5)
    >>> model.output_shape
    (None, 5)
    """
    if not include_top and input_shape is None:
        input_shape = (224, 224, 3)
    return NASNet(
        input_shape,
        penultimate_filters=1056,
        num_blocks=4,
        stem_block_filters=32,
        skip_reduction=False,
        filter_multiplier=2,
        include_top=include_top,
        weights=weights,
        input_tensor=input_tensor,
        pooling=pooling,
        classes=classes,
        default_size=224,
        classifier_activation=classifier_activation,
        name=name,
    )


def NASNetLarge(
    input_shape=None,
    include_top=True,
    weights="imagenet",
    input_tensor=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    name="nasnet_large",
):
    """NASNet-A Large (6 @ 4032): 331x331 by default, 4032 features.

    Args:
        input_shape: the image shape without the batch axis, channels last; with the top and ImageNet weights it
            must be ``(331, 331, 3)``; at least 32x32.
        include_top: end in global average pooling and the ``classes``-way ``predictions`` layer.
        weights: None (random), ``"imagenet"`` (Keras's published weights, fetched once into
            ``~/.keras/models``) or the path of a weights file.
        input_tensor: a symbolic tensor to use as the image input.
        pooling: without the top: None (the last feature map), ``"avg"`` or ``"max"``.
        classes: the number of classes with the top (1000 for ImageNet weights).
        classifier_activation: the activation of ``predictions`` (``"softmax"`` or None with pretrained weights).
        name: the model's name.

    Returns:
        A functional model.

    >>> import highlevel as hl
    >>> model = hl.applications.NASNetLarge(weights=None, include_top=False, input_shape=(32, 32, 3))
    >>> model.output_shape
    (None, 1, 1, 4032)
    """
    return NASNet(
        input_shape,
        penultimate_filters=4032,
        num_blocks=6,
        stem_block_filters=96,
        skip_reduction=True,
        filter_multiplier=2,
        include_top=include_top,
        weights=weights,
        input_tensor=input_tensor,
        pooling=pooling,
        classes=classes,
        default_size=331,
        classifier_activation=classifier_activation,
        name=name,
    )


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


preprocess_input.__doc__ = imagenet_utils.PREPROCESS_DOC.format(family="NASNet", what="to [-1, 1]") + (
    """
    >>> import numpy as np
    >>> preprocess_input(np.array([[[0.0, 127.5, 255.0]]], "float32"))
    array([[[-1.,  0.,  1.]]], dtype=float32)
"""
)

decode_predictions = imagenet_utils.decode_predictions
