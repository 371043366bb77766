"""One batch file of CIFAR's python version: a pickled dict with the images as rows of 3,072 bytes (1,024
red, then green, then blue values of a 32×32 image) and the labels as a list of ints.

>>> import io, pickle
>>> import numpy as np
>>> batch = {b"data": np.zeros((2, 3072), np.uint8), b"labels": [3, 5]}
>>> images, labels = read_batch(io.BytesIO(pickle.dumps(batch, protocol=2)), "labels", "batch")
>>> images.shape, labels
((2, 3, 32, 32), [3, 5])
"""

import numpy as np

from highlevel.datasets._safe_pickle import load_pickle


def read_batch(file, label_key, where):
    """Reads one batch from the binary file object ``file``; returns ``(images, labels)``: uint8 images of
    shape ``(n, 3, 32, 32)`` and the list under ``label_key``. ``where`` names the file in errors."""
    batch = load_pickle(file, encoding="bytes")
    if not isinstance(batch, dict):
        raise ValueError(f"{where} is not a CIFAR batch: it holds a {type(batch).__name__}, not a dict.")
    batch = {k.decode("utf8") if isinstance(k, bytes) else k: v for k, v in batch.items()}
    missing = [k for k in ("data", label_key) if k not in batch]
    if missing:
        raise ValueError(
            f"{where} is not a CIFAR batch with {label_key!r}: it lacks {missing}; it has {sorted(batch)}."
        )
    data, labels = np.asarray(batch["data"]), list(batch[label_key])
    if data.ndim != 2 or data.shape[1] != 3 * 32 * 32 or data.shape[0] != len(labels):
        raise ValueError(f"{where}: expected {len(labels)} images of 3072 values; found data of shape {data.shape}.")
    return data.reshape(data.shape[0], 3, 32, 32), labels


def load_batch(path, label_key="labels"):
    """Reads the batch file at ``path`` (see :func:`read_batch`)."""
    with open(path, "rb") as f:
        return read_batch(f, label_key, path)
