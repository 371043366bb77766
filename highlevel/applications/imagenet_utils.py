"""What every ImageNet application shares: input scaling, decoding of predictions, and argument checks.

``preprocess_input`` scales a batch of images (values 0..255) as the weights of a family were trained:

- ``"caffe"``: RGB to BGR, then each channel less its ImageNet mean, no scaling (ResNet, VGG);
- ``"tf"``: to [-1, 1] (MobileNet, Xception, ResNetV2);
- ``"torch"``: to [0, 1], then each channel less its mean, over its standard deviation (DenseNet).

A numpy array is changed in place where its dtype allows (an integer one is first converted to floatx), as Keras
does; a tensor gives a new tensor.

>>> import numpy as np
>>> from highlevel.applications import imagenet_utils
>>> imagenet_utils.preprocess_input(np.full((1, 1, 1, 3), 255.0), mode="tf").ravel().tolist()
[1.0, 1.0, 1.0]
"""

import json
import warnings

import numpy as np

from highlevel import config as hl_config
from highlevel import ops

#: Keras's class index file: where it is published, its md5 hash, and its folder in the cache.
CLASS_INDEX_URL = "https://storage.googleapis.com/download.tensorflow.org/data/imagenet_class_index.json"
CLASS_INDEX_HASH = "c2c37ea517e94d9795004a39431a14cb"
CLASS_INDEX = None

_MEANS = {"caffe": (103.939, 116.779, 123.68), "torch": (0.485, 0.456, 0.406)}
_STDS = {"torch": (0.229, 0.224, 0.225)}


def _check_args(data_format, mode):
    if mode not in ("caffe", "tf", "torch"):
        raise ValueError(f"preprocess_input: mode must be 'caffe', 'tf' or 'torch'; received mode={mode!r}.")
    if data_format is None:
        return hl_config.image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(
            "preprocess_input: data_format must be 'channels_last', 'channels_first' or None (the global setting); "
            f"received data_format={data_format!r}."
        )
    return data_format


def _channel_axis(ndim, data_format):
    if ndim not in (3, 4) and data_format == "channels_first":
        raise ValueError(f"preprocess_input expects a 3D image or a 4D batch of images; received {ndim} dimensions.")
    if data_format == "channels_last":
        return ndim - 1
    return 0 if ndim == 3 else 1


def preprocess_input(x, data_format=None, mode="caffe"):
    """Scales a batch of images (values 0..255) as an ImageNet model's weights expect.

    Args:
        x: a float numpy array or a tensor, 3D (one image) or 4D (a batch), with 3 color channels. A float numpy
            array is overwritten (pass ``np.copy(x)`` to keep it); an integer one is converted to floatx first.
        data_format: ``"channels_last"``, ``"channels_first"``, or None for ``hl.config.image_data_format()``.
        mode: ``"caffe"``, ``"tf"`` or ``"torch"`` (see the module's description).

    Returns:
        The scaled array or tensor.

    Raises:
        ValueError: an unknown ``mode`` or ``data_format``.

    >>> import numpy as np
    >>> out = preprocess_input(np.zeros((2, 3), "float32")[None], mode="caffe")
    >>> [round(float(v), 3) for v in out[0, 0]]
    [-103.939, -116.779, -123.68]
    """
    data_format = _check_args(data_format, mode)
    if isinstance(x, np.ndarray):
        return _numpy(x, data_format, mode)
    return _tensor(x, data_format, mode)


def unchanged_input(x, data_format=None):
    """Returns ``x`` unchanged: the ``preprocess_input`` of the families that scale their input inside the model
    (EfficientNet, EfficientNetV2, ConvNeXt, MobileNetV3), kept so every family has one.

    Args:
        x: images, pixels in [0, 255].
        data_format: ignored; kept for the common signature.

    Returns:
        ``x``.

    >>> unchanged_input(255.0)
    255.0
    """
    return x


def _numpy(x, data_format, mode):
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(hl_config.floatx(), copy=False)
    if mode == "tf":
        x /= 127.5
        x -= 1.0
        return x
    axis = _channel_axis(x.ndim, data_format)
    if mode == "torch":
        x /= 255.0
    else:
        flip = [slice(None)] * x.ndim
        flip[axis] = slice(None, None, -1)
        x = x[tuple(flip)]
    shape = [1] * x.ndim
    shape[axis] = 3
    x -= np.reshape(np.asarray(_MEANS[mode], x.dtype), shape)
    if mode in _STDS:
        x /= np.reshape(np.asarray(_STDS[mode], x.dtype), shape)
    return x


def _tensor(x, data_format, mode):
    if mode == "tf":
        return x / 127.5 - 1.0
    ndim = len(x.shape)
    axis = _channel_axis(ndim, data_format)
    dtype = ops.dtype(x) if hasattr(ops, "dtype") else x.dtype
    if mode == "torch":
        x = x / 255.0
    else:
        x = ops.flip(x, axis=axis)
    shape = [1] * ndim
    shape[axis] = 3
    x = x - ops.reshape(ops.convert_to_tensor(np.asarray(_MEANS[mode]), dtype=dtype), shape)
    if mode in _STDS:
        x = x / ops.reshape(ops.convert_to_tensor(np.asarray(_STDS[mode]), dtype=dtype), shape)
    return x


def _class_index():
    global CLASS_INDEX
    if CLASS_INDEX is None:
        from highlevel.utils import get_file

        path = get_file("imagenet_class_index.json", CLASS_INDEX_URL, cache_subdir="models", file_hash=CLASS_INDEX_HASH)
        with open(path, encoding="utf8") as f:
            CLASS_INDEX = json.load(f)
    return CLASS_INDEX


def decode_predictions(preds, top=5):
    """The ``top`` ImageNet classes of each prediction, as ``(class id, description, score)``, best first.

    The class names come from Keras's ``imagenet_class_index.json``, fetched once through
    :func:`highlevel.utils.get_file` into the ``models`` folder of the cache (offline, the error says where to put
    it).

    Args:
        preds: a batch of predictions, an array or tensor of shape ``(samples, 1000)``.
        top: how many classes to return per sample.

    Returns:
        One list of ``(class id, description, score)`` tuples per sample.

    Raises:
        ValueError: ``preds`` is not of shape ``(samples, 1000)``.
        highlevel.utils.DownloadError: the class index is not cached and cannot be downloaded.

    >>> import numpy as np
    >>> decode_predictions(np.zeros((1, 10)))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: decode_predictions expects a batch of ImageNet predictions, ...; received shape (1, 10).
    """
    shape = tuple(preds.shape)
    if len(shape) != 2 or shape[1] != 1000:
        raise ValueError(
            "decode_predictions expects a batch of ImageNet predictions, an array of shape (samples, 1000); "
            f"received shape {shape}."
        )
    index = _class_index()
    preds = np.asarray(ops.convert_to_numpy(preds))
    results = []
    for pred in preds:
        best = np.argsort(pred)[-top:][::-1]
        row = [tuple(index[str(i)]) + (pred[i],) for i in best]
        row.sort(key=lambda item: item[2], reverse=True)
        results.append(row)
    return results


def obtain_input_shape(input_shape, default_size, min_size, data_format, require_flatten, weights=None):
    """The input shape an application model is built with, after checking the one given.

    Args:
        input_shape: the shape asked for (without the batch axis), or None for the family's default.
        default_size: the family's default image height and width.
        min_size: the smallest height and width the architecture accepts.
        data_format: ``"channels_last"`` or ``"channels_first"``.
        require_flatten: the model ends in its classifier (``include_top=True``), which needs a fixed shape.
        weights: ``None``, ``"imagenet"`` or a file path; ImageNet weights need 3 channels (and, with the top,
            the default size).

    Returns:
        A shape tuple of 3 entries; height and width may be None.

    Raises:
        ValueError: the shape is not 3 entries, is smaller than ``min_size``, has other than 3 channels for
            ImageNet weights, or is not the default size with ImageNet weights and the top.

    >>> obtain_input_shape(None, 224, 32, "channels_last", require_flatten=False)
    (None, None, 3)
    >>> obtain_input_shape((64, 64, 3), 224, 32, "channels_last", require_flatten=True)
    (64, 64, 3)
    """
    channels_first = data_format == "channels_first"
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        channels = input_shape[0] if channels_first else input_shape[-1]
        if channels not in (1, 3):
            warnings.warn(
                f"This model is usually given 1 or 3 input channels; input_shape={tuple(input_shape)} has {channels}.",
                stacklevel=3,
            )
        default = (channels, default_size, default_size) if channels_first else (default_size, default_size, channels)
    else:
        default = (3, default_size, default_size) if channels_first else (default_size, default_size, 3)
    if weights == "imagenet" and require_flatten:
        if input_shape is not None and tuple(input_shape) != default:
            raise ValueError(
                f"With include_top=True and weights='imagenet' the input shape must be {default}; received "
                f"input_shape={tuple(input_shape)}. Pass include_top=False to use another size."
            )
        return default
    if input_shape:
        input_shape = tuple(input_shape)
        if len(input_shape) != 3:
            raise ValueError(
                f"input_shape must be 3 integers (height, width, channels or, channels first, channels, height, "
                f"width); received input_shape={input_shape}."
            )
        channels = input_shape[0] if channels_first else input_shape[-1]
        spatial = input_shape[1:] if channels_first else input_shape[:2]
        if channels != 3 and weights == "imagenet":
            raise ValueError(f"ImageNet weights need 3 input channels; received input_shape={input_shape}.")
        if any(s is not None and s < min_size for s in spatial):
            raise ValueError(
                f"This model needs images of at least {min_size}x{min_size}; received input_shape={input_shape}."
            )
    elif require_flatten:
        input_shape = default
    else:
        input_shape = (3, None, None) if channels_first else (None, None, 3)
    if require_flatten and None in input_shape:
        raise ValueError(
            f"With include_top=True the input shape must be fully known; received input_shape={input_shape}. "
            "Give every dimension, or pass include_top=False."
        )
    return input_shape


def correct_pad(inputs, kernel_size):
    """The zero padding before a strided ``kernel_size`` convolution that keeps 'same' output sizes.

    Args:
        inputs: a 4D symbolic tensor.
        kernel_size: an int or a pair of ints.

    Returns:
        ``((top, bottom), (left, right))``.

    >>> import highlevel as hl
    >>> correct_pad(hl.Input((32, 32, 3)), 3)
    ((0, 1), (0, 1))
    """
    first = 2 if hl_config.image_data_format() == "channels_first" else 1
    size = tuple(inputs.shape[first : first + 2])
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    adjust = (1, 1) if size[0] is None else (1 - size[0] % 2, 1 - size[1] % 2)
    half = (kernel_size[0] // 2, kernel_size[1] // 2)
    return ((half[0] - adjust[0], half[0]), (half[1] - adjust[1], half[1]))


def validate_activation(classifier_activation, weights):
    """Refuses a classifier activation other than softmax or none with pretrained weights.

    Args:
        classifier_activation: the activation of the model's last layer (a name, a callable or None).
        weights: ``None`` (random weights, any activation is fine), ``"imagenet"`` or a file path.

    Raises:
        ValueError: pretrained weights with an activation other than ``"softmax"`` or None.

    >>> validate_activation("relu", None)
    >>> validate_activation("relu", "imagenet")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: With pretrained weights, classifier_activation must be 'softmax' or None ...
    """
    if weights is None:
        return
    from highlevel import activations

    fn = activations.get(classifier_activation)
    if fn not in (activations.get("softmax"), activations.get(None)):
        raise ValueError(
            "With pretrained weights, classifier_activation must be 'softmax' or None (logits); received "
            f"classifier_activation={classifier_activation!r}."
        )


# The docstring every family's ``preprocess_input`` shares, with its mode filled in.
PREPROCESS_DOC = """Scales a batch of images (values 0..255) as the {family} weights expect: {what}.

    Args:
        x: a float numpy array (overwritten in place; pass ``np.copy(x)`` to keep it) or a tensor, 3D or 4D, with
            3 color channels.
        data_format: ``"channels_last"``, ``"channels_first"``, or None for the global setting.

    Returns:
        The scaled array or tensor.
"""
