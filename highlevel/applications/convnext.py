"""ConvNeXt Tiny, Small, Base, Large and XLarge (Liu et al., 2022, "A ConvNet for the 2020s").

Layer names and weight order follow Keras, so Keras's published weight files load. With
``include_preprocessing=True`` (the default) the models take pixels in [0, 255]. Channels-last only.

>>> import highlevel as hl
>>> model = hl.applications.ConvNeXtTiny(weights=None, input_shape=(32, 32, 3), classes=3)
>>> model.output_shape
(None, 3)
"""

import numpy as np

import highlevel as hl
from highlevel import layers, ops

from . import common, imagenet_utils
from . import weights as weights_lib

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/convnext/"
# variant -> (sha256 of the file with the classifier, sha256 of the file without it)
WEIGHTS_HASHES = {
    "convnext_tiny": (
        "8ae6e78ce2933352b1ef4008e6dd2f17bc40771563877d156bc6426c7cf503ff",
        "d547c096cabd03329d7be5562c5e14798aa39ed24b474157cef5e85ab9e49ef1",
    ),
    "convnext_small": (
        "ce1277d8f1ee5a0ef0e171469089c18f5233860ceaf9b168049cb9263fd7483c",
        "6fc8009faa2f00c1c1dfce59feea9b0745eb260a7dd11bee65c8e20843da6eab",
    ),
    "convnext_base": (
        "52cbb006d3dadd03f6e095a8ca1aca47aecdd75acb4bc74bce1f5c695d0086e6",
        "40a20c5548a5e9202f69735ecc06c990e6b7c9d2de39f0361e27baeb24cb7c45",
    ),
    "convnext_large": (
        "070c5ed9ed289581e477741d3b34beffa920db8cf590899d6d2c67fba2a198a6",
        "96f02b6f0753d4f543261bc9d09bed650f24dd6bc02ddde3066135b63d23a1cd",
    ),
    "convnext_xlarge": (
        "c1f5ccab661354fc3a79a10fa99af82f0fbf10ec65cb894a3ae0815f17a889ee",
        "de3f8a54174130e0cecdc71583354753d557fcf1f4487331558e2a16ba0cfe05",
    ),
}

#: Blocks per stage and channels per stage of each variant.
MODEL_CONFIGS = {
    "tiny": {"depths": [3, 3, 9, 3], "projection_dims": [96, 192, 384, 768], "default_size": 224},
    "small": {"depths": [3, 3, 27, 3], "projection_dims": [96, 192, 384, 768], "default_size": 224},
    "base": {"depths": [3, 3, 27, 3], "projection_dims": [128, 256, 512, 1024], "default_size": 224},
    "large": {"depths": [3, 3, 27, 3], "projection_dims": [192, 384, 768, 1536], "default_size": 224},
    "xlarge": {"depths": [3, 3, 27, 3], "projection_dims": [256, 512, 1024, 2048], "default_size": 224},
}


@hl.saving.register_keras_serializable(package="highlevel.applications")
class StochasticDepth(hl.Layer):
    """Drops a whole residual branch per sample while training (the kept ones are scaled by 1/keep).

    Args:
        drop_path_rate: the probability of dropping a sample's branch, in [0, 1).

    >>> import numpy as np
    >>> layer = StochasticDepth(0.5)
    >>> float(np.asarray(layer(np.ones((2, 3), "float32"))).sum())  # inference: unchanged
    6.0
    """

    def __init__(self, drop_path_rate, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= drop_path_rate < 1:
            raise ValueError(f"drop_path_rate must be in [0, 1); received drop_path_rate={drop_path_rate}.")
        self.drop_path_rate = drop_path_rate
        self.seed_generator = hl.random.SeedGenerator()

    def call(self, x, training=None):
        if not training or not self.drop_path_rate:
            return x
        keep = 1.0 - self.drop_path_rate
        shape = (ops.shape(x)[0],) + (1,) * (len(x.shape) - 1)
        mask = ops.floor(keep + hl.random.uniform(shape, 0.0, 1.0, seed=self.seed_generator))
        return x / keep * mask

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "drop_path_rate": self.drop_path_rate}


@hl.saving.register_keras_serializable(package="highlevel.applications")
class LayerScale(hl.Layer):
    """Multiplies the last axis by a learned per-channel scale that starts at ``init_values``.

    Args:
        init_values: the scale's initial value (small, e.g. 1e-6).
        projection_dim: the size of the last axis.

    >>> import numpy as np
    >>> np.asarray(LayerScale(0.5, 2)(np.ones((1, 2), "float32"))).tolist()
    [[0.5, 0.5]]
    """

    def __init__(self, init_values, projection_dim, **kwargs):
        super().__init__(**kwargs)
        self.init_values = init_values
        self.projection_dim = projection_dim

    def build(self, input_shape):
        self.gamma = self.add_weight(
            shape=(self.projection_dim,),
            initializer=hl.initializers.Constant(self.init_values),
            trainable=True,
        )

    def call(self, x):
        return x * self.gamma

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "init_values": self.init_values, "projection_dim": self.projection_dim}


def ConvNeXtBlock(projection_dim, drop_path_rate=0.0, layer_scale_init_value=1e-6, name=None):
    """One ConvNeXt block: depthwise 7x7, LayerNorm, an inverted MLP, layer scale, residual; returns a function."""
    name = name if name is not None else f"prestem{hl.backend.get_uid('prestem')}"

    def apply(inputs):
        x = layers.Conv2D(
            filters=projection_dim,
            kernel_size=7,
            padding="same",
            groups=projection_dim,
            name=f"{name}_depthwise_conv",
        )(inputs)
        x = layers.LayerNormalization(epsilon=1e-6, name=f"{name}_layernorm")(x)
        x = layers.Dense(4 * projection_dim, name=f"{name}_pointwise_conv_1")(x)
        x = layers.Activation("gelu", name=f"{name}_gelu")(x)
        x = layers.Dense(projection_dim, name=f"{name}_pointwise_conv_2")(x)
        if layer_scale_init_value is not None:
            x = LayerScale(layer_scale_init_value, projection_dim, name=f"{name}_layer_scale")(x)
        if drop_path_rate:
            last = StochasticDepth(drop_path_rate, name=f"{name}_stochastic_depth")
        else:
            last = layers.Activation("linear", name=f"{name}_identity")
        return inputs + last(x)

    return apply


def PreStem(name=None):
    """Normalizes [0, 255] images with the ImageNet mean and standard deviation; returns a function."""
    name = name if name is not None else f"prestem{hl.backend.get_uid('prestem')}"

    def apply(x):
        return layers.Normalization(
            mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
            variance=[(0.229 * 255) ** 2, (0.224 * 255) ** 2, (0.225 * 255) ** 2],
            name=f"{name}_prestem_normalization",
        )(x)

    return apply


def Head(num_classes=1000, classifier_activation=None, name=None):
    """Global average pooling, LayerNorm and the classifier; returns a function."""
    name = name if name is not None else str(hl.backend.get_uid("head"))

    def apply(x):
        x = layers.GlobalAveragePooling2D(name=f"{name}_head_gap")(x)
        x = layers.LayerNormalization(epsilon=1e-6, name=f"{name}_head_layernorm")(x)
        return layers.Dense(num_classes, activation=classifier_activation, name=f"{name}_head_dense")(x)

    return apply


def ConvNeXt(
    depths,
    projection_dims,
    drop_path_rate=0.0,
    layer_scale_init_value=1e-6,
    default_size=224,
    name="convnext",
    include_preprocessing=True,
    include_top=True,
    weights=None,
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    weights_name=None,
):
    """Builds a ConvNeXt from its depths and channel counts.

    Args:
        depths: blocks in each of the four stages.
        projection_dims: channels of each stage.
        drop_path_rate: the largest stochastic-depth rate (it grows linearly over the blocks).
        layer_scale_init_value: the initial layer scale, or ``None`` for none.
        default_size: the image size of the published weights.
        name: the model's name (also the prefix of the layer names and of the weight file's name).
        include_preprocessing, include_top, weights, input_tensor, input_shape, pooling, classes,
            classifier_activation: see :func:`ConvNeXtTiny`.
        weights_name: the key of :data:`WEIGHTS_HASHES` for ``weights="imagenet"``.

    Returns:
        A ``Model``.

    >>> ConvNeXt([1, 1, 1, 1], [8, 8, 8, 8], input_shape=(32, 32, 3), classes=2).output_shape
    (None, 2)
    """
    if hl.config.image_data_format() == "channels_first":
        raise ValueError(
            "ConvNeXt supports only the channels_last image data format; call "
            "hl.config.set_image_data_format('channels_last') before building it."
        )
    weights_lib.check_weights_arg(weights, include_top, classes)
    if weights == "imagenet":
        expected = MODEL_CONFIGS[weights_name.split("convnext_")[-1]]
        if list(depths) != expected["depths"] or list(projection_dims) != expected["projection_dims"]:
            raise ValueError(
                f"ImageNet weights of {weights_name} need depths={expected['depths']} and "
                f"projection_dims={expected['projection_dims']}; received depths={depths}, "
                f"projection_dims={projection_dims}."
            )
        if weights_name not in name:
            raise ValueError(
                f"With ImageNet weights the model's name must contain {weights_name!r} (its layers are named "
                f"after it); received name={name!r}."
            )
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape,
        default_size=default_size,
        min_size=32,
        data_format=hl.config.image_data_format(),
        require_flatten=include_top,
        weights=weights,
    )
    img_input = common.image_input(input_tensor, input_shape)
    if input_tensor is not None:
        inputs = hl.utils.get_source_inputs(input_tensor)[0]
        x = input_tensor
    else:
        inputs = x = img_input
    if include_preprocessing and input_shape[-1] == 3:
        x = PreStem(name=name)(x)

    stages = [
        hl.Sequential(
            [
                layers.Conv2D(projection_dims[0], kernel_size=4, strides=4, name=f"{name}_stem_conv"),
                layers.LayerNormalization(epsilon=1e-6, name=f"{name}_stem_layernorm"),
            ],
            name=f"{name}_stem",
        )
    ]
    for i in range(3):
        stages.append(
            hl.Sequential(
                [
                    layers.LayerNormalization(epsilon=1e-6, name=f"{name}_downsampling_layernorm_{i}"),
                    layers.Conv2D(
                        projection_dims[i + 1], kernel_size=2, strides=2, name=f"{name}_downsampling_conv_{i}"
                    ),
                ],
                name=f"{name}_downsampling_block_{i}",
            )
        )
    rates = [float(r) for r in np.linspace(0.0, drop_path_rate, sum(depths))]
    start = 0
    for i in range(4):
        x = stages[i](x)
        for j in range(depths[i]):
            x = ConvNeXtBlock(
                projection_dim=projection_dims[i],
                drop_path_rate=rates[start + j],
                layer_scale_init_value=layer_scale_init_value,
                name=f"{name}_stage_{i}_block_{j}",
            )(x)
        start += depths[i]
    if include_top:
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = Head(num_classes=classes, classifier_activation=classifier_activation, name=name)(x)
    else:
        if pooling == "avg":
            x = layers.GlobalAveragePooling2D()(x)
        elif pooling == "max":
            x = layers.GlobalMaxPooling2D()(x)
        x = layers.LayerNormalization(epsilon=1e-6)(x)
    model = hl.Model(inputs=inputs, outputs=x, name=name)

    if weights == "imagenet":
        suffix, file_hash = (
            (".h5", WEIGHTS_HASHES[weights_name][0]) if include_top else ("_notop.h5", WEIGHTS_HASHES[weights_name][1])
        )
        file_name = name + suffix
        weights_lib.load(model, weights, (file_name, BASE_WEIGHTS_PATH + file_name, file_hash))
    else:
        weights_lib.load(model, weights)
    return model


_DOC = """ConvNeXt-{v} (224x224 by default).

    Args:
        include_top: include the classifier at the top.
        include_preprocessing: normalize the [0, 255] input inside the model.
        weights: ``None`` (random), ``"imagenet"`` or the path of a weights file.
        input_tensor: a symbolic tensor to use as the image input.
        input_shape: the image shape without the batch (at least 32x32, 3 channels).
        pooling: ``None``, ``"avg"`` or ``"max"``: the pooling of the features when ``include_top=False``.
        classes: number of classes (only with ``include_top=True`` and no ImageNet weights).
        classifier_activation: activation of the top layer (``None`` returns logits).
        name: the model's name, also the prefix of its layer names.

    Returns:
        A ``Model``.

    >>> import highlevel as hl
    >>> hl.applications.ConvNeXt{v}(weights=None, include_top=False, input_shape=(32, 32, 3)).output_shape[-1]
    {top}
"""


def _variant(v):
    key = v.lower()
    config = MODEL_CONFIGS[key]
    default_name = f"convnext_{key}"

    def build(
        include_top=True,
        include_preprocessing=True,
        weights="imagenet",
        input_tensor=None,
        input_shape=None,
        pooling=None,
        classes=1000,
        classifier_activation="softmax",
        name=default_name,
    ):
        return ConvNeXt(
            weights_name=default_name,
            depths=config["depths"],
            projection_dims=config["projection_dims"],
            drop_path_rate=0.0,
            layer_scale_init_value=1e-6,
            default_size=config["default_size"],
            name=name,
            include_top=include_top,
            include_preprocessing=include_preprocessing,
            weights=weights,
            input_tensor=input_tensor,
            input_shape=input_shape,
            pooling=pooling,
            classes=classes,
            classifier_activation=classifier_activation,
        )

    build.__name__ = build.__qualname__ = f"ConvNeXt{v}"
    build.__doc__ = _DOC.format(v=v, top=config["projection_dims"][-1])
    return build


ConvNeXtTiny = _variant("Tiny")
ConvNeXtSmall = _variant("Small")
ConvNeXtBase = _variant("Base")
ConvNeXtLarge = _variant("Large")
ConvNeXtXLarge = _variant("XLarge")


preprocess_input = imagenet_utils.unchanged_input
decode_predictions = imagenet_utils.decode_predictions
