"""The spectral primitives of the TensorFlow engine: complex tensors and ``tf.signal``'s transforms.

>>> from highlevel.backends.tensorflow import TensorFlowBackend
>>> b = TensorFlowBackend()
>>> z = b.complex(b.convert_to_tensor([1.0, 2.0]), b.convert_to_tensor([0.0, 1.0]))
>>> b.dtype(z), b.to_numpy(b.real(b.complex_fft(z, 1))).tolist()
('complex64', [3.0, -1.0])
"""

import tensorflow as tf

from .convert import convert

_TRANSFORMS = {
    (1, False): tf.signal.fft,
    (2, False): tf.signal.fft2d,
    (1, True): tf.signal.ifft,
    (2, True): tf.signal.ifft2d,
}


class TensorFlowSpectralMixin:
    """:class:`~highlevel.backends.contract.spectral.SpectralContract`'s primitives with TensorFlow."""

    def complex(self, real, imag):  # noqa: A003 - the contract's name
        return tf.complex(convert(real), convert(imag))

    def real(self, x):
        return tf.math.real(convert(x))

    def imag(self, x):
        x = convert(x)
        return tf.math.imag(x) if x.dtype.is_complex else tf.zeros_like(x)

    def conj(self, x):
        return tf.math.conj(convert(x))

    def complex_fft(self, x, ndims, inverse=False):
        return _TRANSFORMS[(int(ndims), bool(inverse))](convert(x))

    def complex_rfft(self, x, n):
        x, n = convert(x), int(n)
        if x.shape[-1] > n:  # cropped here: TensorFlow's gradient of its own cropping fails
            x = x[..., :n]
        return tf.signal.rfft(x, fft_length=[n])  # complex128 for float64, complex64 for float32

    def complex_irfft(self, x, n):
        x, n = convert(x), int(n)
        if x.shape[-1] > n // 2 + 1:  # cropped here, as in complex_rfft
            x = x[..., : n // 2 + 1]
        return tf.signal.irfft(x, fft_length=[n])
