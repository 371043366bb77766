"""``pack_x_y_sample_weight`` / ``unpack_x_y_sample_weight``: the tuple forms that ``fit`` reads a batch in.

A batch is ``x``, ``(x,)``, ``(x, y)`` or ``(x, y, sample_weight)``. These two functions convert between that
and the three parts, e.g. in a custom ``train_step``.

>>> pack_x_y_sample_weight([1, 2], [3])
([1, 2], [3])
>>> unpack_x_y_sample_weight(([1, 2], [3]))
([1, 2], [3], None)
"""


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """Packs ``x``, ``y`` and ``sample_weight`` into the batch form ``fit`` reads.

    Args:
        x: the model's inputs.
        y: the targets, or None.
        sample_weight: per-sample weights, or None (ignored when ``y`` is None).

    Returns:
        ``x`` itself when there is no ``y`` (wrapped as ``(x,)`` when ``x`` is a tuple or list, so that it is
        not read as ``(x, y)``), else ``(x, y)`` or ``(x, y, sample_weight)``.

    >>> pack_x_y_sample_weight("x")
    'x'
    >>> pack_x_y_sample_weight(("a", "b"))
    (('a', 'b'),)
    >>> pack_x_y_sample_weight("x", "y", "w")
    ('x', 'y', 'w')
    """
    if y is None:
        return (x,) if isinstance(x, (tuple, list)) else x
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def unpack_x_y_sample_weight(data):
    """Splits a batch into ``(x, y, sample_weight)``.

    Args:
        data: ``x``, ``(x,)``, ``(x, y)`` or ``(x, y, sample_weight)`` (a list counts as a tuple).

    Returns:
        ``(x, y, sample_weight)``, with None for the parts the batch does not have.

    Raises:
        ValueError: for an empty tuple or one of more than three elements.

    >>> unpack_x_y_sample_weight("x")
    ('x', None, None)
    >>> unpack_x_y_sample_weight(["x", "y", "w"])
    ('x', 'y', 'w')
    """
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return (data, None, None)
    if not 1 <= len(data) <= 3:
        raise ValueError(
            "A batch must be `x`, `(x,)`, `(x, y)` or `(x, y, sample_weight)`; received a tuple of "
            f"{len(data)} elements: {data!r:.200}. Group several inputs as one tuple or dict in the first position."
        )
    return data + (None,) * (3 - len(data))
