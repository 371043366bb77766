"""``timeseries_dataset_from_array``: sliding windows over a timeseries, batched, with their targets.

Window ``j`` starts at step ``start_index + p_j`` where ``p_j = j * sequence_stride`` and holds the
``sequence_length`` steps ``data[start + k * sampling_rate]``; its target is ``targets[start]``. The dataset is
a ``tf.data.Dataset`` when TensorFlow is installed, otherwise a ``hl.utils.PyDataset`` with the same batches
(see :mod:`highlevel.utils.dataset_output`).

>>> import numpy as np
>>> ds = timeseries_dataset_from_array(np.arange(10), None, sequence_length=3, sequence_stride=3, batch_size=2,
...                                    format="pydataset")
>>> [batch.tolist() for batch in ds]
[[[0, 1, 2], [3, 4, 5]], [[6, 7, 8]]]
"""

import numpy as np

from . import dataset_output


def _positive_int(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"`{name}` must be an int; received {name}={value!r}.")
    return int(value)


def _as_array(values, name):
    from highlevel import ops

    if not isinstance(values, np.ndarray) and ops.is_tensor(values):
        values = ops.convert_to_numpy(values)
    values = np.asarray(values)
    if values.ndim == 0:
        raise ValueError(f"`{name}` must be an array whose first axis is time; received a scalar.")
    return values


def timeseries_dataset_from_array(
    data,
    targets,
    sequence_length,
    sequence_stride=1,
    sampling_rate=1,
    batch_size=128,
    shuffle=False,
    seed=None,
    start_index=None,
    end_index=None,
    format="tf",
):
    """Makes a dataset of sliding windows over ``data`` (and their targets).

    Args:
        data: an array (or tensor) whose first axis is time.
        targets: ``targets[i]`` is the target of the window that starts at step ``i`` (counted from
            ``start_index``); None for windows only.
        sequence_length: steps per window.
        sequence_stride: steps between the starts of two consecutive windows.
        sampling_rate: steps between two consecutive entries of a window.
        batch_size: windows per batch; None for single windows.
        shuffle: shuffle the windows (a new order for every epoch) instead of keeping time order.
        seed: the shuffling seed.
        start_index: steps before this one are not used (e.g. kept for validation).
        end_index: steps from this one on are not used.
        format: ``"tf"`` (a ``tf.data.Dataset`` when TensorFlow is installed, else a ``hl.utils.PyDataset``)
            or ``"pydataset"`` (always a ``PyDataset``).

    Returns:
        A dataset yielding windows ``(batch, sequence_length) + data.shape[1:]``, or ``(windows, targets)``
        pairs.

    Raises:
        ValueError: for indices or rates out of range, or targets with fewer steps than needed.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> windows = hl.utils.timeseries_dataset_from_array(np.arange(6), None, sequence_length=3, batch_size=4)
    >>> [batch.numpy().tolist() for batch in windows]  # one batch of the 4 windows of length 3
    [[[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5]]]
    """
    data = _as_array(data, "data")
    targets = None if targets is None else _as_array(targets, "targets")
    sequence_length = _positive_int(sequence_length, "sequence_length")
    sequence_stride = _positive_int(sequence_stride, "sequence_stride")
    sampling_rate = _positive_int(sampling_rate, "sampling_rate")
    n = len(data)
    if start_index:
        start_index = _positive_int(start_index, "start_index")
        if start_index < 0:
            raise ValueError(f"`start_index` must be 0 or more; received start_index={start_index}.")
        if start_index >= n:
            raise ValueError(f"`start_index` must be less than the length of the data ({n}); received {start_index}.")
    if end_index:
        end_index = _positive_int(end_index, "end_index")
        if start_index and end_index <= start_index:
            raise ValueError(
                f"`end_index` must be greater than `start_index`; received start_index={start_index}, "
                f"end_index={end_index}."
            )
        if end_index >= n:
            raise ValueError(f"`end_index` must be less than the length of the data ({n}); received {end_index}.")
        if end_index <= 0:
            raise ValueError(f"`end_index` must be greater than 0; received end_index={end_index}.")
    if sequence_length <= 0:
        raise ValueError(f"`sequence_length` must be greater than 0; received sequence_length={sequence_length}.")
    if sampling_rate <= 0:
        raise ValueError(f"`sampling_rate` must be greater than 0; received sampling_rate={sampling_rate}.")
    if sampling_rate >= n:
        raise ValueError(f"`sampling_rate` must be less than the length of the data ({n}); received {sampling_rate}.")
    if sequence_stride <= 0:
        raise ValueError(f"`sequence_stride` must be greater than 0; received sequence_stride={sequence_stride}.")
    if sequence_stride >= n:
        raise ValueError(
            f"`sequence_stride` must be less than the length of the data ({n}); received {sequence_stride}."
        )
    dataset_output.check_format(format)
    start_index = start_index or 0
    end_index = end_index or n
    num_windows = end_index - start_index - (sequence_length - 1) * sampling_rate
    if targets is not None:
        num_windows = min(num_windows, len(targets) - start_index)
    starts = np.arange(0, max(num_windows, 0), sequence_stride, dtype="int64")
    if shuffle:
        if seed is None:
            seed = np.random.randint(1_000_000)
        np.random.RandomState(seed).shuffle(starts)
    offsets = np.arange(sequence_length, dtype="int64") * sampling_rate
    steps = data[start_index:end_index]
    target_steps = None if targets is None else targets[start_index:]

    def load_batch(indices):
        positions = starts[indices]
        windows = steps[positions[:, None] + offsets[None, :]]
        return windows if target_steps is None else (windows, target_steps[positions])

    def load(i):
        position = starts[i]
        window = steps[position + offsets]
        return window if target_steps is None else (window, target_steps[position])

    window_spec = dataset_output.SampleSpec((sequence_length,) + data.shape[1:], data.dtype.name)
    spec = (
        window_spec
        if targets is None
        else (window_spec, dataset_output.SampleSpec(targets.shape[1:], targets.dtype.name))
    )
    host = dataset_output.HostDataset(
        len(starts), load, spec, batch_size=batch_size, shuffle=shuffle, seed=seed, load_batch=load_batch
    )
    return dataset_output.finish(host, format)
