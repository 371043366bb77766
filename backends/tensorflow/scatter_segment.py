"""TensorFlow's segment reduction: ``tf.math.unsorted_segment_sum`` / ``_prod`` and ``tf.tensor_scatter_nd_max`` /
``_min`` into a tensor of the identity (``unsorted_segment_max`` fills empty segments with the dtype's lowest
finite value, not ``-inf``)."""

import tensorflow as tf

from highlevel.backends.contract.scatter_segment import identity

from .convert import convert, dtype_name


class ScatterSegmentOps:
    """``segment_reduce`` for :class:`~.backend.TensorFlowBackend`."""

    def segment_reduce(self, data, segment_ids, num_segments, reduction):
        data = convert(data)
        ids = convert(segment_ids)
        if ids.dtype not in (tf.int32, tf.int64):
            ids = tf.cast(ids, tf.int64)
        n = int(num_segments)
        if reduction == "sum":
            return tf.math.unsorted_segment_sum(data, ids, n)
        if reduction == "prod":
            return tf.math.unsorted_segment_prod(data, ids, n)
        shape = tf.concat([[n], tf.shape(data, out_type=tf.int32)[1:]], axis=0)
        start = tf.fill(shape, tf.constant(identity(reduction, dtype_name(data)), data.dtype))
        scatter = tf.tensor_scatter_nd_max if reduction == "max" else tf.tensor_scatter_nd_min
        return scatter(start, tf.expand_dims(ids, -1), data)
