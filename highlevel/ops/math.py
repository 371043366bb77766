"""The ``keras.ops`` math ops that live at the top level of ``hl.ops`` (``logsumexp``, ``top_k``, ``erf``, ...).

>>> import highlevel as hl
>>> round(float(hl.ops.convert_to_numpy(hl.ops.logsumexp(hl.ops.convert_to_tensor([0.0, 0.0])))), 4)
0.6931
"""

from . import _args, _door


def rsqrt(x):
    """1 / sqrt(x)."""
    return _door.call('rsqrt', x)


def erf(x):
    """The error function."""
    return _door.call('erf', x)


def logsumexp(x, axis=None, keepdims=False):
    """The log(sum(exp(x))) computed stably (finite for inputs of +-1e4) over ``axis`` (int, tuple or None for all)."""
    return _door.call("logsumexp", x, axis=_args.axes(axis, _args.ndim_of(x), "logsumexp"), keepdims=bool(keepdims))


def top_k(x, k, sorted=True):
    """``(values, indices)`` of the ``k`` largest entries along the last axis; indices int32."""
    return _door.call("top_k", x, _args.positive_int(k, "k", "top_k", minimum=0), sorted=bool(sorted))


__all__ = ['rsqrt', 'erf', 'logsumexp', 'top_k']


def erfc(x):
    """Returns the complementary error function ``1 - erf(x)``, elementwise.

    Accurate where it is tiny: for large ``x`` it keeps the digits that ``1 - erf(x)`` would lose.

    Args:
        x: a tensor; integer and bool inputs compute in floatx.

    Returns:
        A float tensor of the shape of ``x``; differentiable (``-2/sqrt(pi) exp(-x**2)``).

    >>> import highlevel as hl
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.erfc(hl.ops.convert_to_tensor(5.0, dtype='float64')))):.6e}")
    1.537460e-12
    """
    return _door.call("erfc", x)


def erfinv(x):
    """Returns the inverse error function, elementwise: ``y`` such that ``erf(y) == x``.

    Args:
        x: a tensor of values in ``[-1, 1]`` (``+-1`` give ``+-inf``, values outside give NaN); integer and bool
            inputs compute in floatx.

    Returns:
        A float tensor of the shape of ``x``; differentiable (``sqrt(pi)/2 exp(erfinv(x)**2)``).

    >>> import highlevel as hl
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.erfinv(0.5))):.5f}")
    0.47694
    """
    return _door.call("erfinv", x)


__all__ += ["erfc", "erfinv"]
# ----------------------------------------------------------------------------------- segment reductions
def _segments(data, segment_ids, num_segments, op, allow_bool=False):
    """Checks a segment reduction's arguments; returns ``num_segments`` as an int (read from concrete ids when
    None: ``max(segment_ids) + 1``)."""
    from highlevel.backends.contract import dtypes
    from highlevel.keras_tensor import KerasTensor

    _args.integers(segment_ids, "segment_ids", op)
    ids_shape, data_shape = _args.shape_of(segment_ids), _args.shape_of(data)
    if len(ids_shape) != 1:
        raise ValueError(f"{op}: `segment_ids` must be a vector (one id per row of `data`); received shape "
                         f"{ids_shape}. Flatten data and ids first (data.reshape((-1,) + data.shape[k:])).")
    if not data_shape:
        raise ValueError(f"{op}: `data` must have at least one axis (its rows are reduced); received a scalar.")
    if None not in (ids_shape[0], data_shape[0]) and ids_shape[0] != data_shape[0]:
        raise ValueError(f"{op}: `segment_ids` needs one id per row of `data`; received {ids_shape[0]} ids for "
                         f"{data_shape[0]} rows.")
    dt = _args.dtype_of(data)
    if dt == "bool" and not allow_bool:
        raise TypeError(f"{op}: `data` is bool; cast it to a number first (hl.ops.cast(data, 'int32')).")
    if dt is not None and dt not in dtypes.FLOAT_DTYPES + dtypes.INT_DTYPES + (("bool",) if allow_bool else ()):
        raise TypeError(f"{op}: `data` must be a float or integer tensor; received dtype {dt}.")
    if num_segments is not None:
        return _args.positive_int(num_segments, "num_segments", op, minimum=0)
    values = None
    if not isinstance(segment_ids, KerasTensor):
        try:  # a read of the ids on the host: only eager values have them
            values = _door.call("to_numpy", segment_ids)
        except Exception:  # a traced (jax.jit, tf.function) or recorded step's value
            values = None
    if values is None:
        raise ValueError(f"{op}: `num_segments` is required here: the ids are not known yet (a symbolic tensor, or "
                         "a function being compiled by jax.jit / tf.function or recorded as a step), and the "
                         "output's size depends on them. Pass num_segments=<number of segments>.")
    return int(values.max()) + 1 if values.size else 0


def segment_sum(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002 - Keras's name
    """The sum of the rows of ``data`` in each segment: ``out[s] = sum(data[i] for segment_ids[i] == s)``.

    Args:
        data: a tensor of shape ``(n, ...)``.
        segment_ids: an integer vector of ``n`` segment ids; rows with an id outside ``[0, num_segments)`` (a
            negative id, say) are dropped.
        num_segments: the number of segments. When None it is ``max(segment_ids) + 1``, read from the ids: only
            possible for eager values, so pass it inside a compiled or symbolic function.
        sorted: whether ``segment_ids`` is sorted (a hint; the result is the same).

    Returns:
        A tensor of shape ``(num_segments, ...)`` and ``data``'s dtype (0 for an empty segment); differentiable
        w.r.t. ``data``.

    Raises:
        ValueError: ``num_segments`` is None for ids without known values; mismatched shapes.

    >>> import highlevel as hl
    >>> data = hl.ops.convert_to_tensor([1, 2, 10, 20, 100])
    >>> hl.ops.convert_to_numpy(hl.ops.segment_sum(data, hl.ops.convert_to_tensor([0, 0, 1, 1, 3]))).tolist()
    [3, 30, 0, 100]
    """
    n = _segments(data, segment_ids, num_segments, "segment_sum")
    return _door.call("segment_sum", data, segment_ids, n, sorted=bool(sorted))


def segment_max(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002 - Keras's name
    """The maximum of the rows of ``data`` in each segment (see :func:`segment_sum` for the arguments).

    Returns:
        A tensor of shape ``(num_segments, ...)`` and ``data``'s dtype: ``-inf`` for an empty segment of floats (the
        lowest value of an integer dtype), NaN where the segment holds a NaN. The gradient goes to the maximal
        entries, shared equally among ties.

    >>> import highlevel as hl
    >>> data = hl.ops.convert_to_tensor([1.0, 5.0, 2.0, 3.0])
    >>> hl.ops.convert_to_numpy(hl.ops.segment_max(data, hl.ops.convert_to_tensor([0, 0, 2, 2]))).tolist()
    [5.0, -inf, 3.0]
    """
    n = _segments(data, segment_ids, num_segments, "segment_max")
    return _door.call("segment_max", data, segment_ids, n, sorted=bool(sorted))


def segment_min(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002 - Keras's name
    """The minimum of the rows of ``data`` in each segment (see :func:`segment_sum` for the arguments).

    Returns:
        A tensor of shape ``(num_segments, ...)`` and ``data``'s dtype: ``+inf`` for an empty segment of floats (the
        highest value of an integer dtype), NaN where the segment holds a NaN. The gradient goes to the minimal
        entries, shared equally among ties.

    >>> import highlevel as hl
    >>> data = hl.ops.convert_to_tensor([4, 5, 2, 3])
    >>> hl.ops.convert_to_numpy(hl.ops.segment_min(data, hl.ops.convert_to_tensor([0, 0, 1, 1]), 2)).tolist()
    [4, 2]
    """
    n = _segments(data, segment_ids, num_segments, "segment_min")
    return _door.call("segment_min", data, segment_ids, n, sorted=bool(sorted))


def segment_prod(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002 - Keras's name
    """The product of the rows of ``data`` in each segment (see :func:`segment_sum` for the arguments).

    Returns:
        A tensor of shape ``(num_segments, ...)`` and ``data``'s dtype, 1 for an empty segment. The gradient of an
        entry is the product of the other entries of its segment (zeros included), and is itself differentiable.

    >>> import highlevel as hl
    >>> data = hl.ops.convert_to_tensor([2.0, 3.0, 4.0])
    >>> hl.ops.convert_to_numpy(hl.ops.segment_prod(data, hl.ops.convert_to_tensor([1, 1, 0]))).tolist()
    [4.0, 6.0]
    """
    n = _segments(data, segment_ids, num_segments, "segment_prod")
    return _door.call("segment_prod", data, segment_ids, n, sorted=bool(sorted))


def in_top_k(targets, predictions, k):
    """Whether each target class is among the ``k`` highest predictions of its row.

    A target is in the top ``k`` when fewer than ``k`` predictions of its row are strictly greater than its own, so
    classes tied at the boundary all count. A NaN prediction for the target, or a target outside
    ``[0, num_classes)``, gives False; a NaN elsewhere in the row is not greater than anything.

    Args:
        targets: integer class indices, of shape ``(batch,)`` (or any shape ``s``).
        predictions: scores of shape ``(batch, num_classes)`` (``s + (num_classes,)``).
        k: how many of the highest predictions count (an int >= 0).

    Returns:
        A bool tensor of ``targets``' shape.

    >>> import highlevel as hl
    >>> predictions = hl.ops.convert_to_tensor([[0.1, 0.9, 0.5], [0.8, 0.1, 0.3]])
    >>> hl.ops.convert_to_numpy(hl.ops.in_top_k(hl.ops.convert_to_tensor([1, 2]), predictions, 1)).tolist()
    [True, False]
    """
    k = _args.positive_int(k, "k", "in_top_k", minimum=0)
    _args.integers(targets, "targets", "in_top_k")
    t_shape, p_shape = _args.shape_of(targets), _args.shape_of(predictions)
    if len(p_shape) != len(t_shape) + 1 or any(a is not None and b is not None and a != b
                                                 for a, b in zip(t_shape, p_shape)):
        raise ValueError(f"in_top_k: `predictions` must have the shape of `targets` plus a class axis; received "
                         f"targets of shape {t_shape} and predictions of shape {p_shape}.")
    return _door.call("in_top_k", targets, predictions, k)


__all__ += ["segment_sum", "segment_max", "segment_min", "segment_prod", "in_top_k"]
