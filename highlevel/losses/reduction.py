"""How per-sample loss values are weighted and reduced to one number (Keras 3's ``reduce_weighted_values``).

A loss's ``call`` gives one value per sample (or per element, e.g. per pixel). ``__call__`` then

1. merges an optional mask (entries a loss marks invalid, e.g. ``ignore_class``) into the sample weights,
2. aligns the ranks of the values and the weights (:func:`squeeze_or_expand_to_same_rank`) and multiplies,
3. reduces with the loss's ``reduction``:

   * ``"sum_over_batch_size"`` / ``"mean"``: sum of the weighted values divided by their number of elements;
   * ``"mean_with_sample_weight"``: sum divided by the sum of the sample weights (by the number of elements
     when there are none);
   * ``"sum"``: the sum;
   * ``"none"`` / ``None``: the weighted values themselves.

Divisions are "no NaN": dividing by zero gives 0, as ``keras.ops.divide_no_nan``.

>>> import highlevel as hl
>>> v = hl.ops.convert_to_tensor([1.0, 2.0, 3.0, 4.0])
>>> float(reduce_weighted_values(v, sample_weight=[1.0, 1.0, 0.0, 0.0]))
0.75
>>> float(reduce_weighted_values(v, sample_weight=[1.0, 1.0, 0.0, 0.0], reduction="mean_with_sample_weight"))
1.5
"""

from highlevel import ops
from highlevel.config import floatx

#: Every reduction a loss accepts (Keras 3's list).
REDUCTIONS = ("sum_over_batch_size", "sum", "mean", "mean_with_sample_weight", "none", None)


def standardize_reduction(reduction):
    """Returns ``reduction`` if it is one of :data:`REDUCTIONS`; raises ValueError otherwise."""
    if reduction not in REDUCTIONS:
        raise ValueError(
            f"Invalid value for argument `reduction`: received reduction={reduction!r}. Expected one of "
            f"{list(REDUCTIONS)}."
        )
    return reduction


def squeeze_or_expand_to_same_rank(x1, x2, expand_rank_1=True):
    """Makes the ranks of ``x1`` and ``x2`` equal when they differ by one and the longer one ends in a 1.

    The longer tensor's trailing 1 is squeezed, except that a rank-1 partner is expanded instead when
    ``expand_rank_1`` (Keras' rule: ``(batch,)`` labels against ``(batch, 1)`` predictions become
    ``(batch, 1)``). Other pairs are returned unchanged.

    >>> import highlevel as hl
    >>> a, b = squeeze_or_expand_to_same_rank(hl.ops.ones((3,)), hl.ops.ones((3, 1)))
    >>> hl.ops.shape(a), hl.ops.shape(b)
    ((3, 1), (3, 1))
    """
    s1, s2 = ops.shape(x1), ops.shape(x2)
    r1, r2 = len(s1), len(s2)
    if r1 == r2:
        return x1, x2
    if r1 == r2 + 1 and s1[-1] == 1:
        if r2 == 1 and expand_rank_1:
            x2 = ops.expand_dims(x2, -1)
        else:
            x1 = ops.squeeze(x1, -1)
    if r2 == r1 + 1 and s2[-1] == 1:
        if r1 == 1 and expand_rank_1:
            x1 = ops.expand_dims(x1, -1)
        else:
            x2 = ops.squeeze(x2, -1)
    return x1, x2


def _broadcastable(a, b):
    for x, y in zip(reversed(a), reversed(b)):
        if x != y and x != 1 and y != 1:
            return False
    return True


def align_sample_weight(values, sample_weight):
    """``(values, sample_weight)`` with ranks aligned as Keras does, so that ``values * sample_weight``
    broadcasts.

    Keras' rule comes first (:func:`squeeze_or_expand_to_same_rank`). Where that still does not broadcast
    and the weights' shape is a prefix of the values' shape — per-sample weights ``(batch,)`` against
    per-element values ``(batch, time)`` — the weights get trailing axes of size 1, so each sample's weight
    applies to all its elements (Keras 3 raises a shape error there).

    Raises:
        ValueError: when the shapes cannot be matched; the message shows both shapes.
    """
    values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
    vs, ws = tuple(ops.shape(values)), tuple(ops.shape(sample_weight))
    if _broadcastable(vs, ws):
        return values, sample_weight
    if len(ws) < len(vs) and vs[: len(ws)] == ws:
        return values, ops.reshape(sample_weight, ws + (1,) * (len(vs) - len(ws)))
    raise ValueError(
        f"sample_weight of shape {ws} cannot be applied to loss values of shape {vs}. Pass one weight per "
        "sample (shape (batch_size,)) or one per element (the values' shape)."
    )


def divide_no_nan(x, y):
    """``x / y``, with 0 where ``y == 0`` (``keras.ops.divide_no_nan``, one engine call)."""
    return ops.divide_no_nan(x, y)


def _count(values):
    """The number of elements of ``values``, a Python int (shapes are static, also when traced), or None for a
    symbolic tensor with an unknown size (a loss called on ``hl.Input`` tensors)."""
    n = 1
    for d in ops.shape(values):
        if d is None:
            return None
        n *= d
    return n


def _num_elements(values, dtype):
    n = _count(values)
    if n is None:
        return ops.cast(ops.size(values), dtype)
    return ops.convert_to_tensor(float(n), dtype=dtype)


def reduce_values(values, sample_weight=None, reduction="sum_over_batch_size"):
    """Reduces already weighted ``values`` (see the module docstring); scalars and empty vectors pass
    through unchanged, as in Keras."""
    shape = tuple(ops.shape(values))
    if reduction is None or reduction == "none" or shape == () or shape == (0,):
        return values
    loss = ops.sum(values)
    if reduction in ("sum_over_batch_size", "mean", "mean_with_sample_weight"):
        if reduction == "mean_with_sample_weight" and sample_weight is not None:
            loss = divide_no_nan(loss, ops.cast(ops.sum(sample_weight), ops.dtype(loss)))
        else:
            # The count is a Python int: one division (no zero test) instead of a divide-no-nan on tensors.
            n = _count(values)
            if n is None:  # symbolic, of unknown size: the count is a tensor too
                loss = divide_no_nan(loss, ops.cast(ops.size(values), ops.dtype(loss)))
            else:
                loss = loss / float(n) if n else ops.zeros_like(loss)
    return loss


def apply_mask(sample_weight, mask, dtype, reduction):
    """Merges a boolean ``mask`` of valid entries into ``sample_weight`` (Keras' ``apply_mask``).

    For the averaging reductions the valid entries get weight ``total / valid``, so that the average runs
    over the valid entries only; for the others the mask is a 0/1 weight.
    """
    if mask is None:
        return sample_weight
    if reduction in ("mean", "sum_over_batch_size"):
        total = _num_elements(mask, dtype)
        valid = ops.sum(ops.cast(mask, dtype))
        weight = divide_no_nan(total, valid)
        float_mask = ops.where(ops.cast(mask, "bool"), weight, ops.zeros_like(weight))
    else:
        float_mask = ops.cast(mask, dtype)
    if sample_weight is None:
        return float_mask
    sample_weight = ops.cast(sample_weight, dtype)
    # Per-sample weights meet a per-element mask: they get trailing axes (Keras 3 raises a shape error).
    float_mask, sample_weight = align_sample_weight(float_mask, sample_weight)
    return ops.multiply(sample_weight, float_mask)


def reduce_weighted_values(values, sample_weight=None, mask=None, reduction="sum_over_batch_size", dtype=None):
    """Weights ``values`` by ``sample_weight`` (and ``mask``) and reduces them with ``reduction``.

    Args:
        values: per-sample (or per-element) loss values.
        sample_weight: optional weights: one per sample, one per element, or anything that broadcasts
            after :func:`align_sample_weight`.
        mask: optional boolean tensor of valid entries, the shape of ``values``.
        reduction: one of :data:`REDUCTIONS`.
        dtype: the computation dtype (default floatx).

    Returns:
        A scalar tensor, or the weighted values for ``reduction="none"``/``None``.

    >>> import highlevel as hl
    >>> values, weights = [1.0, 2.0, 3.0], [1.0, 1.0, 0.0]
    >>> float(hl.losses.reduce_weighted_values(values, sample_weight=weights))
    1.0
    >>> float(hl.losses.reduce_weighted_values(values, sample_weight=weights, reduction="sum"))
    3.0
    >>> float(hl.losses.reduce_weighted_values(values, sample_weight=weights, reduction="mean_with_sample_weight"))
    1.5
    """
    reduction = standardize_reduction(reduction)
    dtype = dtype or floatx()
    values = ops.convert_to_tensor(values, dtype=dtype)
    if sample_weight is not None:
        sample_weight = ops.convert_to_tensor(sample_weight, dtype=dtype)
    sample_weight = apply_mask(sample_weight, mask, ops.dtype(values), reduction)
    if sample_weight is not None:
        sample_weight = ops.cast(sample_weight, ops.dtype(values))
        values, sample_weight = align_sample_weight(values, sample_weight)
        values = ops.multiply(values, sample_weight)
    return reduce_values(values, sample_weight, reduction)
