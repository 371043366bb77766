"""The spectral primitives of the JAX engine: complex numbers and ``jax.numpy.fft``.

>>> from highlevel.backends.jax import JaxBackend
>>> b = JaxBackend()
>>> z = b.complex(b.convert_to_tensor([1.0, 2.0]), b.convert_to_tensor([0.0, 1.0]))
>>> b.dtype(z), b.to_numpy(b.real(b.complex_fft(z, 1))).tolist()
('complex64', [3.0, -1.0])
"""

import jax.numpy as jnp
from jax import lax

from . import conversion as cv


class JaxSpectralMixin:
    """:class:`~highlevel.backends.contract.spectral.SpectralContract`'s primitives with JAX."""

    def complex(self, real, imag):  # noqa: A003 - the contract's name
        return lax.complex(cv.convert(real), cv.convert(imag))

    def real(self, x):
        return jnp.real(cv.convert(x))

    def imag(self, x):
        return jnp.imag(cv.convert(x))

    def conj(self, x):
        return jnp.conj(cv.convert(x))

    def complex_fft(self, x, ndims, inverse=False):
        x = cv.convert(x)
        axes = tuple(range(x.ndim - ndims, x.ndim))
        return (jnp.fft.ifftn if inverse else jnp.fft.fftn)(x, axes=axes)

    def complex_rfft(self, x, n):
        return jnp.fft.rfft(cv.convert(x), n=int(n), axis=-1)

    def complex_irfft(self, x, n):
        return jnp.fft.irfft(cv.convert(x), n=int(n), axis=-1)
