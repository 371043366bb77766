"""Complex numbers and discrete Fourier transforms of the native engine (``xp.fft``), with their VJP rules.

Complex tensors carry gradients with JAX's convention: the cotangent of a complex value ``z`` is
``dL/dRe(z) - i dL/dIm(z)``. A holomorphic linear map then has its plain transpose as VJP (the DFT's is the DFT
again: its matrix is symmetric), and the maps between real and complex values have simple ones: ``real``
sends ``g`` to ``g + 0i``, ``imag`` to ``-i g``, ``complex(re, im)`` splits ``g`` into ``(Re g, -Im g)``. Each
rule is written with this module's recorded ops in graph mode, so Fourier transforms are differentiable to any
order.

>>> from highlevel.backends.native.tensor import Tensor
>>> z = complex_(Tensor([1.0, 2.0]), Tensor([0.0, 1.0]))
>>> z.dtype
'complex64'
>>> real(complex_fft(z, 1)).numpy().tolist()
[3.0, -1.0]
"""

import numpy as np

from .autograd import linear, record
from .convert import to_tensor
from .tensor import COMPLEX_DTYPES, DTYPE_NAMES, Tensor, xp_dtype
from .xp import xp

_COMPLEX_OF = {"float32": "complex64", "float64": "complex128"}
_REAL_OF = {"complex64": "float32", "complex128": "float64"}


def complex_(re, im):
    """``re + 1j * im`` for two real tensors of one dtype (float32 -> complex64, float64 -> complex128)."""
    re, im = to_tensor(re), to_tensor(im)
    cdt = xp_dtype(_COMPLEX_OF[re.dtype])
    zd = xp.empty(np.broadcast_shapes(re.shape, im.shape), cdt)
    zd.real, zd.imag = re.data, im.data
    from .autograd import unbroadcast

    def backward(g, out=None):
        if out is None:
            gr, gi = g.real, -g.imag
        else:
            from .ops_math import negative

            gr, gi = real(g), negative(imag(g))
        return (
            unbroadcast(gr, re.shape) if re.requires_grad else None,
            unbroadcast(gi, im.shape) if im.requires_grad else None,
        )

    return record(zd, (re, im), backward, (), "complex")


def real(x):
    """The real part of a complex ``x``; a real ``x`` as it is."""
    x = to_tensor(x)
    if x.data.dtype not in COMPLEX_DTYPES:
        return x
    cdt = x.dtype

    def backward(g, out=None):
        if out is None:
            return (g.astype(xp_dtype(cdt)),)
        from .ops_math import cast

        return (cast(g, cdt),)

    return record(xp.ascontiguousarray(x.data.real), (x,), backward, (), "real")


def imag(x):
    """The imaginary part of a complex ``x``; zeros of the dtype of a real ``x``."""
    x = to_tensor(x)
    if x.data.dtype not in COMPLEX_DTYPES:
        return Tensor(xp.zeros_like(x.data))

    def backward(g, out=None):
        if out is None:
            return ((-1j * g).astype(x.data.dtype),)
        from .ops_math import negative

        return (complex_(Tensor(xp.zeros_like(g.data)), negative(g)),)

    return record(xp.ascontiguousarray(x.data.imag), (x,), backward, (), "imag")


def conj(x):
    """The complex conjugate; a real ``x`` as it is."""
    x = to_tensor(x)
    if x.data.dtype not in COMPLEX_DTYPES:
        return x
    return linear(x, xp.conj, xp.conj, "conj", "conj")


def _axes(ndims, ndim):
    return tuple(range(ndim - ndims, ndim))


def complex_fft(x, ndims, inverse=False):
    """The DFT (or its normalized inverse) of a complex ``x`` over its last ``ndims`` axes."""
    x = to_tensor(x)
    axes = _axes(ndims, x.ndim)
    dt = x.data.dtype
    fn = xp.fft.ifftn if inverse else xp.fft.fftn

    def fwd(a):  # the DFT matrix is symmetric: this map is its own transpose
        return fn(a, axes=axes).astype(dt, copy=False)

    return linear(x, fwd, fwd, "ifft" if inverse else "fft", "ifft" if inverse else "fft")


def _fit(a, n):
    """``a`` cropped or zero-padded to ``n`` entries along its last axis."""
    m = a.shape[-1]
    if m == n:
        return a
    if m > n:
        return a[..., :n]
    return xp.concatenate([a, xp.zeros(a.shape[:-1] + (n - m,), a.dtype)], axis=-1)


def complex_rfft(x, n):
    """The ``n // 2 + 1`` non-negative frequencies of the ``n``-point DFT of a real ``x`` along its last axis."""
    x = to_tensor(x)
    length = x.shape[-1]
    rdt = x.data.dtype
    cdt = xp_dtype(_COMPLEX_OF[DTYPE_NAMES[rdt]])

    def fwd(a):
        return xp.fft.rfft(a, n=n, axis=-1).astype(cdt, copy=False)

    def adj(g):  # the real part of the full DFT's transpose applied to the zero-extended spectrum
        return _fit(xp.fft.fft(_fit(g, n), axis=-1).real, length).astype(rdt, copy=False)

    return linear(x, fwd, adj, "rfft", "rfft_transpose")


def complex_irfft(x, n):
    """The real ``n``-point signal whose non-negative frequencies are the complex ``x`` (along its last axis)."""
    x = to_tensor(x)
    length = x.shape[-1]
    cdt = x.data.dtype
    rdt = xp_dtype(_REAL_OF[DTYPE_NAMES[cdt]])
    m = n // 2 + 1
    weight = xp.full(m, 2.0 / n, rdt)  # the interior frequencies count twice in the real signal
    weight[0] = 1.0 / n
    if n % 2 == 0:
        weight[-1] = 1.0 / n

    def fwd(a):
        return xp.fft.irfft(a, n=n, axis=-1).astype(rdt, copy=False)

    def adj(g):  # JAX's convention: conj of the weighted half spectrum of the cotangent
        return _fit(xp.conj(xp.fft.rfft(g, n=n, axis=-1) * weight), length).astype(cdt, copy=False)

    return linear(x, fwd, adj, "irfft", "irfft_transpose")


class NativeSpectralMixin:
    """The spectral primitives of :class:`~highlevel.backends.contract.spectral.SpectralContract`."""

    def complex(self, real, imag):  # noqa: A003 - the contract's name
        return complex_(real, imag)

    def real(self, x):
        return real(x)

    def imag(self, x):
        return imag(x)

    def conj(self, x):
        return conj(x)

    def complex_fft(self, x, ndims, inverse=False):
        return complex_fft(x, ndims, inverse)

    def complex_rfft(self, x, n):
        return complex_rfft(x, n)

    def complex_irfft(self, x, n):
        return complex_irfft(x, n)
