"""HashedCrossing: the cross of several categorical features, hashed into a fixed number of bins, with the same
bins as Keras (TensorFlow's ``tf.sparse.cross_hashed``)."""

import numpy as np

from highlevel import ops, sparse_outputs
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._categorical import HostInputs, encode_categorical, encoded_shape, host_array, validate_output_mode
from ._fingerprint import fingerprint64

_MASK = (1 << 64) - 1
_CROSS_KEY = 0xDECAFCAFFE  # TensorFlow's default key of hashed crosses
_CAT_MUL = 0xC6A4A7935BD1E995


def _shift_mix(v):
    return v ^ (v >> 47)


def _fingerprint_cat64(fp1, fp2):
    """TensorFlow's ``FingerprintCat64``: mixes two 64-bit fingerprints into one."""
    result = fp1 ^ _CAT_MUL
    result ^= (_shift_mix((fp2 * _CAT_MUL) & _MASK) * _CAT_MUL) & _MASK
    result = (result * _CAT_MUL) & _MASK
    result = (_shift_mix(result) * _CAT_MUL) & _MASK
    return _shift_mix(result)


def _feature_hash(value):
    """A feature's 64-bit hash in a cross: integers are their own (two's complement) value, strings their
    FarmHash ``Fingerprint64``."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value) & _MASK
    if isinstance(value, bytes):
        return fingerprint64(value)
    return fingerprint64(str(value).encode("utf-8"))


def cross_hash(columns, num_bins):
    """The bin of each row's cross: ``columns`` are equally long 1-D arrays, one per feature."""
    out = np.empty(len(columns[0]), dtype="int64")
    for row, values in enumerate(zip(*[c.tolist() for c in columns])):
        h = _CROSS_KEY
        for value in values:
            h = _fingerprint_cat64(h, _feature_hash(value))
        out[row] = h % num_bins
    return out


class HashedCrossing(HostInputs, Layer):
    """Crosses categorical features and hashes each combination into ``num_bins`` bins
    (``keras.layers.HashedCrossing``).

    The bins are the ones Keras gives (``tf.sparse.cross_hashed``: integers enter the hash as their value,
    strings through FarmHash ``Fingerprint64``, combined with ``FingerprintCat64``), computed on the host without
    TensorFlow. Like Keras's layer it cannot run inside a traced/jitted function: use it in the data pipeline or
    in models run eagerly.

    Args:
        num_bins: the number of bins.
        output_mode: ``"int"`` (bin ids, int64 by default) or ``"one_hot"``.
        sparse: return the one-hot encoding as a sparse tensor (``tf.SparseTensor``); TensorFlow backend only.
        name: optional name of the layer.
        dtype: optional dtype of the layer's output (default int64 for ``"int"`` output).
        **kwargs: base layer arguments (``name``, ``dtype``).

    Call on a list or tuple of at least two inputs of the same shape, ``()``, ``(batch,)`` or ``(batch, 1)``:
    integers or strings. Output: one bin per row, in the inputs' shape (``"int"``), or one-hot rows.

    Raises:
        ValueError: if ``num_bins`` is not a positive int, ``output_mode`` is not ``"int"`` or ``"one_hot"``, or
            ``sparse=True`` on an engine without sparse tensors.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> layer = hl.layers.HashedCrossing(num_bins=5)
    >>> hl.ops.convert_to_numpy(layer((np.array(["A", "B"]), np.array([101, 102])))).tolist()
    [1, 1]
    """

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, dtype=None, **kwargs):
        if dtype is None:
            from highlevel import config as _config

            dtype = "int64" if output_mode == "int" else _config.floatx()
        super().__init__(name=name, dtype=dtype, **kwargs)
        if isinstance(num_bins, bool) or not isinstance(num_bins, (int, np.integer)) or num_bins <= 0:
            raise ValueError(f"`num_bins` of HashedCrossing must be a positive int; received num_bins={num_bins!r}.")
        validate_output_mode(output_mode, ("int", "one_hot"), "HashedCrossing")
        if sparse:
            sparse_outputs.check_supported("HashedCrossing", "sparse")
        self.num_bins = int(num_bins)
        self.output_mode = output_mode
        self.sparse = bool(sparse)
        self.autocast = False
        self.built = True
        self.supports_jit = False  # hashes on the host

    def _check(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < 2:
            raise ValueError(
                "HashedCrossing is called on a list or tuple of at least 2 inputs (the features to cross); "
                f"received {type(inputs).__name__}."
            )
        shapes = {tuple(x.shape) if hasattr(x, "shape") else tuple(np.shape(x)) for x in inputs}
        if len(shapes) != 1:
            raise ValueError(
                f"All inputs of HashedCrossing must have the same shape; received shapes {sorted(shapes)}."
            )
        shape = shapes.pop()
        if len(shape) > 2 or (len(shape) == 2 and shape[1] not in (1, None)):
            raise ValueError(
                "HashedCrossing crosses one value per feature per sample: inputs of shape (), (batch,) or "
                f"(batch, 1); received shape {shape}."
            )
        return shape

    def call(self, inputs):
        shape = self._check(inputs)
        columns = []
        for x in inputs:
            values = host_array(x).reshape(-1)
            if values.dtype.kind == "f":
                raise ValueError(
                    "HashedCrossing crosses integer or string features; received a float input. Discretize or "
                    "cast it first."
                )
            columns.append(values.astype("int64") if values.dtype.kind in "iub" else values)
        bins = ops.convert_to_tensor(cross_hash(columns, self.num_bins).reshape(shape), dtype="int64")
        out = encode_categorical(bins, self.output_mode, self.num_bins, self.compute_dtype)
        # as in Keras, only the one-hot encoding is sparse ("int" output stays dense)
        return sparse_outputs.to_sparse(out) if self._sparse_output else out

    @property
    def _sparse_output(self):
        return self.sparse and self.output_mode != "int"

    def compute_output_shape(self, input_shape):
        shape = (
            input_shape[0]
            if isinstance(input_shape, (list, tuple)) and input_shape and isinstance(input_shape[0], (list, tuple))
            else input_shape
        )
        return encoded_shape(tuple(shape), self.output_mode, self.num_bins)

    def compute_output_spec(self, inputs):
        self._check(inputs)
        shape = self.compute_output_shape([tuple(x.shape) for x in inputs])
        return KerasTensor(shape, self.compute_dtype, sparse=self._sparse_output)

    def get_config(self):
        config = super().get_config()
        config.update({"num_bins": self.num_bins, "output_mode": self.output_mode, "sparse": self.sparse})
        return config
