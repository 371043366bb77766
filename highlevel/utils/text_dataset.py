"""``text_dataset_from_directory``: batches of texts (and labels) from a directory of ``.txt`` files.

Each file is one sample, read as bytes, as ``tf.data`` reads it: a batch of texts is a numpy array of
``bytes`` objects (a ``tf.string`` tensor in ``tf.data``), which ``hl.layers.TextVectorization`` and
``StringLookup`` take as they are. ``max_length`` keeps the first ``max_length`` bytes of each file. The
dataset is a ``tf.data.Dataset`` when TensorFlow is installed, otherwise a ``hl.utils.PyDataset`` with the same
batches (see :mod:`highlevel.utils.dataset_output`).

>>> import os, tempfile
>>> root = tempfile.mkdtemp()
>>> for label, text in (("neg", "bad"), ("pos", "good")):
...     os.makedirs(os.path.join(root, label))
...     with open(os.path.join(root, label, "a.txt"), "w") as f:
...         _ = f.write(text)
>>> ds = text_dataset_from_directory(root, shuffle=False, format="pydataset", verbose=False)
>>> texts, labels = ds[0]
>>> texts.tolist(), labels.tolist(), ds.class_names
([b'bad', b'good'], [0, 1], ['neg', 'pos'])
"""

import numpy as np

from . import dataset_output, directory_index


def _read(path, max_length):
    with open(path, "rb") as f:
        data = f.read() if max_length is None else f.read(max_length)
    return data


def text_dataset_from_directory(
    directory,
    labels="inferred",
    label_mode="int",
    class_names=None,
    batch_size=32,
    max_length=None,
    shuffle=True,
    seed=None,
    validation_split=None,
    subset=None,
    follow_links=False,
    format="tf",
    verbose=True,
):
    """Makes a dataset of texts (and their labels) from the ``.txt`` files under ``directory``.

    With ``labels="inferred"``, ``directory`` holds one subdirectory per class (``main/neg/*.txt``,
    ``main/pos/*.txt``); the classes are numbered in alphanumeric order of their names (or in the order of
    ``class_names``).

    Args:
        directory: the folder to read.
        labels: ``"inferred"`` (from the subdirectories), None (texts only), or a list of integer labels,
            one per text file in alphanumeric order of their paths.
        label_mode: ``"int"`` (int32 class indices), ``"categorical"`` (float32 one-hot rows), ``"binary"``
            (float32 0/1 of shape ``(batch, 1)``; exactly two classes) or None (no labels).
        class_names: with ``labels="inferred"``, the subdirectories to use, in this order.
        batch_size: texts per batch; None for single texts.
        max_length: keep at most this many bytes of each file (None: the whole file).
        shuffle: shuffle the files (and draw a new order every epoch); False keeps alphanumeric order.
        seed: the shuffling seed; required with ``validation_split`` and ``shuffle``.
        validation_split: the fraction of the files kept for validation (the last ones after shuffling).
        subset: ``"training"``, ``"validation"`` or ``"both"`` (returns ``(train, validation)``); only with
            ``validation_split``.
        follow_links: walk into subdirectories that are symbolic links.
        format: ``"tf"`` (a ``tf.data.Dataset`` when TensorFlow is installed, else a ``hl.utils.PyDataset``)
            or ``"pydataset"`` (always a ``PyDataset``).
        verbose: print how many files and classes were found.

    Returns:
        A dataset yielding texts (``bytes``; ``tf.string`` in ``tf.data``), or ``(texts, labels)`` pairs;
        with ``subset="both"``, a pair of them. Its ``class_names`` and ``file_paths`` attributes list the
        classes and the files in order.

    Raises:
        ValueError: if ``max_length`` is not a non-negative int or None, another argument is out of its range, or no
            text file is found.

    >>> import os, tempfile
    >>> import highlevel as hl
    >>> root = tempfile.mkdtemp()
    >>> for label in ("bad", "good"):  # one sub-folder per class
    ...     os.makedirs(os.path.join(root, label))
    ...     with open(os.path.join(root, label, "review.txt"), "w") as f:
    ...         _ = f.write(f"a {label} film")
    >>> texts = hl.utils.text_dataset_from_directory(root, batch_size=2, shuffle=False)
    Found 2 files belonging to 2 classes.
    >>> [(x.numpy().tolist(), y.numpy().tolist()) for x, y in texts]
    [([b'a bad film', b'a good film'], [0, 1])]
    """
    labels, label_mode = directory_index.check_label_arguments(labels, label_mode, class_names, "text")
    if max_length is not None and (
        isinstance(max_length, bool) or not isinstance(max_length, (int, np.integer)) or max_length < 0
    ):
        raise ValueError(f"`max_length` must be a non-negative int or None; received max_length={max_length!r}.")
    dataset_output.check_format(format)
    directory_index.check_validation_split(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1_000_000)
    paths, all_labels, class_names = directory_index.index_directory(
        directory,
        labels,
        (".txt",),
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
    text_spec = dataset_output.SampleSpec((), "string")

    def build(subset_name, shuffle_subset):
        files, subset_labels = directory_index.split(paths, all_labels, validation_split, subset_name, verbose)
        if not files:
            where = f"{subset_name} " if subset_name else ""
            raise ValueError(f"No {where}text files found in directory {directory!r}. Allowed format: .txt")

        def load(i):
            text = _read(files[i], max_length)
            if label_mode is None:
                return text
            return text, directory_index.encode_label(subset_labels[i], label_mode, num_classes)

        spec = text_spec if label_mode is None else (text_spec, directory_index.label_spec(label_mode, num_classes))
        host = dataset_output.HostDataset(
            len(files), load, spec, batch_size=batch_size, shuffle=shuffle_subset, seed=seed
        )
        host.class_names = class_names
        host.file_paths = list(files)
        return dataset_output.finish(host, format)

    if subset == "both":
        return build("training", shuffle), build("validation", False)
    return build(subset, shuffle)
