"""The backend contract, data-pipeline part: layers called inside an engine's input pipeline (``tf.data``).

Keras's preprocessing layers work inside ``tf.data.Dataset.map`` whatever the backend: there the inputs are
symbolic TensorFlow tensors, and the layers compute with TensorFlow. Here an engine says which of its tensors are
such pipeline tensors (:meth:`DataPipelineContract.is_pipeline_tensor`); a layer called on one runs on that engine
(``highlevel.pipeline`` finds it among the engines already loaded, through
``highlevel.backends.registry.pipeline_owner``), whatever the current backend. Layers that compute on the host
(vocabulary lookups, hashing, text) run there through the engine's host call
(:meth:`DataPipelineContract.call_on_host`: ``tf.numpy_function`` in a TensorFlow graph), and state that must
outlive one trace of the pipeline (a random layer's seed) is created by :meth:`DataPipelineContract.outside_pipeline`.

>>> import highlevel as hl
>>> b = hl.config.current_backend()
>>> b.is_pipeline_tensor(b.convert_to_tensor([1.0]))
False
>>> b.to_numpy(b.call_on_host(lambda a: a * 2, [b.convert_to_tensor([1, 2])], "int32", (2,))).tolist()
[2, 4]
"""

import numpy as np


class DataPipelineContract:
    """Whether a value is a symbolic tensor of the engine's data pipeline, host calls and state inside one."""

    def is_pipeline_tensor(self, x):
        """True when ``x`` is a symbolic tensor of this engine's input pipeline, a graph being traced (a
        ``tf.data`` map function): layers called on it compute on this engine. The default: no such tensors."""
        return False

    def call_on_host(self, fn, xs, dtype, shape):
        """``fn`` (numpy arrays in, a numpy array out) applied to the values of the tensors ``xs`` (a list), as a
        tensor of ``dtype``.

        Engines whose tensors may be symbolic (:meth:`is_pipeline_tensor`) run ``fn`` when the values exist, with
        ``shape`` (a tuple, None for unknown sizes) as the result's static shape. The default runs it now."""
        out = np.asarray(fn(*[np.asarray(self.to_numpy(x)) for x in xs]))
        return self.convert_to_tensor(out.astype(dtype, copy=False), dtype)

    def outside_pipeline(self, fn):
        """Calls ``fn`` (no arguments) outside any pipeline graph being traced, so that the state it creates (a
        Variable) persists from one run of the pipeline to the next. The default calls it as it is."""
        return fn()


__all__ = ["DataPipelineContract"]
