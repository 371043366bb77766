"""The TensorFlow engine's kernels for the array-search ops of ``contract/numpy_array.py``: ``tf.searchsorted``
(a binary search) and ``tf.math.unsorted_segment_sum`` for ``bincount``, instead of the contract's comparison
tables.

>>> from highlevel.backends.tensorflow import TensorFlowBackend
>>> b = TensorFlowBackend()
>>> b.to_numpy(b.searchsorted(b.convert_to_tensor([1.0, 2.0, 3.0]), b.convert_to_tensor([2.5, 0.0]))).tolist()
[2, 0]
"""

import tensorflow as tf

from highlevel.backends.contract import dtypes

from .convert import convert, dtype_name, promote


def _searchable(t):
    """``t`` in a dtype ``tf.searchsorted`` takes (bool and the small ints widened exactly to int32)."""
    if t.dtype in (tf.bool, tf.int8, tf.uint8, tf.int16, tf.uint16):
        return tf.cast(t, tf.int32)
    if t.dtype in (tf.uint32, tf.uint64):
        return tf.cast(t, tf.int64)
    return t


class NumpyArrayOps:
    """``searchsorted`` and ``bincount`` with TensorFlow kernels."""

    def searchsorted(self, sorted_sequence, values, side="left"):
        a, v = promote(sorted_sequence, values)
        a, v = _searchable(a), _searchable(v)
        flat = tf.reshape(v, [-1])
        out = tf.searchsorted(a, flat, side=side, out_type=tf.int32)
        return tf.reshape(out, tf.shape(v))

    def bincount(self, x, weights=None, minlength=0, sparse=False):
        x = convert(x)
        length = self._bincount_length(x, minlength)
        rows = int(x.shape[0]) if x.shape.rank == 2 else 1
        flat = tf.cast(x, tf.int64)
        if x.shape.rank == 2:
            flat = flat + (tf.range(rows, dtype=tf.int64) * length)[:, None]
        flat = tf.reshape(flat, [-1])
        shape = list(x.shape[:-1]) + [length]
        if weights is None:
            counts = tf.math.unsorted_segment_sum(tf.ones_like(flat, tf.int32), flat, rows * length)
            return tf.reshape(counts, shape)
        w = convert(weights, dtypes.result_type(dtype_name(x), dtype_name(convert(weights))))
        return tf.reshape(tf.math.unsorted_segment_sum(tf.reshape(w, [-1]), flat, rows * length), shape)
