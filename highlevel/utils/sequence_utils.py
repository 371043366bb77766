"""``pad_sequences``: a list of variable-length sequences as one rectangular array.

>>> pad_sequences([[1, 2, 3], [4, 5]], padding="post").tolist()
[[1, 2, 3], [4, 5, 0]]
"""

import numpy as np


def _is_string_dtype(dtype):
    if dtype is object:
        return False
    try:
        kind = np.dtype(dtype).kind
    except TypeError:
        return False
    return kind in "US"


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0):
    """Pads (and truncates) sequences to a common length.

    Each sequence becomes one row of the output. Sequences shorter than ``maxlen`` are filled with
    ``value``, before them (``padding="pre"``) or after them (``"post"``); longer ones lose their first
    (``truncating="pre"``) or last (``"post"``) elements. A sequence may hold items of any shape (all the
    same), which become the trailing axes of the output.

    Args:
        sequences: a list (or other sized iterable) of sequences: lists, tuples or arrays.
        maxlen: the output length; the longest sequence's length when None.
        dtype: the output dtype; ``object`` or a numpy string dtype for sequences of strings.
        padding: ``"pre"`` or ``"post"``: where the fill goes.
        truncating: ``"pre"`` or ``"post"``: which end of a long sequence is cut.
        value: the fill value (a string for string dtypes).

    Returns:
        A numpy array of shape ``(len(sequences), maxlen) + item_shape``.

    Raises:
        ValueError: for an unknown ``padding``/``truncating``, a non-iterable sequence, items of different
            shapes, or a string ``value`` with a numeric ``dtype``.

    >>> pad_sequences([[1, 2, 3], [4]], maxlen=2, truncating="post", value=-1).tolist()
    [[1, 2], [-1, 4]]
    >>> pad_sequences([["a", "b"], ["c"]], dtype=object, value="<pad>").tolist()
    [['a', 'b'], ['<pad>', 'c']]
    """
    if padding not in ("pre", "post"):
        raise ValueError(f'`padding` must be "pre" or "post"; received padding={padding!r}.')
    if truncating not in ("pre", "post"):
        raise ValueError(f'`truncating` must be "pre" or "post"; received truncating={truncating!r}.')
    if isinstance(sequences, (str, bytes)) or not hasattr(sequences, "__len__"):
        raise ValueError(
            f"`sequences` must be a list of sequences (lists, tuples or arrays); received {type(sequences).__name__}."
        )
    if maxlen is not None and (isinstance(maxlen, bool) or not isinstance(maxlen, (int, np.integer)) or maxlen < 0):
        raise ValueError(f"`maxlen` must be a non-negative int or None; received maxlen={maxlen!r}.")
    lengths, item_shape = [], None
    for i, seq in enumerate(sequences):
        if isinstance(seq, (str, bytes)) or not hasattr(seq, "__len__"):
            raise ValueError(
                f"`sequences` must be a list of sequences; the element at position {i} is not one: {seq!r}. "
                "Wrap single values in a list."
            )
        lengths.append(len(seq))
        if item_shape is None and len(seq):
            item_shape = np.asarray(seq, dtype=object if dtype is object else None).shape[1:]
    item_shape = item_shape or ()
    if maxlen is None:
        maxlen = max(lengths) if lengths else 0
    if isinstance(value, (str, bytes)) and dtype is not object and not _is_string_dtype(dtype):
        raise ValueError(
            f"pad_sequences: the fill `value` {value!r} is a string but dtype={dtype!r} is not a string dtype. "
            "Pass dtype=object for variable-length strings (or a numpy string dtype such as 'U10')."
        )
    out = np.full((len(lengths), int(maxlen)) + tuple(item_shape), value, dtype=dtype)
    for i, seq in enumerate(sequences):
        if not len(seq) or not maxlen:
            continue
        kept = seq[-maxlen:] if truncating == "pre" else seq[:maxlen]
        kept = np.asarray(kept, dtype=dtype)
        if kept.shape[1:] != tuple(item_shape):
            raise ValueError(
                f"The items of the sequence at position {i} have shape {kept.shape[1:]}, but those of the first "
                f"non-empty sequence have shape {tuple(item_shape)}: all items must have the same shape."
            )
        if padding == "post":
            out[i, : len(kept)] = kept
        else:
            out[i, maxlen - len(kept) :] = kept
    return out
