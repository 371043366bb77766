"""The data-pipeline part of the TensorFlow backend: ``tf.data`` map functions are traced graphs.

A ``tf.Tensor`` that is symbolic (a map function being traced) is a pipeline tensor; host code runs in the graph
through ``tf.numpy_function``, and state that must outlive one trace (a random layer's seed) is created eagerly,
outside the graph being traced.

>>> import tensorflow as tf
>>> from highlevel.backends.tensorflow import TensorFlowBackend
>>> b = TensorFlowBackend()
>>> ds = tf.data.Dataset.from_tensor_slices([1, 2]).map(lambda x: b.call_on_host(lambda a: a * 10, [x], "int32", ()))
>>> [int(v) for v in ds]
[10, 20]
"""

import numpy as np
import tensorflow as tf

from .convert import np_dtype, tf_dtype


def _leave_highlevel_unconverted():
    """AutoGraph rewrites the Python functions a ``tf.data`` map calls; highlevel's layers and ops already work on
    graph tensors (they branch only on static facts), so its code is run as it is, like TensorFlow's own."""
    try:
        from tensorflow.python.autograph.core import config as autograph_config
    except ImportError:  # a TensorFlow without this module converts as usual
        return
    rules = autograph_config.CONVERSION_RULES
    if not any(getattr(r, "_prefix", None) == "highlevel" for r in rules):
        autograph_config.CONVERSION_RULES = (autograph_config.DoNotConvert("highlevel"),) + tuple(rules)


_leave_highlevel_unconverted()


class TensorFlowDataPipelineOps:
    """``is_pipeline_tensor``, ``call_on_host`` and ``outside_pipeline`` on TensorFlow."""

    def is_pipeline_tensor(self, x):
        return isinstance(x, tf.Tensor) and tf.is_symbolic_tensor(x)

    def call_on_host(self, fn, xs, dtype, shape):
        target = np_dtype(dtype)

        def run(*arrays):
            return np.asarray(fn(*arrays)).astype(target, copy=False)

        out = tf.numpy_function(run, list(xs), tf_dtype(dtype), stateful=True)
        if shape is not None:
            out.set_shape(shape)
        return out

    def outside_pipeline(self, fn):
        with tf.init_scope():
            return fn()


__all__ = ["TensorFlowDataPipelineOps"]
