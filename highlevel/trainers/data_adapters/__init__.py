"""Turning what users pass to ``fit``/``evaluate``/``predict`` into numpy batches.

Arrays (and lists/dicts of arrays), engine tensors, Python generators and iterators, ``hl.utils.PyDataset``,
a torch ``DataLoader`` and a ``tf.data.Dataset`` are accepted; the framework datasets are used through what
they offer, so the front end never imports a framework.
"""

import numpy as np

from highlevel.backends.contract import Variable

from . import utils
from .array_adapter import ArrayDataAdapter
from .epoch_iterator import EpochIterator
from .generator_adapter import GeneratorDataAdapter
from .py_dataset import PyDataset, PyDatasetAdapter


def _is_array_structure(x, backend):
    if isinstance(x, dict):
        return all(_is_array_structure(v, backend) for v in x.values())
    if isinstance(x, (list, tuple)):
        return len(x) > 0 and all(_is_array_structure(v, backend) or isinstance(v, (int, float, bool, list)) for v in x)
    return (
        isinstance(x, (np.ndarray, Variable))
        or backend.is_tensor(x)
        or (hasattr(x, "__array__") and hasattr(x, "shape") and hasattr(x, "dtype"))
    )


def get_data_adapter(
    x, y=None, sample_weight=None, batch_size=None, steps=None, shuffle=False, class_weight=None, backend=None
):
    """Chooses the adapter for ``x`` (and checks that ``y``/``sample_weight`` fit it)."""
    if backend is None:
        from highlevel.config import current_backend

        backend = current_backend()
    if x is None:
        raise ValueError("No data: `x` is None. Pass arrays, a generator, a PyDataset or a dataset.")
    if class_weight is not None and sample_weight is not None:
        raise ValueError(
            "`class_weight` and `sample_weight` were both given; use one of them (fold the class weights into "
            "the sample weights if you need both)."
        )
    if _is_string_list(x):
        x = np.asarray(x)  # a list of sentences is one batch-major text array, not a list of inputs
    if isinstance(x, PyDataset):
        _no_y(y, sample_weight, "a PyDataset")
        return PyDatasetAdapter(x, steps=steps, shuffle=shuffle)
    if _is_array_structure(x, backend):
        x = utils.to_numpy_structure(x, backend)
        y = utils.to_numpy_structure(y, backend) if y is not None else None
        sample_weight = utils.to_numpy_structure(sample_weight, backend) if sample_weight is not None else None
        if class_weight is not None:
            if y is None:
                raise ValueError("`class_weight` needs targets `y`.")
            sample_weight = utils.class_weight_to_sample_weight(y, class_weight)
        return ArrayDataAdapter(
            x, y, sample_weight, batch_size=32 if batch_size is None else batch_size, shuffle=shuffle, steps=steps
        )
    if hasattr(x, "__iter__") or hasattr(x, "__next__"):
        _no_y(y, sample_weight, "a generator or dataset")
        if class_weight is not None:
            raise ValueError("`class_weight` is supported for array data only; weight the samples in the generator.")
        return GeneratorDataAdapter(x, steps=steps)
    raise TypeError(
        f"Unsupported data type {type(x).__name__}. Pass numpy arrays (or lists/dicts of them), tensors, a Python "
        "generator yielding (x, y) batches, an hl.utils.PyDataset, a torch DataLoader or a tf.data.Dataset."
    )


def _is_string_list(x):
    return isinstance(x, (list, tuple)) and len(x) > 0 and all(isinstance(v, (str, bytes)) for v in x)


def _no_y(y, sample_weight, what):
    if y is not None or sample_weight is not None:
        raise ValueError(
            f"When x is {what}, it yields the targets itself: do not pass `y` or `sample_weight` separately."
        )


__all__ = [
    "ArrayDataAdapter",
    "EpochIterator",
    "GeneratorDataAdapter",
    "PyDataset",
    "PyDatasetAdapter",
    "get_data_adapter",
    "utils",
]
