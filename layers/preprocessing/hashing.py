"""Hashing: strings or integers to a fixed number of bins with Keras' (TensorFlow's) string hashes."""

import numpy as np

from highlevel import ops, sparse_outputs
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._categorical import HostInputs, encode_categorical, encoded_shape, host_array, validate_output_mode
from ._fingerprint import hash_bucket_fast, hash_bucket_strong


class Hashing(HostInputs, Layer):
    """Hashes categorical features into ``num_bins`` bins (``keras.layers.Hashing``).

    Each value is hashed through its string form (integers as decimal text, floats truncated to integers
    first) with FarmHash ``Fingerprint64`` — or, when ``salt`` is given, with SipHash-2-4 keyed by the salt
    — exactly as Keras does, so a value gets the same bin as in Keras on every backend. Hashing runs on
    the host (string inputs stay numpy arrays); the bins are returned as a tensor of the current backend.
    Like Keras' layer it cannot run inside a traced/jitted function: use it in the data pipeline or in
    models run eagerly.

    Args:
        num_bins: the number of bins, mask bin included.
        mask_value: values equal to it go to bin 0 and the others to bins ``[1, num_bins)`` (None: no mask).
        salt: an int or a pair of ints: use the keyed (strong) hash with this key.
        output_mode: ``"int"`` (bin ids, int64 by default), ``"one_hot"``, ``"multi_hot"`` or ``"count"``.
        sparse: return a sparse tensor (``tf.SparseTensor``) in the encoding modes; TensorFlow backend only.
        **kwargs: base layer arguments (``name``, ``dtype``).

    Input shape: any (strings, integers or floats). Output shape: the input's for ``"int"``, else
    ``(..., num_bins)``.

    Raises:
        ValueError: if ``num_bins`` is not positive, ``dtype`` is not an int type with ``output_mode="int"``,
            ``sparse=True`` with ``output_mode="int"``, or ``salt`` is neither an int nor a pair of ints.

    >>> import highlevel as hl
    >>> import numpy as np
    >>> layer = hl.layers.Hashing(num_bins=3)
    >>> hl.ops.convert_to_numpy(layer(np.array([["A"], ["B"], ["C"], ["D"], ["E"]]))).tolist()
    [[1], [0], [1], [1], [2]]
    """

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False, **kwargs):
        if kwargs.get("dtype") is None:
            from highlevel import config as _config

            kwargs["dtype"] = "int64" if output_mode == "int" else _config.floatx()
        super().__init__(**kwargs)
        if (
            num_bins is None
            or isinstance(num_bins, bool)
            or not isinstance(num_bins, (int, np.integer))
            or num_bins <= 0
        ):
            raise ValueError(
                f"The `num_bins` for `Hashing` cannot be `None` or non-positive values. Received: "
                f"num_bins={num_bins!r}."
            )
        validate_output_mode(output_mode, ("int", "one_hot", "multi_hot", "count"), "Hashing")
        if output_mode == "int" and self.dtype not in ("int32", "int64"):
            raise ValueError(
                f"When `output_mode=\"int\"`, `dtype` should be an integer type, 'int32' or "
                f"'int64'. Received: dtype={self.dtype}"
            )
        if sparse and output_mode == "int":
            raise ValueError(
                "`sparse` may only be true if `output_mode` is 'one_hot', 'multi_hot', or 'count'. "
                f"Received: sparse={sparse} and output_mode={output_mode}"
            )
        if sparse:
            sparse_outputs.check_supported("Hashing", "sparse")
        if salt is not None:
            if (
                isinstance(salt, (tuple, list))
                and len(salt) == 2
                and all(isinstance(s, (int, np.integer)) for s in salt)
            ):
                salt = [int(s) for s in salt]
            elif isinstance(salt, (int, np.integer)) and not isinstance(salt, bool):
                salt = [int(salt), int(salt)]
            else:
                raise ValueError(
                    f"The `salt` argument for `Hashing` can only be a tuple of size 2 integers, or a "
                    f"single integer. Received: salt={salt!r}."
                )
        self.num_bins = int(num_bins)
        self.mask_value = mask_value
        self.salt = salt
        self.strong_hash = salt is not None
        self.output_mode = output_mode
        self.sparse = bool(sparse)
        self.autocast = False
        self.built = True
        # Runs on the host (numpy): cannot be traced into a jitted step (the trainer may check this).
        self.supports_jit = False

    def hash_values(self, values):
        """The bin of each value (a host numpy array in, an int64 numpy array of the same shape out)."""
        values = host_array(values)
        bins = self.num_bins
        mask = None
        if self.mask_value is not None and bins > 1:
            bins -= 1
            mask_value = self.mask_value
            if isinstance(mask_value, bytes):  # text inputs are str arrays on the host
                mask_value = mask_value.decode("utf-8")
            mask = values == mask_value
        if self.strong_hash:
            out = hash_bucket_strong(values, bins, self.salt)
        else:
            out = hash_bucket_fast(values, bins)
        if mask is not None:
            out = np.where(mask, 0, out + 1)
        return out

    def call(self, inputs):
        indices = ops.convert_to_tensor(self.hash_values(inputs), dtype="int64")
        out = encode_categorical(indices, self.output_mode, self.num_bins, self.compute_dtype)
        return sparse_outputs.to_sparse(out) if self.sparse else out

    def compute_output_shape(self, input_shape):
        return encoded_shape(input_shape, self.output_mode, self.num_bins)

    def compute_output_spec(self, inputs):
        return KerasTensor(self.compute_output_shape(inputs.shape), self.compute_dtype, sparse=self.sparse)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "num_bins": self.num_bins,
                "salt": self.salt,
                "mask_value": self.mask_value,
                "output_mode": self.output_mode,
                "sparse": self.sparse,
            }
        )
        return config
