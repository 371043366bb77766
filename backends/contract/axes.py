"""Axes as the engines read them: the one normalizer behind every engine's ``axis`` argument.

The front door (``highlevel/ops/_args.py``) checks the axes a user passes and hands the engines their canonical
form, with the user's error worded there:

* a list of axes (reductions, ``flip``, ``squeeze``, ``moments``, ...): ``None`` (every axis) or a sorted tuple of
  distinct non-negative ints; ``()`` means no axis at all, never every axis;
* one axis (``concatenate``, ``softmax``, ``argmax``, ...): a non-negative int (``None`` where the op flattens);
* an ordered list of axes (``transpose``, ``moveaxis``): a tuple of distinct non-negative ints, order kept.

An engine still normalizes what it receives with these helpers, because not every call comes through the front
door: the engines call their own methods (``self.sum(x, axis=-1)``, ``self.moveaxis(y, -1, axis)``) and tests call
an engine's methods directly. On canonical input each helper returns its input (as a tuple); an int, a list or a
negative axis is brought to the canonical form the same way on every engine, and an axis out of range raises the
one error below.

>>> canonical_axis(-1, 3)
2
>>> canonical_axes(-1, 3), canonical_axes([2, 0], 3), canonical_axes(None, 3), canonical_axes((), 3)
((2,), (0, 2), None, ())
>>> every_axis(None, 3), every_axis((), 3)
((0, 1, 2), ())
>>> ordered_axes((2, -3), 3)
(2, 0)
"""

import operator


def canonical_axis(axis, ndim):
    """One axis as a non-negative int in ``[0, ndim)``; a negative axis counts from the end.

    Args:
        axis: an int (a Python or numpy integer).
        ndim: the rank of the tensor it indexes (``ndim + 1`` for the new axis of ``stack``/``expand_dims``).

    Raises:
        ValueError: for an axis outside ``[-ndim, ndim)``.
    """
    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise ValueError(f"axis {a} is out of bounds for a tensor of rank {ndim} (valid: {-ndim} to {ndim - 1}).")
    return a % ndim


def ordered_axes(axis, ndim):
    """``axis`` (an int or a sequence of ints) as a tuple of distinct non-negative axes, in the given order.

    Raises:
        ValueError: for an axis out of range, or one named twice.
    """
    values = (axis,) if not isinstance(axis, (list, tuple)) else tuple(axis)
    out = tuple(canonical_axis(a, ndim) for a in values)
    if len(set(out)) != len(out):
        raise ValueError(f"axis {axis!r} names an axis twice for a tensor of rank {ndim}.")
    return out


def canonical_axes(axis, ndim):
    """``None`` (every axis) as it is; an int or a sequence of ints as a sorted tuple of distinct non-negative axes.

    ``()`` stays ``()``: no axis, which is not every axis.
    """
    return None if axis is None else tuple(sorted(ordered_axes(axis, ndim)))


def every_axis(axis, ndim):
    """Like :func:`canonical_axes`, with ``None`` spelled out as ``(0, ..., ndim - 1)``."""
    return tuple(range(ndim)) if axis is None else canonical_axes(axis, ndim)


__all__ = ["canonical_axes", "canonical_axis", "every_axis", "ordered_axes"]
