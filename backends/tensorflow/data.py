"""``tf.data`` datasets around the host readers of ``hl.utils``'s dataset builders.

``host_dataset_to_tf`` wraps a ``highlevel.utils.dataset_output.HostDataset`` (which reads, decodes and
shuffles in numpy) in a ``tf.data.Dataset`` that yields the same batches, with a known cardinality (so that
``len(dataset)`` works) and prefetching. Every pass over the dataset asks the host for the next epoch's order.

>>> import numpy as np
>>> from highlevel.utils.dataset_output import HostDataset, SampleSpec
>>> host = HostDataset(3, lambda i: np.full((2,), i, "float32"), SampleSpec((2,), "float32"), batch_size=2)
>>> ds = host_dataset_to_tf(host)
>>> len(ds), [b.shape for b in ds.as_numpy_iterator()]
(2, [(2, 2), (1, 2)])
"""

import itertools

import tensorflow as tf


def _is_leaf(spec):
    """A sample spec's leaf: an object with a ``shape`` and a ``dtype`` (``hl.utils``'s ``SampleSpec``)."""
    return hasattr(spec, "shape") and hasattr(spec, "dtype")


def _leaves(spec):
    if _is_leaf(spec):
        return [spec]
    parts = [spec[k] for k in sorted(spec)] if isinstance(spec, dict) else list(spec)
    return [leaf for part in parts for leaf in _leaves(part)]


def _tensor_spec(spec, batched):
    dtype = tf.string if spec.dtype == "string" else tf.as_dtype(spec.dtype)
    shape = ((None,) if batched else ()) + tuple(spec.shape)
    return tf.TensorSpec(shape=shape, dtype=dtype)


def _signature(element_spec, batched):
    if _is_leaf(element_spec):
        return _tensor_spec(element_spec, batched)
    if isinstance(element_spec, dict):
        return {key: _signature(value, batched) for key, value in element_spec.items()}
    return tuple(_signature(s, batched) for s in element_spec)


def _to_tf(value):
    """The element as ``from_generator`` reads it: tuples and dicts of arrays (a list would read as one array)."""
    if isinstance(value, dict):
        return {key: _to_tf(v) for key, v in value.items()}
    if isinstance(value, (list, tuple)):
        return tuple(_to_tf(v) for v in value)
    return value


def host_dataset_to_tf(host):
    """A ``tf.data.Dataset`` yielding the batches (or, without a batch size, the samples) of ``host``."""
    passes = itertools.count()
    leaves = _leaves(host.element_spec)
    ragged = host.batching == "ragged" and any(None in s.shape for s in leaves)
    if host.batch_size is None or ragged:
        # One sample per element; tf.data batches ragged samples itself.
        def samples():
            for i in host.epoch_order(next(passes)):
                yield _to_tf(host.load_sample(int(i)))

        dataset = tf.data.Dataset.from_generator(samples, output_signature=_signature(host.element_spec, False))
        dataset = dataset.apply(tf.data.experimental.assert_cardinality(host.num_samples))
        if host.batch_size is not None:
            dataset = dataset.ragged_batch(host.batch_size)
    else:

        def batches():
            order = host.epoch_order(next(passes))
            for start in range(0, host.num_samples, host.batch_size):
                yield _to_tf(host.load_batch(order[start : start + host.batch_size]))

        dataset = tf.data.Dataset.from_generator(batches, output_signature=_signature(host.element_spec, True))
        dataset = dataset.apply(tf.data.experimental.assert_cardinality(len(host)))
    return dataset.prefetch(tf.data.AUTOTUNE)


def host_function(fn, inputs, spec, batched=True):
    """Runs the numpy function ``fn(*inputs)`` inside a ``tf.data`` pipeline (``tf.numpy_function``).

    Args:
        fn: a function of numpy arrays returning one array or a dict of arrays.
        inputs: the graph tensors to pass it.
        spec: ``(dtype, trailing shape)`` of its result, or a dict of them for a dict result; or a function
            that returns it, called outside the graph being traced (it may run ``fn``'s computation eagerly).
        batched: whether the result has a leading batch axis (of unknown size) before the trailing shape.

    Returns:
        Graph tensors with the static shapes ``spec`` gives.
    """
    if callable(spec):
        with tf.init_scope():
            spec = spec()
    keys = list(spec) if isinstance(spec, dict) else None
    entries = [spec[k] for k in keys] if keys is not None else [spec]

    def flat(*values):
        out = fn(*values)
        return [out[k] for k in keys] if keys is not None else [out]

    outputs = tf.numpy_function(flat, list(inputs), [tf.as_dtype(dtype) for dtype, _ in entries], stateful=False)
    for tensor, (_, shape) in zip(outputs, entries):
        tensor.set_shape(((None,) if batched else ()) + tuple(shape))
    return dict(zip(keys, outputs)) if keys is not None else outputs[0]
