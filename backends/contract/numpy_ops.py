"""The backend contract, part 2: the numpy-like op set behind ``highlevel.ops``.

Names, arguments and semantics follow ``keras.ops``. Inputs may be tensors of the engine, Variables,
numpy arrays or Python scalars; binary ops broadcast like numpy and promote dtypes by
``contract.dtypes.result_type`` (Python scalars are weak). Float ops on integer inputs compute in floatx.
Axes may be negative. Each method is abstract: every engine implements all of them.
"""

import abc
import math

from highlevel.backends.contract.axes import ordered_axes


class NumpyContract(abc.ABC):
    """Elementwise math, comparisons, reductions, linear algebra and shape ops.

    Arguments arrive in the front door's canonical form (``highlevel/ops/_args.py``), already checked there:

    * ``axis`` of a reduction, ``flip``, ``squeeze``, ``expand_dims``: None or a sorted tuple of distinct
      non-negative ints (``()`` is no axis, never every axis);
    * one ``axis`` (``concatenate``, ``stack``, ``split``, ``take``, ``argmax``, ``cumsum``, ...): a non-negative int,
      or None where the op flattens;
    * ``transpose``'s ``axes``, ``moveaxis``' ``source``/``destination``: tuples of distinct non-negative ints, in
      the user's order;
    * ``pad``: ``pad_width`` one ``(before, after)`` pair per axis, ``mode`` one of the four names in lower case;
      ``split``'s sections divide the axis; ``squeeze`` names only size-1 axes; ``reshape``'s shape fits.

    A definition reads these with :mod:`highlevel.backends.contract.axes` (which also brings an engine's own calls,
    such as ``self.sum(x, axis=-1)``, to that form) and raises no argument error of its own.
    """

    # ------------------------------------------------------- elementwise, unary
    @abc.abstractmethod
    def negative(self, x):
        """-x."""

    @abc.abstractmethod
    def abs(self, x):
        """|x|."""

    @abc.abstractmethod
    def sign(self, x):
        """-1, 0 or 1 (0 at 0; gradient 0)."""

    @abc.abstractmethod
    def sqrt(self, x):
        """Square root."""

    def square(self, x):
        """X * x."""
        return self.multiply(x, x)

    @abc.abstractmethod
    def exp(self, x):
        """E**x."""

    @abc.abstractmethod
    def expm1(self, x):
        """E**x - 1, accurate near 0."""

    @abc.abstractmethod
    def log(self, x):
        """Natural log."""

    @abc.abstractmethod
    def log1p(self, x):
        """Log(1 + x), accurate near 0."""

    def log2(self, x):
        """Base-2 log."""
        return self.multiply(self.log(x), 1.0 / math.log(2.0))

    def log10(self, x):
        """Base-10 log."""
        return self.multiply(self.log(x), 1.0 / math.log(10.0))

    @abc.abstractmethod
    def sin(self, x):
        """Sine."""

    @abc.abstractmethod
    def cos(self, x):
        """Cosine."""

    def tan(self, x):
        """Tangent."""
        return self.divide(self.sin(x), self.cos(x))

    @abc.abstractmethod
    def arcsin(self, x):
        """Inverse sine."""

    @abc.abstractmethod
    def arccos(self, x):
        """Inverse cosine."""

    @abc.abstractmethod
    def arctan(self, x):
        """Inverse tangent."""

    def sinh(self, x):
        """Hyperbolic sine."""
        # From expm1, not exp: no cancellation near 0.
        return self.multiply(self.subtract(self.expm1(x), self.expm1(self.negative(x))), 0.5)

    def cosh(self, x):
        """Hyperbolic cosine."""
        return self.multiply(self.add(self.exp(x), self.exp(self.negative(x))), 0.5)

    @abc.abstractmethod
    def tanh(self, x):
        """Hyperbolic tangent."""

    def arcsinh(self, x):
        """Inverse hyperbolic sine."""
        # log1p form near 0 (no cancellation), log(2|x|) past 1e4 (x**2 would overflow); each branch is fed a
        # clamped input so that the branch not taken stays finite and so does its (zero) gradient.
        a = self.abs(x)
        small = self.minimum(a, 1e4)
        near = self.log1p(
            self.add(small, self.divide(self.square(small), self.add(1, self.sqrt(self.add(1, self.square(small))))))
        )
        far = self.add(self.log(self.maximum(a, 1e4)), math.log(2.0))
        return self.multiply(self.sign(x), self.where(self.less(a, 1e4), near, far))

    def arccosh(self, x):
        """Inverse hyperbolic cosine."""
        # log1p((x - 1) + sqrt((x - 1)(x + 1))): accurate near 1; log(2x) past 1e4 (see arcsinh).
        small = self.minimum(x, 1e4)
        d = self.subtract(small, 1)
        near = self.log1p(self.add(d, self.sqrt(self.multiply(d, self.add(small, 1)))))
        far = self.add(self.log(self.maximum(x, 1e4)), math.log(2.0))
        return self.where(self.less(x, 1e4), near, far)

    def arctanh(self, x):
        """Inverse hyperbolic tangent."""
        return self.multiply(self.log1p(self.divide(self.multiply(x, 2), self.subtract(1, x))), 0.5)

    @abc.abstractmethod
    def floor(self, x):
        """Round down (gradient 0)."""

    @abc.abstractmethod
    def ceil(self, x):
        """Round up (gradient 0)."""

    def reciprocal(self, x):
        """1 / x."""
        return self.divide(1, x)

    def rsqrt(self, x):
        """1 / sqrt(x)."""
        return self.reciprocal(self.sqrt(x))

    @abc.abstractmethod
    def erf(self, x):
        """The error function."""

    @abc.abstractmethod
    def isnan(self, x):
        """Elementwise NaN test (bool)."""

    def isinf(self, x):
        """Elementwise +-inf test (bool)."""
        from . import dtypes

        if self.dtype(x) not in dtypes.FLOAT_DTYPES:
            return self.full(self.shape(x), False, "bool")
        return self.equal(self.abs(x), float("inf"))

    def isfinite(self, x):
        """Elementwise finiteness test (bool)."""
        from . import dtypes

        if self.dtype(x) not in dtypes.FLOAT_DTYPES:
            return self.full(self.shape(x), True, "bool")
        return self.logical_not(self.logical_or(self.isnan(x), self.isinf(x)))

    @abc.abstractmethod
    def logical_not(self, x):
        """Elementwise not (bool)."""

    @abc.abstractmethod
    def round(self, x, decimals=0):
        """Round half to even, as numpy (gradient 0)."""

    @abc.abstractmethod
    def clip(self, x, x_min, x_max):
        """``x`` limited to ``[x_min, x_max]``; gradient 1 inside, 0 outside."""

    def nan_to_num(self, x, nan=0.0, posinf=None, neginf=None):
        """NaN and infinities replaced by finite numbers."""
        import numpy as np

        from . import dtypes

        x = self.convert_to_tensor(x)
        dt = self.dtype(x)
        if dt not in dtypes.FLOAT_DTYPES:
            return x
        info = np.finfo(np.float32 if dt == "bfloat16" else dt)
        top = float(info.max) if posinf is None else posinf
        bottom = float(info.min) if neginf is None else neginf
        if dt == "bfloat16":
            top, bottom = (
                3.3895313892515355e38 if posinf is None else posinf,
                -3.3895313892515355e38 if neginf is None else neginf,
            )
        out = self.where(self.isnan(x), self.full((), nan, dt), x)
        out = self.where(self.equal(x, float("inf")), self.full((), top, dt), out)
        return self.where(self.equal(x, float("-inf")), self.full((), bottom, dt), out)

    # ------------------------------------------------------ elementwise, binary
    @abc.abstractmethod
    def add(self, x1, x2):
        """x1 + x2."""

    @abc.abstractmethod
    def subtract(self, x1, x2):
        """x1 - x2."""

    @abc.abstractmethod
    def multiply(self, x1, x2):
        """x1 * x2."""

    @abc.abstractmethod
    def divide(self, x1, x2):
        """x1 / x2 (true division; ints give floatx)."""

    @abc.abstractmethod
    def floor_divide(self, x1, x2):
        """Floor(x1 / x2) (Python semantics for negative numbers)."""

    @abc.abstractmethod
    def mod(self, x1, x2):
        """x1 - floor(x1 / x2) * x2 (sign of x2)."""

    @abc.abstractmethod
    def power(self, x1, x2):
        """x1 ** x2."""

    @abc.abstractmethod
    def arctan2(self, x1, x2):
        """Quadrant-aware arctan(x1 / x2)."""

    @abc.abstractmethod
    def maximum(self, x1, x2):
        """Elementwise max (NaN propagates)."""

    @abc.abstractmethod
    def minimum(self, x1, x2):
        """Elementwise min (NaN propagates)."""

    @abc.abstractmethod
    def logaddexp(self, x1, x2):
        """Log(exp(x1) + exp(x2)) without overflow."""

    @abc.abstractmethod
    def equal(self, x1, x2):
        """x1 == x2 (bool)."""

    @abc.abstractmethod
    def not_equal(self, x1, x2):
        """x1 != x2 (bool)."""

    @abc.abstractmethod
    def less(self, x1, x2):
        """x1 < x2 (bool)."""

    @abc.abstractmethod
    def less_equal(self, x1, x2):
        """x1 <= x2 (bool)."""

    @abc.abstractmethod
    def greater(self, x1, x2):
        """x1 > x2 (bool)."""

    @abc.abstractmethod
    def greater_equal(self, x1, x2):
        """x1 >= x2 (bool)."""

    @abc.abstractmethod
    def logical_and(self, x1, x2):
        """And (bool)."""

    @abc.abstractmethod
    def logical_or(self, x1, x2):
        """Or (bool)."""

    def logical_xor(self, x1, x2):
        """Xor (bool)."""
        return self.not_equal(self.cast(x1, "bool"), self.cast(x2, "bool"))

    # ---------------------------------------------------------------- reductions
    @abc.abstractmethod
    def sum(self, x, axis=None, keepdims=False):
        """The sum over ``axis`` (int, tuple or None for all)."""

    @abc.abstractmethod
    def mean(self, x, axis=None, keepdims=False):
        """The mean (ints give floatx) over ``axis`` (int, tuple or None for all)."""

    @abc.abstractmethod
    def max(self, x, axis=None, keepdims=False, initial=None):
        """The maximum over ``axis`` (int, tuple or None for all).

        ``initial`` (a Python number or None) joins the reduction, as numpy's: an engine hands a call that has one
        to ``self._reduce_with_initial("max", ...)`` (``contract/numpy_math.py``)."""

    @abc.abstractmethod
    def min(self, x, axis=None, keepdims=False, initial=None):
        """The minimum over ``axis`` (int, tuple or None for all); ``initial`` as for :meth:`max`."""

    @abc.abstractmethod
    def prod(self, x, axis=None, keepdims=False, dtype=None):
        """The product over ``axis`` (int, tuple or None for all); with ``dtype``, of ``x`` cast to it (the
        product is accumulated and returned in ``dtype``)."""

    def var(self, x, axis=None, keepdims=False):
        """The population variance (ddof 0) over ``axis`` (int, tuple or None for all)."""
        centred = self.subtract(x, self.mean(x, axis=axis, keepdims=True))
        return self.mean(self.multiply(centred, centred), axis=axis, keepdims=keepdims)

    def std(self, x, axis=None, keepdims=False):
        """The population standard deviation over ``axis`` (int, tuple or None for all)."""
        return self.sqrt(self.var(x, axis=axis, keepdims=keepdims))

    @abc.abstractmethod
    def any(self, x, axis=None, keepdims=False):
        """The any true (bool) over ``axis`` (int, tuple or None for all)."""

    @abc.abstractmethod
    def all(self, x, axis=None, keepdims=False):
        """The all true (bool) over ``axis`` (int, tuple or None for all)."""

    def logsumexp(self, x, axis=None, keepdims=False):
        """The log(sum(exp(x))) computed stably (finite for inputs of +-1e4) over ``axis`` (int, tuple or None
        for all)."""
        from . import dtypes

        x = self.convert_to_tensor(x)
        if self.dtype(x) not in dtypes.FLOAT_DTYPES:
            x = self.cast(x, dtypes.floatx())
        # Shifted by the maximum (a constant for differentiation), itself replaced by 0 where it is infinite.
        if axis is not None:
            axis = ordered_axes(axis, len(self.shape(x)))
        top = self.stop_gradient(self.max(x, axis=axis, keepdims=True))
        top = self.where(self.isfinite(top), top, self.zeros((), self.dtype(x)))
        out = self.add(self.log(self.sum(self.exp(self.subtract(x, top)), axis=axis, keepdims=True)), top)
        if keepdims:
            return out
        return self.reshape(out, tuple(d for i, d in enumerate(self.shape(out)) if axis is not None and i not in axis))

    @abc.abstractmethod
    def argmax(self, x, axis=None, keepdims=False):
        """Index of the first maximum (int32); ``axis=None`` flattens."""

    @abc.abstractmethod
    def argmin(self, x, axis=None, keepdims=False):
        """Index of the first minimum (int32); ``axis=None`` flattens."""

    @abc.abstractmethod
    def cumsum(self, x, axis=None, dtype=None):
        """Cumulative sum; ``axis=None`` flattens first."""

    @abc.abstractmethod
    def cumprod(self, x, axis=None, dtype=None):
        """Cumulative product; ``axis=None`` flattens first."""

    # ------------------------------------------------------------ linear algebra
    @abc.abstractmethod
    def matmul(self, x1, x2):
        """Matrix product with numpy's rules for 1-D and batched (broadcast) operands."""

    @abc.abstractmethod
    def einsum(self, subscripts, *operands):
        """Einstein summation, as ``numpy.einsum``."""

    def tensordot(self, x1, x2, axes=2):
        """Tensor contraction over ``axes`` (int or pair of sequences)."""
        s1, s2 = self.shape(x1), self.shape(x2)
        if isinstance(axes, int):
            a1, a2 = tuple(range(len(s1) - axes, len(s1))), tuple(range(axes))
        else:
            a1, a2 = axes
            a1 = (a1,) if isinstance(a1, int) else tuple(a1)
            a2 = (a2,) if isinstance(a2, int) else tuple(a2)
            a1 = tuple(a % len(s1) for a in a1)
            a2 = tuple(a % len(s2) for a in a2)
        free1 = [i for i in range(len(s1)) if i not in a1]
        free2 = [i for i in range(len(s2)) if i not in a2]
        k = 1
        for a in a1:
            k *= s1[a]
        m1 = self.reshape(self.transpose(x1, tuple(free1) + a1), (-1, k))
        m2 = self.reshape(self.transpose(x2, a2 + tuple(free2)), (k, -1))
        return self.reshape(self.matmul(m1, m2), tuple(s1[i] for i in free1) + tuple(s2[i] for i in free2))

    def outer(self, x1, x2):
        """Outer product of the flattened inputs."""
        return self.multiply(self.reshape(x1, (-1, 1)), self.reshape(x2, (1, -1)))

    # ------------------------------------------------------------------- shapes
    @abc.abstractmethod
    def reshape(self, x, newshape):
        """``x`` with a new shape; one dimension may be -1."""

    @abc.abstractmethod
    def transpose(self, x, axes=None):
        """Permutes the axes (reverses them when ``axes`` is None)."""

    def swapaxes(self, x, axis1, axis2):
        """Interchanges two axes."""
        n = len(self.shape(x))
        (axis1,), (axis2,) = ordered_axes(axis1, n), ordered_axes(axis2, n)
        perm = list(range(n))
        perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
        return self.transpose(x, tuple(perm))

    def moveaxis(self, x, source, destination):
        """Moves axes to new positions.

        ``source``, ``destination``: tuples of distinct non-negative ints of the same length, in the user's order
        (the front door's canonical form, which has checked them); an engine's own call may pass an int or a
        negative axis, read by :func:`~highlevel.backends.contract.axes.ordered_axes`.
        """
        n = len(self.shape(x))
        source, destination = ordered_axes(source, n), ordered_axes(destination, n)
        rest = [a for a in range(n) if a not in source]
        for dest, src in sorted(zip(destination, source)):
            rest.insert(dest, src)
        return self.transpose(x, tuple(rest))

    @abc.abstractmethod
    def concatenate(self, xs, axis=0):
        """Joins a sequence of tensors along an existing axis."""

    def stack(self, xs, axis=0):
        """Joins a sequence of tensors along a new axis."""
        (axis,) = ordered_axes(axis, len(self.shape(xs[0])) + 1)
        return self.concatenate([self.expand_dims(x, axis) for x in xs], axis=axis)

    def split(self, x, indices_or_sections, axis=0):
        """A list of sub-tensors: equal sections (int) or cut at the given indices."""
        shape = self.shape(x)
        (axis,) = ordered_axes(axis, len(shape))
        size = shape[axis]
        if isinstance(indices_or_sections, int):
            step = size // indices_or_sections
            cuts = [step * i for i in range(1, indices_or_sections)]
        else:
            cuts = [min(max(int(i), 0), size) for i in indices_or_sections]
        bounds = [0] + cuts + [size]
        out = []
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            start = [0] * len(shape)
            start[axis] = lo
            part = list(shape)
            part[axis] = max(hi - lo, 0)
            out.append(self.slice(x, tuple(start), tuple(part)))
        return out

    def expand_dims(self, x, axis):
        """Inserts a size-1 axis (int or tuple of ints)."""
        shape = list(self.shape(x))
        axes = ordered_axes(axis, len(shape) + (1 if isinstance(axis, int) else len(axis)))
        for a in sorted(axes):
            shape.insert(a, 1)
        return self.reshape(x, tuple(shape))

    def squeeze(self, x, axis=None):
        """Removes size-1 axes (all of them, or those given)."""
        shape = self.shape(x)
        if axis is None:
            return self.reshape(x, tuple(d for d in shape if d != 1))
        axes = ordered_axes(axis, len(shape))
        return self.reshape(x, tuple(d for i, d in enumerate(shape) if i not in axes))

    @abc.abstractmethod
    def take(self, x, indices, axis=None):
        """Gathers entries at integer ``indices`` along ``axis`` (flattened when None); negative indices count
        from the end."""

    @abc.abstractmethod
    def take_along_axis(self, x, indices, axis=None):
        """Gathers with an index tensor that has the rank of ``x``, as numpy."""

    @abc.abstractmethod
    def where(self, condition, x1=None, x2=None):
        """``x1`` where ``condition`` else ``x2`` (broadcast, promoted)."""

    @abc.abstractmethod
    def pad(self, x, pad_width, mode="constant", constant_values=None):
        """Pads with ``((before, after), ...)`` per axis; modes constant, reflect, symmetric, edge."""

    def tile(self, x, repeats):
        """Repeats the whole tensor ``repeats`` times per axis."""
        repeats = (repeats,) if isinstance(repeats, int) else tuple(repeats)
        x = self.convert_to_tensor(x)
        n = max(len(repeats), len(self.shape(x)))
        x = self.reshape(x, (1,) * (n - len(self.shape(x))) + tuple(self.shape(x)))
        repeats = (1,) * (n - len(repeats)) + repeats
        for axis, r in enumerate(repeats):
            if r != 1:
                x = (
                    self.concatenate([x] * r, axis=axis)
                    if r > 0
                    else self.slice(x, (0,) * n, tuple(0 if i == axis else d for i, d in enumerate(self.shape(x))))
                )
        return x

    @abc.abstractmethod
    def repeat(self, x, repeats, axis=None):
        """Repeats each element (``axis=None`` flattens first)."""

    @abc.abstractmethod
    def broadcast_to(self, x, shape):
        """``x`` broadcast to ``shape``."""

    @abc.abstractmethod
    def flip(self, x, axis=None):
        """Reverses the order of elements along ``axis`` (all axes when None)."""

    @abc.abstractmethod
    def getitem(self, x, key):
        """``x[key]`` with numpy basic indexing (ints, slices, None, Ellipsis) and integer-array indexing on one
        axis."""

    @abc.abstractmethod
    def slice(self, inputs, start_indices, shape):
        """The block of ``shape`` starting at ``start_indices``."""

    @abc.abstractmethod
    def slice_update(self, inputs, start_indices, updates):
        """A copy of ``inputs`` with the block at ``start_indices`` replaced by ``updates`` (differentiable in both)."""

    @abc.abstractmethod
    def sort(self, x, axis=-1):
        """Sorted copy along ``axis`` (ascending)."""

    @abc.abstractmethod
    def argsort(self, x, axis=-1):
        """Indices (int32) that sort ``x`` along ``axis``; stable."""

    @abc.abstractmethod
    def top_k(self, x, k, sorted=True):
        """``(values, indices)`` of the ``k`` largest entries along the last axis; indices int32."""

    def one_hot(self, x, num_classes, axis=-1, dtype=None):
        """One-hot encoding of integer ``x`` (floatx by default); out-of-range labels give all zeros."""
        from . import dtypes

        x = self.convert_to_tensor(x)
        if self.dtype(x) not in dtypes.INT_DTYPES:
            x = self.cast(x, "int32")  # float labels, as Keras accepts them
        classes = self.arange(num_classes, dtype=self.dtype(x))
        out = self.cast(
            self.equal(self.expand_dims(x, len(self.shape(x))), classes),
            dtype if dtype is not None else dtypes.floatx(),
        )
        n = len(self.shape(x))
        (axis,) = ordered_axes(axis, n + 1)
        if axis != n:
            out = self.moveaxis(out, n, axis)
        return out
