"""What the dataset builders return: batches read on the host, handed out as a ``tf.data.Dataset`` or a
``PyDataset``.

The builders (``image_dataset_from_directory``, ``text_dataset_from_directory``,
``audio_dataset_from_directory``, ``timeseries_dataset_from_array``) describe their data as a
:class:`HostDataset`: how many samples there are, how to read sample ``i`` into numpy, the shape and dtype of a
sample, the batch size and the shuffling. Reading, decoding, resizing and shuffling all happen here, in numpy,
so the batches are the same whichever form they are handed out in:

* ``format="tf"`` (the default, as in Keras): a ``tf.data.Dataset`` when TensorFlow is installed, built by
  ``highlevel.backends.tensorflow.data`` around the same reader; without TensorFlow, the :class:`HostDataset`
  itself;
* ``format="pydataset"`` (highlevel's own option): the :class:`HostDataset`, a ``hl.utils.PyDataset``, always.

``model.fit`` takes either on every engine. With ``shuffle=True`` the order of the samples is drawn again
for every pass over the data, from the seed and the pass's number; the first pass of a ``tf.data`` dataset
and the first epoch of the ``PyDataset`` give the same batches.

>>> import numpy as np
>>> squares = HostDataset(5, lambda i: (np.float32(i), np.float32(i * i)),
...                       (SampleSpec((), "float32"), SampleSpec((), "float32")), batch_size=2)
>>> len(squares), [b[1].tolist() for b in squares]
(3, [[0.0, 1.0], [4.0, 9.0], [16.0]])
"""

import collections
import importlib
import importlib.util
import math

import numpy as np

from highlevel.trainers.data_adapters.py_dataset import PyDataset

#: The values of the builders' ``format`` argument.
FORMATS = ("tf", "pydataset")

#: Where each format's dataset is built, and the module it needs: ``(module:function, required module)``.
_FORMAT_BUILDERS = {"tf": ("highlevel.backends.tensorflow.data:host_dataset_to_tf", "tensorflow")}


def check_format(format):
    """Validates a builder's ``format`` argument, with an error that lists the choices."""
    if format == "grain":
        raise ValueError(
            'format="grain" is not supported: highlevel does not build Grain datasets. Use format="tf" (a '
            'tf.data.Dataset when TensorFlow is installed, else a hl.utils.PyDataset) or format="pydataset" (always '
            "a PyDataset, which model.fit takes on every engine)."
        )
    if format not in FORMATS:
        raise ValueError(f"`format` must be one of {FORMATS}; received format={format!r}.")


def finish(dataset, format):
    """Hands out ``dataset`` (a :class:`HostDataset`) in the form ``format`` asks for."""
    check_format(format)
    builder = _FORMAT_BUILDERS.get(format)
    if builder is None or importlib.util.find_spec(builder[1]) is None:
        return dataset
    module_name, function = builder[0].split(":")
    out = getattr(importlib.import_module(module_name), function)(dataset)
    for name in ("class_names", "file_paths"):
        if hasattr(dataset, name):
            setattr(out, name, getattr(dataset, name))
    return out


class SampleSpec(collections.namedtuple("SampleSpec", ["shape", "dtype"])):
    """The shape of one sample's array (``None`` for a size that varies) and its dtype (``"string"`` for
    ``bytes`` values)."""


def flatten_spec(spec):
    """The :class:`SampleSpec` leaves of an element spec (a SampleSpec, or tuples and dicts of them)."""
    if isinstance(spec, SampleSpec):
        return [spec]
    if isinstance(spec, dict):
        return [leaf for key in sorted(spec) for leaf in flatten_spec(spec[key])]
    return [leaf for part in spec for leaf in flatten_spec(part)]


def flatten_like(spec, value):
    """The leaves of ``value``, a sample (or batch) with the structure of ``spec``."""
    if isinstance(spec, SampleSpec):
        return [value]
    if isinstance(spec, dict):
        return [leaf for key in sorted(spec) for leaf in flatten_like(spec[key], value[key])]
    return [leaf for part, item in zip(spec, value) for leaf in flatten_like(part, item)]


def pack_like(spec, leaves):
    """Rebuilds the structure of ``spec`` from its leaves (the inverse of :func:`flatten_like`)."""
    leaves = iter(leaves)

    def build(part):
        if isinstance(part, SampleSpec):
            return next(leaves)
        if isinstance(part, dict):
            return {key: build(part[key]) for key in sorted(part)}
        return tuple(build(p) for p in part)

    out = build(spec)
    if isinstance(spec, dict):
        return {key: out[key] for key in spec}  # the user's key order
    return out


def spec_of(sample):
    """The :class:`SampleSpec` structure of one sample (numpy leaves in tuples/dicts; bytes and str are strings)."""
    if isinstance(sample, dict):
        return {key: spec_of(value) for key, value in sample.items()}
    if isinstance(sample, (tuple, list)):
        return tuple(spec_of(value) for value in sample)
    if isinstance(sample, (bytes, str)):
        return SampleSpec((), "string")
    array = np.asarray(sample)
    if array.dtype.kind in "OSU":
        return SampleSpec(array.shape, "string")
    return SampleSpec(array.shape, array.dtype.name)


def _collate(samples, spec, batching):
    """Stacks a list of samples (each with the structure of ``spec``) into one batch of that structure."""
    columns = [flatten_like(spec, sample) for sample in samples]
    leaves = []
    for k, (shape, dtype) in enumerate(flatten_spec(spec)):
        values = [c[k] for c in columns]
        if dtype == "string":
            leaves.append(np.array(values, dtype=object))
        elif batching == "ragged" and None in shape:
            leaves.append([np.asarray(v, dtype=dtype) for v in values])
        elif None in shape:
            longest = [max(np.shape(v)[a] for v in values) for a in range(len(shape))]
            batch = np.zeros((len(values), *longest), dtype=dtype)
            for i, v in enumerate(values):
                batch[(i, *[slice(0, d) for d in np.shape(v)])] = v
            leaves.append(batch)
        else:
            leaves.append(np.stack([np.asarray(v, dtype=dtype) for v in values]))
    return pack_like(spec, leaves)


class HostDataset(PyDataset):
    """Samples read into numpy on demand, in batches, in an order drawn again for every epoch.

    A ``hl.utils.PyDataset``: ``len()`` is the number of batches, ``dataset[i]`` the ``i``-th batch of the
    current epoch; iterating it yields one epoch's batches. The dataset builders set ``class_names`` and
    ``file_paths`` on it, as Keras sets them on its datasets.

    Args:
        num_samples: how many samples there are.
        load_sample: ``load_sample(i)`` returns sample ``i`` as numpy: one array, or a tuple such as
            ``(x, y)``; strings as ``bytes``.
        element_spec: the shape and dtype of a sample: a :class:`SampleSpec`, or tuples and dicts of them
            matching the sample's structure.
        batch_size: samples per batch, or None to yield single samples.
        shuffle: draw a new order of the samples for every epoch.
        seed: the seed of those orders.
        batching: how samples of different sizes are batched: ``"pad"`` (zeros up to the longest in the
            batch) or ``"ragged"`` (a list of arrays per batch; a ``tf.RaggedTensor`` in ``tf.data``).
        load_batch: optionally, a faster ``load_batch(indices)`` that returns a whole batch at once.
    """

    def __init__(
        self,
        num_samples,
        load_sample,
        element_spec,
        batch_size=32,
        shuffle=False,
        seed=None,
        batching="pad",
        load_batch=None,
    ):
        super().__init__()
        if batch_size is not None and (
            isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1
        ):
            raise ValueError(f"`batch_size` must be a positive int or None; received batch_size={batch_size!r}.")
        if batching not in ("pad", "ragged"):
            raise ValueError(f"`batching` must be 'pad' or 'ragged'; received {batching!r}.")
        self.num_samples = int(num_samples)
        self.load_sample = load_sample
        self.element_spec = element_spec
        self.batch_size = None if batch_size is None else int(batch_size)
        self.shuffle = bool(shuffle)
        self.seed = int(np.random.randint(1_000_000)) if seed is None else int(seed)
        self.batching = batching
        self._load_batch = load_batch
        self._epoch = 0

    def epoch_order(self, epoch):
        """The sample indices of pass number ``epoch``, in the order they are handed out."""
        if not self.shuffle:
            return np.arange(self.num_samples)
        return np.random.default_rng([self.seed, int(epoch)]).permutation(self.num_samples)

    def load_batch(self, indices):
        """The batch made of the samples ``indices``."""
        if self._load_batch is not None:
            return self._load_batch(np.asarray(indices))
        return _collate([self.load_sample(int(i)) for i in indices], self.element_spec, self.batching)

    def __len__(self):
        if self.batch_size is None:
            return self.num_samples
        return math.ceil(self.num_samples / self.batch_size)

    def __getitem__(self, index):
        if not -len(self) <= index < len(self):
            raise IndexError(f"batch index {index} is out of range for a dataset of {len(self)} batches.")
        index %= len(self)
        order = self.epoch_order(self._epoch)
        if self.batch_size is None:
            return self.load_sample(int(order[index]))
        return self.load_batch(order[index * self.batch_size : (index + 1) * self.batch_size])

    def __iter__(self):
        for index in range(len(self)):
            yield self[index]
        self.on_epoch_end()

    def on_epoch_end(self):
        self._epoch += 1

    def __repr__(self):
        return (
            f"<HostDataset: {self.num_samples} samples in {len(self)} "
            f"{'batches' if self.batch_size else 'elements'}, element_spec={self.element_spec}>"
        )
