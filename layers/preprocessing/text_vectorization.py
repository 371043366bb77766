"""TextVectorization: raw strings to token-index sequences or bag-of-words vectors, on the host."""

import re
import string

import numpy as np

from highlevel import ops, sparse_outputs
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._categorical import HostInputs, batches_of, encode_categorical, host_array, validate_output_mode
from .string_lookup import StringLookup

# TensorFlow's string ops, which Keras uses: ``tf.strings.lower`` lowers ASCII letters only, the
# punctuation stripped is ASCII punctuation, and whitespace splitting uses the ASCII space characters.
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_PUNCTUATION = str.maketrans("", "", string.punctuation)
_WHITESPACE = re.compile("[ \t\n\r\x0b\x0c]+")
_STANDARDIZE = ("lower_and_strip_punctuation", "lower", "strip_punctuation")
_SPLIT = ("whitespace", "character")


def _ngrams(tokens, widths):
    """All n-grams of ``tokens`` for each width in ``widths`` (in that order), joined by a space."""
    out = []
    for n in widths:
        out.extend(" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1))
    return out


def _check_choice(value, allowed, name):
    if value is None or callable(value) or value in allowed:
        return
    raise ValueError(
        f"Invalid value for argument `{name}` of TextVectorization. Expected one of {allowed}, None "
        f"or a callable. Received: {name}={value!r}"
    )


class TextVectorization(HostInputs, Layer):
    """Turns raw text into token indices or bag-of-words vectors (``keras.layers.TextVectorization``).

    Each string is standardized, split into tokens, optionally expanded to n-grams, then looked up in the
    vocabulary (given, or learned by :meth:`adapt`). The text steps match TensorFlow's (ASCII lower-casing,
    ASCII punctuation, ASCII whitespace), so vocabularies and outputs equal Keras'. JAX and torch have no
    string tensors: the text work runs on the host — inputs are numpy string arrays or lists of str — and
    the outputs are int64/float tensors of the current backend. Use it in the data pipeline or as the
    first layer of a model run eagerly (``run_eagerly=True``); a compiled JAX/TensorFlow step cannot take
    strings.

    Index 0 is padding (the empty mask token) and 1 the OOV token ``"[UNK]"`` in ``"int"`` mode.

    Args:
        max_tokens: vocabulary size cap (padding and OOV included), for :meth:`adapt`.
        standardize: ``"lower_and_strip_punctuation"`` (default), ``"lower"``, ``"strip_punctuation"``, None,
            or a callable taking and returning a numpy ``str`` array.
        split: ``"whitespace"`` (default), ``"character"``, None (each string is one token), or a callable
            taking a 1-D numpy ``str`` array and returning one list of tokens per string.
        ngrams: None, an int ``n`` (all n-grams up to ``n``) or a tuple of n-gram widths.
        output_mode: ``"int"``, ``"multi_hot"``, ``"count"``, ``"tf_idf"`` or ``"one_hot"``.
        output_sequence_length: ``"int"`` mode: pad or cut every sequence to this length (None: pad to
            the longest of the batch).
        pad_to_max_tokens: bag-of-words outputs always have ``max_tokens`` bins.
        vocabulary: list of tokens or a path to a file with one token per line.
        idf_weights: TF-IDF weights of the given vocabulary (``"tf_idf"`` mode).
        sparse: bag-of-words outputs as a sparse tensor (``tf.SparseTensor``); TensorFlow backend only.
        ragged: ``"int"`` mode: one row per string without padding (``tf.RaggedTensor``; cut to
            ``output_sequence_length`` if set); TensorFlow backend only.
        encoding: text encoding of ``bytes`` inputs.
        name: optional name of the layer.
        **kwargs: base layer arguments (``name``...).

    Input shape: ``(batch,)`` or ``(batch, 1)`` strings. Output shape: ``(batch, sequence_length)`` in
    ``"int"`` mode, else ``(batch, depth)``.

    Raises:
        ValueError: if ``ngrams`` is not None, an int or a tuple of ints; ``output_sequence_length`` is given with an
            ``output_mode`` other than ``"int"``; or ``ragged``/``sparse`` do not fit ``output_mode``.

    >>> import highlevel as hl
    >>> import numpy as np
    >>> layer = hl.layers.TextVectorization(output_sequence_length=4)
    >>> layer.adapt(np.array(["The cat sat.", "The dog!"]))
    >>> layer.get_vocabulary()
    ['', '[UNK]', 'the', 'sat', 'dog', 'cat']
    >>> hl.ops.convert_to_numpy(layer(np.array(["the CAT ran"]))).tolist()
    [[2, 5, 1, 0]]
    """

    def __init__(
        self,
        max_tokens=None,
        standardize="lower_and_strip_punctuation",
        split="whitespace",
        ngrams=None,
        output_mode="int",
        output_sequence_length=None,
        pad_to_max_tokens=False,
        vocabulary=None,
        idf_weights=None,
        sparse=False,
        ragged=False,
        encoding="utf-8",
        name=None,
        **kwargs,
    ):
        _check_choice(standardize, _STANDARDIZE, "standardize")
        _check_choice(split, _SPLIT, "split")
        if output_mode == "binary":
            output_mode = "multi_hot"
        if output_mode == "tf-idf":
            output_mode = "tf_idf"
        validate_output_mode(output_mode, ("int", "one_hot", "multi_hot", "count", "tf_idf"), "TextVectorization")
        if isinstance(ngrams, list):
            ngrams = tuple(ngrams)
        if not (
            ngrams is None
            or (isinstance(ngrams, int) and not isinstance(ngrams, bool))
            or (isinstance(ngrams, tuple) and all(isinstance(n, int) for n in ngrams))
        ):
            raise ValueError(f"`ngrams` must be None, an integer, or a tuple of integers. Received: ngrams={ngrams}")
        if output_mode == "int" and not (
            output_sequence_length is None
            or (isinstance(output_sequence_length, int) and not isinstance(output_sequence_length, bool))
        ):
            raise ValueError(
                f"`output_sequence_length` must be either None or an integer when `output_mode` is "
                f"'int'. Received: output_sequence_length={output_sequence_length}"
            )
        if output_mode != "int" and output_sequence_length is not None:
            raise ValueError(
                f"`output_sequence_length` must not be set if `output_mode` is not 'int'. Received "
                f"output_sequence_length={output_sequence_length}."
            )
        if ragged and output_mode != "int":
            raise ValueError(
                f"`ragged=True` needs `output_mode='int'`. Received: ragged={ragged} and output_mode={output_mode}"
            )
        if sparse and output_mode == "int":
            raise ValueError(
                "`sparse` may only be true if `output_mode` is 'one_hot', 'multi_hot', 'count' or 'tf_idf'. "
                f"Received: sparse={sparse} and output_mode={output_mode}"
            )
        for kind, wanted in (("sparse", sparse), ("ragged", ragged)):
            if wanted:
                sparse_outputs.check_supported("TextVectorization", kind)
        has_input_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        vocabulary_size = kwargs.pop("vocabulary_size", None)
        kwargs.pop("dtype", None)
        super().__init__(name=name, **kwargs)
        self._ragged = bool(ragged)
        self._standardize = standardize
        self._split = split
        self._ngrams_arg = ngrams
        self._ngrams = tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else ngrams
        self._output_mode = output_mode
        self._output_sequence_length = output_sequence_length
        self._encoding = encoding
        self._input_encoding = encoding
        # Runs on the host (numpy): cannot be traced into a jitted step (the trainer may check this).
        self.supports_jit = False
        self._lookup_layer = StringLookup(
            max_tokens=max_tokens,
            vocabulary=vocabulary,
            idf_weights=idf_weights,
            pad_to_max_tokens=pad_to_max_tokens,
            mask_token="",
            output_mode=output_mode,
            sparse=bool(sparse),
            has_input_vocabulary=has_input_vocabulary,
            encoding=encoding,
            vocabulary_size=vocabulary_size,
        )
        self.built = True

    # ------------------------------------------------------------- text steps
    def _standardized(self, x):
        if self._standardize in ("lower", "lower_and_strip_punctuation"):
            x = np.vectorize(lambda s: s.translate(_ASCII_LOWER), otypes=[object])(x) if x.size else x
        if self._standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
            x = np.vectorize(lambda s: s.translate(_PUNCTUATION), otypes=[object])(x) if x.size else x
        if callable(self._standardize):
            x = self._standardize(np.asarray(x).astype(str))
        return np.asarray(x).astype(str)

    def _tokens(self, inputs):
        """Standardized, split (and n-grammed) tokens: a list of token lists (split) or a str array."""
        x = self._standardized(host_array(inputs, self._encoding))
        if self._split is None:
            if self._ngrams is None:
                return x
            rows = x.reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1)
            return [_ngrams(list(r), self._ngrams) for r in rows.tolist()]
        if x.ndim > 1:
            if x.shape[-1] != 1:
                raise ValueError(
                    f"When using `TextVectorization` to tokenize strings, the input rank must be 1 or "
                    f"the last shape dimension must be 1. Received: inputs.shape={x.shape} with "
                    f"rank={x.ndim}"
                )
            x = x.reshape(x.shape[:-1])
        flat = x.reshape(-1)
        if self._split == "whitespace":
            rows = [[t for t in _WHITESPACE.split(s) if t] for s in flat.tolist()]
        elif self._split == "character":
            rows = [list(s) for s in flat.tolist()]
        else:
            rows = [[str(t) for t in row] for row in self._split(flat)]
        if self._ngrams is not None:
            rows = [_ngrams(r, self._ngrams) for r in rows]
        return rows

    # ------------------------------------------------------------- vocabulary
    def adapt(self, data, batch_size=None, steps=None):
        """Learns the vocabulary from ``data`` (an array/list of strings or an iterable of batches): tokens
        sorted by count, ties by the larger token; each string is one document for TF-IDF.

        Args:
            data: strings, or an iterable of batches of strings.
            batch_size: unused (accepted for Keras compatibility).
            steps: at most this many batches of an iterable.
        """

        def documents():
            for batch in batches_of(data, steps):
                tokens = self._tokens(batch)
                if isinstance(tokens, np.ndarray):
                    tokens = tokens.reshape(-1, 1) if tokens.ndim < 2 else tokens.reshape(-1, tokens.shape[-1])
                yield from tokens

        self._lookup_layer.learn_vocabulary(documents())

    def get_vocabulary(self, include_special_tokens=True):
        """The vocabulary (padding ``""`` and ``"[UNK]"`` first when ``include_special_tokens``)."""
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        """The vocabulary size, padding and OOV indices included."""
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Sets the vocabulary (and IDF weights in ``"tf_idf"`` mode) directly."""
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights=idf_weights)

    # -------------------------------------------------------------------- call
    def call(self, inputs):
        out = self._vectorize(inputs)
        one_string = isinstance(inputs, (str, bytes, np.ndarray, np.generic)) and np.ndim(inputs) == 0
        if one_string and self._split is not None:
            out = ops.squeeze(out, 0)  # one string in, one row out (no batch axis), as Keras
        return out

    def _vectorize(self, inputs):
        tokens = self._tokens(inputs)
        lookup = self._lookup_layer
        if isinstance(tokens, np.ndarray):  # split=None without n-grams: one token per string
            out = lookup(tokens)
            if self._output_mode == "int" and self._output_sequence_length is not None and out.ndim >= 1:
                out = self._fit_length(ops.convert_to_numpy(out))
                out = ops.convert_to_tensor(out, dtype="int64")
            return out
        if self._ragged:
            n = self._output_sequence_length
            rows = [
                lookup.lookup_indices(np.asarray(row[:n], dtype=str)) if row[:n] else np.zeros((0,), "int64")
                for row in tokens
            ]
            return sparse_outputs.to_ragged(rows, "int64")
        length = max((len(r) for r in tokens), default=0)
        if self._output_mode == "int" and self._output_sequence_length is not None:
            length = self._output_sequence_length
        indices = np.zeros((len(tokens), length), dtype="int64")
        for i, row in enumerate(tokens):
            row = row[:length]
            if row:
                indices[i, : len(row)] = lookup.lookup_indices(np.asarray(row, dtype=str))
        if self._output_mode == "int":
            return ops.convert_to_tensor(indices, dtype="int64")
        lookup._record_size()
        depth = lookup._depth()
        pad = np.zeros(indices.shape, dtype=bool)
        for i, row in enumerate(tokens):
            pad[i, len(row) :] = True
        indices = np.where(pad | (indices < 0) | (indices >= depth), -1, indices)
        mode = "count" if self._output_mode == "tf_idf" else self._output_mode
        out = encode_categorical(ops.convert_to_tensor(indices, dtype="int64"), mode, depth, lookup.compute_dtype)
        if self._output_mode == "tf_idf":
            idf = np.asarray(lookup.idf_weights)[:depth]
            out = ops.multiply(out, ops.convert_to_tensor(idf, dtype=lookup.compute_dtype))
        return sparse_outputs.to_sparse(out) if lookup.sparse else out

    def _fit_length(self, out):
        n = self._output_sequence_length
        out = out[..., :n]
        if out.shape[-1] < n:
            out = np.pad(out, [(0, 0)] * (out.ndim - 1) + [(0, n - out.shape[-1])])
        return out

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        if not input_shape and self._split is not None:
            return self.compute_output_shape((1,))[1:]  # one string: one row
        batch = input_shape[0] if input_shape else None
        if self._output_mode == "int":
            if self._split is None and self._ngrams is None:
                shape = input_shape
                if self._output_sequence_length is not None and shape:
                    shape = shape[:-1] + (self._output_sequence_length,)
                return shape
            return (batch, self._output_sequence_length)
        depth = (
            self._lookup_layer._depth()
            if (self._lookup_layer.pad_to_max_tokens or self._lookup_layer._tokens is not None)
            else None
        )
        if self._output_mode == "one_hot" and self._split is not None:
            return (batch, None, depth)
        if self._split is None and self._ngrams is None:
            return self._lookup_layer.compute_output_shape(input_shape) if depth else input_shape[:-1] + (None,)
        return (batch, depth)

    def compute_output_spec(self, inputs):
        dtype = "int64" if self._output_mode == "int" else self._lookup_layer.compute_dtype
        shape = self.compute_output_shape(inputs.shape)
        if self._ragged:
            shape = shape[:-1] + (None,)
        return KerasTensor(shape, dtype, sparse=self._lookup_layer.sparse, ragged=self._ragged)

    # ------------------------------------------------------------------ config
    def get_config(self):
        """The constructor arguments; an adapted vocabulary (and IDF weights) is included so that the
        layer survives ``from_config`` and ``model.save``. Callable ``standardize``/``split`` must be
        registered functions to be saved."""
        lookup_config = self._lookup_layer.get_config()
        config = super().get_config()
        config.pop("dtype", None)
        config.update(
            {
                "max_tokens": self._lookup_layer.max_tokens,
                "standardize": self._standardize,
                "split": self._split,
                "ngrams": self._ngrams_arg,
                "output_mode": self._output_mode,
                "output_sequence_length": self._output_sequence_length,
                "pad_to_max_tokens": self._lookup_layer.pad_to_max_tokens,
                "sparse": self._lookup_layer.sparse,
                "ragged": self._ragged,
                "vocabulary": lookup_config["vocabulary"],
                "idf_weights": lookup_config["idf_weights"],
                "encoding": self._encoding,
                "vocabulary_size": self.vocabulary_size(),
                "has_input_vocabulary": self._lookup_layer._has_input_vocabulary,
            }
        )
        return config
