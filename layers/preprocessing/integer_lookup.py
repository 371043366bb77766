"""IntegerLookup: integer tokens to contiguous vocabulary indices (or encoded vectors), and back."""

from ._index_lookup import IndexLookup


class IntegerLookup(IndexLookup):
    """Maps integer tokens to vocabulary indices (``keras.layers.IntegerLookup``).

    The vocabulary is given (``vocabulary=``, a list or a text file) or learned with :meth:`adapt` (most
    frequent first, ties broken by the larger token). With ``output_mode="int"`` the output holds indices:
    0 for the mask token (if any), then the OOV indices, then the vocabulary; other modes encode the last
    axis as one-hot, multi-hot, count or TF-IDF vectors. ``invert=True`` maps indices back to tokens.
    The lookup runs on the host (as in Keras, it is not part of a jitted graph); outputs are tensors of
    the current backend. The vocabulary (given or adapted) is kept in :meth:`get_config`, so it survives
    ``from_config`` and ``model.save``.

    Args:
        max_tokens: vocabulary size cap, mask and OOV indices included (None: no cap).
        num_oov_indices: number of OOV indices (default 1; more spread OOV tokens by ``oov_method``;
            0 makes OOV inputs an error).
        mask_token: integer that marks padding (None: no mask).
        oov_token: returned for OOV indices by ``invert=True`` (default -1).
        vocabulary: list/array of integers or a path to a file with one integer per line.
        vocabulary_dtype: only ``"int64"``.
        idf_weights: TF-IDF weights (``output_mode="tf_idf"`` with a given vocabulary).
        invert: map indices to tokens instead.
        output_mode: ``"int"``, ``"one_hot"``, ``"multi_hot"``, ``"count"`` or ``"tf_idf"``.
        sparse: must be False.
        pad_to_max_tokens: encoded outputs always have ``max_tokens`` bins.
        oov_method: ``"floormod"`` (``token % num_oov_indices``) or ``"farmhash"``.
        salt: key of the SipHash used with ``oov_method="farmhash"``.
        name: optional name of the layer.
        **kwargs: base layer arguments (``name``...).

    Input shape: any (integers). Output shape: the input's for ``"int"``, else ``(..., depth)``.

    Raises:
        ValueError: if ``vocabulary_dtype`` is not ``"int64"``.

    >>> import highlevel as hl
    >>> import numpy as np
    >>> layer = hl.layers.IntegerLookup(vocabulary=[12, 36, 1138, 42])
    >>> hl.ops.convert_to_numpy(layer(np.array([[12, 1138, 42], [42, 1000, 36]]))).tolist()
    [[1, 3, 4], [4, 0, 2]]
    >>> layer.get_vocabulary()
    [-1, 12, 36, 1138, 42]
    """

    def __init__(
        self,
        max_tokens=None,
        num_oov_indices=1,
        mask_token=None,
        oov_token=-1,
        vocabulary=None,
        vocabulary_dtype="int64",
        idf_weights=None,
        invert=False,
        output_mode="int",
        sparse=False,
        pad_to_max_tokens=False,
        oov_method="floormod",
        salt=None,
        name=None,
        **kwargs,
    ):
        if vocabulary_dtype != "int64":
            raise ValueError(
                f"Only `vocabulary_dtype='int64'` is supported at this time. Received: "
                f"vocabulary_dtype={vocabulary_dtype}"
            )
        super().__init__(
            max_tokens=max_tokens,
            num_oov_indices=num_oov_indices,
            mask_token=None if mask_token is None else int(mask_token),
            oov_token=None if oov_token is None else int(oov_token),
            vocabulary_dtype="int64",
            vocabulary=vocabulary,
            idf_weights=idf_weights,
            invert=invert,
            output_mode=output_mode,
            sparse=sparse,
            pad_to_max_tokens=pad_to_max_tokens,
            oov_method=oov_method,
            salt=salt,
            name=name,
            **kwargs,
        )
