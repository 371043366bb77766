"""The backend contract, part 2c: NaN-aware reductions, order statistics and window functions (generic).

Every method here is written on the contract's own methods, with the canonical arguments the front door hands
over (``highlevel/ops/_args.py``: axes as ``None`` or a sorted tuple of non-negative ints, one axis as a
non-negative int, ``q`` as a float, a tuple of floats or a tensor, window lengths as Python ints), so an engine
needs nothing to support them; an engine may override one where its own kernel is faster, and the conformance
suite holds the override to the same numbers.

Semantics are numpy's, with these choices where numpy or Keras's backends have none that holds up:

* the NaN-ignoring reductions give numpy's value on an all-NaN slice (``nansum`` 0, ``nanprod`` 1, the others
  NaN); ``nanargmax``/``nanargmin`` give -1 there (numpy raises, which a compiled step cannot), and otherwise the
  index of a real entry: numpy and Keras's backends answer ``nanargmax([nan, -inf])`` with 0, the index of the NaN
  they were told to ignore; the right answer is 1;
* quantiles: the virtual index ``q * (n - 1)`` is computed in float64, as numpy does (in float32, ``0.7 * 10`` is
  below 7 and ``"lower"`` picks the wrong entry); ``"nearest"`` rounds half to even, as numpy does; a quantile
  that falls exactly on an entry is that entry (numpy's interpolation turns ``quantile([1, 2, inf], 0.5)`` into
  NaN); an empty slice gives NaN;
* gradients flow to the entries a statistic selects or interpolates, and are 0 at NaN entries of the NaN-ignoring
  ops.

>>> import highlevel as hl
>>> b = hl.config.current_backend()
>>> b.to_numpy(b.nanmean(b.convert_to_tensor([1.0, float("nan"), 3.0]))).item()
2.0
"""

import math

import numpy as np

from . import dtypes
from .axes import ordered_axes

#: the interpolation methods of the quantile family (``method=``)
QUANTILE_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")

#: Keras's result dtypes of ``nansum``/``nanprod`` for small integer and bool inputs (others keep their dtype)
_WIDENED = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32", "uint16": "uint32"}

# The modified Bessel function I0, scaled: i0e(x) = exp(-x) * I0(x), for x >= 0. Below _I0_SWITCH, its power
# series sum_k ((x / 2) ** 2) ** k / (k!) ** 2 (positive terms: no cancellation); above it, the asymptotic series
# exp(x) / sqrt(2 pi x) * sum_k prod_{j <= k} (2j - 1) ** 2 / (j * 8x), whose smallest term there is ~exp(-2x).
# Both are within 2e-15 of the exact value with these term counts.
_I0_SWITCH = 20.0
_I0_SERIES_TERMS = 40
_I0_ASYMPTOTIC_TERMS = 20


def _i0_series_terms(top):
    """The number of power-series terms that reach float64 accuracy for every ``x <= top`` (at most 40)."""
    t, term, total = (top / 2.0) ** 2, 1.0, 1.0
    for k in range(1, _I0_SERIES_TERMS + 1):
        term *= t / (k * k)
        total += term
        if term <= 1e-17 * total:
            return k
    return _I0_SERIES_TERMS


def i0e(x):
    """``exp(-|x|) * I0(x)`` of a Python float, by the series of this module (float64)."""
    x = abs(float(x))
    if x < _I0_SWITCH:
        t, term, total = (x / 2.0) ** 2, 1.0, 1.0
        for k in range(1, _I0_SERIES_TERMS + 1):
            term *= t / (k * k)
            total += term
        return total * math.exp(-x)
    z, term, total = 1.0 / (8.0 * x), 1.0, 1.0
    for k in range(1, _I0_ASYMPTOTIC_TERMS + 1):
        term *= (2 * k - 1) ** 2 * z / k
        total += term
    return total / math.sqrt(2.0 * math.pi * x)


class StatisticsContract:
    """NaN-ignoring reductions, medians and quantiles, the weighted average and window functions."""

    # ------------------------------------------------------------------------------------------------ helpers
    def _stat_cast(self, x, dtype):
        return x if self.dtype(x) == dtype else self.cast(x, dtype)

    def _stat_dtypes(self, x):
        """``(result, work)``: the float dtype of a statistic of ``x`` (``result_type(x, float)``: ints and bools
        give floatx) and the dtype to compute it in (float32 for the half-precision floats)."""
        result = dtypes.result_type(self.dtype(x), float)
        return result, ("float32" if result in ("float16", "bfloat16") else result)

    def _stat_is_float(self, x):
        return self.dtype(x) in dtypes.FLOAT_DTYPES

    def _stat_const(self, value, dtype):
        return self.full((), value, dtype)

    def _stat_last(self, x, axis):
        """``x`` with the axes of ``axis`` (None: all) moved last and merged into one.

        Returns ``(y, kept, keep_shape, m)``: ``y`` of shape ``kept + (m,)``, ``kept`` the shape of the other axes,
        ``keep_shape`` the shape of a ``keepdims=True`` result.
        """
        shape = tuple(self.shape(x))
        nd = len(shape)
        axes = tuple(range(nd)) if axis is None else ordered_axes(axis, nd)
        others = [a for a in range(nd) if a not in axes]
        perm = tuple(others) + tuple(a for a in range(nd) if a in axes)
        if perm != tuple(range(nd)):
            x = self.transpose(x, perm)
        kept = tuple(shape[a] for a in others)
        m = 1
        for a in axes:
            m *= shape[a]
        keep_shape = tuple(1 if a in axes else shape[a] for a in range(nd))
        return self.reshape(x, kept + (m,)), kept, keep_shape, m

    # --------------------------------------------------------------------------------- NaN-ignoring reductions
    def nansum(self, x, axis=None, keepdims=False):
        """The sum over ``axis``, NaN counted as 0; bool/int8/int16 sum in int32, uint8/uint16 in uint32."""
        x = self.convert_to_tensor(x)
        dt = self.dtype(x)
        if self._stat_is_float(x):
            x = self.where(self.isnan(x), self._stat_const(0, dt), x)
        return self.sum(self._stat_cast(x, _WIDENED.get(dt, dt)), axis=axis, keepdims=keepdims)

    def nanprod(self, x, axis=None, keepdims=False):
        """The product over ``axis``, NaN counted as 1; bool/int8/int16 multiply in int32, uint8/uint16 in
        uint32."""
        x = self.convert_to_tensor(x)
        dt = self.dtype(x)
        if self._stat_is_float(x):
            x = self.where(self.isnan(x), self._stat_const(1, dt), x)
        return self.prod(self._stat_cast(x, _WIDENED.get(dt, dt)), axis=axis, keepdims=keepdims)

    def _stat_count_and_sum(self, x, axis, keepdims):
        """``(x in its work dtype, NaN mask, sum of the non-NaN entries, their count)`` over ``axis``."""
        _, work = self._stat_dtypes(x)
        x = self._stat_cast(x, work)
        mask = self.isnan(x)
        filled = self.where(mask, self._stat_const(0, work), x)
        total = self.sum(filled, axis=axis, keepdims=keepdims)
        count = self.sum(self.cast(self.logical_not(mask), work), axis=axis, keepdims=keepdims)
        return filled, mask, total, count

    def nanmean(self, x, axis=None, keepdims=False):
        """The mean of the non-NaN entries over ``axis`` (NaN where there are none); ints give floatx."""
        x = self.convert_to_tensor(x)
        result, work = self._stat_dtypes(x)
        if not self._stat_is_float(x):
            return self._stat_cast(self.mean(self.cast(x, work), axis=axis, keepdims=keepdims), result)
        _, _, total, count = self._stat_count_and_sum(x, axis, keepdims)
        return self._stat_cast(self.divide(total, count), result)

    def _stat_nanvar(self, x, axis, keepdims):
        """The population variance of the non-NaN entries, in the work dtype."""
        filled, mask, total, count = self._stat_count_and_sum(x, axis, True)
        work = self.dtype(filled)
        centred = self.where(mask, self._stat_const(0, work), self.subtract(filled, self.divide(total, count)))
        var = self.divide(self.sum(self.multiply(centred, centred), axis=axis, keepdims=True), count)
        if keepdims:
            return var
        shape = tuple(self.shape(filled))
        axes = tuple(range(len(shape))) if axis is None else ordered_axes(axis, len(shape))
        return self.reshape(var, tuple(d for i, d in enumerate(shape) if i not in axes))

    def nanvar(self, x, axis=None, keepdims=False):
        """The population variance (ddof 0) of the non-NaN entries over ``axis``; ints give floatx."""
        x = self.convert_to_tensor(x)
        return self._stat_cast(self._stat_nanvar(x, axis, keepdims), self._stat_dtypes(x)[0])

    def nanstd(self, x, axis=None, keepdims=False):
        """The population standard deviation of the non-NaN entries over ``axis``; ints give floatx."""
        x = self.convert_to_tensor(x)
        return self._stat_cast(self.sqrt(self._stat_nanvar(x, axis, keepdims)), self._stat_dtypes(x)[0])

    def _stat_nan_extreme(self, x, axis, keepdims, largest):
        x = self.convert_to_tensor(x)
        dt = self.dtype(x)
        if dt == "bool":
            return (self.any if largest else self.all)(x, axis=axis, keepdims=keepdims)
        reduce = self.max if largest else self.min
        if not self._stat_is_float(x):
            return reduce(x, axis=axis, keepdims=keepdims)
        mask = self.isnan(x)
        out = reduce(
            self.where(mask, self._stat_const(float("-inf") if largest else float("inf"), dt), x),
            axis=axis,
            keepdims=keepdims,
        )
        return self.where(self.all(mask, axis=axis, keepdims=keepdims), self._stat_const(float("nan"), dt), out)

    def nanmax(self, x, axis=None, keepdims=False):
        """The maximum of the non-NaN entries over ``axis`` (NaN where there are none)."""
        return self._stat_nan_extreme(x, axis, keepdims, largest=True)

    def nanmin(self, x, axis=None, keepdims=False):
        """The minimum of the non-NaN entries over ``axis`` (NaN where there are none)."""
        return self._stat_nan_extreme(x, axis, keepdims, largest=False)

    def _stat_nan_arg(self, x, axis, keepdims, largest):
        x = self.convert_to_tensor(x)
        pick = self.argmax if largest else self.argmin
        if not self._stat_is_float(x):
            return pick(self._stat_cast(x, "int32") if self.dtype(x) == "bool" else x, axis=axis, keepdims=keepdims)
        over = None if axis is None else (axis,)
        mask = self.isnan(x)
        # the first entry equal to the extreme of the non-NaN entries: a NaN never equals it, even where that
        # extreme is the infinity a NaN would be replaced by
        top = self.stop_gradient(self._stat_nan_extreme(x, over, True, largest))
        hits = self.cast(self.equal(x, top), "int32")
        index = self.argmax(hits, axis=axis, keepdims=keepdims)
        return self.where(self.all(mask, axis=over, keepdims=keepdims), self._stat_const(-1, "int32"), index)

    def nanargmax(self, x, axis=None, keepdims=False):
        """Index (int32) of the first maximum of the non-NaN entries along ``axis`` (flattened when None); -1
        where every entry is NaN."""
        return self._stat_nan_arg(x, axis, keepdims, largest=True)

    def nanargmin(self, x, axis=None, keepdims=False):
        """Index (int32) of the first minimum of the non-NaN entries along ``axis`` (flattened when None); -1
        where every entry is NaN."""
        return self._stat_nan_arg(x, axis, keepdims, largest=False)

    def nancumsum(self, x, axis=None, dtype=None):
        """Cumulative sum with NaN counted as 0 (``axis=None`` flattens); dtype as :meth:`cumsum`."""
        x = self.convert_to_tensor(x)
        if self._stat_is_float(x):
            x = self.where(self.isnan(x), self._stat_const(0, self.dtype(x)), x)
        return self.cumsum(x, axis=axis, dtype=dtype)

    def nancumprod(self, x, axis=None, dtype=None):
        """Cumulative product with NaN counted as 1 (``axis=None`` flattens); dtype as :meth:`cumprod`."""
        x = self.convert_to_tensor(x)
        if self._stat_is_float(x):
            x = self.where(self.isnan(x), self._stat_const(1, self.dtype(x)), x)
        return self.cumprod(x, axis=axis, dtype=dtype)

    # ---------------------------------------------------------------------------------- medians and quantiles
    def _stat_quantile(self, x, q, axis, method, keepdims, ignore_nan):
        """The quantiles ``q`` (a float, a tuple of floats or a float tensor of rank 0 or 1, in [0, 1]) of ``x``
        over ``axis``; the quantile axis, if any, comes first."""
        x = self.convert_to_tensor(x)
        result, work = self._stat_dtypes(x)
        static = not self.is_tensor(q)
        if static:
            q_shape = np.shape(q)
            qv = self.convert_to_tensor(np.asarray(q, np.float64).reshape(-1))
        else:
            q_shape = tuple(self.shape(q))
            qv = self.reshape(self.cast(q, "float64"), (-1,))
        has_nans = self._stat_is_float(x)
        y, kept, keep_shape, m = self._stat_last(self._stat_cast(x, work), axis)
        out_shape = tuple(q_shape) + (keep_shape if keepdims else kept)
        if m == 0:  # numpy: the quantiles of an empty slice are NaN
            return self.full(out_shape, float("nan"), result)
        last = len(kept)
        if ignore_nan and has_nans:
            mask = self.isnan(y)
            y = self.where(mask, self._stat_const(float("inf"), work), y)  # sorted after every number
            n = self.sum(self.cast(self.logical_not(mask), "int32"), axis=last, keepdims=True)
            top = self.cast(self.maximum(self.subtract(n, 1), 0), "float64")
            pos = self.multiply(qv, self.cast(self.subtract(n, 1), "float64"))  # kept + (k,)
        else:
            n, top = None, float(m - 1)
            pos = self.multiply(qv, float(m - 1))  # (k,)
        ordered = self.sort(y, axis=last)

        def gather(index):
            index = self.cast(self.minimum(self.maximum(index, 0.0), top), "int32")
            if n is None:
                return self.take(ordered, index, axis=last)
            return self.take_along_axis(ordered, index, axis=last)

        if method in ("lower", "higher", "nearest"):
            rounder = {"lower": self.floor, "higher": self.ceil, "nearest": self.round}[method]
            out = gather(rounder(pos))
        else:
            below, above = self.floor(pos), self.ceil(pos)
            a, b = gather(below), gather(above)
            if method == "midpoint":
                out = self.add(self.multiply(a, 0.5), self.multiply(b, 0.5))
            else:
                t = self.subtract(pos, below)
                tw = self.cast(t, work)
                mixed = self.add(self.multiply(a, self.subtract(1.0, tw)), self.multiply(b, tw))
                # on an entry, that entry (not a * 1 + b * 0, which is NaN when b is infinite)
                out = self.where(self.equal(t, 0.0), a, mixed)
        nan = self._stat_const(float("nan"), work)
        if n is not None:
            out = self.where(self.equal(n, 0), nan, out)
        elif has_nans:
            out = self.where(self.any(self.isnan(y), axis=last, keepdims=True), nan, out)
        if not static:
            out = self.where(self.logical_or(self.less(qv, 0.0), self.greater(qv, 1.0)), nan, out)
        if last:
            out = self.transpose(out, (last,) + tuple(range(last)))
        return self._stat_cast(self.reshape(out, out_shape), result)

    def quantile(self, x, q, axis=None, method="linear", keepdims=False):
        """The ``q``-th quantiles (``q`` in [0, 1]: a float, a tuple or a float tensor of rank 0 or 1) of ``x``
        over ``axis`` (None: all entries); a NaN in a slice makes its quantiles NaN. ``method``: one of
        :data:`QUANTILE_METHODS`. The quantile axis, if any, comes first. Ints give floatx."""
        return self._stat_quantile(x, q, axis, method, keepdims, ignore_nan=False)

    def percentile(self, x, q, axis=None, method="linear", keepdims=False):
        """:meth:`quantile` with ``q`` in percent ([0, 100])."""
        return self._stat_quantile(x, self._stat_percent(q), axis, method, keepdims, ignore_nan=False)

    def median(self, x, axis=None, keepdims=False):
        """The median over ``axis`` (the mean of the two middle entries of an even count); ints give floatx."""
        return self._stat_quantile(x, 0.5, axis, "linear", keepdims, ignore_nan=False)

    def nanquantile(self, x, q, axis=None, method="linear", keepdims=False):
        """:meth:`quantile` of the non-NaN entries (NaN where a slice has none)."""
        return self._stat_quantile(x, q, axis, method, keepdims, ignore_nan=True)

    def nanpercentile(self, x, q, axis=None, method="linear", keepdims=False):
        """:meth:`percentile` of the non-NaN entries (NaN where a slice has none)."""
        return self._stat_quantile(x, self._stat_percent(q), axis, method, keepdims, ignore_nan=True)

    def nanmedian(self, x, axis=None, keepdims=False):
        """:meth:`median` of the non-NaN entries (NaN where a slice has none)."""
        return self._stat_quantile(x, 0.5, axis, "linear", keepdims, ignore_nan=True)

    def _stat_percent(self, q):
        if self.is_tensor(q):
            return self.divide(self.cast(q, "float64"), 100.0)
        if isinstance(q, tuple):
            return tuple(v / 100.0 for v in q)
        return q / 100.0

    # -------------------------------------------------------------------------------------- weighted average
    def average(self, x, axis=None, weights=None):
        """The mean of ``x`` over ``axis`` (None: all entries) weighted by ``weights``: a tensor of the shape of
        ``x``, or 1-D along the single axis of ``axis``. The result dtype is ``result_type(x, weights, float)``."""
        x = self.convert_to_tensor(x)
        if weights is None:
            dt = dtypes.result_type(self.dtype(x), float)
            return self.mean(self._stat_cast(x, dt), axis=axis)
        weights = self.convert_to_tensor(weights)
        dt = dtypes.result_type(self.dtype(x), self.dtype(weights), float)
        x, weights = self._stat_cast(x, dt), self._stat_cast(weights, dt)
        shape = tuple(self.shape(x))
        if tuple(self.shape(weights)) != shape:  # 1-D weights along the one axis of ``axis``
            (a,) = ordered_axes(axis, len(shape))
            weights = self.reshape(weights, tuple(shape[a] if i == a else 1 for i in range(len(shape))))
        total = self.sum(self.multiply(x, weights), axis=axis)
        return self.divide(total, self.sum(self.broadcast_to(weights, shape), axis=axis))

    # -------------------------------------------------------------------------------------- window functions
    def _stat_window(self, length, fn):
        """A window of ``length`` (a Python int) in floatx: ``fn(n, m)`` of the symmetric positions
        ``n = 1 - length, 3 - length, ..., length - 1`` and ``m = length - 1``, computed in float64."""
        out = dtypes.floatx()
        if length < 1:
            return self.zeros((0,), out)
        if length == 1:
            return self.ones((1,), out)
        work = "float64" if self.capabilities.supports_float64 else "float32"
        n = self.arange(1 - length, length, 2, dtype=work)
        return self._stat_cast(fn(n, float(length - 1)), out)

    def _stat_cosine_window(self, length, weights):
        """``sum_j weights[j] * cos(j * pi * n / m)``: the Hann, Hamming and Blackman windows."""

        def fn(n, m):
            phase = self.multiply(n, math.pi / m)
            total = None
            for j, w in enumerate(weights):
                term = w if j == 0 else self.multiply(self.cos(self.multiply(phase, float(j))), w)
                total = term if total is None else self.add(total, term)
            return total

        return self._stat_window(length, fn)

    def bartlett(self, x):
        """The Bartlett (triangular) window of ``x`` points (a Python int), in floatx: ``1 - |n| / m``."""
        return self._stat_window(x, lambda n, m: self.subtract(1.0, self.divide(self.abs(n), m)))

    def blackman(self, x):
        """The Blackman window of ``x`` points (a Python int), in floatx."""
        return self._stat_cosine_window(x, (0.42, 0.5, 0.08))

    def hamming(self, x):
        """The Hamming window of ``x`` points (a Python int), in floatx."""
        return self._stat_cosine_window(x, (0.54, 0.46))

    def hanning(self, x):
        """The Hann window of ``x`` points (a Python int), in floatx."""
        return self._stat_cosine_window(x, (0.5, 0.5))

    def kaiser(self, x, beta):
        """The Kaiser window of ``x`` points (a Python int) and shape ``beta`` (a Python float), in floatx:
        ``I0(beta * sqrt(1 - (n / m) ** 2)) / I0(beta)``."""
        beta = abs(float(beta))  # I0 is even

        def fn(n, m):
            # 1 - (n / m) ** 2 = (m - n)(m + n) / m ** 2: products of integers, exact
            s = self.divide(self.sqrt(self.multiply(self.subtract(m, n), self.add(m, n))), m)
            arg = self.multiply(s, beta)
            # I0(arg) / I0(beta) = exp(arg - beta) * i0e(arg) / i0e(beta): finite for any beta
            return self.multiply(self.exp(self.subtract(arg, beta)), self.divide(self._stat_i0e(arg, beta), i0e(beta)))

        return self._stat_window(x, fn)

    def _stat_i0e(self, x, top):
        """``exp(-x) * I0(x)`` of a tensor ``x`` with entries in ``[0, top]`` (see :func:`i0e`), each series
        evaluated by Horner's rule."""

        def horner(v, coefficients):
            total = self.add(self.multiply(v, coefficients[-1]), coefficients[-2])
            for c in reversed(coefficients[:-2]):
                total = self.add(self.multiply(total, v), c)
            return total

        def series(v):
            terms = _i0_series_terms(min(top, _I0_SWITCH))
            coefficients = [1.0 / math.factorial(k) ** 2 for k in range(terms + 1)]
            return self.multiply(horner(self.square(self.multiply(v, 0.5)), coefficients), self.exp(self.negative(v)))

        def asymptotic(v):
            coefficients = [1.0]
            for k in range(1, _I0_ASYMPTOTIC_TERMS + 1):
                coefficients.append(coefficients[-1] * (2 * k - 1) ** 2 / (8.0 * k))
            return self.divide(horner(self.reciprocal(v), coefficients), self.sqrt(self.multiply(v, 2.0 * math.pi)))

        if top < _I0_SWITCH:
            return series(x)
        # each branch gets an input clamped to its own range, so that the other branch stays finite
        return self.where(
            self.less(x, _I0_SWITCH), series(self.minimum(x, _I0_SWITCH)), asymptotic(self.maximum(x, _I0_SWITCH))
        )
