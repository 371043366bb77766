"""The parts every application model is built with: its input, its head, and the model around them.

>>> import highlevel as hl
>>> from highlevel.applications import common
>>> image = common.image_input(None, (32, 32, 3))
>>> x = hl.layers.Conv2D(4, 3, name="conv")(image)
>>> model = common.finish(image, None, common.head(x, include_top=False, pooling="avg"), "tiny")
>>> model.output_shape
(None, 4)
"""

from highlevel import config as hl_config


def channel_axis():
    """The channel axis of a 4D image batch under the global data format: 3 (channels last) or 1."""
    return 1 if hl_config.image_data_format() == "channels_first" else 3


def image_input(input_tensor, input_shape):
    """The model's image input: ``input_tensor`` if it is a symbolic tensor, an ``Input`` wrapping it if it is
    a concrete one, else a new ``Input`` of ``input_shape``."""
    from highlevel import backend
    from highlevel.models import Input

    if input_tensor is None:
        return Input(shape=input_shape)
    if backend.is_keras_tensor(input_tensor):
        return input_tensor
    return Input(tensor=input_tensor, shape=input_shape)


def check_pooling(pooling):
    """Refuses a ``pooling`` other than None, ``"avg"`` or ``"max"``."""
    if pooling not in (None, "avg", "max"):
        raise ValueError(f"pooling must be None, 'avg' or 'max'; received pooling={pooling!r}.")


def head(
    x, include_top, pooling, classes=None, classifier_activation=None, weights=None, pool_name=None, named_pooling=True
):
    """Global average pooling and the ``predictions`` Dense layer with the top; else the pooling asked for
    (``avg_pool`` or ``max_pool``; with ``named_pooling=False`` the automatic names, as the families whose Keras
    pooling layer has no name), or none."""
    from highlevel import layers

    from . import imagenet_utils

    check_pooling(pooling)
    if include_top:
        x = layers.GlobalAveragePooling2D(name=pool_name or "avg_pool")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        return layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    if pooling == "avg":
        return layers.GlobalAveragePooling2D(name=(pool_name or "avg_pool") if named_pooling else None)(x)
    if pooling == "max":
        return layers.GlobalMaxPooling2D(name="max_pool" if named_pooling else None)(x)
    return x


def finish(image, input_tensor, outputs, name):
    """The functional model from the model's input (the source inputs of ``input_tensor`` when one was given)
    to ``outputs``."""
    from highlevel.models import Functional
    from highlevel.utils import get_source_inputs

    inputs = get_source_inputs(input_tensor) if input_tensor is not None else image
    return Functional(inputs, outputs, name=name)
