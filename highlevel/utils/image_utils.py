"""Images as files, PIL images and arrays: ``load_img``, ``save_img``, ``img_to_array``, ``array_to_img``,
``smart_resize``.

Files are read and written with Pillow, an optional dependency (``pip install pillow``, or the ``image`` extra:
``pip install -e ".[image]"`` in a checkout); without it these functions raise an ImportError that says so.
``smart_resize`` needs no Pillow.

>>> import numpy as np
>>> image = array_to_img(np.zeros((2, 3, 3)), scale=False)
>>> image.size, image.mode
((3, 2), 'RGB')
>>> img_to_array(image).shape
(2, 3, 3)
"""

import io
import os
import pathlib
import warnings

import numpy as np

from highlevel.config import standardize_data_format

#: Pillow's resampling filters by the names ``load_img`` accepts.
PIL_INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")


def pil_image_module(what):
    """Returns ``PIL.Image``, or raises an ImportError that tells how to install Pillow."""
    try:
        from PIL import Image
    except ImportError:
        from highlevel._extras import install_command

        raise ImportError(
            f"{what} needs Pillow to read and write image files, and it is not installed. Install it with "
            f"`pip install pillow` (or {install_command('image')})."
        ) from None
    return Image


def _float_dtype(dtype):
    from highlevel.config import floatx

    return floatx() if dtype is None else dtype


def array_to_img(x, data_format=None, scale=True, dtype=None):
    """Turns a 3D array into a PIL image.

    Args:
        x: an image array of rank 3 (anything ``np.asarray`` takes), with 1 (grayscale), 3 (RGB) or 4 (RGBA)
            channels.
        data_format: ``"channels_last"`` or ``"channels_first"``; the configured default when None.
        scale: rescale the values to ``[0, 255]`` first (minimum to 0, maximum to 255); with ``False`` the
            values are used as they are (and cut to 8 bits).
        dtype: the float dtype used for the conversion; the configured default when None.

    Returns:
        A ``PIL.Image.Image`` (mode ``"L"``, ``"I"`` for one channel with values above 255, ``"RGB"`` or
        ``"RGBA"``).

    Raises:
        ValueError: if ``x`` is not of rank 3 or has a channel count other than 1, 3 or 4 (or ``data_format`` is
            invalid).

    >>> import numpy as np
    >>> import highlevel as hl
    >>> image = hl.utils.array_to_img(np.zeros((4, 6, 3)))  # height 4, width 6
    >>> type(image).__name__, image.size
    ('Image', (6, 4))
    """
    image_module = pil_image_module("array_to_img")
    data_format = standardize_data_format(data_format)
    x = np.array(x, dtype=_float_dtype(dtype))
    if x.ndim != 3:
        raise ValueError(
            f"array_to_img expects one image, an array of rank 3 (height, width, channels); received an array of "
            f"shape {x.shape}. Index one image out of a batch first."
        )
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        top = np.max(x)
        if top != 0:
            x = x / top
        x = x * 255
    channels = x.shape[2]
    if channels == 4:
        return image_module.fromarray(x.astype("uint8"), "RGBA")
    if channels == 3:
        return image_module.fromarray(x.astype("uint8"), "RGB")
    if channels == 1:
        if np.max(x) > 255:
            return image_module.fromarray(x[:, :, 0].astype("int32"), "I")
        return image_module.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(
        f"array_to_img supports 1, 3 or 4 channels; received an image with {channels} channels (shape {x.shape}, "
        f"data_format={data_format!r})."
    )


def img_to_array(img, data_format=None, dtype=None):
    """Turns a PIL image (or anything ``np.asarray`` takes) into a 3D float array.

    Args:
        img: a PIL image.
        data_format: ``"channels_last"`` or ``"channels_first"``; the configured default when None.
        dtype: the dtype of the result; the configured float dtype when None.

    Returns:
        ``(height, width, channels)`` (or channels first); grayscale images get a channel axis of 1.

    Raises:
        ValueError: if the image does not give an array of rank 2 or 3.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> hl.utils.img_to_array(hl.utils.array_to_img(np.zeros((4, 6, 3)))).shape
    (4, 6, 3)
    """
    data_format = standardize_data_format(data_format)
    x = np.asarray(img, dtype=_float_dtype(dtype))
    if x.ndim == 2:
        x = x[:, :, None]
    elif x.ndim != 3:
        raise ValueError(f"img_to_array expects an image of rank 2 or 3; received shape {x.shape}.")
    if data_format == "channels_first":
        x = x.transpose(2, 0, 1)
    return x


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """Writes an image array to a file (or a file object).

    Args:
        path: a path, or a writable binary file object (then give ``file_format``).
        x: an image array of rank 3.
        data_format: ``"channels_last"`` or ``"channels_first"``; the configured default when None.
        file_format: ``"png"``, ``"jpeg"``, ...; from the file name's extension when None.
        scale: rescale the values to ``[0, 255]`` first (see :func:`array_to_img`).
        **kwargs: passed on to ``PIL.Image.Image.save`` (``quality=``, ...).

    Returns:
        None.

    Raises:
        ValueError: if ``path`` is a file object and ``file_format`` is not given.

    >>> import os, tempfile
    >>> import numpy as np
    >>> import highlevel as hl
    >>> path = os.path.join(tempfile.mkdtemp(), "white.png")
    >>> hl.utils.save_img(path, np.full((4, 6, 3), 255.0))
    >>> hl.utils.load_img(path).size
    (6, 4)
    """
    data_format = standardize_data_format(data_format)
    if file_format is None and isinstance(path, (str, pathlib.Path)):
        file_format = pathlib.Path(path).suffix[1:].lower() or None
    if file_format is None and not isinstance(path, (str, pathlib.Path)):
        raise ValueError("save_img to a file object needs `file_format` (e.g. file_format='png').")
    if file_format and file_format.lower() == "jpg":
        file_format = "jpeg"
    image = array_to_img(x, data_format=data_format, scale=scale)
    if image.mode == "RGBA" and file_format == "jpeg":
        warnings.warn("JPEG has no alpha channel: the RGBA image is saved as RGB.", stacklevel=2)
        image = image.convert("RGB")
    if not isinstance(path, (str, pathlib.Path)):
        image.save(path, format=file_format, **kwargs)
        return
    # Written next to the target, then renamed over it: a crash mid-write never leaves a truncated image.
    target = pathlib.Path(path)
    partial = target.with_name(f".{target.name}.partial")
    try:
        with open(partial, "wb") as f:
            image.save(f, format=file_format or target.suffix[1:], **kwargs)
        os.replace(partial, target)
    finally:
        if partial.exists():
            partial.unlink()


def load_img(path, color_mode="rgb", target_size=None, interpolation="nearest", keep_aspect_ratio=False):
    """Reads an image file into a PIL image.

    Args:
        path: a path (str, bytes or ``pathlib.Path``) or an ``io.BytesIO``.
        color_mode: ``"rgb"``, ``"rgba"`` or ``"grayscale"`` (8-bit and 16/32-bit grayscale files keep their
            mode).
        target_size: ``(height, width)`` to resize to, or None to keep the file's size.
        interpolation: Pillow's filter for the resize: one of :data:`PIL_INTERPOLATIONS`.
        keep_aspect_ratio: resize the largest centered crop with the target's aspect ratio, so that the image
            is not stretched.

    Returns:
        A ``PIL.Image.Image``.

    Raises:
        ValueError: if ``color_mode`` is not ``"grayscale"``, ``"rgb"`` or ``"rgba"`` (or ``interpolation`` is unknown).
        TypeError: if ``path`` is neither a path nor a ``BytesIO``.

    >>> import os, tempfile
    >>> import numpy as np
    >>> import highlevel as hl
    >>> path = os.path.join(tempfile.mkdtemp(), "white.png")
    >>> hl.utils.save_img(path, np.full((4, 6, 3), 255.0))
    >>> hl.utils.img_to_array(hl.utils.load_img(path, target_size=(2, 3))).shape
    (2, 3, 3)
    """
    image_module = pil_image_module("load_img")
    if color_mode not in ("rgb", "rgba", "grayscale"):
        raise ValueError(f'`color_mode` must be "grayscale", "rgb" or "rgba"; received color_mode={color_mode!r}.')
    if isinstance(path, io.BytesIO):
        image = image_module.open(path)
    elif isinstance(path, (str, bytes, pathlib.Path)):
        with open(path, "rb") as f:
            image = image_module.open(io.BytesIO(f.read()))
    else:
        raise TypeError(f"load_img takes a path (str, bytes, pathlib.Path) or an io.BytesIO; received {type(path)}.")
    if color_mode == "grayscale":
        if image.mode not in ("L", "I;16", "I"):
            image = image.convert("L")
    elif color_mode == "rgba":
        if image.mode != "RGBA":
            image = image.convert("RGBA")
    elif image.mode != "RGB":
        image = image.convert("RGB")
    if target_size is None:
        return image
    target_height, target_width = (int(v) for v in target_size)
    if image.size == (target_width, target_height):
        return image
    if interpolation not in PIL_INTERPOLATIONS:
        raise ValueError(
            f"`interpolation` must be one of {PIL_INTERPOLATIONS} (Pillow's filters); received "
            f"interpolation={interpolation!r}."
        )
    resampling = getattr(image_module, "Resampling", image_module)
    method = getattr(resampling, interpolation.upper())
    box = None
    if keep_aspect_ratio:
        width, height = image.size
        crop_height = min(height, (width * target_height) // target_width)
        crop_width = min(width, (height * target_width) // target_height)
        top, left = (height - crop_height) // 2, (width - crop_width) // 2
        box = [left, top, left + crop_width, top + crop_height]
    return image.resize((target_width, target_height), method, box=box)


def smart_resize(x, size, interpolation="bilinear", data_format="channels_last", **kwargs):
    """Resizes images without distorting them: crops the largest centered window with the target's aspect
    ratio, then resizes it to ``size``.

    Args:
        x: one image ``(height, width, channels)`` or a batch of them (channels first with
            ``data_format="channels_first"``): numpy or an engine tensor.
        size: ``(height, width)`` of the result.
        interpolation: the resize method; for numpy input any of ``image_dataset_from_directory``'s
            (``"bilinear"``, ``"nearest"``, ``"bicubic"``, ``"area"``, ``"lanczos3"``, ``"lanczos5"``,
            ``"gaussian"``, ``"mitchellcubic"``), for tensors those of ``hl.ops.image.resize``.
        data_format: ``"channels_last"`` or ``"channels_first"``.
        **kwargs: ``backend_module`` is accepted for Keras's signature and ignored.

    Returns:
        The resized images: float32 numpy for numpy input, a tensor of the current engine for a tensor.

    >>> import numpy as np
    >>> smart_resize(np.ones((4, 8, 1)), (2, 2)).shape
    (2, 2, 1)
    """
    from .image_resize import resize_image

    kwargs.pop("backend_module", None)
    if kwargs:
        raise TypeError(f"smart_resize got unexpected keyword arguments: {sorted(kwargs)}.")
    if len(size) != 2:
        raise ValueError(f"`size` must be (height, width), two ints; received size={size!r}.")
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(
            f'`data_format` must be "channels_last" or "channels_first"; received data_format={data_format!r}.'
        )
    is_numpy = not _is_engine_tensor(x)
    shape = np.shape(x) if is_numpy else tuple(x.shape)
    if len(shape) not in (3, 4):
        raise ValueError(
            "smart_resize expects one image (height, width, channels) or a batch (batch, height, width, channels); "
            f"received shape {shape}."
        )
    height, width = (shape[-3], shape[-2]) if data_format == "channels_last" else (shape[-2], shape[-1])
    target_height, target_width = int(size[0]), int(size[1])
    crop_height = max(min(height, int(float(width * target_height) / target_width)), 1)
    crop_width = max(min(width, int(float(height * target_width) / target_height)), 1)
    top, left = int(float(height - crop_height) / 2), int(float(width - crop_width) / 2)
    rows, cols = slice(top, top + crop_height), slice(left, left + crop_width)
    if data_format == "channels_last":
        index = (Ellipsis, rows, cols, slice(None))
    else:
        index = (Ellipsis, rows, cols)
    if is_numpy:
        cropped = np.asarray(x, dtype="float32")[index]
        if data_format == "channels_first":
            cropped = np.moveaxis(cropped, -3, -1)
        images = cropped if cropped.ndim == 4 else cropped[None]
        out = np.stack([resize_image(image, (target_height, target_width), interpolation) for image in images])
        out = out if cropped.ndim == 4 else out[0]
        return np.moveaxis(out, -1, -3) if data_format == "channels_first" else out
    from highlevel import ops

    return ops.image.resize(
        x[index], (target_height, target_width), interpolation=interpolation, data_format=data_format
    )


def _is_engine_tensor(x):
    from highlevel import ops

    return not isinstance(x, np.ndarray) and ops.is_tensor(x)
