"""Convolution and pooling of the native engine, each with its own fused VJP.

:class:`SpatialOpsMixin` implements ``conv``, ``depthwise_conv``, ``conv_transpose``, ``max_pool`` and
``average_pool`` of the backend contract (``highlevel.backends.contract.nn_ops``) with Keras 3 semantics.
``NativeBackend`` inherits it.

How the work is shaped (see :mod:`.im2col`): the input is padded once and its windows are one strided view.
A convolution copies that view into an im2col buffer and does one matrix product (batched over groups); its
kernel gradient is one matrix product ``cols^T @ g`` on the forward pass's buffer (rebuilt from the input when it
is over :data:`KEEP_COLS_BYTES`), after which the buffer goes back to the scratch pool (:mod:`.scratch`) for
the next one. Its input gradient, with one group and stride 1, is the convolution
of the padded output gradient with the flipped kernel (one im2col of ``g``, one GEMM); otherwise one product
per kernel tap (``g @ kernel[tap]^T``) added into the strided slice that tap read (col2im; with one group,
straight into the input's frame, the centre tap of a stride-1 ``"same"`` convolution written first without a
zero fill).
``conv_transpose`` is the adjoint of a convolution: its forward pass is that convolution's input-gradient
path, its input gradient that convolution's forward path. With one input channel per group (depthwise) a GEMM
degenerates into many tiny products, so that case multiplies and adds tap by tap instead. Pools reduce the
window view; their VJPs scatter per tap. No Python loop runs over batch items or output positions.

Internally everything is channels_last; ``data_format="channels_first"`` is transposed on the way in and
out.

>>> import numpy as np
>>> from highlevel.backends.native import NativeBackend
>>> b = NativeBackend()
>>> b.shape(b.conv(np.ones((1, 5, 5, 3)), np.ones((3, 3, 3, 8)), padding="same"))
(1, 5, 5, 8)
>>> b.shape(b.conv_transpose(np.ones((1, 5, 5, 8)), np.ones((3, 3, 4, 8)), strides=2, padding="same"))
(1, 10, 10, 4)
"""

import math

from highlevel.backends.contract import dtypes as _dtypes
from highlevel.backends.contract.spatial import canonical_padding, channels_first, spatial_tuple

from . import im2col as _im
from . import scratch as _scratch
from .autograd import Bilinear, linear, record
from .tensor import xp_dtype
from .xp import xp

#: im2col buffers up to this size are kept from a convolution's forward pass for its kernel gradient; a larger
#: one goes back to the scratch pool at once and the kernel gradient rebuilds it from the input (one more copy,
#: ~5 ms for a 75 MiB buffer), so that a step's peak memory does not hold several of them at once
KEEP_COLS_BYTES = 64 * 2**20


# ----------------------------------------------------------------------------------------- argument checks
def _check_rank(x, nd, op, what="inputs"):
    if x.ndim != nd + 2:
        raise ValueError(
            f"{op} with {nd} spatial dims expects {what} of rank {nd + 2} (batch, *spatial, channels); "
            f"received shape {tuple(x.shape)}."
        )


def _to_last(a, first):
    """channels_first -> channels_last view (no copy; im2col copies anyway)."""
    return xp.moveaxis(a, 1, -1) if first else a


def _from_last(a, first):
    """channels_last -> channels_first, made contiguous so that later ops run at full speed."""
    return xp.ascontiguousarray(xp.moveaxis(a, -1, 1)) if first else a


def _compute_dtype(*dtypes):
    """The xp dtype spatial ops compute in: the promoted input dtype, or floatx for integer / bool inputs."""
    dt = _dtypes.result_type(*dtypes)
    return xp_dtype(dt if _dtypes.is_float_dtype(dt) else _dtypes.floatx())


def _as(a, dtype):
    """``a`` in the xp dtype ``dtype``, without a copy when it already is."""
    return a if a.dtype == dtype else a.astype(dtype)


def _contiguous(a, first):
    return a if first else xp.ascontiguousarray(a)


# ------------------------------------------------------------------------------------ array-level kernels
def _conv_forward(xs, w, win, groups):
    """Padded input (N, *span, C) and kernel (*k, Cg, F) -> (cols (G, M, K*Cg), output (N, *out, F))."""
    n = xs.shape[0]
    cg, f = w.shape[-2], w.shape[-1]
    a = _im.im2col(xp, xs, win, groups)
    if groups == 1:
        out = a[0] @ w.reshape(win.taps * cg, f)
        return a, out.reshape((n,) + win.out_size + (f,))
    wk = w.reshape(win.taps, cg, groups, f // groups).transpose(2, 0, 1, 3).reshape(groups, win.taps * cg, -1)
    out = xp.matmul(a, wk)  # (G, M, Fg)
    return a, xp.moveaxis(out, 0, 1).reshape((n,) + win.out_size + (f,))


def _grad_groups(g, groups):
    """Output gradient (N, *out, F) as (G, M, F // G)."""
    f = g.shape[-1]
    m = g.size // f
    if groups == 1:
        return g.reshape(1, m, f)
    return xp.moveaxis(g.reshape(m, groups, f // groups), 1, 0)


def _conv_kernel_grad(a, gg, kshape):
    """Kernel gradient ``cols^T @ g`` in the Keras kernel layout ``kshape`` = (*k, Cg, F)."""
    groups = a.shape[0]
    if groups == 1:
        return (a[0].T @ gg[0]).reshape(kshape)
    taps = math.prod(kshape[:-2])
    cg, fg = kshape[-2], kshape[-1] // groups
    dw = xp.matmul(xp.swapaxes(a, 1, 2), gg)  # (G, K*Cg, Fg)
    return dw.reshape(groups, taps, cg, fg).transpose(1, 2, 0, 3).reshape(kshape)


def _kernel_taps(w, taps, groups):
    """Kernel (*k, Cg, F) as (taps, G, F // G, Cg): per tap and group, the matrix that maps g back to x."""
    cg, f = w.shape[-2], w.shape[-1]
    return w.reshape(taps, cg, groups, f // groups).transpose(0, 2, 3, 1)


def _tapwise_forward(xs, w3, win):
    """Depthwise convolution as one multiply-add per kernel tap: (N, *span, C), (taps, C, mult) -> (N, *out, C, mult).

    With one input channel per group a GEMM degenerates to many tiny products; elementwise work per tap is
    far faster.
    """
    out = tmp = None
    for t, part in enumerate(_im.window_slices(xs, win)):
        if out is None:
            out = part[..., None] * w3[t]
            tmp = xp.empty_like(out)
        else:
            out += xp.multiply(part[..., None], w3[t], out=tmp)
    return out


def _tapwise_input_grad(g4, w3, win, n):
    """Input gradient of :func:`_tapwise_forward` on the span frame (N, *span, C)."""
    c, mult = w3.shape[1], w3.shape[2]
    buf = xp.zeros((n,) + win.span + (c,), dtype=g4.dtype)
    for t, sl in enumerate(win.offset_slices()):
        part = g4[..., 0] * w3[t, :, 0] if mult == 1 else (g4 * w3[t]).sum(axis=-1)
        buf[(slice(None),) + sl] += part
    return buf


def _tapwise_kernel_grad(xs, g4, win):
    """Kernel gradient of :func:`_tapwise_forward`: (taps, C, mult)."""
    c, mult = g4.shape[-2], g4.shape[-1]
    dw = xp.empty((win.taps, c, mult), dtype=g4.dtype)
    for t, part in enumerate(_im.window_slices(xs, win)):
        dw[t] = (part[..., None] * g4).reshape(-1, c * mult).sum(axis=0).reshape(c, mult)
    return dw


class _ConvMaps:
    """One convolution geometry's three bilinear maps on xp arrays in the caller's layout and kernel layout.

    ``forward(x, w)`` is the convolution, ``input_grad(g, w)`` and ``kernel_grad(x, g)`` its VJPs (results in
    the compute dtype). The array-mode VJPs of ``conv``, ``depthwise_conv`` and ``conv_transpose`` run these
    (the first reusing the forward pass's im2col buffer when it was kept); in graph mode
    :class:`~.autograd.Bilinear` records them, which makes each of the three ops differentiable to any order
    (``conv_transpose`` is ``input_grad``).

    Args:
        win: the :class:`~.im2col.Window` of the convolution.
        groups: the number of groups.
        first: whether tensors are channels_first.
        dtype: the compute xp dtype.
        wshape: the kernel's shape as the caller passes it.
        kshape: the kernel's shape as ``(*kernel_size, in_channels // groups, out_channels)`` (a depthwise
            kernel ``(*k, C, mult)`` is ``(*k, 1, C * mult)``).
    """

    def __init__(self, win, groups, first, dtype, wshape, kshape):
        self.win, self.groups, self.first, self.dtype = win, groups, first, dtype
        self.wshape, self.kshape = wshape, kshape
        # one input channel per group: a GEMM degenerates into tiny products, so multiply-add tap by tap
        self.tapwise = groups > 1 and kshape[-2] == 1
        self.mult = kshape[-1] // groups

    def kernel(self, w):
        """The kernel in the internal layout: (*k, Cg, F), or (taps, C, mult) tap by tap."""
        w = _as(w, self.dtype).reshape(self.kshape)
        return w.reshape(self.win.taps, self.groups, self.mult) if self.tapwise else w

    def padded(self, x):
        """``x`` channels_last in the compute dtype, re-framed to the windows' span."""
        return _im.pad_to_span(xp, _to_last(_as(x, self.dtype), self.first), self.win)

    def _grad_last(self, g):
        gl = _to_last(_as(g, self.dtype), self.first)
        return gl.reshape(gl.shape[:-1] + (self.groups, self.mult)) if self.tapwise else gl

    def forward(self, x, w):
        return self.from_cols(self.padded(x), self.kernel(w))[1]

    def from_cols(self, xs, wk):
        """``(cols, output)``: the im2col buffer (None tap by tap) and the convolution of the span frame."""
        if self.tapwise:
            out = _tapwise_forward(xs, wk, self.win)
            out = out.reshape(out.shape[:-2] + (self.groups * self.mult,))
            a = None
        else:
            a, out = _conv_forward(xs, wk, self.win, self.groups)
        return a, _as(_from_last(out, self.first), self.dtype)  # ml_dtypes' bfloat16 matmul returns float32

    def input_grad(self, g, w):
        gl = self._grad_last(g)
        wk = self.kernel(w)
        n, win = gl.shape[0], self.win
        if self.groups == 1:
            c, f = wk.shape[-2], wk.shape[-1]
            if win.taps > 1 and all(s == 1 for s in win.strides) and f <= c and gl.dtype.itemsize >= 4:
                # the transposed convolution as one deep GEMM on an im2col of g (no bigger than the forward's)
                grad = _im.conv_input_grad_cols(xp, gl, wk, win)
                return _as(_from_last(grad, self.first), self.dtype)
            # straight into the input's frame (no span buffer to crop): one GEMM per tap, added where it read
            taps = wk.reshape(win.taps, wk.shape[-2], wk.shape[-1]).transpose(0, 2, 1)  # (taps, F, C)
            grad = _im.conv_input_grad(xp, gl, taps, win)
            return _as(_from_last(grad, self.first), self.dtype)
        if self.tapwise:
            span = _tapwise_input_grad(gl, wk, win, n)
        else:
            span = _im.col2im_matmul(xp, _grad_groups(gl, self.groups), _kernel_taps(wk, win.taps, self.groups), win, n)
        return _as(_contiguous(_from_last(_im.crop_from_span(xp, span, win), self.first), self.first), self.dtype)

    def kernel_grad(self, x, g, cols=None):
        """The kernel gradient; ``cols``: the im2col buffer of ``x`` when the forward pass kept it."""
        gl = self._grad_last(g)
        if self.tapwise:
            dw = _tapwise_kernel_grad(self.padded(x), gl, self.win)
        else:
            own = cols is None
            if own:
                cols = _im.im2col(xp, self.padded(x), self.win, self.groups)
            dw = _conv_kernel_grad(cols, _grad_groups(gl, self.groups), self.kshape)
            if own:
                _scratch.give(cols)  # built here, read by nobody else
        return _as(dw.reshape(self.wshape), self.dtype)

    def family(self, name):
        return Bilinear(name, self.forward, self.input_grad, self.kernel_grad)


class SpatialOpsMixin:
    """Convolutions and pools of the native engine (mixed into ``NativeBackend``).

    Needs ``self.convert_to_tensor`` from the backend. All methods follow ``keras.ops`` (Keras 3): kernels in
    Keras layout, channels_last by default, TensorFlow-style ``"same"`` padding.
    """

    # ------------------------------------------------------------------------------------------ conv
    def conv(self, inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
        """N-D convolution (1, 2 or 3 spatial dims); groups = in_channels // kernel.shape[-2].

        Args:
            inputs: (batch, *spatial, in_channels), or (batch, in_channels, *spatial) for channels_first.
            kernel: (*kernel_size, in_channels // groups, out_channels).
            strides: int or tuple, one per spatial dim.
            padding: ``"valid"`` or ``"same"``.
            data_format: ``"channels_last"`` (default) or ``"channels_first"``.
            dilation_rate: int or tuple, spacing between kernel taps.

        Returns:
            The convolved tensor, (batch, *out_spatial, out_channels) for channels_last.
        """
        x = self.convert_to_tensor(inputs)
        w = self.convert_to_tensor(kernel)
        nd = w.data.ndim - 2
        if nd not in (1, 2, 3):
            raise ValueError(
                f"conv supports 1, 2 or 3 spatial dims: the kernel must have rank 3, 4 or 5 "
                f"(*kernel_size, in_channels // groups, out_channels); received shape {tuple(w.shape)}."
            )
        _check_rank(x.data, nd, "conv")
        first = channels_first(data_format)
        c = x.data.shape[1] if first else x.data.shape[-1]
        cg, f = w.data.shape[-2], w.data.shape[-1]
        if cg < 1 or c % cg:
            raise ValueError(
                f"conv: the input has {c} channels, which is not a multiple of the kernel's input channels "
                f"{cg} (kernel shape {tuple(w.shape)}); groups = in_channels // kernel.shape[-2] must divide "
                "evenly."
            )
        groups = c // cg
        if f % groups:
            raise ValueError(
                f"conv: {f} output channels cannot be split into {groups} groups (input channels {c}, "
                f"kernel shape {tuple(w.shape)}); out_channels must be a multiple of groups."
            )
        return self._conv_nd(x, w, nd, strides, padding, first, dilation_rate, groups, "conv")

    def depthwise_conv(self, inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
        """Depthwise convolution: each input channel convolved with its own ``multiplier`` filters.

        ``kernel`` is (*kernel_size, in_channels, multiplier); output channel ``c * multiplier + m`` is
        input channel ``c`` convolved with ``kernel[..., c, m]``.
        """
        x = self.convert_to_tensor(inputs)
        w = self.convert_to_tensor(kernel)
        nd = w.data.ndim - 2
        if nd not in (1, 2, 3):
            raise ValueError(
                f"depthwise_conv supports 1, 2 or 3 spatial dims: the kernel must have rank 3, 4 or 5 "
                f"(*kernel_size, in_channels, multiplier); received shape {tuple(w.shape)}."
            )
        _check_rank(x.data, nd, "depthwise_conv")
        first = channels_first(data_format)
        c = x.data.shape[1] if first else x.data.shape[-1]
        if w.data.shape[-2] != c:
            raise ValueError(
                f"depthwise_conv: the input has {c} channels but the kernel expects {w.data.shape[-2]} "
                f"(kernel shape {tuple(w.shape)} = (*kernel_size, in_channels, multiplier))."
            )
        # a depthwise kernel is a grouped kernel with one input channel per group
        return self._conv_nd(x, w, nd, strides, padding, first, dilation_rate, c, "depthwise_conv")

    def _conv_nd(self, x, w, nd, strides, padding, first, dilation_rate, groups, op):
        strides = spatial_tuple(strides, nd)
        dilation = spatial_tuple(dilation_rate, nd)
        padding = canonical_padding(padding)
        dtype = _compute_dtype(x.dtype, w.dtype)
        wshape = w.data.shape
        kernel_size = wshape[:nd]
        kshape = kernel_size + (1, wshape[-2] * wshape[-1]) if op == "depthwise_conv" else wshape
        xd = _to_last(x.data, first)
        win = _im.conv_window(xd.shape[1:-1], kernel_size, strides, dilation, padding)
        maps = _ConvMaps(win, groups, first, dtype, wshape, kshape)
        xs = maps.padded(x.data)
        wk = maps.kernel(w.data)
        a, out = maps.from_cols(xs, wk)
        if a is not None and (not w.requires_grad or a.nbytes > KEEP_COLS_BYTES):
            # nothing else holds it: recycled for the next convolution (a large one is rebuilt from x for the
            # kernel gradient, which bounds a training step's peak memory)
            _scratch.give(a)
            a = None
        if not w.requires_grad:
            xs = None  # the im2col buffer (the padded input, tap by tap) only serves the kernel gradient
        elif not maps.tapwise:
            xs = None

        def backward(g, out=None):
            if out is not None:
                fam = maps.family(op)
                return (
                    fam.apply("input_grad", g, w) if x.requires_grad else None,
                    fam.apply("kernel_grad", x, g) if w.requires_grad else None,
                )
            nonlocal a
            dx = dw = None
            if w.requires_grad:
                dw = _as(
                    _tapwise_kernel_grad(xs, maps._grad_last(g), win).reshape(wshape)
                    if maps.tapwise
                    else maps.kernel_grad(x.data, g, cols=a),
                    w.data.dtype,
                )
                # the array-mode backward runs once: the im2col buffer is free for the input gradient's own
                _scratch.give(a)
                a = None
            if x.requires_grad:
                dx = _as(maps.input_grad(g, w.data), x.data.dtype)
            return dx, dw

        backward.__qualname__ = f"{op}.<locals>.backward"
        return record(out, (x, w), backward, saved=(x, w) if maps.tapwise or (a is None and w.requires_grad) else (w,))

    # ------------------------------------------------------------------------------------ conv_transpose
    def conv_transpose(
        self, inputs, kernel, strides, padding="valid", output_padding=None, data_format=None, dilation_rate=1
    ):
        """Transposed convolution (the gradient of ``conv`` with respect to its input), output sized as Keras does.

        Args:
            inputs: (batch, *spatial, in_channels), or channels_first.
            kernel: (*kernel_size, out_channels, in_channels).
            strides: int or tuple.
            padding: ``"valid"`` or ``"same"``.
            output_padding: None, an int or a tuple: extra rows at the end of each output dim.
            data_format: ``"channels_last"`` (default) or ``"channels_first"``.
            dilation_rate: int or tuple.

        Returns:
            (batch, *out_spatial, out_channels) for channels_last, where without ``output_padding``
            ``out = in * stride`` ("same") or ``in * stride + max(kernel - stride, 0)`` ("valid").
        """
        x = self.convert_to_tensor(inputs)
        w = self.convert_to_tensor(kernel)
        nd = w.data.ndim - 2
        if nd not in (1, 2, 3):
            raise ValueError(
                f"conv_transpose supports 1, 2 or 3 spatial dims: the kernel must have rank 3, 4 or 5 "
                f"(*kernel_size, out_channels, in_channels); received shape {tuple(w.shape)}."
            )
        _check_rank(x.data, nd, "conv_transpose")
        first = channels_first(data_format)
        c = x.data.shape[1] if first else x.data.shape[-1]
        cin = w.data.shape[-1]
        if c != cin:
            raise ValueError(
                f"conv_transpose: the input has {c} channels but the kernel expects {cin} (kernel shape "
                f"{tuple(w.shape)} = (*kernel_size, out_channels, in_channels))."
            )
        strides = spatial_tuple(strides, nd)
        dilation = spatial_tuple(dilation_rate, nd)
        padding = canonical_padding(padding)
        if output_padding is None:
            out_pad = (None,) * nd
        else:
            out_pad = spatial_tuple(output_padding, nd)
            for op_, s, d in zip(out_pad, strides, dilation):
                if op_ >= s and op_ >= d:
                    raise ValueError(
                        f"conv_transpose: output_padding {output_padding!r} must be smaller than the stride "
                        f"{strides!r} or the dilation rate {dilation!r}."
                    )
        dtype = _compute_dtype(x.dtype, w.dtype)
        kernel_size = w.data.shape[:nd]
        # `win` is the window of the convolution whose input gradient this op is: its input is our output
        win = _im.transpose_window(
            _to_last(x.data, first).shape[1:-1], kernel_size, strides, dilation, padding, out_pad
        )
        maps = _ConvMaps(win, 1, first, dtype, w.data.shape, w.data.shape)
        out = maps.input_grad(x.data, w.data)

        def backward(g, out=None):
            if out is not None:
                fam = maps.family("conv_transpose")
                return (
                    fam.apply("forward", g, w) if x.requires_grad else None,
                    fam.apply("kernel_grad", g, x) if w.requires_grad else None,
                )
            # one im2col of g serves both gradients
            a, dx = maps.from_cols(maps.padded(g), maps.kernel(w.data))
            if x.requires_grad:
                dx = _as(_contiguous(dx, first), x.data.dtype)
            else:
                dx = None
            dw = _as(maps.kernel_grad(None, x.data, cols=a), w.data.dtype) if w.requires_grad else None
            return dx, dw

        backward.__qualname__ = "conv_transpose.<locals>.backward"
        return record(out, (x, w), backward, saved=(x, w))

    # --------------------------------------------------------------------------------------------- pools
    def _pool_setup(self, inputs, pool_size, strides, padding, data_format, op):
        x = self.convert_to_tensor(inputs)
        nd = x.data.ndim - 2
        if nd not in (1, 2, 3):
            raise ValueError(
                f"{op} supports 1, 2 or 3 spatial dims: inputs must have rank 3, 4 or 5; received shape "
                f"{tuple(x.shape)}."
            )
        pool = spatial_tuple(pool_size, nd)
        strides = pool if strides is None else spatial_tuple(strides, nd)
        padding = canonical_padding(padding)
        first = channels_first(data_format)
        xd = _to_last(x.data, first)
        win = _im.conv_window(xd.shape[1:-1], pool, strides, (1,) * nd, padding)
        return x, xd, win, first

    def max_pool(self, inputs, pool_size, strides=None, padding="valid", data_format=None):
        """Max pooling over 1, 2 or 3 spatial dims; ``strides`` defaults to ``pool_size``.

        The gradient of each window goes to its first maximum (in C order of the window); padding never
        wins (it is -inf, or the dtype's minimum for integers).
        """
        x, xd, win, first = self._pool_setup(inputs, pool_size, strides, padding, data_format, "max_pool")
        if _dtypes.is_float_dtype(x.dtype):  # by name: bfloat16's numpy kind is "V", not "f"
            fill = -float("inf")
        elif x.dtype == "bool":
            fill = False
        else:
            fill = xp.iinfo(xd.dtype).min
        xs = _im.pad_to_span(xp, xd, win, fill=fill)
        out = _im.windows_view(xp, xs, win).max(axis=_im.kernel_axes(win))
        res = _from_last(out, first)
        shape = xd.shape

        def first_hits():
            # per tap, the windows whose first maximum (in C order) sits at that tap
            free = None
            for t, part in enumerate(_im.window_slices(xs, win)):
                hit = part == out
                if free is None:
                    free = ~hit
                else:
                    hit &= free
                    if t < win.taps - 1:
                        free &= ~hit
                yield hit

        def select(u):
            # the adjoint of the scatter below: each window's entry of u at its first maximum
            us = _im.pad_to_span(xp, _to_last(u, first), win)
            zero = xp.zeros((), dtype=us.dtype)
            picked = None
            for hit, part in zip(first_hits(), _im.window_slices(us, win)):
                term = xp.where(hit, part, zero)
                picked = term if picked is None else picked + term
            return _from_last(picked, first)

        def backward(g, out_=None):
            if out_ is not None:  # linear in g, with a mask that is piecewise constant in x
                return (linear(g, lambda a: backward(a)[0], select, "max_pool_transpose", "max_pool_select"),)
            # the mask of each window's first maximum is rebuilt here, tap by tap, from the saved input:
            # inference pays for the max only, and no index tensor is kept alive between the passes
            gl = _to_last(g, first)
            zero = xp.zeros((), dtype=gl.dtype)
            buf = _im.scatter_windows(xp, (xp.where(hit, gl, zero) for hit in first_hits()), win, shape, gl.dtype)
            dx = _im.crop_from_span(xp, buf, win)
            return (_contiguous(_from_last(dx, first), first),)

        backward.__qualname__ = "max_pool.<locals>.backward"
        return record(res, (x,), backward, saved=(x,))

    def average_pool(self, inputs, pool_size, strides=None, padding="valid", data_format=None):
        """Average pooling; ``"same"`` padding averages over the real (unpadded) entries only."""
        x, xd, win, first = self._pool_setup(inputs, pool_size, strides, padding, data_format, "average_pool")
        dtype = _compute_dtype(x.dtype)
        if all(lo == 0 for lo in win.pad_lo) and all(s <= i for s, i in zip(win.span, win.in_size)):
            scale = xp.asarray(1.0 / win.taps, dtype=dtype)
        else:
            # how many real entries each window covers: the same pooling of ones over the spatial dims
            ones = _im.pad_to_span(xp, xp.ones((1,) + win.in_size + (1,), dtype=dtype), win)
            counts = _im.windows_view(xp, ones, win).sum(axis=_im.kernel_axes(win))
            scale = (1.0 / counts).astype(dtype)

        def pool(a):
            total = _im.windows_view(xp, _im.pad_to_span(xp, _to_last(_as(a, dtype), first), win), win).sum(
                axis=_im.kernel_axes(win)
            )
            total *= scale
            return _from_last(total, first)

        out = pool(x.data)
        shape = xd.shape

        def backward(g, out=None):
            if out is not None:  # a linear op: its gradient's gradient is the pooling again
                return (linear(g, lambda a: backward(a)[0], pool, "average_pool_transpose", "average_pool"),)
            gl = _to_last(g, first) * scale
            buf = _im.scatter_windows(xp, (gl for _ in range(win.taps)), win, shape, gl.dtype)
            dx = _im.crop_from_span(xp, buf, win)
            return (_as(_contiguous(_from_last(dx, first), first), x.data.dtype),)

        backward.__qualname__ = "average_pool.<locals>.backward"
        return record(out, (x,), backward)
