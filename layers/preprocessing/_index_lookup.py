"""IndexLookup: the shared vocabulary-lookup base of IntegerLookup and StringLookup (Keras' semantics).

The vocabulary is kept on the host as a numpy array; lookups run on the host (numpy ``searchsorted``),
like Keras, whose lookup layers run TensorFlow ops and cannot be part of a jitted graph on other backends.
The indices then become tensors of the current backend and are encoded (one-hot, multi-hot, count,
TF-IDF) with ``hl.ops``.

Layout of the indices, as in Keras: with ``output_mode="int"`` index 0 is the mask token (when one is set),
then ``num_oov_indices`` OOV indices, then the vocabulary in order; in the other modes there is no mask
index (mask tokens are dropped).

>>> import numpy as np
>>> layer = IndexLookup(max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1,
...                     vocabulary_dtype="int64", vocabulary=[12, 36, 1138, 42])
>>> layer.lookup_indices(np.array([[12, 1138, 42], [42, 1000, 36]])).tolist()
[[1, 3, 4], [4, 0, 2]]
"""

import collections
import os

import numpy as np

from highlevel import config as _config
from highlevel import ops, sparse_outputs
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._categorical import HostInputs, batches_of, encode_categorical, encoded_shape, host_array
from ._fingerprint import hash_bucket_fast, hash_bucket_strong

_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")


class IndexLookup(HostInputs, Layer):
    """Maps tokens to indices of a vocabulary (set or adapted); see IntegerLookup and StringLookup.

    Args:
        max_tokens: the vocabulary size cap, special tokens included (None: no cap).
        num_oov_indices: the number of out-of-vocabulary indices (0: OOV inputs raise).
        mask_token: the token that marks padding (None: no mask).
        oov_token: the token an inverse lookup returns for OOV indices.
        vocabulary_dtype: ``"int64"`` or ``"string"``.
        vocabulary: a list/array of tokens, or the path of a text file with one token per line.
        idf_weights: the TF-IDF weights of the vocabulary (``output_mode="tf_idf"`` with a set vocabulary).
        invert: map indices back to tokens (``output_mode="int"`` only).
        output_mode: ``"int"``, ``"one_hot"``, ``"multi_hot"``, ``"count"`` or ``"tf_idf"``.
        sparse: return a sparse tensor (``tf.SparseTensor``) in the encoding modes; TensorFlow backend only.
        pad_to_max_tokens: encoded outputs have ``max_tokens`` bins even for a smaller vocabulary.
        oov_method: ``"floormod"`` or ``"farmhash"``: how integers are spread over several OOV indices.
        salt: key of the strong (SipHash) hash for OOV buckets (an int or a pair of ints).
    """

    def __init__(
        self,
        max_tokens,
        num_oov_indices,
        mask_token,
        oov_token,
        vocabulary_dtype,
        vocabulary=None,
        idf_weights=None,
        invert=False,
        output_mode="int",
        sparse=False,
        pad_to_max_tokens=False,
        oov_method="floormod",
        salt=None,
        **kwargs,
    ):
        name = type(self).__name__
        if max_tokens is not None and (
            isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens <= 1
        ):
            raise ValueError(f"If set, `max_tokens` must be greater than 1. Received: max_tokens={max_tokens!r}")
        if pad_to_max_tokens and max_tokens is None:
            raise ValueError(f"If pad_to_max_tokens is True, must set `max_tokens`. Received: max_tokens={max_tokens}")
        if isinstance(num_oov_indices, bool) or not isinstance(num_oov_indices, int) or num_oov_indices < 0:
            raise ValueError(
                f"`num_oov_indices` must be greater than or equal to 0. Received: num_oov_indices={num_oov_indices!r}"
            )
        if oov_method not in ("floormod", "farmhash"):
            raise ValueError(
                f"Invalid value for argument `oov_method` of {name}. Expected one of "
                f"('floormod', 'farmhash'). Received: oov_method={oov_method!r}"
            )
        if salt is not None and oov_method != "farmhash" and vocabulary_dtype != "string":
            raise ValueError(f"`salt` can only be used when `oov_method='farmhash'`. Received: oov_method={oov_method}")
        if output_mode == "binary":
            output_mode = "multi_hot"
        if output_mode == "tf-idf":
            output_mode = "tf_idf"
        if output_mode not in _MODES:
            raise ValueError(
                f"Invalid value for argument `output_mode` of {name}. Expected one of {_MODES}. "
                f"Received: output_mode={output_mode!r}"
            )
        if invert and output_mode != "int":
            raise ValueError(
                f"`output_mode` must be `'int'` when `invert` is true. Received: output_mode={output_mode}"
            )
        if sparse and output_mode == "int":
            raise ValueError(
                "`sparse` may only be true if `output_mode` is 'one_hot', 'multi_hot', 'count' or 'tf_idf'. "
                f"Received: sparse={sparse} and output_mode={output_mode}"
            )
        if sparse:
            sparse_outputs.check_supported(name, "sparse")
        if idf_weights is not None and output_mode != "tf_idf":
            raise ValueError(
                f"`idf_weights` should only be set if `output_mode` is `'tf_idf'`. Received: "
                f"idf_weights={idf_weights} and output_mode={output_mode}"
            )
        self._has_input_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        kwargs.pop("vocabulary_size", None)  # Keras records it in the config; it follows from the vocabulary
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else _config.floatx()
        super().__init__(**kwargs)
        self.autocast = False
        # Runs on the host (numpy): cannot be traced into a jitted step (the trainer may check this).
        self.supports_jit = False
        self.max_tokens = max_tokens
        self.num_oov_indices = num_oov_indices
        self.mask_token = mask_token
        self.oov_token = oov_token
        self.vocabulary_dtype = vocabulary_dtype
        self.invert = bool(invert)
        self.output_mode = output_mode
        self.sparse = bool(sparse)
        self.pad_to_max_tokens = bool(pad_to_max_tokens)
        self.oov_method = oov_method
        self.salt = None if salt is None else ([int(salt)] * 2 if isinstance(salt, int) else [int(s) for s in salt])
        self._tokens = None
        self.idf_weights = None
        self._frozen_vocab_size = None
        if isinstance(vocabulary, (str, os.PathLike)):
            vocabulary = self._read_vocabulary_file(vocabulary)
        self.input_vocabulary = self._listify(vocabulary)
        self.input_idf_weights = None if idf_weights is None else np.asarray(idf_weights, "float64").tolist()
        if output_mode == "tf_idf" and self._has_input_vocabulary and idf_weights is None:
            raise ValueError(
                "When specifying the `vocabulary` argument, in TF-IDF output mode, the "
                "`idf_weights` argument must also be provided."
            )
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)
        self.built = True

    # --------------------------------------------------------------- vocabulary
    def _listify(self, values):
        if values is None:
            return None
        arr = host_array(values)
        if self.vocabulary_dtype == "string":
            return [str(v) for v in arr.reshape(-1).tolist()]
        return [int(v) for v in arr.reshape(-1).tolist()]

    def _read_vocabulary_file(self, path):
        if not os.path.exists(path):
            raise ValueError(f"Vocabulary file {path!r} does not exist.")
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        while lines and lines[-1] == "":
            lines.pop()
        return lines if self.vocabulary_dtype == "string" else [int(line) for line in lines]

    def _as_token_array(self, values):
        arr = host_array(values)
        if self.vocabulary_dtype == "string":
            return arr.astype(str)
        if arr.dtype.kind not in "iu":
            raise ValueError(f"{type(self).__name__} expects integer tokens; received data of dtype {arr.dtype}.")
        return arr.astype("int64")

    def _oov_start_index(self):
        return 1 if self.mask_token is not None and self.output_mode == "int" else 0

    def _token_start_index(self):
        return self._oov_start_index() + self.num_oov_indices

    def _special_tokens(self):
        return [self.mask_token] * self._oov_start_index() + [self.oov_token] * self.num_oov_indices

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Sets the vocabulary (and, in ``"tf_idf"`` mode, the IDF weights) directly.

        The vocabulary may start with the special tokens (mask, then OOV, in the layer's order); they are
        then recognised and not repeated. Raises on repeated tokens or special tokens elsewhere.
        """
        if self.output_mode == "tf_idf":
            if idf_weights is None:
                raise ValueError("`idf_weights` must be set if output_mode is 'tf_idf'.")
        elif idf_weights is not None:
            raise ValueError(
                f"`idf_weights` should only be set if output_mode is `'tf_idf'`. Received: "
                f"output_mode={self.output_mode} and idf_weights={idf_weights}"
            )
        if isinstance(vocabulary, (str, os.PathLike)):
            vocabulary = self._read_vocabulary_file(vocabulary)
        vocab = self._as_token_array(vocabulary).reshape(-1)
        if vocab.size == 0:
            raise ValueError(f"Cannot set an empty vocabulary. Received: vocabulary={vocabulary}")
        token_start = self._token_start_index()
        specials = self._special_tokens()
        found_specials = len(vocab) >= token_start and vocab[:token_start].tolist() == specials
        tokens = vocab[token_start:] if found_specials else vocab
        repeated = [t for t, c in collections.Counter(tokens.tolist()).items() if c > 1]
        if repeated:
            raise ValueError(
                f"The passed vocabulary has at least one repeated term. Please uniquify your "
                f"dataset. The repeated terms are: {repeated}"
            )
        listed = tokens.tolist()
        if self.mask_token is not None and self.mask_token in listed:
            raise ValueError(
                f"Found reserved mask token at unexpected location in `vocabulary`. Note that "
                f"passed `vocabulary` does not need to include the OOV and mask tokens. Either "
                f"remove all mask and OOV tokens, or include them only at the start of the "
                f"vocabulary in precisely this order: {specials}. Received: "
                f"mask_token={self.mask_token} at vocabulary index {listed.index(self.mask_token)}"
            )
        if self.invert and self.oov_token is not None and self.num_oov_indices and self.oov_token in listed:
            raise ValueError(
                f"Found reserved OOV token at unexpected location in `vocabulary`. Either remove "
                f"all mask and OOV tokens, or include them only at the start of the vocabulary in "
                f"precisely this order: {specials}. Received: oov_token={self.oov_token} at "
                f"vocabulary index {listed.index(self.oov_token)}"
            )
        size = token_start + len(tokens)
        if self.max_tokens is not None and size > self.max_tokens:
            raise ValueError(
                f"Attempted to set a vocabulary larger than the maximum vocab size. Received "
                f"vocabulary size is {size}; `max_tokens` is {self.max_tokens}."
            )
        self._check_frozen_size(size)
        self._set_tokens(tokens)
        if self.output_mode == "tf_idf":
            idf = np.asarray(host_array(idf_weights), dtype="float64").reshape(-1)
            if len(vocab) != len(idf):
                raise ValueError(
                    f"`idf_weights` must be the same length as vocabulary. len(idf_weights) is "
                    f"{len(idf)}; len(vocabulary) is {len(vocab)}"
                )
            front = 0 if found_specials else token_start
            self.idf_weights = self._pad_idf(idf, front, float(np.average(idf)))

    def _pad_idf(self, idf, front, front_value):
        back = self.max_tokens - front - len(idf) if self.pad_to_max_tokens and self.max_tokens else 0
        return np.pad(idf, (front, max(back, 0)), constant_values=(front_value, 0)).astype(_config.floatx())

    def _check_frozen_size(self, size):
        if (
            self.output_mode != "int"
            and not self.pad_to_max_tokens
            and self._frozen_vocab_size is not None
            and size != self._frozen_vocab_size
        ):
            raise RuntimeError(
                f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, the "
                f"vocabulary size cannot be changed after the layer is called. Old vocab size is "
                f"{self._frozen_vocab_size}, new vocab size is {size}"
            )

    def _set_tokens(self, tokens):
        self._tokens = tokens
        self._order = np.argsort(tokens, kind="stable")
        self._sorted = tokens[self._order]

    def get_vocabulary(self, include_special_tokens=True):
        """The vocabulary as a list; with the special tokens a token's position is its index."""
        tokens = [] if self._tokens is None else self._tokens.tolist()
        vocab = self._special_tokens() + tokens
        if not include_special_tokens:
            return vocab[self._token_start_index() :]
        return vocab

    def vocabulary_size(self):
        """The size of the vocabulary, mask and OOV indices included."""
        return (0 if self._tokens is None else len(self._tokens)) + self._token_start_index()

    # -------------------------------------------------------------------- adapt
    def adapt(self, data, steps=None):
        """Learns the vocabulary from ``data``: tokens sorted by count (ties: larger token first), capped
        to ``max_tokens``; in ``"tf_idf"`` mode also the IDF weights ``log(1 + docs / (1 + doc_count))``.

        An array is split into documents along its first axis (a 1-D array: one token per document); each
        batch of an iterable is one document when 1-D.
        """
        is_array = not (
            hasattr(data, "__iter__")
            and not isinstance(data, (list, tuple, np.ndarray, str))
            and not ops.is_tensor(data)
        )

        def documents():
            for batch in batches_of(data, steps):
                batch = self._as_token_array(batch)
                if batch.ndim == 0:
                    batch = batch.reshape(1, 1)
                elif batch.ndim == 1:
                    batch = batch.reshape(-1, 1) if is_array else batch.reshape(1, -1)
                yield from batch.reshape(batch.shape[0], -1)

        self.learn_vocabulary(documents())

    def learn_vocabulary(self, documents):
        """Sets the vocabulary (and IDF weights) from an iterable of documents (sequences of tokens)."""
        if self._has_input_vocabulary:
            raise ValueError(
                f"Cannot adapt layer '{self.name}' after setting a static vocabulary via "
                "`vocabulary` argument or `set_vocabulary()` method."
            )
        counts, doc_counts, num_docs = collections.Counter(), collections.Counter(), 0
        for doc in documents:
            doc = doc.tolist() if isinstance(doc, np.ndarray) else list(doc)
            counts.update(doc)
            if self.output_mode == "tf_idf":
                doc_counts.update(set(doc))
                num_docs += 1
        for special in (self.mask_token, self.oov_token):
            if special is not None:
                counts.pop(special, None)
        if not counts:
            self._record_size()
            return
        tokens = np.asarray(list(counts.keys()))
        if self.vocabulary_dtype == "string":
            tokens = tokens.astype(str)
        freq = np.asarray(list(counts.values()), dtype="int64")
        order = np.lexsort((tokens, freq))[::-1]
        if self.max_tokens:
            order = order[: self.max_tokens - self._token_start_index()]
        tokens = tokens[order]
        self._check_frozen_size(self._token_start_index() + len(tokens))
        self._set_tokens(tokens)
        if self.output_mode == "tf_idf":
            dc = np.asarray([doc_counts[t] for t in tokens.tolist()], dtype="float64")
            idf = np.log(1 + num_docs / (1 + dc)).astype("float32")
            self.idf_weights = self._pad_idf(idf, self._token_start_index(), float(np.mean(idf)))
        self._record_size()

    def _record_size(self):
        self._frozen_vocab_size = self.vocabulary_size()

    # --------------------------------------------------------------------- call
    def lookup_indices(self, values):
        """The int64 indices of ``values`` (host data) as a numpy array, mask and OOV handled."""
        values = self._as_token_array(values)
        if self._tokens is None:
            raise RuntimeError(f"Layer '{self.name}' has no vocabulary: pass `vocabulary=` or call adapt() first.")
        default = self._oov_start_index() if self.num_oov_indices == 1 else -1
        if len(self._sorted):
            pos = np.clip(np.searchsorted(self._sorted, values), 0, len(self._sorted) - 1)
            found = self._sorted[pos] == values
            out = np.where(found, self._order[pos] + self._token_start_index(), default).astype("int64")
        else:
            found = np.zeros(values.shape, bool)
            out = np.full(values.shape, default, dtype="int64")
        is_mask = (values == self.mask_token) if self.mask_token is not None else np.zeros(values.shape, bool)
        oov = ~found & ~is_mask
        if self.num_oov_indices == 0 and oov.any():
            raise ValueError(
                f"When `num_oov_indices=0` all inputs should be in vocabulary, found OOV values "
                f"{np.unique(values[oov]).tolist()}, consider setting `num_oov_indices=1`."
            )
        if self.num_oov_indices > 1 and oov.any():
            out = np.where(oov, self._oov_buckets(values) + self._oov_start_index(), out)
        if self.mask_token is not None:
            # int mode: index 0; other modes: out of range, so the encoding drops it.
            out = np.where(is_mask, 0 if self.output_mode == "int" else np.iinfo("int64").max, out)
        return out

    def _oov_buckets(self, values):
        n = self.num_oov_indices
        if self.vocabulary_dtype != "string" and self.oov_method != "farmhash":
            return np.mod(values, n)
        if self.salt is not None:
            return hash_bucket_strong(values, n, self.salt)
        return hash_bucket_fast(values, n)

    def _invert(self, indices):
        indices = host_array(indices).astype("int64")
        vocab = np.asarray(self.get_vocabulary(), dtype=object)
        inside = (indices >= 0) & (indices < len(vocab))
        out = np.where(inside, vocab[np.clip(indices, 0, len(vocab) - 1)], self.oov_token)
        if self.mask_token is not None:
            out = np.where(indices == 0, self.mask_token, out)
        if self.vocabulary_dtype == "string":
            return out.astype(str)
        return ops.convert_to_tensor(out.astype("int64"), dtype="int64")

    def _depth(self):
        return self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size or self.vocabulary_size()

    def call(self, inputs):
        if self.invert:
            return self._invert(inputs)
        if self.output_mode != "int" and not self.pad_to_max_tokens and self._tokens is None:
            raise RuntimeError(
                f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, you "
                "must set the layer's vocabulary before calling it. Either pass a `vocabulary` "
                "argument to the layer, or call `adapt` with some sample data."
            )
        indices = self.lookup_indices(inputs)
        if self.output_mode == "int":
            return ops.convert_to_tensor(indices, dtype="int64")
        self._record_size()
        depth = self._depth()
        indices = np.where((indices < 0) | (indices >= depth), -1, indices)  # dropped by the encoding
        mode = "count" if self.output_mode == "tf_idf" else self.output_mode
        out = encode_categorical(ops.convert_to_tensor(indices, dtype="int64"), mode, depth, self.compute_dtype)
        if self.output_mode == "tf_idf":
            idf = self.idf_weights
            if idf is None:
                raise ValueError("When `output_mode` is `'tf_idf'`, `idf_weights` must be provided.")
            out = ops.multiply(out, ops.convert_to_tensor(np.asarray(idf)[:depth], dtype=self.compute_dtype))
        return sparse_outputs.to_sparse(out) if self.sparse else out

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        return encoded_shape(input_shape, self.output_mode if self.output_mode != "tf_idf" else "count", self._depth())

    def compute_output_spec(self, inputs):
        if self.output_mode == "int":
            dtype = "int64"
            if self.invert and self.vocabulary_dtype == "string":
                raise TypeError(
                    f"{type(self).__name__}(invert=True) returns strings, which have no symbolic "
                    "tensor type; apply it to the model's output (host data) instead."
                )
        else:
            dtype = self.compute_dtype
        return KerasTensor(self.compute_output_shape(inputs.shape), dtype, sparse=self.sparse)

    # ------------------------------------------------------------------- config
    def get_config(self):
        """The constructor arguments. An adapted vocabulary (and IDF weights) is stored here too, with
        ``has_input_vocabulary=False`` so the rebuilt layer can still be adapted — the model file then
        needs no separate asset."""
        config = super().get_config()
        vocabulary, idf = self.input_vocabulary, self.input_idf_weights
        if vocabulary is None and self._tokens is not None:
            vocabulary = self.get_vocabulary()
            if self.output_mode == "tf_idf" and self.idf_weights is not None:
                idf = np.asarray(self.idf_weights, "float64")[: len(vocabulary)].tolist()
        config.update(
            {
                "invert": self.invert,
                "max_tokens": self.max_tokens,
                "num_oov_indices": self.num_oov_indices,
                "oov_token": self.oov_token,
                "mask_token": self.mask_token,
                "output_mode": self.output_mode,
                "sparse": self.sparse,
                "pad_to_max_tokens": self.pad_to_max_tokens,
                "vocabulary_dtype": self.vocabulary_dtype,
                "idf_weights": idf,
                "vocabulary": vocabulary,
                "vocabulary_size": self._frozen_vocab_size,
                "oov_method": self.oov_method,
                "salt": self.salt,
                "has_input_vocabulary": self._has_input_vocabulary,
            }
        )
        return config
