"""``split_dataset``: a small in-memory dataset cut in two (e.g. training and test).

The samples are read into a list, shuffled if asked (with Python's ``random.Random(seed)``, as Keras shuffles
them, so the same seed puts the same samples on each side), and the first ``left_size`` and the last
``right_size`` become the two datasets.

>>> import numpy as np
>>> left, right = split_dataset(np.arange(10), left_size=0.8, preferred_backend="pydataset")
>>> len(left), len(right), right[0].tolist(), right[1].tolist()
(8, 2, 8, 9)
"""

import importlib
import importlib.util
import random

import numpy as np

from . import dataset_output


def _mro_names(obj):
    return [(cls.__module__ or "", cls.__name__) for cls in type(obj).__mro__]


def is_tf_dataset(obj):
    """Whether ``obj`` is a ``tf.data.Dataset`` (recognised without importing TensorFlow)."""
    return any(name in ("DatasetV2", "Dataset") and "tensorflow" in module for module, name in _mro_names(obj))


def is_torch_dataset(obj):
    """Whether ``obj`` is a ``torch.utils.data.Dataset`` (recognised without importing torch)."""
    return any(name == "Dataset" and module.startswith("torch.utils.data") for module, name in _mro_names(obj))


def _to_numpy(value):
    if isinstance(value, dict):
        return {key: _to_numpy(v) for key, v in value.items()}
    if isinstance(value, (tuple, list)):
        return tuple(_to_numpy(v) for v in value)
    if isinstance(value, (bytes, str, np.ndarray)):
        return value
    if hasattr(value, "numpy") and callable(value.numpy):
        return np.asarray(value.numpy())
    if hasattr(value, "to_list"):  # a ragged value
        return value.to_list()
    return np.asarray(value)


def _samples(dataset):
    """The samples of ``dataset`` as a list, and the batch size it had (None if it was not batched)."""
    from highlevel.trainers.data_adapters.py_dataset import PyDataset

    if isinstance(dataset, np.ndarray):
        return list(dataset), None
    if isinstance(dataset, (list, tuple)):
        if not dataset:
            raise ValueError("split_dataset received an empty list: pass a non-empty list or tuple of arrays.")
        arrays = [np.asarray(a) if not isinstance(a, np.ndarray) else a for a in dataset]
        lengths = {len(a) if a.ndim else None for a in arrays}
        if len(lengths) != 1 or None in lengths:
            raise ValueError(
                "split_dataset takes a list or tuple of arrays with the same number of samples; received arrays "
                f"of shapes {[a.shape for a in arrays]}."
            )
        return [tuple(a[i] for a in arrays) for i in range(lengths.pop())], None
    if isinstance(dataset, dataset_output.HostDataset):
        order = np.arange(dataset.num_samples)
        return [dataset.load_sample(int(i)) for i in order], dataset.batch_size
    if isinstance(dataset, PyDataset):
        return [_to_numpy(dataset[i]) for i in range(len(dataset))], None
    if is_tf_dataset(dataset):
        batch_size = getattr(dataset, "_batch_size", None)
        if batch_size is not None:
            dataset = dataset.unbatch()
            batch_size = int(batch_size)
        return [_to_numpy(x) for x in dataset.as_numpy_iterator()], batch_size
    if is_torch_dataset(dataset):
        return [_to_numpy(dataset[i]) for i in range(len(dataset))], None
    raise TypeError(
        "split_dataset takes a numpy array, a list or tuple of arrays, a tf.data.Dataset, a torch Dataset or a "
        f"hl.utils.PyDataset; received {type(dataset).__name__}."
    )


def _sizes(left_size, right_size, total):
    for name, size in (("left_size", left_size), ("right_size", right_size)):
        if size is not None and (isinstance(size, bool) or not isinstance(size, (int, float, np.integer, np.floating))):
            raise TypeError(f"`{name}` must be an int, a float or None; received {name}={size!r}.")
    if left_size is None and right_size is None:
        raise ValueError("split_dataset needs `left_size` or `right_size` (a fraction in (0, 1) or a sample count).")
    sizes = {}
    for name, size in (("left_size", left_size), ("right_size", right_size)):
        if size is None:
            continue
        if isinstance(size, (float, np.floating)):
            if not 0 < size < 1:
                raise ValueError(f"`{name}` as a fraction must be in (0, 1); received {name}={size}.")
            sizes[name] = round(size * total)
        else:
            if not 0 < size < total:
                raise ValueError(
                    f"`{name}` as a count must be in [1, {total - 1}] for a dataset of {total} samples; received "
                    f"{name}={size}."
                )
            sizes[name] = int(size)
    left = sizes.get("left_size", total - sizes.get("right_size", 0))
    right = sizes.get("right_size", total - left)
    if left + right > total:
        raise ValueError(
            f"left_size + right_size ({left} + {right} samples) is more than the {total} samples of the dataset."
        )
    if left == 0 or right == 0:
        side = "left" if left == 0 else "right"
        raise ValueError(
            f"With {total} samples, left_size={left_size!r} and right_size={right_size!r} leave the {side} side "
            "empty: adjust the sizes."
        )
    return left, right


def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None, preferred_backend=None):
    """Splits a dataset into a left part and a right part.

    Args:
        dataset: a numpy array, a list or tuple of arrays with the same number of samples, a
            ``tf.data.Dataset``, a torch ``Dataset`` or a ``hl.utils.PyDataset``. Everything is read into memory:
            this is for small datasets.
        left_size: the left part's size: a fraction in (0, 1) or a number of samples; the rest when None.
        right_size: the right part's size, likewise; the rest when None.
        shuffle: shuffle the samples before splitting.
        seed: the shuffling seed.
        preferred_backend: the type of the two datasets: ``"torch"`` for torch ``Dataset`` objects,
            ``"pydataset"`` for ``hl.utils.PyDataset`` objects, anything else (or None, for anything but a torch
            dataset) for ``tf.data`` datasets when TensorFlow is installed (a ``PyDataset`` otherwise). A dataset
            that was batched is batched again with its batch size.

    Returns:
        ``(left, right)``.

    Raises:
        ValueError: if the dataset is empty or the sizes do not fit it.
        ImportError: if ``preferred_backend="torch"`` and PyTorch is not installed.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> train, test = hl.utils.split_dataset(np.arange(10), left_size=0.8)
    >>> len(train), len(test)
    (8, 2)
    """
    samples, batch_size = _samples(dataset)
    if not samples:
        raise ValueError("split_dataset received an empty dataset.")
    if shuffle:
        if seed is None:
            seed = random.randint(0, 1_000_000)
        random.Random(seed).shuffle(samples)
    left_count, right_count = _sizes(left_size, right_size, len(samples))
    parts = samples[:left_count], samples[len(samples) - right_count :]
    if preferred_backend is None and is_torch_dataset(dataset):
        preferred_backend = "torch"
    if preferred_backend == "torch":
        if importlib.util.find_spec("torch") is None:
            raise ImportError("split_dataset(preferred_backend='torch') needs PyTorch: pip install torch.")
        make = importlib.import_module("highlevel.backends.torch.data").samples_to_torch_dataset
        return tuple(make(part) for part in parts)
    spec = dataset_output.spec_of(samples[0])
    out = []
    for part in parts:
        host = dataset_output.HostDataset(len(part), part.__getitem__, spec, batch_size=batch_size, shuffle=False)
        out.append(host if preferred_backend == "pydataset" else dataset_output.finish(host, "tf"))
    return tuple(out)
