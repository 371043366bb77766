"""Sliding-window geometry and the im2col / col2im pair behind the native engine's convolutions and pools.

Everything here works on raw ``xp`` arrays (numpy, or CuPy on a GPU) laid out channels_last,
``(batch, *spatial, channels)``; the autograd wrapping lives in :mod:`.spatial`.

A :class:`Window` describes one sliding window over the spatial dims: the input size, the kernel size, the
strides, the dilation, how many padding rows go before the input (``pad_lo``) and the output size. The
windows cover the *span* ``(out - 1) * stride + (kernel - 1) * dilation + 1`` of the padded input; input
rows past the span (a "valid" convolution whose stride leaves a remainder) are never read, and the span may
also reach past the input (padding after it, TensorFlow style).

Work is vectorised: the windows are one ``as_strided`` view of the padded input, copied once into the im2col
buffer (a convolution is then one matrix product) or reduced over its kernel axes (a pool). The adjoints
loop over kernel offsets only (``prod(kernel)`` strided adds), never over batch items or output positions.

>>> win = conv_window((5,), (3,), (2,), (1,), "same")
>>> win.out_size, win.pad_lo, win.span
((3,), (1,), (7,))
"""

import itertools
import math

from . import scratch as _scratch


def _ceil_div(a, b):
    return -(-a // b)


class Window:
    """Geometry of a sliding window over ``len(kernel)`` spatial dims.

    Args:
        in_size: spatial size of the (unpadded) input, a tuple of ints.
        kernel: kernel (or pool) size per spatial dim.
        strides: step per spatial dim.
        dilation: spacing between kernel taps per spatial dim.
        pad_lo: number of padding rows before the input per spatial dim (>= 0).
        out_size: number of window positions per spatial dim (>= 1).
    """

    def __init__(self, in_size, kernel, strides, dilation, pad_lo, out_size):
        self.in_size = tuple(int(v) for v in in_size)
        self.kernel = tuple(int(v) for v in kernel)
        self.strides = tuple(int(v) for v in strides)
        self.dilation = tuple(int(v) for v in dilation)
        self.pad_lo = tuple(int(v) for v in pad_lo)
        self.out_size = tuple(int(v) for v in out_size)
        self.span = tuple(
            (o - 1) * s + (k - 1) * d + 1 for o, s, k, d in zip(self.out_size, self.strides, self.kernel, self.dilation)
        )
        # how many input rows per dim land inside the span (the rest is never read)
        self.n_used = tuple(min(i, s - lo) for i, s, lo in zip(self.in_size, self.span, self.pad_lo))
        self.taps = math.prod(self.kernel)

    @property
    def ndim(self):
        return len(self.kernel)

    def offset_slices(self):
        """Yields, per kernel offset in C order, the spatial slices that pick that tap of every window."""
        ranges = [range(k) for k in self.kernel]
        for offset in itertools.product(*ranges):
            yield tuple(
                slice(k * d, k * d + (o - 1) * s + 1, s)
                for k, d, o, s in zip(offset, self.dilation, self.out_size, self.strides)
            )


def _effective(kernel, dilation):
    return [(k - 1) * d + 1 for k, d in zip(kernel, dilation)]


def conv_window(in_size, kernel, strides, dilation, padding):
    """The :class:`Window` of a convolution or pool with TensorFlow-style ``"valid"`` / ``"same"`` padding.

    ``"same"`` gives ``ceil(in / stride)`` outputs and puts the odd padding row after the input.

    Raises:
        ValueError: when a ``"valid"`` window does not fit in the input.
    """
    k_eff = _effective(kernel, dilation)
    pad_lo, out_size = [], []
    for i, k, s in zip(in_size, k_eff, strides):
        if padding == "valid":
            if i < k:
                raise ValueError(
                    f"The window (size {k} after dilation) is larger than the input (size {i}) with "
                    "padding='valid'; use padding='same' or a smaller kernel / pool size."
                )
            out_size.append((i - k) // s + 1)
            pad_lo.append(0)
        else:
            o = _ceil_div(i, s)
            total = max((o - 1) * s + k - i, 0)
            out_size.append(o)
            pad_lo.append(total // 2)
    return Window(in_size, kernel, strides, dilation, pad_lo, out_size)


def transpose_window(in_size, kernel, strides, dilation, padding, output_padding):
    """The :class:`Window` of the convolution whose input gradient is ``conv_transpose``.

    ``in_size`` is the spatial size of the transposed convolution's input (= that convolution's output); the
    returned window's ``in_size`` is the transposed convolution's output size, chosen as Keras 3 does
    (``deconv_output_length``, with the padding split of Keras' JAX backend).
    """
    k_eff = _effective(kernel, dilation)
    pad_lo, out_len = [], []
    for i, k, s, op in zip(in_size, k_eff, strides, output_padding):
        if padding == "valid":
            op = max(k, s) - k if op is None else op
            left, right = k - 1, k - 1 + op
        else:
            pad_len = s + k - 2 if op is None else k + k % 2 - 2 + op
            left = min(pad_len // 2 + pad_len % 2, k - 1)
            right = pad_len - left
        length = (i - 1) * s + 1 + left + right - k + 1
        if length < 1:
            raise ValueError(
                f"conv_transpose would produce an empty output (size {length}) for an input of size {i}, "
                f"kernel {k}, stride {s}, padding={padding!r}, output_padding={op}; check output_padding."
            )
        out_len.append(length)
        pad_lo.append(k - 1 - left)
    return Window(out_len, kernel, strides, dilation, pad_lo, in_size)


def _full(xp, shape, fill, dtype):
    if fill == 0:
        return xp.zeros(shape, dtype=dtype)
    return xp.full(shape, fill, dtype=dtype)


def pad_to_span(xp, x, win, fill=0):
    """Returns ``x`` (N, *in, C) re-framed to (N, *span, C): padding filled with ``fill``, unread rows cut.

    Returns ``x`` itself or a view of it when no padding is needed.
    """
    if all(lo == 0 for lo in win.pad_lo) and all(s <= i for s, i in zip(win.span, win.in_size)):
        if win.span == win.in_size:
            return x
        return x[(slice(None),) + tuple(slice(0, s) for s in win.span)]
    buf = _full(xp, (x.shape[0],) + win.span + (x.shape[-1],), fill, x.dtype)
    dst = (slice(None),) + tuple(slice(lo, lo + n) for lo, n in zip(win.pad_lo, win.n_used))
    src = (slice(None),) + tuple(slice(0, n) for n in win.n_used)
    buf[dst] = x[src]
    return buf


def crop_from_span(xp, buf, win):
    """The adjoint of :func:`pad_to_span`: (N, *span, C) back to (N, *in, C), zeros where nothing was read."""
    if all(n == i for n, i in zip(win.n_used, win.in_size)):
        if win.span == win.in_size:
            return buf
        return buf[(slice(None),) + tuple(slice(lo, lo + i) for lo, i in zip(win.pad_lo, win.in_size))]
    out = xp.zeros((buf.shape[0],) + win.in_size + (buf.shape[-1],), dtype=buf.dtype)
    dst = (slice(None),) + tuple(slice(0, n) for n in win.n_used)
    src = (slice(None),) + tuple(slice(lo, lo + n) for lo, n in zip(win.pad_lo, win.n_used))
    out[dst] = buf[src]
    return out


def windows_view(xp, xs, win):
    """A read-only (N, *out, *kernel, C) view of ``xs`` (N, *span, C): every window, no copy.

    Built with ``as_strided`` (numpy and CuPy both have it): one strided copy of this view is the im2col
    buffer, a reduction over its kernel axes is a pool.
    """
    nd = win.ndim
    st = xs.strides
    shape = (xs.shape[0],) + win.out_size + win.kernel + (xs.shape[-1],)
    strides = (
        (st[0],)
        + tuple(st[1 + i] * win.strides[i] for i in range(nd))
        + tuple(st[1 + i] * win.dilation[i] for i in range(nd))
        + (st[-1],)
    )
    return xp.lib.stride_tricks.as_strided(xs, shape=shape, strides=strides)


def kernel_axes(win):
    """The axes of :func:`windows_view` that run over the kernel taps."""
    return tuple(range(1 + win.ndim, 1 + 2 * win.ndim))


def im2col(xp, xs, win, groups=1):
    """The im2col buffer of ``xs`` (N, *span, C): shape (groups, N * prod(out), taps * C // groups).

    It is the left operand of one (batched over groups) matrix product with the kernel reshaped to
    ``(groups, taps * C // groups, F // groups)``. With one group the buffer comes from
    :func:`.scratch.take`: a caller done with it may hand it back with :func:`.scratch.give`.
    """
    n, c = xs.shape[0], xs.shape[-1]
    cg = c // groups
    m = n * math.prod(win.out_size)
    view = windows_view(xp, xs, win)  # (N, *out, *k, C)
    if groups == 1:
        buf = _scratch.take((1, m, win.taps * c), xs.dtype)  # recycled: a fresh one page-faults as it fills
        xp.copyto(buf.reshape(view.shape), view)
        return buf
    view = view.reshape(view.shape[:-1] + (groups, cg))  # splitting the channel axis stays a view
    view = xp.moveaxis(view, -2, 0)  # (G, N, *out, *k, Cg)
    return xp.ascontiguousarray(view).reshape(groups, m, win.taps * cg)


def col2im_matmul(xp, gg, wt, win, n):
    """The input gradient of a convolution on the span frame: (N, *span, C).

    ``gg`` is the output gradient as (G, M, F // G), ``wt`` the kernel as (taps, G, F // G, C // G). One
    matrix product per kernel offset (``g @ kernel[tap]^T``) is added into the strided slice that tap read;
    this is col2im fused with the matmul, which keeps every add a contiguous read.
    """
    groups, cg = wt.shape[1], wt.shape[-1]
    buf = xp.zeros((n,) + win.span + (groups, cg), dtype=gg.dtype)
    out_shape = (n,) + win.out_size + (cg,)
    for t, sl in enumerate(win.offset_slices()):
        target = (slice(None),) + sl
        if groups == 1:
            buf[target + (0,)] += (gg[0] @ wt[t, 0]).reshape(out_shape)
        else:
            part = xp.matmul(gg, wt[t]).reshape((groups,) + out_shape)  # (G, N, *out, Cg)
            buf[target] += xp.moveaxis(part, 0, -2)
    return buf.reshape((n,) + win.span + (groups * cg,))


def _clipped_tap(win, offset):
    """For one kernel offset: the (input-frame slices, output-frame slices) of the windows' reads that land on
    the input (padding and the unread rows past the span dropped), or None when none does."""
    dst, src = [], []
    for k, d, s, lo, o, i in zip(offset, win.dilation, win.strides, win.pad_lo, win.out_size, win.in_size):
        # output position p reads padded row k*d + p*s, i.e. input row k*d + p*s - lo
        first = max(0, _ceil_div(lo - k * d, s))
        last = min(o - 1, (i - 1 + lo - k * d) // s)
        if last < first:
            return None
        start = k * d + first * s - lo
        dst.append(slice(start, start + (last - first) * s + 1, s))
        src.append(slice(first, last + 1))
    return tuple(dst), tuple(src)


def conv_input_grad(xp, g, w, win):
    """The input gradient of a one-group convolution, in the input's own frame: (N, *in, C).

    ``g`` is the output gradient (N, *out, F), ``w`` the kernel as (taps, F, C). Per kernel offset one
    matrix product ``g @ w[tap]`` is added into the input rows that tap read (padding rows are never
    written, so nothing is cropped afterwards). A tap that reads every input row once, in order (the centre
    tap of a stride-1 ``"same"`` convolution), writes its product straight into the result first, which
    saves the zero fill and one pass of adds. Half floats are summed in float32.
    """
    n, f, c = g.shape[0], g.shape[-1], w.shape[-1]
    g2 = g.reshape(-1, f)
    dtype = xp.result_type(g.dtype, w.dtype)
    if dtype.itemsize < 4:
        dtype = xp.dtype("float32")  # half floats accumulate the taps in float32 (the caller rounds once)
        g2, w = g2.astype(dtype), w.astype(dtype)
    offsets = list(itertools.product(*[range(k) for k in win.kernel]))
    full = None
    if win.out_size == win.in_size and all(s == 1 for s in win.strides):
        full = next(
            (t for t, off in enumerate(offsets) if all(k * d == lo for k, d, lo in zip(off, win.dilation, win.pad_lo))),
            None,
        )
    if full is None:
        out = xp.zeros((n,) + win.in_size + (c,), dtype=dtype)
    else:
        out = xp.empty((n,) + win.in_size + (c,), dtype=dtype)
        xp.matmul(g2, w[full], out=out.reshape(-1, c))
    tmp = None
    for t, off in enumerate(offsets):
        if t == full:
            continue
        tap = _clipped_tap(win, off)
        if tap is None:
            continue
        if tmp is None:
            tmp = xp.empty((g2.shape[0], c), dtype=dtype)
        part = xp.matmul(g2, w[t], out=tmp).reshape((n,) + win.out_size + (c,))
        dst, src = tap
        out[(slice(None),) + dst] += part[(slice(None),) + src]
    return out


def conv_input_grad_cols(xp, g, w, win):
    """The input gradient of a one-group, stride-1 convolution as one GEMM: (N, *in, C).

    The input gradient of a stride-1 convolution is the convolution of the output gradient ``g``
    (N, *out, F), padded by ``(k - 1) * d - pad_lo`` rows before, with the kernel ``w`` (*k, C, F) flipped
    along every spatial dim and its channel axes swapped: one im2col of ``g`` (a recycled scratch buffer,
    handed back afterwards) and one product with a ``taps * F``-deep inner dimension, which BLAS runs far
    better than :func:`conv_input_grad`'s ``taps`` products of depth ``F`` and their strided adds.
    """
    nd = win.ndim
    if any(s != 1 for s in win.strides):
        raise ValueError(f"conv_input_grad_cols needs stride 1 in every spatial dim; received strides {win.strides}.")
    pad = tuple((k - 1) * d - lo for k, d, lo in zip(win.kernel, win.dilation, win.pad_lo))
    gwin = Window(win.out_size, win.kernel, (1,) * nd, win.dilation, pad, win.in_size)
    cols = im2col(xp, pad_to_span(xp, g, gwin), gwin)
    c, f = w.shape[-2], w.shape[-1]
    flipped = xp.ascontiguousarray(xp.swapaxes(w[(slice(None, None, -1),) * nd], -1, -2))
    out = cols[0] @ flipped.reshape(win.taps * f, c)
    _scratch.give(cols)
    return out.reshape((g.shape[0],) + win.in_size + (c,))


def window_slices(xs, win):
    """Yields the (N, *out, C) view of ``xs`` (N, *span, C) for each kernel offset."""
    for sl in win.offset_slices():
        yield xs[(slice(None),) + sl]


def overlapping(win):
    """Whether some input row is read by two windows (a stride smaller than the dilated kernel)."""
    return any(s < (k - 1) * d + 1 for s, k, d in zip(win.strides, win.kernel, win.dilation))


def scatter_windows(xp, parts, win, shape, dtype):
    """Sums per-offset (N, *out, C) arrays into a zero (N, *span, C) buffer: the adjoint of slicing.

    Non-overlapping windows write each input row at most once, so plain assignment replaces the adds.
    """
    buf = xp.zeros((shape[0],) + win.span + (shape[-1],), dtype=dtype)
    add = overlapping(win)
    for part, sl in zip(parts, win.offset_slices()):
        if add:
            buf[(slice(None),) + sl] += part
        else:
            buf[(slice(None),) + sl] = part
    return buf
