"""The backend contract, part 6: scatters and segment reductions (``keras.ops`` ``scatter``, ``scatter_update``,
``segment_sum``/``max``/``min``/``prod``, ``in_top_k``).

One primitive, :meth:`ScatterSegmentContract.segment_reduce`, reduces the rows of a tensor into the segments
that an index vector names (``tf.math.unsorted_segment_*``, ``jax.ops.segment_*``, ``torch.index_reduce``,
``numpy.ufunc.at``). Every op of this family is a generic definition on it:

* a scatter is a segment reduction whose segments are the flattened positions its indices name;
* indices outside the valid range are dropped (a row dropped contributes the reduction's identity, and gets no
  gradient), so the primitive only ever sees ids in ``[0, num_segments)``;
* the primitive's sum must be differentiable (it is linear: its gradient gathers the cotangent). The other
  reductions run on constants: their values come from the primitive, and the generic definitions build
  gradients that are the same on every engine: a maximum's (minimum's) gradient goes to the entries equal to
  it, shared equally among ties (as ``max``'s); a product's is the product of the other entries, zeros
  included, and differentiable again (second derivatives are exact);
* ``scatter_update`` without a reduction keeps, among updates to one position, the last one (in the order of
  ``indices``), and only that one gets a gradient;
* a segment with no entries gets the reduction's identity: 0, 1, ``-inf``/``+inf`` for floats and the lowest
  / highest value for integers; a segment holding a NaN is NaN for max and min.

The front door (``highlevel/ops/core.py``, ``math.py``) hands canonical arguments: integer index tensors,
``num_segments`` an int, ``shape`` a tuple, ``reduction`` one of ``None``, ``"add"``, ``"max"``, ``"min"``,
``"mul"``.

>>> import highlevel as hl
>>> b = hl.config.current_backend()
>>> b.to_numpy(b.segment_sum(b.convert_to_tensor([1, 2, 3]), b.convert_to_tensor([0, 0, 2]), 3)).tolist()
[3, 0, 3]
"""

import abc
import math

import numpy as np

from . import dtypes

#: the reductions of :meth:`ScatterSegmentContract.segment_reduce`
REDUCTIONS = ("sum", "prod", "max", "min")


def identity(reduction, dtype):
    """The value of a segment with no entries: the identity of ``reduction`` in ``dtype``."""
    if reduction == "sum":
        return 0
    if reduction == "prod":
        return 1
    if dtype in dtypes.FLOAT_DTYPES:
        return -math.inf if reduction == "max" else math.inf
    info = np.iinfo(np.dtype(dtype))
    return int(info.min) if reduction == "max" else int(info.max)


class ScatterSegmentContract(abc.ABC):
    """Segment reductions (one primitive) and the scatters written on them."""

    @abc.abstractmethod
    def segment_reduce(self, data, segment_ids, num_segments, reduction):
        """Reduces the rows of ``data`` into segments: ``out[s] = reduce(data[i] for segment_ids[i] == s)``.

        Args:
            data: a numeric (float or integer) tensor of shape ``(n, ...)``.
            segment_ids: an integer tensor of shape ``(n,)``, every value in ``[0, num_segments)`` (the callers
                drop the others; the order of the ids is arbitrary).
            num_segments: an int >= 0.
            reduction: ``"sum"``, ``"prod"``, ``"max"`` or ``"min"``.

        Returns:
            A tensor of shape ``(num_segments, ...)`` and the dtype of ``data``; an empty segment holds
            :func:`identity`. Only ``"sum"`` needs a gradient (with respect to ``data``); the generic definitions
            call the others on constants.
        """

    # ------------------------------------------------------------------------------------------ helpers
    def _rows_mask(self, valid, ndim):
        """A per-row bool vector ``valid`` shaped to broadcast against rows of rank ``ndim``."""
        return self.reshape(valid, (self.shape(valid)[0],) + (1,) * (ndim - 1))

    def _valid_ids(self, segment_ids, num_segments):
        """``(ids, valid)``: the ids with those outside ``[0, num_segments)`` set to 0, and which were inside."""
        ids = self.convert_to_tensor(segment_ids)
        valid = self.logical_and(self.greater_equal(ids, 0), self.less(ids, num_segments))
        return self.where(valid, ids, self.zeros((), self.dtype(ids))), valid

    def _masked(self, x, valid, fill):
        """``x`` with the rows where ``valid`` is False replaced by ``fill``."""
        return self.where(self._rows_mask(valid, len(self.shape(x))), x, self.full((), fill, self.dtype(x)))

    def _segment_extreme(self, x, ids, valid, num_segments, kind, table=None):
        """Segment max/min of the rows of ``x`` (and, with ``table``, of ``table``'s own entries too).

        The value comes from the primitive; the gradient goes to the entries equal to the result, split equally
        among ties, through an added term that is exactly zero in value.
        """
        dtype = self.dtype(x)
        fill = identity(kind, dtype)
        x = self._masked(x, valid, fill)
        xc = self.stop_gradient(x)
        v = self.segment_reduce(xc, ids, num_segments, kind)
        pick = self.maximum if kind == "max" else self.minimum
        tc = None
        if table is not None:
            tc = self.stop_gradient(table)
            v = pick(tc, v)
        if dtype not in dtypes.FLOAT_DTYPES:
            return v
        zero = self.zeros((), dtype)
        sel = self.logical_and(self.equal(xc, self.take(v, ids, axis=0)), self.isfinite(xc))
        count = self.segment_reduce(self.cast(sel, dtype), ids, num_segments, "sum")
        has_nan = self.greater(self.segment_reduce(self.cast(self.isnan(xc), dtype), ids, num_segments, "max"), 0)
        if table is not None:
            sel_t = self.logical_and(self.equal(tc, v), self.isfinite(tc))
            count = self.add(count, self.cast(sel_t, dtype))
            has_nan = self.logical_or(has_nan, self.isnan(tc))
        count = self.where(self.greater(count, 0), count, self.ones((), dtype))
        delta = self.subtract(self.where(sel, x, zero), self.where(sel, xc, zero))
        delta = self.divide(delta, self.take(count, ids, axis=0))
        out = self.add(v, self.segment_reduce(delta, ids, num_segments, "sum"))
        if table is not None:
            out = self.add(
                out, self.divide(self.subtract(self.where(sel_t, table, zero), self.where(sel_t, tc, zero)), count)
            )
        return self.where(has_nan, self.full((), math.nan, dtype), out)

    def _segment_product(self, x, ids, valid, num_segments):
        """Segment product of the rows of ``x``: exact in value, with exact first and second derivatives.

        The value is the primitive's product. The derivative comes from factors that are exactly 1 in value: the
        product of the nonzero finite entries as ``exp(sum log|x| - stop_gradient(sum log|x|))`` (its derivative is
        ``1 / x_i``), and the zero entries' part as their sum when a segment has one zero and as their pairwise
        product when it has two (so the other entries' product reaches the zero entries).
        """
        dtype = self.dtype(x)
        x = self._masked(x, valid, 1)
        if dtype not in dtypes.FLOAT_DTYPES:
            return self.segment_reduce(x, ids, num_segments, "prod")
        one, zero = self.ones((), dtype), self.zeros((), dtype)
        xc = self.stop_gradient(x)
        is_zero = self.equal(xc, 0)
        regular = self.logical_and(self.isfinite(xc), self.logical_not(is_zero))
        value = self.multiply(
            self.segment_reduce(self.where(regular, xc, one), ids, num_segments, "prod"),
            self.segment_reduce(self.where(self.logical_or(regular, is_zero), one, xc), ids, num_segments, "prod"),
        )
        logs = self.segment_reduce(self.log(self.abs(self.where(regular, x, one))), ids, num_segments, "sum")
        factor = self.exp(self.subtract(logs, self.stop_gradient(logs)))
        zx = self.where(is_zero, x, zero)
        n_zero = self.segment_reduce(self.cast(is_zero, dtype), ids, num_segments, "sum")
        s1 = self.segment_reduce(zx, ids, num_segments, "sum")
        s2 = self.segment_reduce(self.multiply(zx, zx), ids, num_segments, "sum")
        pairs = self.multiply(self.subtract(self.multiply(s1, s1), s2), 0.5)
        zeros_part = self.where(
            self.equal(n_zero, 0),
            one,
            self.where(self.equal(n_zero, 1), s1, self.where(self.equal(n_zero, 2), pairs, zero)),
        )
        return self.multiply(self.multiply(value, factor), zeros_part)

    def _segment_sum(self, x, ids, valid, num_segments):
        if self.dtype(x) == "bool":
            x = self.cast(x, "int32")
            return self.greater(self.segment_reduce(self._masked(x, valid, 0), ids, num_segments, "sum"), 0)
        return self.segment_reduce(self._masked(x, valid, 0), ids, num_segments, "sum")

    # ------------------------------------------------------------------------------ segment reductions
    def segment_sum(self, data, segment_ids, num_segments, sorted=False):
        """The sum of the rows of ``data`` in each segment.

        Args:
            data: a tensor of shape ``(n, ...)``.
            segment_ids: an integer tensor of shape ``(n,)``; rows whose id is outside ``[0, num_segments)`` are
                dropped.
            num_segments: an int >= 0.
            sorted: whether the ids are sorted (a hint an engine may use; the result is the same).

        Returns:
            A ``(num_segments, ...)`` tensor of ``data``'s dtype, 0 for empty segments; differentiable w.r.t. ``data``.
        """
        ids, valid = self._valid_ids(segment_ids, num_segments)
        return self._segment_sum(self.convert_to_tensor(data), ids, valid, num_segments)

    def segment_max(self, data, segment_ids, num_segments, sorted=False):
        """The maximum of the rows of ``data`` in each segment (see :meth:`segment_sum` for the arguments).

        Empty segments hold ``-inf`` (floats) or the dtype's lowest value; the gradient goes to the maximal
        entries, shared equally among ties."""
        ids, valid = self._valid_ids(segment_ids, num_segments)
        return self._segment_extreme(self.convert_to_tensor(data), ids, valid, num_segments, "max")

    def segment_min(self, data, segment_ids, num_segments, sorted=False):
        """The minimum of the rows of ``data`` in each segment (see :meth:`segment_max`); empty segments hold
        ``+inf`` or the dtype's highest value."""
        ids, valid = self._valid_ids(segment_ids, num_segments)
        return self._segment_extreme(self.convert_to_tensor(data), ids, valid, num_segments, "min")

    def segment_prod(self, data, segment_ids, num_segments, sorted=False):
        """The product of the rows of ``data`` in each segment (see :meth:`segment_sum`); empty segments hold 1.
        The gradient of an entry is the product of the other entries of its segment."""
        ids, valid = self._valid_ids(segment_ids, num_segments)
        return self._segment_product(self.convert_to_tensor(data), ids, valid, num_segments)

    # ---------------------------------------------------------------------------------------- scatters
    def _positions(self, indices, lead_shape):
        """``(ids, valid)``: the flat position each index row of ``indices`` (``(..., k)``) names in ``lead_shape``
        (negative indices count from the end), and which rows name a position inside it."""
        indices = self.convert_to_tensor(indices)
        k = len(lead_shape)
        rows = self.reshape(indices, (-1, k))
        dtype = self.dtype(rows)
        flat = self.zeros((self.shape(rows)[0],), dtype)
        valid = self.ones((self.shape(rows)[0],), "bool")
        stride = 1
        for axis in range(k - 1, -1, -1):
            dim = lead_shape[axis]
            i = self.getitem(rows, (slice(None), axis))
            i = self.where(self.less(i, 0), self.add(i, dim), i)
            valid = self.logical_and(valid, self.logical_and(self.greater_equal(i, 0), self.less(i, dim)))
            flat = self.add(flat, self.multiply(i, stride))
            stride *= dim
        return self.where(valid, flat, self.zeros((), dtype)), valid

    def scatter(self, indices, values, shape):
        """A tensor of ``shape`` holding zeros, with ``values`` added at ``indices``.

        Args:
            indices: an integer tensor of shape ``(..., k)``, ``k <= len(shape)``: each row is the index of an
                entry (``k == len(shape)``) or of a slice ``shape[k:]``; negative indices count from the end, rows
                outside ``shape`` are dropped.
            values: a tensor of shape ``indices.shape[:-1] + shape[k:]`` (or broadcastable to it).
            shape: the output shape, a tuple of ints.

        Returns:
            A tensor of ``shape`` and ``values``' dtype; values at the same index add up. Differentiable w.r.t.
            ``values``.
        """
        values = self.convert_to_tensor(values)
        k = self.shape(indices)[-1]
        lead, rest = tuple(shape[:k]), tuple(shape[k:])
        ids, valid = self._positions(indices, lead)
        rows = self.reshape(self.broadcast_to(values, tuple(self.shape(indices)[:-1]) + rest), (-1,) + rest)
        out = self._segment_sum(rows, ids, valid, math.prod(lead))
        return self.reshape(out, tuple(shape))

    def scatter_update(self, inputs, indices, updates, reduction=None):
        """``inputs`` with the entries (or slices) at ``indices`` replaced by, or combined with, ``updates``.

        Args:
            inputs: a tensor.
            indices: an integer tensor of shape ``(..., k)``, ``k <= inputs.ndim`` (see :meth:`scatter`).
            updates: a tensor of shape ``indices.shape[:-1] + inputs.shape[k:]`` (or broadcastable to it), cast to
                ``inputs``' dtype.
            reduction: None (replace; of several updates to one position the last one counts), ``"add"``,
                ``"max"``, ``"min"`` or ``"mul"`` (combine the position's value with all its updates).

        Returns:
            A tensor like ``inputs``; differentiable w.r.t. ``inputs`` and ``updates``.
        """
        inputs = self.convert_to_tensor(inputs)
        dtype = self.dtype(inputs)
        shape = self.shape(inputs)
        k = self.shape(indices)[-1]
        lead, rest = tuple(shape[:k]), tuple(shape[k:])
        n = math.prod(lead)
        table = self.reshape(inputs, (n,) + rest)
        updates = self.convert_to_tensor(updates)
        if self.dtype(updates) != dtype:
            updates = self.cast(updates, dtype)
        rows = self.reshape(self.broadcast_to(updates, tuple(self.shape(indices)[:-1]) + rest), (-1,) + rest)
        ids, valid = self._positions(indices, lead)
        if reduction is None:
            out = self._replace(table, rows, ids, valid, n)
        elif reduction == "add":
            if dtype == "bool":
                out = self.logical_or(table, self._segment_sum(rows, ids, valid, n))
            else:
                out = self.add(table, self._segment_sum(rows, ids, valid, n))
        elif reduction in ("max", "min"):
            out = self._segment_extreme(rows, ids, valid, n, reduction, table=table)
        else:
            out = self.multiply(table, self._segment_product(rows, ids, valid, n))
        return self.reshape(out, shape)

    def _replace(self, table, rows, ids, valid, n):
        """``table`` with each row named by ``ids`` replaced by the last of the ``rows`` naming it."""
        m = self.shape(rows)[0]
        order = self.arange(m, dtype="int32")
        last = self.segment_reduce(
            self.where(valid, order, self.full((), -1, "int32")), self.cast(ids, "int32"), n, "max"
        )
        hit = self.greater_equal(last, 0)
        winner = self.logical_and(valid, self.equal(self.take(last, ids, axis=0), order))
        placed = self._segment_sum(rows, ids, winner, n)
        return self.where(self._rows_mask(hit, len(self.shape(table))), placed, table)

    # -------------------------------------------------------------------------------------------- top k
    def in_top_k(self, targets, predictions, k):
        """Whether each target's prediction is among the ``k`` largest of its row.

        Args:
            targets: an integer tensor of shape ``(...)``: class indices.
            predictions: a tensor of shape ``(..., num_classes)``.
            k: an int >= 0.

        Returns:
            A bool tensor like ``targets``: True where fewer than ``k`` predictions of the row are strictly greater
            than the target's (ties at the boundary are all in the top k). A NaN prediction for the target, or a
            target outside ``[0, num_classes)``, gives False; NaN elsewhere in the row does not count as greater.
        """
        predictions = self.convert_to_tensor(predictions)
        targets = self.convert_to_tensor(targets)
        classes = self.shape(predictions)[-1]
        valid = self.logical_and(self.greater_equal(targets, 0), self.less(targets, classes))
        safe = self.where(valid, targets, self.zeros((), self.dtype(targets)))
        at_target = self.take_along_axis(predictions, self.expand_dims(safe, -1), axis=-1)
        greater = self.sum(self.cast(self.greater(predictions, at_target), "int32"), axis=-1)
        hit = self.logical_and(self.less(greater, k), valid)
        if self.dtype(predictions) in dtypes.FLOAT_DTYPES:
            hit = self.logical_and(hit, self.logical_not(self.isnan(self.squeeze(at_target, axis=-1))))
        return hit


__all__ = ["REDUCTIONS", "ScatterSegmentContract", "identity"]
