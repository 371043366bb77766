"""The spectral primitives of the PyTorch engine: complex tensors and ``torch.fft``.

>>> from highlevel.backends.torch import TorchBackend
>>> b = TorchBackend()
>>> z = b.complex(b.convert_to_tensor([1.0, 2.0]), b.convert_to_tensor([0.0, 1.0]))
>>> b.dtype(z), b.to_numpy(b.real(b.complex_fft(z, 1))).tolist()
('complex64', [3.0, -1.0])
"""

import torch

from . import _convert as cv


class TorchSpectralMixin:
    """:class:`~highlevel.backends.contract.spectral.SpectralContract`'s primitives with torch."""

    def complex(self, real, imag):  # noqa: A003 - the contract's name
        return torch.complex(cv.convert(real), cv.convert(imag))

    def real(self, x):
        x = cv.convert(x)
        return torch.real(x) if x.dtype in cv.COMPLEXES else x

    def imag(self, x):
        x = cv.convert(x)
        return torch.imag(x) if x.dtype in cv.COMPLEXES else torch.zeros_like(x)

    def conj(self, x):
        x = cv.convert(x)
        return torch.conj_physical(x) if x.dtype in cv.COMPLEXES else x

    def complex_fft(self, x, ndims, inverse=False):
        x = cv.convert(x)
        dims = tuple(range(x.ndim - ndims, x.ndim))
        return (torch.fft.ifftn if inverse else torch.fft.fftn)(x, dim=dims)

    def complex_rfft(self, x, n):
        return torch.fft.rfft(cv.convert(x), n=int(n), dim=-1)

    def complex_irfft(self, x, n):
        return torch.fft.irfft(cv.convert(x), n=int(n), dim=-1)
