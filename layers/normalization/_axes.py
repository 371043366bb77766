"""Axis arguments of the normalization layers: checking them and resolving them against an input rank."""

import numbers

from highlevel.backends.contract import dtypes as _dtypes


def check_axis_arg(axis, who, allow_list=True):
    """``axis`` as given (an int, or a list of ints when ``allow_list``) after checking its type."""
    if isinstance(axis, numbers.Integral) and not isinstance(axis, bool):
        return int(axis)
    if (
        allow_list
        and isinstance(axis, (list, tuple))
        and axis
        and all(isinstance(a, numbers.Integral) and not isinstance(a, bool) for a in axis)
    ):
        return [int(a) for a in axis]
    expected = "an int or a non-empty list/tuple of ints" if allow_list else "an int"
    raise TypeError(f"Invalid value for argument `axis` of {who}: expected {expected}. Received: axis={axis!r}")


def resolve_axes(axis, ndim, who, input_shape=None):
    """The sorted non-negative axes that ``axis`` names in a rank-``ndim`` input; out-of-range is an error."""
    axes = axis if isinstance(axis, list) else [axis]
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            shape = f"input shape {tuple(input_shape)}" if input_shape is not None else f"inputs of rank {ndim}"
            raise ValueError(
                f"Axis {a} is out of bounds for {shape} in {who}. Received: axis={axis}. Use axes in [{-ndim}, {ndim})."
            )
        out.append(a % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"Duplicate axes in argument `axis` of {who}. Received: axis={axis}")
    return sorted(out)


def compute_float_dtype(dtype):
    """At least float32: half-precision statistics are computed in float32 as Keras does."""
    return _dtypes.result_type(dtype, "float32")
