"""CategoryEncoding: integer category ids to one-hot, multi-hot or count vectors."""

from highlevel import ops, sparse_outputs
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._categorical import encode_categorical, encoded_shape, validate_output_mode


class CategoryEncoding(Layer):
    """Encodes integer features as one-hot, multi-hot or count vectors (``keras.layers.CategoryEncoding``).

    Inputs are integer ids in ``[0, num_tokens)``; ids outside that range contribute nothing. With
    ``"multi_hot"`` and ``"count"`` the last axis holds one sample's ids and is reduced into
    ``num_tokens`` bins; ``"one_hot"`` encodes each id (a trailing axis of size 1 is encoded in place).
    Runs with ``hl.ops`` only, so it can sit inside a compiled model on every backend.

    Args:
        num_tokens: the number of categories (ids must be below it).
        output_mode: ``"multi_hot"`` (default), ``"one_hot"`` or ``"count"`` (``"binary"`` is accepted as
            the old name of ``"multi_hot"``).
        sparse: return a sparse tensor of the nonzero entries (``tf.SparseTensor``); on the TensorFlow backend
            only, as in Keras.
        **kwargs: base layer arguments (``name``, ``dtype``: the output dtype, floatx by default).

    Call arguments:
        inputs: integer ids, any shape (a scalar is one sample).
        count_weights: optional weights of the inputs' shape, summed per bin in ``"count"`` mode.

    Input shape: ``(..., ids)``. Output shape: ``(..., num_tokens)`` (``one_hot``: ``inputs.shape + (num_tokens,)``).

    Raises:
        ValueError: if ``num_tokens`` is missing or not an int >= 1, ``output_mode`` is unknown, or ``sparse=True`` on
            an engine without sparse tensors.

    >>> import highlevel as hl
    >>> import numpy as np
    >>> layer = hl.layers.CategoryEncoding(num_tokens=4, output_mode="count")
    >>> hl.ops.convert_to_numpy(layer(np.array([[0, 1, 1], [3, 3, 2]]))).tolist()
    [[1.0, 2.0, 0.0, 0.0], [0.0, 0.0, 1.0, 2.0]]
    """

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if output_mode == "binary":
            output_mode = "multi_hot"
        validate_output_mode(output_mode, ("count", "one_hot", "multi_hot"), "CategoryEncoding")
        if num_tokens is None:
            raise ValueError(
                "num_tokens must be set to use this layer. If the number of tokens is not known "
                "beforehand, use the IntegerLookup layer instead."
            )
        if isinstance(num_tokens, bool) or not isinstance(num_tokens, int) or num_tokens < 1:
            raise ValueError(f"`num_tokens` must be an integer >= 1. Received: num_tokens={num_tokens!r}")
        if sparse:
            sparse_outputs.check_supported("CategoryEncoding", "sparse")
        self.num_tokens = num_tokens
        self.output_mode = output_mode
        self.sparse = bool(sparse)
        self.built = True

    def call(self, inputs, count_weights=None):
        indices = inputs
        if ops.dtype(indices) not in ("int32", "int64"):
            indices = ops.cast(indices, "int32")
        if count_weights is not None and self.output_mode != "count":
            raise ValueError(
                f"`count_weights` is only used with output_mode='count'. Received: output_mode={self.output_mode!r}"
            )
        out = encode_categorical(indices, self.output_mode, self.num_tokens, self.compute_dtype, count_weights)
        return sparse_outputs.to_sparse(out) if self.sparse else out

    def compute_output_shape(self, input_shape):
        return encoded_shape(input_shape, self.output_mode, self.num_tokens)

    def compute_output_spec(self, inputs, count_weights=None):
        return KerasTensor(self.compute_output_shape(inputs.shape), self.compute_dtype, sparse=self.sparse)

    def get_config(self):
        config = super().get_config()
        config.update({"num_tokens": self.num_tokens, "output_mode": self.output_mode, "sparse": self.sparse})
        return config
