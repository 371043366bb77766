"""Helpers shared by the application models (a stand-in until the shared module lands).

>>> correct_pad_for((None, 8, 8, 3), 3)
((0, 1), (0, 1))
"""

import os
import warnings

import highlevel as hl


def _channels_first(data_format=None):
    return (data_format or hl.config.image_data_format()) == "channels_first"


def correct_pad_for(shape, kernel_size):
    """Zero padding that makes a strided 'valid' convolution act like TensorFlow's 'same'.

    Args:
        shape: the input's shape, batch first.
        kernel_size: an int or a pair.

    Returns:
        ``((top, bottom), (left, right))``.
    """
    start = 2 if _channels_first() else 1
    size = shape[start : start + 2]
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    adjust = (1, 1) if size[0] is None else (1 - size[0] % 2, 1 - size[1] % 2)
    half = (kernel_size[0] // 2, kernel_size[1] // 2)
    return ((half[0] - adjust[0], half[0]), (half[1] - adjust[1], half[1]))


def correct_pad(inputs, kernel_size):
    """:func:`correct_pad_for` on a tensor's shape."""
    return correct_pad_for(tuple(inputs.shape), kernel_size)


def validate_activation(classifier_activation, weights):
    """Refuses a classifier activation other than softmax or none with pretrained weights."""
    if weights is None:
        return
    act = hl.activations.get(classifier_activation)
    if act not in {hl.activations.get("softmax"), hl.activations.get(None)}:
        raise ValueError(
            "With pretrained weights and include_top=True, classifier_activation must be None or 'softmax'; "
            f"received classifier_activation={classifier_activation!r}."
        )


def obtain_input_shape(input_shape, default_size, min_size, data_format, require_flatten, weights=None):
    """The model's input shape (without batch), checked against the family's limits."""
    first = data_format == "channels_first"
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        channels = input_shape[0] if first else input_shape[-1]
        if channels not in {1, 3}:
            warnings.warn(f"This model usually expects 1 or 3 input channels; received {channels}.", stacklevel=2)
        default_shape = (channels, default_size, default_size) if first else (default_size, default_size, channels)
    else:
        default_shape = (3, default_size, default_size) if first else (default_size, default_size, 3)
    if weights == "imagenet" and require_flatten:
        if input_shape is not None and tuple(input_shape) != default_shape:
            raise ValueError(
                f"With include_top=True and weights='imagenet', input_shape must be {default_shape}; "
                f"received input_shape={input_shape}."
            )
        return default_shape
    if input_shape:
        if len(input_shape) != 3:
            raise ValueError(f"input_shape must be a tuple of three integers; received input_shape={input_shape}.")
        channels = input_shape[0] if first else input_shape[-1]
        spatial = input_shape[1:] if first else input_shape[:2]
        if channels != 3 and weights == "imagenet":
            raise ValueError(f"ImageNet weights need 3 input channels; received input_shape={input_shape}.")
        if any(s is not None and s < min_size for s in spatial):
            raise ValueError(f"Input size must be at least {min_size}x{min_size}; received input_shape={input_shape}.")
    elif require_flatten:
        input_shape = default_shape
    else:
        input_shape = (3, None, None) if first else (None, None, 3)
    if require_flatten and None in tuple(input_shape):
        raise ValueError(f"With include_top=True the input shape must be static; received input_shape={input_shape}.")
    return tuple(input_shape)


def check_weights_argument(weights, include_top, classes):
    """Checks ``weights`` (None, 'imagenet' or an existing file) and ``classes`` against it."""
    if not (weights in {"imagenet", None} or (isinstance(weights, (str, os.PathLike)) and os.path.exists(weights))):
        raise ValueError(
            "weights must be None (random initialization), 'imagenet' (pre-trained on ImageNet) or the path "
            f"to an existing weights file; received weights={weights!r}."
        )
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError(
            f"With weights='imagenet' and include_top=True, classes must be 1000; received classes={classes}."
        )


def image_input(input_shape, input_tensor):
    """The model's input: a new ``Input`` or the given symbolic tensor."""
    if input_tensor is None:
        return hl.Input(shape=input_shape)
    if not hl.backend.is_keras_tensor(input_tensor):
        return hl.Input(tensor=input_tensor, shape=input_shape)
    return input_tensor


def model_inputs(input_tensor, img_input):
    """The inputs a Model is built from: the source inputs of ``input_tensor`` when one was given."""
    if input_tensor is not None:
        return hl.utils.get_source_inputs(input_tensor)
    return img_input


def load_weights(model, weights, file_name=None, origin=None, file_hash=None):
    """Loads ``weights``: the published ImageNet file (fetched once into the cache) or a local path."""
    if weights == "imagenet":
        weights = hl.utils.get_file(file_name, origin, cache_subdir="models", file_hash=file_hash)
    if weights is not None:
        model.load_weights(weights)


def preprocess_input(x, data_format=None, mode="caffe"):
    """Scales images the way a family's ImageNet weights expect ('caffe', 'tf' or 'torch')."""
    first = _channels_first(data_format)
    x = hl.ops.convert_to_tensor(x) if not hasattr(x, "dtype") or not hasattr(x, "shape") else x
    import numpy as np

    x = np.asarray(x, dtype="float32") if isinstance(x, (list, np.ndarray)) else x
    if mode == "tf":
        return x / 127.5 - 1.0
    if mode == "torch":
        x = x / 255.0
        mean, std = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
    else:
        x = x[:, ::-1] if first and x.ndim == 4 else x[..., ::-1] if not first else x[::-1]
        mean, std = [103.939, 116.779, 123.68], None
    shape = (3, 1, 1) if first else (3,)
    x = x - np.reshape(np.array(mean, dtype="float32"), shape)
    if std is not None:
        x = x / np.reshape(np.array(std, dtype="float32"), shape)
    return x


def decode_predictions(preds, top=5):
    """Not yet available in this stand-in."""
    raise NotImplementedError("decode_predictions comes with the shared ImageNet helpers.")
