"""The backend contract, part 2: the numpy-like op set behind ``highlevel.ops``.

Names, arguments and semantics follow ``keras.ops``. Inputs may be tensors of the engine, Variables,
numpy arrays or Python scalars; binary ops broadcast like numpy and promote dtypes by
``contract.dtypes.result_type`` (Python scalars are weak). Float ops on integer inputs compute in floatx.
Axes may be negative. Each method is abstract: every engine implements all of them.
"""

import abc


class NumpyContract(abc.ABC):
    """Elementwise math, comparisons, reductions, linear algebra and shape ops."""

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

    @abc.abstractmethod
    def square(self, x):
        """X * x."""

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

    @abc.abstractmethod
    def log2(self, x):
        """Base-2 log."""

    @abc.abstractmethod
    def log10(self, x):
        """Base-10 log."""

    @abc.abstractmethod
    def sin(self, x):
        """Sine."""

    @abc.abstractmethod
    def cos(self, x):
        """Cosine."""

    @abc.abstractmethod
    def tan(self, x):
        """Tangent."""

    @abc.abstractmethod
    def arcsin(self, x):
        """Inverse sine."""

    @abc.abstractmethod
    def arccos(self, x):
        """Inverse cosine."""

    @abc.abstractmethod
    def arctan(self, x):
        """Inverse tangent."""

    @abc.abstractmethod
    def sinh(self, x):
        """Hyperbolic sine."""

    @abc.abstractmethod
    def cosh(self, x):
        """Hyperbolic cosine."""

    @abc.abstractmethod
    def tanh(self, x):
        """Hyperbolic tangent."""

    @abc.abstractmethod
    def arcsinh(self, x):
        """Inverse hyperbolic sine."""

    @abc.abstractmethod
    def arccosh(self, x):
        """Inverse hyperbolic cosine."""

    @abc.abstractmethod
    def arctanh(self, x):
        """Inverse hyperbolic tangent."""

    @abc.abstractmethod
    def floor(self, x):
        """Round down (gradient 0)."""

    @abc.abstractmethod
    def ceil(self, x):
        """Round up (gradient 0)."""

    @abc.abstractmethod
    def reciprocal(self, x):
        """1 / x."""

    @abc.abstractmethod
    def rsqrt(self, x):
        """1 / sqrt(x)."""

    @abc.abstractmethod
    def erf(self, x):
        """The error function."""

    @abc.abstractmethod
    def isnan(self, x):
        """Elementwise NaN test (bool)."""

    @abc.abstractmethod
    def isinf(self, x):
        """Elementwise +-inf test (bool)."""

    @abc.abstractmethod
    def isfinite(self, x):
        """Elementwise finiteness test (bool)."""

    @abc.abstractmethod
    def logical_not(self, x):
        """Elementwise not (bool)."""

    @abc.abstractmethod
    def round(self, x, decimals=0):
        """Round half to even, as numpy (gradient 0)."""

    @abc.abstractmethod
    def clip(self, x, x_min, x_max):
        """``x`` limited to ``[x_min, x_max]``; gradient 1 inside, 0 outside."""

    @abc.abstractmethod
    def nan_to_num(self, x, nan=0.0, posinf=None, neginf=None):
        """NaN and infinities replaced by finite numbers."""

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

    @abc.abstractmethod
    def logical_xor(self, x1, x2):
        """Xor (bool)."""

    # ---------------------------------------------------------------- reductions
    @abc.abstractmethod
    def sum(self, x, axis=None, keepdims=False):
        """The sum over ``axis`` (int, tuple or None for all)."""

    @abc.abstractmethod
    def mean(self, x, axis=None, keepdims=False):
        """The mean (ints give floatx) over ``axis`` (int, tuple or None for all)."""

    @abc.abstractmethod
    def max(self, x, axis=None, keepdims=False):
        """The maximum over ``axis`` (int, tuple or None for all)."""

    @abc.abstractmethod
    def min(self, x, axis=None, keepdims=False):
        """The minimum over ``axis`` (int, tuple or None for all)."""

    @abc.abstractmethod
    def prod(self, x, axis=None, keepdims=False):
        """The product over ``axis`` (int, tuple or None for all)."""

    @abc.abstractmethod
    def var(self, x, axis=None, keepdims=False):
        """The population variance (ddof 0) over ``axis`` (int, tuple or None for all)."""

    @abc.abstractmethod
    def std(self, x, axis=None, keepdims=False):
        """The population standard deviation over ``axis`` (int, tuple or None for all)."""

    @abc.abstractmethod
    def any(self, x, axis=None, keepdims=False):
        """The any true (bool) over ``axis`` (int, tuple or None for all)."""

    @abc.abstractmethod
    def all(self, x, axis=None, keepdims=False):
        """The all true (bool) over ``axis`` (int, tuple or None for all)."""

    @abc.abstractmethod
    def logsumexp(self, x, axis=None, keepdims=False):
        """The log(sum(exp(x))) computed stably (finite for inputs of +-1e4) over ``axis`` (int, tuple or None for all)."""

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

    @abc.abstractmethod
    def tensordot(self, x1, x2, axes=2):
        """Tensor contraction over ``axes`` (int or pair of sequences)."""

    @abc.abstractmethod
    def outer(self, x1, x2):
        """Outer product of the flattened inputs."""

    # ------------------------------------------------------------------- shapes
    @abc.abstractmethod
    def reshape(self, x, newshape):
        """``x`` with a new shape; one dimension may be -1."""

    @abc.abstractmethod
    def transpose(self, x, axes=None):
        """Permutes the axes (reverses them when ``axes`` is None)."""

    @abc.abstractmethod
    def swapaxes(self, x, axis1, axis2):
        """Interchanges two axes."""

    @abc.abstractmethod
    def moveaxis(self, x, source, destination):
        """Moves axes to new positions."""

    @abc.abstractmethod
    def concatenate(self, xs, axis=0):
        """Joins a sequence of tensors along an existing axis."""

    @abc.abstractmethod
    def stack(self, xs, axis=0):
        """Joins a sequence of tensors along a new axis."""

    @abc.abstractmethod
    def split(self, x, indices_or_sections, axis=0):
        """A list of sub-tensors: equal sections (int) or cut at the given indices."""

    @abc.abstractmethod
    def expand_dims(self, x, axis):
        """Inserts a size-1 axis (int or tuple of ints)."""

    @abc.abstractmethod
    def squeeze(self, x, axis=None):
        """Removes size-1 axes (all of them, or those given)."""

    @abc.abstractmethod
    def take(self, x, indices, axis=None):
        """Gathers entries at integer ``indices`` along ``axis`` (flattened when None); negative indices count from the end."""

    @abc.abstractmethod
    def take_along_axis(self, x, indices, axis=None):
        """Gathers with an index tensor that has the rank of ``x``, as numpy."""

    @abc.abstractmethod
    def where(self, condition, x1=None, x2=None):
        """``x1`` where ``condition`` else ``x2`` (broadcast, promoted)."""

    @abc.abstractmethod
    def pad(self, x, pad_width, mode="constant", constant_values=None):
        """Pads with ``((before, after), ...)`` per axis; modes constant, reflect, symmetric, edge."""

    @abc.abstractmethod
    def tile(self, x, repeats):
        """Repeats the whole tensor ``repeats`` times per axis."""

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
        """``x[key]`` with numpy basic indexing (ints, slices, None, Ellipsis) and integer-array indexing on one axis."""

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

    @abc.abstractmethod
    def one_hot(self, x, num_classes, axis=-1, dtype=None):
        """One-hot encoding of integer ``x`` (floatx by default); out-of-range labels give all zeros."""
