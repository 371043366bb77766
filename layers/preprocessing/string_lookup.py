"""StringLookup: string tokens to contiguous vocabulary indices (or encoded vectors), and back."""

from ._index_lookup import IndexLookup


class StringLookup(IndexLookup):
    """Maps string tokens to vocabulary indices (``keras.layers.StringLookup``).

    JAX and torch have no string tensors, so inputs are host data (numpy arrays of ``str``/``bytes``/object,
    nested lists of str, or TensorFlow string tensors); the lookup runs on the host and the indices or
    encodings come back as tensors of the current backend. ``invert=True`` returns a numpy ``str`` array.
    Index layout, adapt order, OOV hashing (FarmHash Fingerprint64, or SipHash with ``salt``) and outputs
    follow Keras exactly; the vocabulary (given or adapted) is kept in :meth:`get_config`.

    Args:
        max_tokens: vocabulary size cap, mask and OOV indices included (None: no cap).
        num_oov_indices: number of OOV indices (default 1; 0 makes OOV inputs an error).
        mask_token: string that marks padding (None: no mask).
        oov_token: returned for OOV indices by ``invert=True`` (default ``"[UNK]"``).
        vocabulary: list/array of strings or a path to a file with one token per line.
        idf_weights: TF-IDF weights (``output_mode="tf_idf"`` with a given vocabulary).
        invert: map indices to tokens instead.
        output_mode: ``"int"``, ``"one_hot"``, ``"multi_hot"``, ``"count"`` or ``"tf_idf"``.
        pad_to_max_tokens: encoded outputs always have ``max_tokens`` bins.
        sparse: must be False.
        encoding: text encoding of ``bytes`` inputs (default ``"utf-8"``).
        salt: key of the SipHash used to spread OOV tokens (an int or a pair of ints).
        name: optional name of the layer.
        **kwargs: base layer arguments (``name``...).

    Input shape: any (strings). Output shape: the input's for ``"int"``, else ``(..., depth)``.

    >>> import highlevel as hl
    >>> import numpy as np
    >>> layer = hl.layers.StringLookup(vocabulary=["a", "b", "c", "d"])
    >>> hl.ops.convert_to_numpy(layer(np.array([["a", "c", "d"], ["d", "z", "b"]]))).tolist()
    [[1, 3, 4], [4, 0, 2]]
    """

    def __init__(
        self,
        max_tokens=None,
        num_oov_indices=1,
        mask_token=None,
        oov_token="[UNK]",
        vocabulary=None,
        idf_weights=None,
        invert=False,
        output_mode="int",
        pad_to_max_tokens=False,
        sparse=False,
        encoding="utf-8",
        name=None,
        salt=None,
        **kwargs,
    ):
        kwargs.pop("vocabulary_dtype", None)
        self.encoding = encoding
        self._input_encoding = encoding
        super().__init__(
            max_tokens=max_tokens,
            num_oov_indices=num_oov_indices,
            mask_token=mask_token,
            oov_token=oov_token,
            vocabulary_dtype="string",
            vocabulary=vocabulary,
            idf_weights=idf_weights,
            invert=invert,
            output_mode=output_mode,
            sparse=sparse,
            pad_to_max_tokens=pad_to_max_tokens,
            name=name,
            salt=salt,
            **kwargs,
        )

    def get_config(self):
        config = super().get_config()
        del config["vocabulary_dtype"]  # always strings
        config["encoding"] = self.encoding
        return config
