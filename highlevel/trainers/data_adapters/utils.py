"""Helpers shared by the data adapters: unpacking batches, measuring and checking array structures."""

import numpy as np

from highlevel.backends.contract import tree


def unpack_x_y_sample_weight(data):
    """Splits a batch into ``(x, y, sample_weight)``; a lone ``x`` or ``(x,)`` gives ``y = None``."""
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if len(data) == 1:
        return data[0], None, None
    if len(data) == 2:
        return data[0], data[1], None
    if len(data) == 3:
        return data[0], data[1], data[2]
    raise ValueError(
        f"Data should be `x`, `(x,)`, `(x, y)` or `(x, y, sample_weight)`; received a tuple of {len(data)} elements."
    )


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """One batch from its parts: ``x`` alone when there are no targets (as a custom ``train_step`` receives it in
    Keras), ``(x,)`` when ``x`` is itself a tuple or list (so that it is not read as ``(x, y)``)."""
    if y is None:
        return (x,) if isinstance(x, (tuple, list)) else x
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def to_numpy_structure(data, backend=None):
    """Every array-like leaf (numpy, lists of numbers, engine tensors, Variables) as a numpy array."""

    def convert(x):
        if x is None or isinstance(x, np.ndarray):
            return x
        if isinstance(x, (str, bytes)):
            return np.asarray(x)
        if backend is not None and backend.is_tensor(x):
            return backend.to_numpy(x)
        if hasattr(x, "numpy") and callable(x.numpy):
            return np.asarray(x.numpy())
        return np.asarray(x)

    if isinstance(data, (list, tuple)) and data and all(isinstance(v, (int, float, bool)) for v in data):
        return np.asarray(data)
    return tree.map_structure(convert, data)


def num_samples(data, what="x"):
    """The common length of every array in ``data``; raises a clear error when they differ."""
    leaves = [x for x in tree.flatten(data)[0] if x is not None]
    if not leaves:
        return None
    lengths = set()
    for x in leaves:
        if np.ndim(x) == 0:
            raise ValueError(f"Each array in `{what}` needs a leading sample axis; received a scalar: {x!r}.")
        lengths.add(len(x))
    if len(lengths) > 1:
        raise ValueError(
            f"All arrays in `{what}` must have the same number of samples; received lengths {sorted(lengths)}."
        )
    return lengths.pop()


def check_lengths(x, y, sample_weight):
    n = num_samples(x, "x")
    if n is None:
        raise ValueError("`x` is empty: pass at least one array of samples.")
    if n == 0:
        raise ValueError("`x` has 0 samples; training or evaluating needs at least one sample.")
    if y is not None:
        ny = num_samples(y, "y")
        if ny is not None and ny != n:
            raise ValueError(
                f"x and y must have the same number of samples; received x with {n} samples and y with {ny}. "
                "Check that each input row has exactly one label."
            )
    if sample_weight is not None:
        ns = num_samples(sample_weight, "sample_weight")
        if ns is not None and ns != n:
            raise ValueError(
                f"sample_weight must have one weight per sample: x has {n} samples, sample_weight has {ns}."
            )
    return n


def slice_structure(data, index):
    return tree.map_structure(lambda a: None if a is None else a[index], data)


def class_weight_to_sample_weight(y, class_weight):
    """Per-sample weights ``class_weight[label]`` for integer labels or one-hot targets."""
    if isinstance(y, (list, tuple, dict)):
        raise ValueError(
            "`class_weight` is only supported for models with a single output; for several outputs pass "
            "`sample_weight` per output instead."
        )
    y = np.asarray(y)
    labels = np.argmax(y, axis=-1) if y.ndim > 1 and y.shape[-1] > 1 else y.reshape(len(y), -1)[:, 0]
    labels = np.round(labels).astype("int64")
    max_class = int(max(class_weight)) if class_weight else -1
    table = np.ones(max(max_class + 1, int(labels.max(initial=0)) + 1), "float32")
    for k, w in class_weight.items():
        if not isinstance(k, (int, np.integer)) or k < 0:
            raise ValueError(f"class_weight keys must be non-negative class indices; received {k!r}.")
        table[int(k)] = w
    return table[labels]


def train_validation_split(arrays, validation_split):
    """Splits every array into its first ``1 - validation_split`` and last ``validation_split`` parts."""
    if not 0 < validation_split < 1:
        raise ValueError(f"validation_split must be in (0, 1); received validation_split={validation_split}.")
    n = num_samples(arrays)
    split = int(n * (1 - validation_split))
    if split == 0 or split == n:
        raise ValueError(
            f"validation_split={validation_split} of {n} samples leaves an empty training or validation set."
        )
    train = tree.map_structure(lambda a: None if a is None else a[:split], arrays)
    val = tree.map_structure(lambda a: None if a is None else a[split:], arrays)
    return train, val
