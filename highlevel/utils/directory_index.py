"""Listing the files of a directory-of-classes, with their labels and the training/validation split.

Shared by ``image_dataset_from_directory``, ``text_dataset_from_directory`` and
``audio_dataset_from_directory``, and faithful to Keras so that the same directory and seed give the same
files in the same order, and the same files in each subset:

* with ``labels="inferred"`` each subdirectory (not starting with ``"."``, in alphanumeric order, or in the
  order of ``class_names``) is a class, and its files (walked recursively, in sorted order) get its index;
* otherwise the whole tree is walked and the labels are ``None`` or the list given, in file order;
* with ``shuffle`` the files are shuffled by ``numpy.random.RandomState(seed)``, as Keras does;
* the validation subset is the last ``int(validation_split * n)`` files.

>>> import os, tempfile
>>> root = tempfile.mkdtemp()
>>> for name in ("b/1.txt", "a/2.txt", "a/1.txt"):
...     os.makedirs(os.path.join(root, os.path.dirname(name)), exist_ok=True)
...     open(os.path.join(root, name), "w").close()
>>> paths, labels, classes = index_directory(root, "inferred", (".txt",), shuffle=False, verbose=False)
>>> [os.path.relpath(p, root) for p in paths], labels.tolist(), classes
(['a/1.txt', 'a/2.txt', 'b/1.txt'], [0, 0, 1], ['a', 'b'])
"""

import os

import numpy as np


def check_label_arguments(labels, label_mode, class_names, what):
    """Validates ``labels``/``label_mode``/``class_names``; returns ``(labels, label_mode)`` with both None when
    either is."""
    if labels not in ("inferred", None) and not isinstance(labels, str):
        if not isinstance(labels, (list, tuple, np.ndarray)):
            raise ValueError(
                f'`labels` must be "inferred" (one class per subdirectory), None (no labels), or a list/tuple of '
                f"integer labels, one per {what} file found in the directory (in alphanumeric order of the file "
                f"paths); received labels={labels!r}."
            )
        if class_names:
            raise ValueError(
                f'`class_names` can only be given with labels="inferred"; received labels={labels!r} and '
                f"class_names={class_names!r}. With explicit labels the class names are the sorted labels."
            )
    elif isinstance(labels, str) and labels != "inferred":
        raise ValueError(f'`labels` must be "inferred", None or a list of integer labels; received labels={labels!r}.')
    if label_mode not in ("int", "categorical", "binary", None):
        raise ValueError(
            f'`label_mode` must be "int", "categorical", "binary" or None; received label_mode={label_mode!r}.'
        )
    if labels is None or label_mode is None:
        return None, None
    return labels, label_mode


def check_validation_split(validation_split, subset, shuffle, seed):
    """Validates ``validation_split``/``subset`` and the seed they need."""
    if validation_split is not None and not (isinstance(validation_split, (int, float)) and 0 <= validation_split < 1):
        raise ValueError(
            f"`validation_split` must be a float in (0, 1) (the fraction of files kept for validation); received "
            f"validation_split={validation_split!r}."
        )
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(f"`validation_split` must be between 0 and 1; received {validation_split!r}.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError(f'`subset` must be "training", "validation", "both" or None; received subset={subset!r}.')
    if bool(validation_split) != bool(subset):
        raise ValueError(
            "`validation_split` and `subset` go together: give both (e.g. validation_split=0.2, subset='both') or "
            f"neither; received validation_split={validation_split!r}, subset={subset!r}."
        )
    if validation_split and shuffle and seed is None:
        raise ValueError(
            "With `validation_split` and shuffling, pass a `seed`, so that the training and validation subsets "
            "are drawn from the same shuffled order and do not overlap (use the same seed for both calls)."
        )


def _walk_files(directory, follow_links, formats):
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links), key=lambda entry: entry[0]):
        for name in sorted(files):
            if name.lower().endswith(formats):
                yield os.path.join(root, name)


def index_directory(
    directory, labels, formats, class_names=None, shuffle=True, seed=None, follow_links=False, verbose=True
):
    """Lists the files of ``directory`` whose name ends in one of ``formats``, with their labels.

    Args:
        directory: the root directory.
        labels: ``"inferred"``, None, or a list of integer labels (one per file, in file order).
        formats: a tuple of lowercase extensions such as ``(".png", ".jpg")``.
        class_names: with ``"inferred"``, the subdirectories to use, in this order.
        shuffle: shuffle the files (and labels) with ``numpy.random.RandomState(seed)``.
        seed: the shuffling seed; a random one when None.
        follow_links: walk into subdirectories that are symbolic links.
        verbose: print how many files and classes were found.

    Returns:
        ``(file_paths, labels, class_names)``: a list of paths, an int32 array of labels or None, and the
        class names or None.
    """
    directory = os.fspath(directory)
    if not os.path.isdir(directory):
        raise ValueError(
            f"Directory {directory!r} does not exist or is not a directory. Pass the folder that holds the data "
            "(with one subdirectory per class when labels='inferred')."
        )
    if labels == "inferred":
        subdirs = [
            d
            for d in sorted(os.listdir(directory))
            if os.path.isdir(os.path.join(directory, d)) and not d.startswith(".")
        ]
        if class_names is not None:
            missing = [c for c in class_names if c not in subdirs]
            if missing:
                raise ValueError(
                    f"`class_names` must name subdirectories of {directory!r}; these are not: {missing}. "
                    f"Subdirectories found: {subdirs}."
                )
            subdirs = list(class_names)
    else:
        if class_names is not None:
            raise ValueError(
                "`class_names` can only be given with labels='inferred' (with labels=None there are no classes; "
                "with a list of labels the class names are the sorted labels)."
            )
        subdirs = [""]
    files, inferred = [], []
    for index, subdir in enumerate(subdirs):
        found = list(_walk_files(os.path.join(directory, subdir), follow_links, tuple(formats)))
        files += found
        inferred += [index] * len(found)
    if labels == "inferred":
        class_names = list(subdirs)
        labels = np.asarray(inferred, dtype="int32")
    elif labels is None:
        class_names = None
    else:
        if len(labels) != len(files):
            raise ValueError(
                f"`labels` has {len(labels)} entries but {len(files)} matching files were found in {directory!r}: "
                "give one label per file, in alphanumeric order of the file paths."
            )
        labels = np.asarray(labels)
        if labels.dtype.kind not in "iu":
            raise ValueError(f"`labels` must be integers; received labels of dtype {labels.dtype}.")
        class_names = [str(v) for v in sorted(set(labels.tolist()))]
        labels = labels.astype("int32")
    if verbose:
        if labels is None:
            print(f"Found {len(files)} files.")
        else:
            print(f"Found {len(files)} files belonging to {len(class_names)} classes.")
    if shuffle:
        if seed is None:
            seed = np.random.randint(1_000_000)
        np.random.RandomState(seed).shuffle(files)
        if labels is not None:
            np.random.RandomState(seed).shuffle(labels)
    return files, labels, class_names


def split(samples, labels, validation_split, subset, verbose=True):
    """The training or validation part of ``samples`` (and ``labels``); everything without a split."""
    if not validation_split:
        return samples, labels
    num_val = int(validation_split * len(samples))
    if subset == "training":
        if verbose:
            print(f"Using {len(samples) - num_val} files for training.")
        end = len(samples) - num_val
        return samples[:end], None if labels is None else labels[:end]
    if subset == "validation":
        if verbose:
            print(f"Using {num_val} files for validation.")
        start = len(samples) - num_val
        return samples[start:], None if labels is None else labels[start:]
    raise ValueError(f'`subset` must be "training" or "validation" here; received subset={subset!r}.')


def encode_label(label, label_mode, num_classes):
    """One label in the form ``label_mode`` asks for: int32 index, float32 ``(1,)`` 0/1, or float32 one-hot."""
    if label_mode == "binary":
        return np.asarray([label], dtype="float32")
    if label_mode == "categorical":
        out = np.zeros((num_classes,), dtype="float32")
        out[int(label)] = 1.0
        return out
    return np.int32(label)


def label_spec(label_mode, num_classes):
    """The :class:`~highlevel.utils.dataset_output.SampleSpec` of one encoded label."""
    from .dataset_output import SampleSpec

    if label_mode == "binary":
        return SampleSpec((1,), "float32")
    if label_mode == "categorical":
        return SampleSpec((num_classes,), "float32")
    return SampleSpec((), "int32")
