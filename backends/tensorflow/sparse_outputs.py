"""TensorFlow's sparse and ragged tensors as the ``sparse=True``/``ragged=True`` outputs of the preprocessing
layers (the contract's ``sparse_from_dense`` and ``ragged_from_rows``).

>>> import numpy as np
>>> ops = SparseOutputOps()
>>> ops.sparse_from_dense(np.array([[0.0, 2.0], [1.0, 0.0]])).indices.numpy().tolist()
[[0, 1], [1, 0]]
>>> ops.ragged_from_rows(np.array([3, 4, 5]), [2, 1]).to_list()
[[3, 4], [5]]
"""

import numpy as np
import tensorflow as tf


class SparseOutputOps:
    """``tf.SparseTensor`` and ``tf.RaggedTensor`` outputs."""

    def sparse_from_dense(self, x):
        # the nonzero entries only, in row-major order, as Keras's sparse preprocessing outputs
        return tf.sparse.from_dense(tf.convert_to_tensor(x))

    def ragged_from_rows(self, values, row_lengths):
        return tf.RaggedTensor.from_row_lengths(
            tf.convert_to_tensor(values), tf.convert_to_tensor(np.asarray(row_lengths, dtype="int64"))
        )
