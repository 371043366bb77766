"""``image_dataset_from_directory``: batches of images (and labels) from a directory of image files.

Images are decoded with Pillow (an optional dependency: ``pip install pillow``) and resized on the host with
the definitions of ``tf.image.resize`` (see :mod:`highlevel.utils.image_resize`), so the batches match
Keras's, value for value, for lossless formats (PNG, BMP, GIF); JPEG decoders may differ by a unit in a few
pixels. The dataset is a ``tf.data.Dataset`` when TensorFlow is installed, otherwise a ``hl.utils.PyDataset``
with the same batches (see :mod:`highlevel.utils.dataset_output`).

>>> import os, tempfile
>>> import numpy as np
>>> import highlevel as hl
>>> root = tempfile.mkdtemp()
>>> for label in ("cat", "dog"):
...     os.makedirs(os.path.join(root, label))
...     for i in range(3):
...         hl.utils.save_img(os.path.join(root, label, f"{i}.png"), np.full((5, 7, 3), 40 * i), scale=False)
>>> ds = image_dataset_from_directory(root, image_size=(4, 4), batch_size=4, shuffle=False, format="pydataset")
Found 6 files belonging to 2 classes.
>>> images, labels = ds[0]
>>> ds.class_names, images.shape, labels.tolist()
(['cat', 'dog'], (4, 4, 4, 3), [0, 0, 0, 1])
"""

import numpy as np

from . import dataset_output, directory_index
from .image_resize import INTERPOLATIONS, resize_image

#: The file extensions read (lower case), as in Keras.
ALLOWLIST_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_CHANNELS = {"grayscale": 1, "rgb": 3, "rgba": 4}


def _decode(path, num_channels):
    from .image_utils import pil_image_module

    image_module = pil_image_module("image_dataset_from_directory")
    with image_module.open(path) as image:
        image.seek(0)  # animated GIFs: the first frame
        mode = {1: "L", 3: "RGB", 4: "RGBA"}[num_channels]
        if image.mode != mode:
            if num_channels == 1 and image.mode in ("I;16", "I", "F"):
                array = np.asarray(image, dtype="float32")
                return array[:, :, None]
            image = image.convert(mode)
        array = np.asarray(image, dtype="float32")
    return array[:, :, None] if array.ndim == 2 else array


def _resize_with_pad(image, size, interpolation):
    """Scales ``image`` to fit inside ``size`` without distortion, then pads it evenly with zeros
    (``tf.image.resize_with_pad``)."""
    # float32 arithmetic, as TensorFlow computes these sizes (float64 would round some of them differently).
    f32 = np.float32
    height, width = (f32(v) for v in image.shape[:2])
    target_height, target_width = (f32(v) for v in size)
    ratio = max(width / target_width, height / target_height)
    exact_height, exact_width = height / ratio, width / ratio
    new_height, new_width = int(np.floor(exact_height)), int(np.floor(exact_width))
    # The offsets come from the unrounded sizes.
    top = max(int(np.floor((target_height - exact_height) / f32(2))), 0)
    left = max(int(np.floor((target_width - exact_width) / f32(2))), 0)
    target_height, target_width = size
    resized = resize_image(image, (new_height, new_width), interpolation)
    out = np.zeros((target_height, target_width, image.shape[2]), dtype="float32")
    out[top : top + new_height, left : left + new_width] = resized
    return out


def load_image(
    path, image_size, num_channels, interpolation, data_format, crop_to_aspect_ratio=False, pad_to_aspect_ratio=False
):
    """Reads, converts and resizes one image file as the dataset does: float32 ``image_size + (channels,)``
    (channels first with ``data_format="channels_first"``)."""
    from .image_utils import smart_resize

    image = _decode(path, num_channels)
    if crop_to_aspect_ratio:
        image = smart_resize(image, image_size, interpolation=interpolation)
    elif pad_to_aspect_ratio:
        image = _resize_with_pad(image, image_size, interpolation)
    else:
        image = resize_image(image, image_size, interpolation)
    if data_format == "channels_first":
        image = np.transpose(image, (2, 0, 1))
    return np.ascontiguousarray(image, dtype="float32")


def image_dataset_from_directory(
    directory,
    labels="inferred",
    label_mode="int",
    class_names=None,
    color_mode="rgb",
    batch_size=32,
    image_size=(256, 256),
    shuffle=True,
    seed=None,
    validation_split=None,
    subset=None,
    interpolation="bilinear",
    follow_links=False,
    crop_to_aspect_ratio=False,
    pad_to_aspect_ratio=False,
    data_format=None,
    format="tf",
    verbose=True,
):
    """Makes a dataset of images (and their labels) from the image files under ``directory``.

    With ``labels="inferred"``, ``directory`` holds one subdirectory per class (``main/cat/*.png``,
    ``main/dog/*.png``); the classes are numbered in alphanumeric order of their names (or in the order of
    ``class_names``). Files ending in ``.bmp``, ``.gif`` (first frame), ``.jpeg``, ``.jpg`` or ``.png`` are read.

    Args:
        directory: the folder to read.
        labels: ``"inferred"`` (from the subdirectories), None (images only), or a list of integer labels,
            one per image file in alphanumeric order of their paths.
        label_mode: ``"int"`` (int32 class indices, for ``sparse_categorical_crossentropy``),
            ``"categorical"`` (float32 one-hot rows), ``"binary"`` (float32 0/1 of shape ``(batch, 1)``; exactly
            two classes) or None (no labels).
        class_names: with ``labels="inferred"``, the subdirectories to use, in this order.
        color_mode: ``"rgb"``, ``"rgba"`` or ``"grayscale"``: 3, 4 or 1 channels.
        batch_size: images per batch; None for single images.
        image_size: ``(height, width)`` every image is resized to (an int for a square).
        shuffle: shuffle the files (and draw a new order every epoch); False keeps alphanumeric order.
        seed: the shuffling seed; required with ``validation_split`` and ``shuffle``.
        validation_split: the fraction of the files kept for validation (the last ones after shuffling).
        subset: ``"training"``, ``"validation"`` or ``"both"`` (returns ``(train, validation)``); only with
            ``validation_split``.
        interpolation: ``"bilinear"``, ``"nearest"``, ``"bicubic"``, ``"area"``, ``"lanczos3"``,
            ``"lanczos5"``, ``"gaussian"`` or ``"mitchellcubic"``.
        follow_links: walk into subdirectories that are symbolic links.
        crop_to_aspect_ratio: resize the largest centered crop with the target aspect ratio (no distortion).
        pad_to_aspect_ratio: resize to fit inside ``image_size`` and pad with zeros (no distortion).
        data_format: ``"channels_last"`` or ``"channels_first"``; the configured default when None.
        format: ``"tf"`` (a ``tf.data.Dataset`` when TensorFlow is installed, else a ``hl.utils.PyDataset``)
            or ``"pydataset"`` (always a ``PyDataset``).
        verbose: print how many files and classes were found.

    Returns:
        A dataset yielding float32 images ``(batch, height, width, channels)``, or ``(images, labels)``
        pairs; with ``subset="both"``, a pair of them. Its ``class_names`` and ``file_paths`` attributes list
        the classes and the files in order.

    Raises:
        ValueError: if an argument is out of its range (``color_mode``, ``interpolation``, ``label_mode``, both
            aspect-ratio options, ``validation_split`` without ``subset``...) or no image is found.

    >>> import os, tempfile
    >>> import numpy as np
    >>> import highlevel as hl
    >>> root = tempfile.mkdtemp()
    >>> for label in ("cats", "dogs"):  # one sub-folder per class
    ...     os.makedirs(os.path.join(root, label))
    ...     for i in range(2):
    ...         hl.utils.save_img(os.path.join(root, label, f"{i}.png"), np.zeros((8, 8, 3)))
    >>> images = hl.utils.image_dataset_from_directory(root, image_size=(4, 4), batch_size=4, shuffle=False)
    Found 4 files belonging to 2 classes.
    >>> images.class_names
    ['cats', 'dogs']
    >>> [(tuple(x.shape), y.numpy().tolist()) for x, y in images]
    [((4, 4, 4, 3), [0, 0, 1, 1])]
    """
    labels, label_mode = directory_index.check_label_arguments(labels, label_mode, class_names, "image")
    if color_mode not in _CHANNELS:
        raise ValueError(f'`color_mode` must be "rgb", "rgba" or "grayscale"; received color_mode={color_mode!r}.')
    num_channels = _CHANNELS[color_mode]
    if isinstance(image_size, int) and not isinstance(image_size, bool):
        image_size = (image_size, image_size)
    if (
        not isinstance(image_size, (list, tuple))
        or len(image_size) != 2
        or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v > 0 for v in image_size)
    ):
        raise ValueError(
            f"`image_size` must be (height, width), two positive ints (or one int for a square); received "
            f"image_size={image_size!r}."
        )
    image_size = (int(image_size[0]), int(image_size[1]))
    interpolation = str(interpolation).lower()
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"`interpolation` must be one of {INTERPOLATIONS}; received interpolation={interpolation!r}.")
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("Only one of `crop_to_aspect_ratio` and `pad_to_aspect_ratio` can be True.")
    dataset_output.check_format(format)
    directory_index.check_validation_split(validation_split, subset, shuffle, seed)
    from highlevel.config import image_data_format

    data_format = image_data_format() if data_format is None else data_format
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(
            f'`data_format` must be "channels_last" or "channels_first"; received data_format={data_format!r}.'
        )
    if seed is None:
        seed = np.random.randint(1_000_000)
    paths, all_labels, class_names = directory_index.index_directory(
        directory,
        labels,
        ALLOWLIST_FORMATS,
        class_names=class_names,
        shuffle=shuffle,
        seed=seed,
        follow_links=follow_links,
        verbose=verbose,
    )
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(
            f'label_mode="binary" needs exactly 2 classes; found {len(class_names)}: {class_names}. Use '
            '"categorical" or "int" for more classes.'
        )
    num_classes = len(class_names) if class_names else 0
    shape = (image_size + (num_channels,)) if data_format == "channels_last" else ((num_channels,) + image_size)
    image_spec = dataset_output.SampleSpec(shape, "float32")

    def build(subset_name, shuffle_subset):
        files, subset_labels = directory_index.split(paths, all_labels, validation_split, subset_name, verbose)
        if not files:
            where = f"{subset_name} " if subset_name else ""
            raise ValueError(
                f"No {where}images found in directory {directory!r}. Allowed formats: {ALLOWLIST_FORMATS}."
            )

        def load(i):
            image = load_image(
                files[i],
                image_size,
                num_channels,
                interpolation,
                data_format,
                crop_to_aspect_ratio,
                pad_to_aspect_ratio,
            )
            if label_mode is None:
                return image
            return image, directory_index.encode_label(subset_labels[i], label_mode, num_classes)

        spec = image_spec if label_mode is None else (image_spec, directory_index.label_spec(label_mode, num_classes))
        host = dataset_output.HostDataset(
            len(files), load, spec, batch_size=batch_size, shuffle=shuffle_subset, seed=seed
        )
        host.class_names = class_names
        host.file_paths = list(files)
        return dataset_output.finish(host, format)

    if subset == "both":
        return build("training", shuffle), build("validation", False)
    return build(subset, shuffle)
