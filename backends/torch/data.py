"""torch datasets for ``hl.utils.split_dataset(..., preferred_backend="torch")``.

>>> import numpy as np
>>> ds = samples_to_torch_dataset([(np.float32(1.0), np.int64(0)), (np.float32(2.0), np.int64(1))])
>>> len(ds), [float(v) for v in ds[1]]
(2, [2.0, 1.0])
"""

import numpy as np
import torch


class _SampleList(torch.utils.data.Dataset):
    """A torch ``Dataset`` over a list of numpy samples, handing out each as torch tensors."""

    def __init__(self, samples):
        self.samples = list(samples)

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, index):
        return _to_torch(self.samples[index])


def _to_torch(value):
    if isinstance(value, dict):
        return {key: _to_torch(v) for key, v in value.items()}
    if isinstance(value, (tuple, list)):
        return tuple(_to_torch(v) for v in value)
    array = np.asarray(value)
    if array.dtype.kind in "OSU":
        return value
    return torch.from_numpy(np.array(array))


def samples_to_torch_dataset(samples):
    """A torch ``Dataset`` whose items are ``samples`` (numpy arrays, or tuples/dicts of them) as tensors."""
    return _SampleList(samples)
