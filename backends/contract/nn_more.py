"""The backend contract, part 3b: the rest of ``keras.ops.nn``, every op with a generic definition.

Activations (celu, glu, the hard and sparse families, the shrinkage functions, log_sigmoid, squareplus,
sparsemax), normalizations (batch, layer, RMS, ``normalize``), the cross-entropies, ``multi_hot``, ``psnr``,
adaptive pooling, separable convolution, ``unfold``/``fold``, ``depth_to_space``/``space_to_depth``,
dot-product attention and CTC (the loss by the log-space forward algorithm, the decoders greedy and beam
search). Each method is written on the contract's own methods with the canonical arguments the front door hands
over (``highlevel/ops/nn.py``), so an engine needs nothing to support them; an engine may override one where its
framework has a faster kernel, and the conformance suite holds the override to the same numbers.

Conventions shared by the methods here:

* float math on integer or bool inputs computes in floatx;
* at a kink, the gradient is the one of the ``where`` form Keras's backends write: 0 at the thresholds of
  ``hard_shrink``, ``soft_shrink``, ``threshold`` and at the saturation points of ``sparse_sigmoid`` (JAX's
  ``clip`` form splits it to 0.25 there), 1 at the bounds of ``hard_tanh`` (as JAX and TensorFlow);
* normalizations compute half-precision inputs in float32 and return the input's dtype, as Keras does (integer
  inputs return floatx: Keras casts the normalized values back to the integers);
* where Keras's backends disagree, the mathematically right answer: ``ctc_loss`` is ``inf`` for an impossible
  alignment (as PyTorch's; JAX's backend gives ~1e5, TensorFlow's ~709), ``sparsemax`` sums to 1 (Keras 3.15's
  backends all take a threshold from the sum of the support's cumulative sums).

>>> import highlevel as hl
>>> b = hl.config.current_backend()
>>> b.to_numpy(b.hard_tanh(b.convert_to_tensor([-2.0, 0.5, 3.0]))).tolist()
[-1.0, 0.5, 1.0]
"""

import math

import numpy as np

from . import dtypes

#: A log-probability that stands for log(0) in the CTC recursions: finite, so that neither a value nor a gradient
#: meets ``-inf - -inf``; ``exp`` of it (or of it plus any real log-probability) is exactly 0.
LOG_ZERO = -1e30


class NNMoreContract:
    """The ``keras.ops.nn`` ops defined from the primitives of the other contract parts."""

    # ------------------------------------------------------------------------------------------- helpers
    def _nn_float(self, x):
        """``x`` as a tensor, in floatx when it is an integer or bool tensor."""
        x = self.convert_to_tensor(x)
        return x if self.dtype(x) in dtypes.FLOAT_DTYPES else self.cast(x, dtypes.floatx())

    def _at_least_float32(self, x):
        """``(x in a dtype of at least float32, the dtype to return)``; integer inputs return floatx."""
        x = self.convert_to_tensor(x)
        dt = self.dtype(x)
        out = dt if dt in dtypes.FLOAT_DTYPES else dtypes.floatx()
        compute = dtypes.result_type(out, "float32")
        return (x if dt == compute else self.cast(x, compute)), out

    def _zero_like(self, x):
        return self.zeros((), self.dtype(x))

    def _as(self, x, dtype):
        """``x`` (a tensor, array, list or Python number) as a tensor of ``dtype``."""
        x = self.convert_to_tensor(x)
        return x if self.dtype(x) == dtype else self.cast(x, dtype)

    def _columns(self, x, start, count):
        """Columns ``[start, start + count)`` of a ``(B, N, ...)`` tensor."""
        shape = self.shape(x)
        return self.slice(x, (0, start) + (0,) * (len(shape) - 2), (shape[0], count) + tuple(shape[2:]))

    # --------------------------------------------------------------------------------------- activations
    def celu(self, x, alpha=1.0):
        """``x`` for ``x > 0``, else ``alpha * (exp(x / alpha) - 1)``; smooth at 0 (slope 1 from both sides)."""
        x = self._nn_float(x)
        positive = self.greater(x, 0)
        # expm1 of the non-positive part only: the branch not taken neither overflows nor gives an inf gradient
        safe = self.where(positive, self._zero_like(x), x)
        return self.where(positive, x, self.multiply(self.expm1(self.divide(safe, alpha)), alpha))

    def glu(self, x, axis=-1):
        """``a * sigmoid(b)`` where ``a`` and ``b`` are the two halves of ``x`` along ``axis`` (of even size)."""
        x = self._nn_float(x)
        a, b = self.split(x, 2, axis=axis)
        return self.multiply(a, self.sigmoid(b))

    def hard_shrink(self, x, threshold=0.5):
        """``x`` where ``|x| > threshold``, else 0 (gradient 0 at ``|x| == threshold``)."""
        x = self._nn_float(x)
        return self.where(self.greater(self.abs(x), threshold), x, self._zero_like(x))

    def hard_silu(self, x):
        """``x * hard_sigmoid(x)``: 0 below -3, ``x`` above 3, ``x * (x + 3) / 6`` between."""
        x = self._nn_float(x)
        return self.multiply(x, self.hard_sigmoid(x))

    def hard_tanh(self, x):
        """``x`` clipped to ``[-1, 1]``; gradient 1 at the bounds (JAX's and TensorFlow's convention)."""
        return self.clip(self._nn_float(x), -1.0, 1.0)

    def log_sigmoid(self, x):
        """``log(sigmoid(x)) = -softplus(-x)``, finite for inputs of +-1e4."""
        x = self._nn_float(x)
        return self.negative(self.softplus(self.negative(x)))

    def soft_shrink(self, x, threshold=0.5):
        """``x - threshold`` above ``threshold``, ``x + threshold`` below ``-threshold``, else 0."""
        x = self._nn_float(x)
        inner = self.where(self.less(x, -threshold), self.add(x, threshold), self._zero_like(x))
        return self.where(self.greater(x, threshold), self.subtract(x, threshold), inner)

    def sparse_plus(self, x):
        """0 for ``x <= -1``, ``(x + 1)**2 / 4`` for ``-1 < x < 1``, ``x`` for ``x >= 1`` (smooth everywhere)."""
        x = self._nn_float(x)
        middle = self.multiply(self.square(self.add(x, 1.0)), 0.25)
        return self.where(self.less_equal(x, -1.0), self._zero_like(x), self.where(self.less(x, 1.0), middle, x))

    def sparse_sigmoid(self, x):
        """0 for ``x <= -1``, 1 for ``x >= 1``, ``(x + 1) / 2`` between; gradient 0 at -1 and 1."""
        x = self._nn_float(x)
        middle = self.multiply(self.add(x, 1.0), 0.5)
        upper = self.where(self.greater_equal(x, 1.0), self.ones((), self.dtype(x)), middle)
        return self.where(self.less_equal(x, -1.0), self._zero_like(x), upper)

    def squareplus(self, x, b=4):
        """``(x + sqrt(x**2 + b)) / 2``, a smooth rectifier."""
        x = self._nn_float(x)
        if not isinstance(b, (int, float)):
            b = self._as(b, self.dtype(x))
        return self.multiply(self.add(x, self.sqrt(self.add(self.square(x), b))), 0.5)

    def tanh_shrink(self, x):
        """``x - tanh(x)``."""
        x = self._nn_float(x)
        return self.subtract(x, self.tanh(x))

    def threshold(self, x, threshold, default_value):
        """``x`` where ``x > threshold``, else ``default_value`` (gradient 0 at the threshold)."""
        x = self._nn_float(x)
        return self.where(self.greater(x, threshold), x, self.full((), default_value, self.dtype(x)))

    def sparsemax(self, x, axis=-1):
        """The Euclidean projection of ``x`` onto the probability simplex along ``axis`` (Martins & Astudillo,
        2016): ``max(x - tau, 0)`` with ``tau`` such that the result sums to 1; exact zeros for low scores."""
        x = self._nn_float(x)
        ndim = len(self.shape(x))
        axis = axis % ndim
        n = self.shape(x)[axis]
        ordered = self.flip(self.sort(x, axis=axis), axis=axis)  # descending
        cumsum = self.cumsum(ordered, axis=axis)
        ranks = self.reshape(
            self.arange(1, n + 1, dtype=self.dtype(x)), tuple(n if d == axis else 1 for d in range(ndim))
        )
        support = self.greater(ordered, self.divide(self.subtract(cumsum, 1.0), ranks))
        k = self.sum(self.cast(support, self.dtype(x)), axis=(axis,), keepdims=True)
        # tau = (sum of the k largest - 1) / k. (Keras 3.15's backends sum the *cumulative* sums of the support
        # here, a slip that makes the result sum to less than 1; this is the projection of the paper.)
        top = self.sum(self.where(support, ordered, self._zero_like(x)), axis=(axis,), keepdims=True)
        tau = self.divide(self.subtract(top, 1.0), k)
        return self.maximum(self.subtract(x, tau), self._zero_like(x))

    # ------------------------------------------------------------------------------------ normalizations
    def batch_normalization(self, x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
        """``(x - mean) / sqrt(variance + epsilon) * scale + offset``, the vectors laid along ``axis``.

        ``mean``, ``variance`` (and ``offset``, ``scale`` when given) are vectors of ``x.shape[axis]`` values; the
        result has the promoted dtype of all of them and is differentiable with respect to each.
        """
        x = self.convert_to_tensor(x)
        ndim = len(self.shape(x))
        shape = tuple(-1 if d == axis % ndim else 1 for d in range(ndim))

        def lay(v):
            return self.reshape(self.convert_to_tensor(v), shape)

        inv = self.rsqrt(self.add(lay(variance), epsilon))
        if scale is not None:
            inv = self.multiply(inv, lay(scale))
        shift = self.negative(self.multiply(lay(mean), inv))
        if offset is not None:
            shift = self.add(shift, lay(offset))
        return self.add(self.multiply(x, inv), shift)

    def _broadcast_param(self, v, x_shape, axes):
        """A gamma/beta/scale of the normalized axes' shape laid out to broadcast against ``x``."""
        v = self.convert_to_tensor(v)
        ndim = len(x_shape)
        if len(self.shape(v)) != ndim and tuple(axes) != (ndim - 1,):
            v = self.reshape(v, tuple(x_shape[d] if d in axes else 1 for d in range(ndim)))
        return v

    def layer_normalization(self, x, gamma=None, beta=None, axis=(-1,), epsilon=1e-7, rms_scaling=False):
        """``(x - mean) / sqrt(var + epsilon) * gamma + beta``, the statistics over ``axis`` (a tuple of axes).

        Half-precision inputs compute in float32; the result has the dtype of ``x`` (floatx for integers).
        ``rms_scaling`` (Keras's deprecated variant) returns ``x / sqrt(var + epsilon) * gamma`` instead.
        """
        x, out_dtype = self._at_least_float32(x)
        shape = self.shape(x)
        ndim = len(shape)
        axes = tuple(sorted(a % ndim for a in ((axis,) if isinstance(axis, int) else axis)))
        dt = self.dtype(x)
        if gamma is not None:
            gamma = self.cast(self._broadcast_param(gamma, shape, axes), dt)
        if beta is not None:
            beta = self.cast(self._broadcast_param(beta, shape, axes), dt)
        mean, variance = self.moments(x, axes, keepdims=True)
        inv = self.rsqrt(self.add(variance, epsilon))
        if rms_scaling:
            out = self.multiply(x, inv)
            if gamma is not None:
                out = self.multiply(out, gamma)
        else:
            if gamma is not None:
                inv = self.multiply(inv, gamma)
            shift = self.negative(self.multiply(mean, inv))
            if beta is not None:
                shift = self.add(shift, beta)
            out = self.add(self.multiply(x, inv), shift)
        return out if self.dtype(out) == out_dtype else self.cast(out, out_dtype)

    def rms_normalization(self, x, scale=None, axis=(-1,), epsilon=1e-7):
        """``x / sqrt(mean(x**2) + epsilon) * scale``, the mean over ``axis`` (a tuple of axes).

        Half-precision inputs compute in float32; the result has the dtype of ``x`` (floatx for integers).
        """
        x, out_dtype = self._at_least_float32(x)
        ndim = len(self.shape(x))
        axes = tuple(sorted(a % ndim for a in ((axis,) if isinstance(axis, int) else axis)))
        out = self.multiply(x, self.rsqrt(self.add(self.mean(self.square(x), axis=axes, keepdims=True), epsilon)))
        if scale is not None:
            out = self.multiply(out, self._as(scale, self.dtype(x)))
        return out if self.dtype(out) == out_dtype else self.cast(out, out_dtype)

    def normalize(self, x, axis=(-1,), order=2, epsilon=1e-7):
        """``x / max(||x||_order, epsilon)`` over ``axis`` (a tuple of axes, or None for all).

        A zero vector gives zeros, with a zero (not NaN) gradient.
        """
        x = self._nn_float(x)
        if len(self.shape(x)) == 0:
            x = self.reshape(x, (1,))
        ndim = len(self.shape(x))
        if axis is not None:
            axis = tuple(sorted(a % ndim for a in ((axis,) if isinstance(axis, int) else axis)))
        if order == 2:
            total = self.sum(self.square(x), axis=axis, keepdims=True)
        else:
            total = self.sum(self.power(self.abs(x), float(order)), axis=axis, keepdims=True)
        # below epsilon**order the norm is replaced by epsilon; the root is taken of a safe value only, so
        # that a zero vector's gradient is 0, not 0 * inf
        small = self.less_equal(total, float(epsilon) ** order)
        safe = self.where(small, self.ones((), self.dtype(total)), total)
        if order == 2:
            inv = self.rsqrt(safe)
        else:
            inv = self.reciprocal(self.power(safe, 1.0 / order))
        inv = self.where(small, self.full((), 1.0 / epsilon, self.dtype(total)), inv)
        return self.multiply(x, inv)

    # --------------------------------------------------------------------------------------- cross-entropy
    def binary_crossentropy(self, target, output, from_logits=False, epsilon=1e-7):
        """Elementwise binary cross-entropy of probabilities (clipped to ``[epsilon, 1 - epsilon]``) or logits.

        From logits: ``max(x, 0) - x * z + log1p(exp(-|x|))``, finite for logits of +-1e4; its gradient is
        ``sigmoid(x) - z`` at ``x = 0`` too (``maximum``'s tie gives 1/2 there, ``abs``'s slope 0).
        """
        output = self._nn_float(output)
        target = self._as(target, self.dtype(output))
        if from_logits:
            return self.add(
                self.subtract(self.maximum(output, self._zero_like(output)), self.multiply(output, target)),
                self.log1p(self.exp(self.negative(self.abs(output)))),
            )
        output = self.clip(output, epsilon, 1.0 - epsilon)
        return self.negative(
            self.add(
                self.multiply(target, self.log(output)),
                self.multiply(self.subtract(1.0, target), self.log(self.subtract(1.0, output))),
            )
        )

    def categorical_crossentropy(self, target, output, from_logits=False, axis=-1, epsilon=1e-7):
        """``-sum(target * log(p))`` along ``axis``: ``p`` the softmax of logits, or the probabilities renormalized
        to sum to 1 and clipped to ``[epsilon, 1 - epsilon]``."""
        output = self._nn_float(output)
        target = self._as(target, self.dtype(output))
        if from_logits:
            log_p = self.log_softmax(output, axis=axis)
        else:
            output = self.divide(output, self.sum(output, axis=(axis,), keepdims=True))
            log_p = self.log(self.clip(output, epsilon, 1.0 - epsilon))
        return self.negative(self.sum(self.multiply(target, log_p), axis=(axis,)))

    def sparse_categorical_crossentropy(self, target, output, from_logits=False, axis=-1, epsilon=1e-7):
        """``-log p[target]`` along ``axis`` for integer ``target``: ``p`` the softmax of logits, or of the log of
        the probabilities clipped to ``[epsilon, 1 - epsilon]`` (so renormalized after the clip, as Keras's
        TensorFlow backend). Labels must lie in ``[0, num_classes)``."""
        output = self._nn_float(output)
        logits = output if from_logits else self.log(self.clip(output, epsilon, 1.0 - epsilon))
        return self.sparse_softmax_cross_entropy(target, logits, axis=axis)

    def multi_hot(self, inputs, num_classes, axis=-1, dtype=None):
        """Multi-hot encoding: ``one_hot(inputs, num_classes, axis)`` reduced with ``max`` over axis 1 (axis 0 for
        a vector), so each row of labels becomes one vector; out-of-range labels are ignored."""
        inputs = self.convert_to_tensor(inputs)
        reduce_axis = 1 if len(self.shape(inputs)) > 1 else 0
        encoded = self.one_hot(inputs, num_classes, axis=axis, dtype=dtype)
        return self.max(encoded, axis=(reduce_axis,))

    def psnr(self, x1, x2, max_val):
        """Peak signal-to-noise ratio ``20 log10(max_val) - 10 log10(mean((x1 - x2)**2))`` in decibels (a scalar)."""
        x1, x2 = self.convert_to_tensor(x1), self.convert_to_tensor(x2)
        dt = dtypes.result_type(self.dtype(x1), self.dtype(x2))
        dt = dt if dt in dtypes.FLOAT_DTYPES else dtypes.floatx()
        x1, x2, max_val = self._as(x1, dt), self._as(x2, dt), self._as(max_val, dt)
        mse = self.mean(self.square(self.subtract(x1, x2)))
        return self.subtract(self.multiply(self.log10(max_val), 20.0), self.multiply(self.log10(mse), 10.0))

    # ------------------------------------------------------------------------------ pooling, convolution
    def _adaptive_pool_axis(self, x, axis, out_size, mode):
        """Adaptive pooling along one axis: window ``i`` covers ``[floor(i L / O), ceil((i + 1) L / O))``."""
        length = self.shape(x)[axis]
        starts = [(i * length) // out_size for i in range(out_size)]
        ends = [-((-(i + 1) * length) // out_size) for i in range(out_size)]
        width = max(e - s for s, e in zip(starts, ends))
        # every window as `width` indices; a shorter window repeats its last index (harmless for max) and
        # gives the repeats weight 0 (for the mean)
        index = [min(s + j, e - 1) for s, e in zip(starts, ends) for j in range(width)]
        gathered = self.take(x, self.convert_to_tensor(index, dtype="int32"), axis=axis)
        shape = self.shape(x)
        split = shape[:axis] + (out_size, width) + shape[axis + 1 :]
        gathered = self.reshape(gathered, split)
        if mode == "max":
            return self.max(gathered, axis=(axis + 1,))
        weights = np.array([[1.0 / (e - s) if j < e - s else 0.0 for j in range(width)] for s, e in zip(starts, ends)])
        wshape = tuple(out_size if d == axis else width if d == axis + 1 else 1 for d in range(len(split)))
        weights = self.convert_to_tensor(weights.reshape(wshape), dtype=self.dtype(x))
        return self.sum(self.multiply(gathered, weights), axis=(axis + 1,))

    def _adaptive_pool(self, inputs, output_size, data_format, mode):
        x = self._nn_float(inputs) if mode == "average" else self.convert_to_tensor(inputs)
        first = 2 if data_format == "channels_first" else 1
        for i, size in enumerate(output_size):
            x = self._adaptive_pool_axis(x, first + i, size, mode)
        return x

    def adaptive_average_pool(self, inputs, output_size, data_format="channels_last"):
        """Average pooling to ``output_size`` (one int per spatial axis) with PyTorch's windows: output ``i`` of
        an axis of length ``L`` averages ``[floor(i L / O), ceil((i + 1) L / O))``. Integers average in floatx."""
        return self._adaptive_pool(inputs, output_size, data_format, "average")

    def adaptive_max_pool(self, inputs, output_size, data_format="channels_last"):
        """Max pooling to ``output_size`` (one int per spatial axis) with the windows of
        :meth:`adaptive_average_pool`; keeps the dtype."""
        return self._adaptive_pool(inputs, output_size, data_format, "max")

    def separable_conv(
        self,
        inputs,
        depthwise_kernel,
        pointwise_kernel,
        strides=(1,),
        padding="valid",
        data_format="channels_last",
        dilation_rate=(1,),
    ):
        """A depthwise convolution followed by a pointwise (1x1) one.

        ``depthwise_kernel``: ``(*spatial, in_channels, multiplier)``; ``pointwise_kernel``:
        ``(*ones, in_channels * multiplier, out_channels)``. Canonical ``strides``/``dilation_rate``: one int per
        spatial axis.
        """
        out = self.depthwise_conv(
            inputs,
            depthwise_kernel,
            strides=strides,
            padding=padding,
            data_format=data_format,
            dilation_rate=dilation_rate,
        )
        ones = (1,) * len(strides)
        return self.conv(
            out, pointwise_kernel, strides=ones, padding="valid", data_format=data_format, dilation_rate=ones
        )

    def unfold(self, x, kernel_size, dilation=(1, 1), padding=(0, 0), stride=(1, 1)):
        """Sliding ``kernel_size`` blocks of an ``(N, C, H, W)`` tensor as columns (im2col, PyTorch's layout):
        ``(N, C * kH * kW, L)``, the block rows ordered by channel, then kernel row, then kernel column, and ``L``
        the blocks in row-major order. ``x`` is zero-padded by ``padding`` on both sides first."""
        x = self.convert_to_tensor(x)
        n, c, h, w = self.shape(x)
        (kh, kw), (dh, dw), (ph, pw), (sh, sw) = kernel_size, dilation, padding, stride
        if ph or pw:
            x = self.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
        nh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
        nw = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
        rows = [i * dh + r * sh for i in range(kh) for r in range(nh)]
        cols = [j * dw + q * sw for j in range(kw) for q in range(nw)]
        x = self.take(x, self.convert_to_tensor(rows, dtype="int32"), axis=2)  # (N, C, kH * nH, W')
        x = self.take(x, self.convert_to_tensor(cols, dtype="int32"), axis=3)  # (N, C, kH * nH, kW * nW)
        x = self.reshape(x, (n, c, kh, nh, kw, nw))
        x = self.transpose(x, (0, 1, 2, 4, 3, 5))
        return self.reshape(x, (n, c * kh * kw, nh * nw))

    def fold(self, x, output_size, kernel_size, dilation=(1, 1), padding=(0, 0), stride=(1, 1)):
        """The adjoint of :meth:`unfold` (col2im): each column of ``x`` ``(N, C * kH * kW, L)`` is added back at
        its block's place in an ``(N, C, *output_size)`` tensor; overlapping entries sum."""
        x = self.convert_to_tensor(x)
        n, ckk, _ = self.shape(x)
        (oh, ow), (kh, kw), (dh, dw), (ph, pw), (sh, sw) = output_size, kernel_size, dilation, padding, stride
        c = ckk // (kh * kw)
        nh = (oh + 2 * ph - dh * (kh - 1) - 1) // sh + 1
        nw = (ow + 2 * pw - dw * (kw - 1) - 1) // sw + 1
        hp, wp = oh + 2 * ph, ow + 2 * pw
        x = self.reshape(x, (n, c, kh, kw, nh, 1, nw, 1))
        if sh > 1 or sw > 1:  # spread the blocks `stride` apart: zeros between them
            x = self.pad(x, ((0, 0),) * 5 + ((0, sh - 1), (0, 0), (0, sw - 1)))
        x = self.reshape(x, (n, c, kh, kw, nh * sh, nw * sw))
        out = None
        for i in range(kh):
            for j in range(kw):
                piece = self.reshape(
                    self.slice(x, (0, 0, i, j, 0, 0), (n, c, 1, 1, nh * sh, nw * sw)), (n, c, nh * sh, nw * sw)
                )
                top, left = i * dh, j * dw
                rows, cols = min(nh * sh, hp - top), min(nw * sw, wp - left)
                if (rows, cols) != (nh * sh, nw * sw):  # the trailing zeros of the last stride past the edge
                    piece = self.slice(piece, (0, 0, 0, 0), (n, c, rows, cols))
                piece = self.pad(piece, ((0, 0), (0, 0), (top, hp - top - rows), (left, wp - left - cols)))
                out = piece if out is None else self.add(out, piece)
        if ph or pw:
            out = self.slice(out, (0, 0, ph, pw), (n, c, oh, ow))
        return out

    def depth_to_space(self, x, block_size, data_format="channels_last"):
        """Moves ``block_size**2`` groups of channels into ``block_size x block_size`` spatial blocks.

        channels_last: channel ``(i * r + j) * C' + c`` goes to pixel ``(i, j)`` of channel ``c``'s block
        (TensorFlow's order); channels_first: channel ``c * r * r + i * r + j`` (PyTorch's ``pixel_shuffle``).
        """
        x = self.convert_to_tensor(x)
        r = block_size
        if data_format == "channels_last":
            n, h, w, c = self.shape(x)
            x = self.reshape(x, (n, h, w, r, r, c // (r * r)))
            x = self.transpose(x, (0, 1, 3, 2, 4, 5))
            return self.reshape(x, (n, h * r, w * r, c // (r * r)))
        n, c, h, w = self.shape(x)
        x = self.reshape(x, (n, c // (r * r), r, r, h, w))
        x = self.transpose(x, (0, 1, 4, 2, 5, 3))
        return self.reshape(x, (n, c // (r * r), h * r, w * r))

    def space_to_depth(self, x, block_size, data_format="channels_last"):
        """The inverse of :meth:`depth_to_space`: ``block_size x block_size`` spatial blocks become channels."""
        x = self.convert_to_tensor(x)
        r = block_size
        if data_format == "channels_last":
            n, h, w, c = self.shape(x)
            x = self.reshape(x, (n, h // r, r, w // r, r, c))
            x = self.transpose(x, (0, 1, 3, 2, 4, 5))
            return self.reshape(x, (n, h // r, w // r, c * r * r))
        n, c, h, w = self.shape(x)
        x = self.reshape(x, (n, c, h // r, r, w // r, r))
        x = self.transpose(x, (0, 1, 3, 5, 2, 4))
        return self.reshape(x, (n, c * r * r, h // r, w // r))

    # ----------------------------------------------------------------------------------------- attention
    def dot_product_attention(
        self,
        query,
        key,
        value,
        bias=None,
        mask=None,
        scale=None,
        is_causal=False,
        flash_attention=None,
        attn_logits_soft_cap=None,
    ):
        """``softmax(scale * Q K^T + bias) V`` over heads, for ``query`` ``(B, T, N, H)`` and ``key``, ``value``
        ``(B, S, K, H)`` (``N`` a multiple of ``K``: grouped-query attention; ``K == 1``: multi-query).

        ``bias`` and the boolean ``mask`` (True: attend) broadcast to ``(B, N, T, S)``; ``is_causal`` lets query
        ``t`` attend keys ``s <= t``; ``scale`` defaults to ``1 / sqrt(H)``; ``attn_logits_soft_cap`` caps the
        logits to ``cap * tanh(logits / cap)`` (after the bias). The logits and the softmax compute in at least
        float32; a masked logit is ``-0.7 * finfo.max`` (a fully masked row averages every value, as JAX does).
        ``flash_attention`` is a performance hint: the result is the same.
        """
        q, k, v = self.convert_to_tensor(query), self.convert_to_tensor(key), self.convert_to_tensor(value)
        dt = dtypes.result_type(self.dtype(q), self.dtype(k), self.dtype(v))
        dt = dt if dt in dtypes.FLOAT_DTYPES else dtypes.floatx()
        q, k, v = (t if self.dtype(t) == dt else self.cast(t, dt) for t in (q, k, v))
        heads, kv_heads, depth = self.shape(q)[2], self.shape(k)[2], self.shape(q)[3]
        if kv_heads != heads:
            k = self.repeat(k, heads // kv_heads, axis=2)
            v = self.repeat(v, heads // kv_heads, axis=2)
        work = dtypes.result_type(dt, "float32")
        qw, kw = (t if dt == work else self.cast(t, work) for t in (q, k))
        logits = self.einsum("btnh,bsnh->bnts", qw, kw)
        logits = self.multiply(logits, 1.0 / math.sqrt(depth) if scale is None else scale)
        if bias is not None:
            logits = self.add(logits, self._as(self._as(bias, dt), work))
        if attn_logits_soft_cap is not None:
            cap = float(attn_logits_soft_cap)
            logits = self.multiply(self.tanh(self.divide(logits, cap)), cap)
        keep = None
        if mask is not None:
            keep = self._as(mask, "bool")
        if is_causal:
            t, s = self.shape(logits)[2], self.shape(logits)[3]
            causal = self.greater_equal(
                self.expand_dims(self.arange(t, dtype="int32"), 1), self.expand_dims(self.arange(s, dtype="int32"), 0)
            )
            keep = causal if keep is None else self.logical_and(keep, causal)
        if keep is not None:
            lowest = -0.7 * float(np.finfo(np.float32 if work == "float32" else np.float64).max)
            logits = self.where(keep, logits, self.full((), lowest, work))
        probs = self.softmax(logits, axis=-1)
        if self.dtype(probs) != dt:
            probs = self.cast(probs, dt)
        return self.einsum("bnts,bsnh->btnh", probs, v)

    # ----------------------------------------------------------------------------------------------- CTC
    def _log_sum_exp(self, *terms):
        """``log(sum(exp(t)))`` of a few tensors of one shape, shifted by their maximum (held constant).

        Written out rather than with ``logaddexp``, whose second derivative some engines compute as
        ``inf / inf`` when the two terms are ~1e30 apart (the distance of ``LOG_ZERO`` from a real value).
        """
        top = terms[0]
        for t in terms[1:]:
            top = self.maximum(top, t)
        top = self.stop_gradient(top)
        total = None
        for t in terms:
            e = self.exp(self.subtract(t, top))
            total = e if total is None else self.add(total, e)
        return self.add(self.log(total), top)

    def ctc_loss(self, target, output, target_length, output_length, mask_index=0):
        """The CTC negative log-likelihood of each sequence: ``target`` ``(B, L)`` integer labels (the first
        ``target_length`` of each row count), ``output`` ``(B, T, C)`` logits (the first ``output_length`` steps
        count), ``mask_index`` the blank class.

        The forward (alpha) recursion runs over the extended labels (blanks between and around the labels) in log
        space with :meth:`scan`, so it is differentiable (to second order) and stable for long sequences. The
        result is ``(B,)`` in ``output``'s dtype promoted with float32; an impossible alignment (a target longer
        than its output allows) gives ``inf``.
        """
        output = self.convert_to_tensor(output)
        dt = (
            dtypes.result_type(self.dtype(output), "float32")
            if self.dtype(output) in dtypes.FLOAT_DTYPES
            else dtypes.floatx()
        )
        if self.dtype(output) != dt:
            output = self.cast(output, dt)
        target = self._as(target, "int32")
        target_length = self._as(target_length, "int32")
        output_length = self._as(output_length, "int32")
        batch, steps, classes = self.shape(output)
        labels = self.shape(target)[1]
        states = 2 * labels + 1
        log_probs = self.log_softmax(output, axis=-1)
        neg = self.full((), LOG_ZERO, dt)

        # the extended labels: blank, l1, blank, l2, ..., blank; labels past a row's length are replaced by the
        # blank (their states are never read), so padding of any value is safe to gather
        positions = self.arange(labels, dtype="int32")
        valid = self.less(self.expand_dims(positions, 0), self.expand_dims(target_length, 1))
        blank = self.full((), mask_index, "int32")
        safe_target = self.where(valid, target, blank)
        blanks = self.full((batch, labels), mask_index, "int32")
        ext = self.reshape(self.stack([blanks, safe_target], axis=2), (batch, 2 * labels))
        ext = self.concatenate([ext, self.full((batch, 1), mask_index, "int32")], axis=1)  # (B, S)
        # the skip s-2 -> s is allowed into a label that differs from the label two states back
        previous = self._columns(self.concatenate([self.full((batch, 2), mask_index, "int32"), ext], axis=1), 0, states)
        skip = self.logical_and(self.not_equal(ext, mask_index), self.not_equal(ext, previous))

        index = self.broadcast_to(self.expand_dims(ext, 1), (batch, steps, states))
        emit = self.transpose(self.take_along_axis(log_probs, index, axis=2), (1, 0, 2))  # (T, B, S)
        active = self.transpose(
            self.less(self.expand_dims(self.arange(steps, dtype="int32"), 0), self.expand_dims(output_length, 1)),
            (1, 0),
        )  # (T, B)

        col = self.full((batch, 1), LOG_ZERO, dt)
        col2 = self.full((batch, 2), LOG_ZERO, dt)

        def step(alpha, inputs):
            emit_t, active_t = inputs
            a1 = self._columns(self.concatenate([col, alpha], axis=1), 0, states)
            a2 = self.where(skip, self._columns(self.concatenate([col2, alpha], axis=1), 0, states), neg)
            new = self.add(self._log_sum_exp(alpha, a1, a2), emit_t)
            return self.where(self.expand_dims(active_t, 1), new, alpha), None

        start = self.concatenate([self.zeros((batch, 1), dt), self.full((batch, states - 1), LOG_ZERO, dt)], axis=1)
        alpha, _ = self.scan(step, start, (emit, active))
        last = self.expand_dims(self.multiply(target_length, 2), 1)  # the final blank's state
        end_blank = self.squeeze(self.take_along_axis(alpha, last, axis=1), axis=1)
        end_label = self.squeeze(self.take_along_axis(alpha, self.maximum(self.subtract(last, 1), 0), axis=1), axis=1)
        end_label = self.where(self.greater(target_length, 0), end_label, neg)
        log_likelihood = self._log_sum_exp(end_blank, end_label)
        impossible = self.less(log_likelihood, LOG_ZERO / 2)
        safe = self.where(impossible, self.zeros((), dt), log_likelihood)
        return self.where(impossible, self.full((), float("inf"), dt), self.negative(safe))

    def ctc_decode(
        self,
        inputs,
        sequence_lengths,
        strategy="greedy",
        beam_width=100,
        top_paths=1,
        merge_repeated=True,
        mask_index=0,
    ):
        """Decodes CTC logits ``(B, T, C)`` into label sequences; not differentiable.

        Returns ``(paths, scores)``: ``paths`` int32 ``(P, B, T)``, each sequence's labels first and ``-1`` after;
        greedy (``P = 1``): the best class of each step, repeats merged (when ``merge_repeated``) and blanks
        dropped, ``scores`` ``(B, 1)`` the negated sum of the chosen logits. Beam search: CTC prefix beam search
        over the log-softmax keeping ``beam_width`` prefixes, ``P = top_paths`` best, ``scores`` ``(B, P)``
        their log-probabilities.
        """
        inputs = self.convert_to_tensor(inputs)
        dt = (
            dtypes.result_type(self.dtype(inputs), "float32")
            if self.dtype(inputs) in dtypes.FLOAT_DTYPES
            else dtypes.floatx()
        )
        if self.dtype(inputs) != dt:
            inputs = self.cast(inputs, dt)
        inputs = self.stop_gradient(inputs)
        lengths = self._as(sequence_lengths, "int32")
        if strategy == "greedy":
            return self._ctc_greedy(inputs, lengths, merge_repeated, mask_index)
        return self._ctc_beam_search(inputs, lengths, beam_width, top_paths, mask_index)

    def _ctc_greedy(self, inputs, lengths, merge_repeated, blank):
        batch, steps, _ = self.shape(inputs)
        best = self.cast(self.argmax(inputs, axis=2), "int32")
        scores = self.max(inputs, axis=(2,))
        beyond = self.greater_equal(
            self.expand_dims(self.arange(steps, dtype="int32"), 0), self.expand_dims(lengths, 1)
        )
        best = self.where(beyond, self.full((), blank, "int32"), best)
        scores = self.where(beyond, self.zeros((), self.dtype(scores)), scores)
        if merge_repeated and steps > 1:
            repeat = self.equal(self._columns(best, 1, steps - 1), self._columns(best, 0, steps - 1))
            repeat = self.concatenate([self.zeros((batch, 1), "bool"), repeat], axis=1)
            best = self.where(repeat, self.full((), blank, "int32"), best)
        dropped = self.equal(best, blank)
        best = self.where(dropped, self.full((), -1, "int32"), best)
        # the kept labels first, in their order: a stable sort of the positions, the dropped ones sent last
        order = self.where(
            dropped,
            self.full((), steps, "int32"),
            self.broadcast_to(self.expand_dims(self.arange(steps, dtype="int32"), 0), (batch, steps)),
        )
        order = self.cast(self.argsort(order, axis=-1), "int32")
        paths = self.take_along_axis(best, order, axis=1)
        return self.expand_dims(paths, 0), self.negative(self.sum(scores, axis=(1,), keepdims=True))

    def _ctc_beam_search(self, inputs, lengths, beam_width, top_paths, blank):
        """CTC prefix beam search, vectorized over the batch and run by :meth:`scan` over the steps.

        Each of the ``W = beam_width`` beams holds a distinct label prefix (``-1``-padded to ``T``), its length,
        its last label and two log-probabilities: of the steps so far spelling the prefix and ending in a blank
        (``pb``) or in its last label (``pnb``). A step scores every beam staying (a blank, or a repeat of its
        last label) and every extension by a label; an extension that spells another beam's prefix (found by
        comparing each beam's parent prefix with every beam, ``O(B W^2 T)`` per step) is merged into that beam's
        score, so the candidates stay distinct; the ``W`` best candidates become the beams. An empty slot has a
        log-probability of :data:`LOG_ZERO` and never merges.
        """
        batch, steps, classes = self.shape(inputs)
        dt = self.dtype(inputs)
        width = beam_width
        log_probs = self.log_softmax(inputs, axis=-1)
        neg = self.full((), LOG_ZERO, dt)
        minus_one = self.full((), -1, "int32")
        position = self.reshape(self.arange(steps, dtype="int32"), (1, 1, steps))
        class_ids = self.reshape(self.arange(classes, dtype="int32"), (1, 1, classes))
        is_blank_class = self.equal(class_ids, blank)

        def live(pb, pnb):
            return self.greater(self.logaddexp(pb, pnb), LOG_ZERO / 2)

        def gather(v, src):  # v (B, W, ...) rows picked by src (B, W)
            extra = self.shape(v)[2:]
            if not extra:
                return self.take_along_axis(v, src, axis=1)
            index = self.broadcast_to(self.reshape(src, (batch, width) + (1,) * len(extra)), (batch, width) + extra)
            return self.take_along_axis(v, index, axis=1)

        def step(state, inputs_t):
            prefix, size, last, pb, pnb = state
            lp, active = inputs_t  # (B, C), (B,)
            alive = live(pb, pnb)
            total = self.logaddexp(pb, pnb)
            lp_blank = self._columns(lp, blank, 1)
            has_last = self.greater_equal(last, 0)
            lp_last = self.take_along_axis(lp, self.maximum(last, 0), axis=1)
            stay_b = self.add(total, lp_blank)
            stay_nb = self.where(has_last, self.add(pnb, lp_last), neg)
            # extensions by each class: a repeat of the last label needs a blank in between
            repeat = self.equal(class_ids, self.expand_dims(last, 2))
            ext = self.add(
                self.where(repeat, self.expand_dims(pb, 2), self.expand_dims(total, 2)), self.expand_dims(lp, 1)
            )
            ext = self.where(self.logical_or(is_blank_class, self.logical_not(self.expand_dims(alive, 2))), neg, ext)
            # an extension that spells an existing prefix j (j's parent plus j's last label) merges into j
            parent = self.where(self.equal(position, self.expand_dims(self.subtract(size, 1), 2)), minus_one, prefix)
            same = self.all(self.equal(self.expand_dims(parent, 2), self.expand_dims(prefix, 1)), axis=(3,))
            pair = self.logical_and(self.logical_and(same, self.expand_dims(alive, 2)), self.expand_dims(alive, 1))
            pair = self.logical_and(pair, self.expand_dims(has_last, 2))  # (B, W_j, W_i)
            ext_by_class = self.transpose(ext, (0, 2, 1))  # (B, C, W_i)
            index = self.broadcast_to(self.expand_dims(self.maximum(last, 0), 2), (batch, width, width))
            incoming = self.max(self.where(pair, self.take_along_axis(ext_by_class, index, axis=1), neg), axis=(2,))
            stay_nb = self.logaddexp(stay_nb, incoming)
            last_hot = self.cast(self.equal(self.expand_dims(last, 2), class_ids), dt)  # (B, W_j, C)
            merged = self.greater(self.einsum("bji,bjc->bic", self.cast(pair, dt), last_hot), 0.5)
            ext = self.where(merged, neg, ext)
            # the best `width` of the stays and the extensions
            candidates = self.concatenate(
                [self.logaddexp(stay_b, stay_nb), self.reshape(ext, (batch, width * classes))], axis=1
            )
            _, pick = self.top_k(candidates, width)
            pick = self.cast(pick, "int32")
            extended = self.greater_equal(pick, width)
            offset = self.maximum(self.subtract(pick, width), 0)
            src = self.where(extended, self.floor_divide(offset, classes), pick)
            label = self.where(extended, self.mod(offset, classes), minus_one)
            ext_flat = self.reshape(ext, (batch, width * classes))
            new_pb = self.where(extended, neg, gather(stay_b, src))
            new_pnb = self.where(extended, self.take_along_axis(ext_flat, offset, axis=1), gather(stay_nb, src))
            src_size = gather(size, src)
            new_prefix = gather(prefix, src)
            write = self.logical_and(self.expand_dims(extended, 2), self.equal(position, self.expand_dims(src_size, 2)))
            new_prefix = self.where(write, self.expand_dims(label, 2), new_prefix)
            new_size = self.add(src_size, self.cast(extended, "int32"))
            new_last = self.where(extended, label, gather(last, src))
            on = self.expand_dims(active, 1)
            return (
                self.where(self.expand_dims(on, 2), new_prefix, prefix),
                self.where(on, new_size, size),
                self.where(on, new_last, last),
                self.where(on, new_pb, pb),
                self.where(on, new_pnb, pnb),
            ), None

        start = (
            self.full((batch, width, steps), -1, "int32"),
            self.zeros((batch, width), "int32"),
            self.full((batch, width), -1, "int32"),
            self.concatenate([self.zeros((batch, 1), dt), self.full((batch, width - 1), LOG_ZERO, dt)], axis=1)
            if width > 1
            else self.zeros((batch, 1), dt),
            self.full((batch, width), LOG_ZERO, dt),
        )
        active = self.transpose(
            self.less(self.expand_dims(self.arange(steps, dtype="int32"), 0), self.expand_dims(lengths, 1)), (1, 0)
        )
        (prefix, _, _, pb, pnb), _ = self.scan(step, start, (self.transpose(log_probs, (1, 0, 2)), active))
        total = self.logaddexp(pb, pnb)
        scores, best = self.top_k(total, top_paths)
        best = self.cast(best, "int32")
        index = self.broadcast_to(self.expand_dims(best, 2), (batch, top_paths, steps))
        paths = self.transpose(self.take_along_axis(prefix, index, axis=1), (1, 0, 2))
        scores = self.where(self.greater(scores, LOG_ZERO / 2), scores, self.full((), float("-inf"), dt))
        return paths, scores
