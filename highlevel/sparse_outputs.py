"""The ``sparse=True`` and ``ragged=True`` outputs of the preprocessing layers.

Keras returns a sparse tensor (``tf.SparseTensor``) or a ragged one (``tf.RaggedTensor``) for these on its
TensorFlow backend. highlevel does the same on engines with such types (the capability flags
``supports_sparse_outputs`` and ``supports_ragged_outputs``); on the others the layer refuses the argument when
it is created, saying where it exists.

>>> import highlevel as hl
>>> supports("sparse") == hl.config.current_backend().capabilities.supports_sparse_outputs
True
"""

import numpy as np

from highlevel.config import current_backend


def supports(kind):
    """Whether the current engine returns ``kind`` (``"sparse"`` or ``"ragged"``) outputs."""
    return getattr(current_backend().capabilities, f"supports_{kind}_outputs")


def check_supported(layer, kind):
    """Refuses ``<kind>=True`` for ``layer`` (a class name) on an engine without that tensor type."""
    if not supports(kind):
        raise ValueError(
            f"`{kind}=True` in {layer} needs {kind} tensors, which exist on the TensorFlow backend only "
            f"(as in Keras); the current backend is {current_backend().name!r}. Leave {kind}=False for the "
            f"dense output, or select the TensorFlow backend (HIGHLEVEL_BACKEND=tensorflow)."
        )


def to_sparse(x):
    """``x`` (a dense tensor or array) as the engine's sparse tensor of its nonzero entries."""
    return current_backend().sparse_from_dense(x)


def to_ragged(rows, dtype):
    """``rows`` (a list of 1-D arrays of different lengths) as the engine's ragged tensor of ``dtype``."""
    lengths = [len(r) for r in rows]
    values = np.concatenate([np.asarray(r, dtype=dtype) for r in rows]) if rows else np.zeros((0,), dtype)
    return current_backend().ragged_from_rows(values.astype(dtype), lengths)
