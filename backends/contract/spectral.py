"""The backend contract, spectral part: complex numbers, Fourier transforms, framing and short-time transforms.

Complex tensors (``complex64``, ``complex128``) are carried by every engine; three primitives build and take
them apart (:meth:`SpectralContract.complex`, :meth:`~SpectralContract.real`, :meth:`~SpectralContract.imag`)
and three compute discrete Fourier transforms on them (:meth:`~SpectralContract.complex_fft`,
:meth:`~SpectralContract.complex_rfft`, :meth:`~SpectralContract.complex_irfft`). Everything else here is
generic, written on those and the numpy ops: Keras's ``fft``/``fft2``/``ifft2``/``rfft``/``irfft`` take and
return ``(real, imag)`` pairs of real tensors, ``stft``/``istft`` frame a signal with
:meth:`~SpectralContract.extract_sequences` and put it back together by overlap-add, and
``view_as_complex``/``view_as_real``/``polar``/``conj``/``angle`` convert between the two representations.

Gradients follow JAX's convention for complex values (the cotangent of ``z`` is ``dL/dRe(z) - i dL/dIm(z)``),
so a real loss of real inputs gets the same gradient on every engine whatever complex values it passes through.

>>> import highlevel as hl
>>> b = hl.config.current_backend()
>>> re, im = b.fft((b.convert_to_tensor([1.0, 2.0]), b.convert_to_tensor([0.0, 1.0])))
>>> b.to_numpy(re).tolist(), b.to_numpy(im).tolist()
([3.0, -1.0], [1.0, -1.0])
"""

import abc

import numpy as np

from . import dtypes


def window_values(window, length):
    """A named window (``"hann"``, ``"hamming"``) of ``length`` samples as a float64 numpy array.

    The windows are periodic (DFT-even: the window of ``length + 1`` samples without its last one), as spectral
    analysis uses them and as ``scipy.signal.get_window`` returns them.

    >>> window_values("hann", 4).round(12).tolist()
    [0.0, 0.5, 1.0, 0.5]
    """
    k = np.arange(length, dtype=np.float64)
    phase = np.cos(2.0 * np.pi * k / length) if length else k
    if window == "hann":
        return 0.5 - 0.5 * phase
    if window == "hamming":
        return 0.54 - 0.46 * phase
    raise ValueError(f"window must be 'hann', 'hamming', a tensor or None; received window={window!r}.")


class SpectralContract(abc.ABC):
    """Complex numbers and the spectral ops of ``keras.ops`` (``fft``, ``stft``, ``view_as_complex``, ...)."""

    # ------------------------------------------------------------------------------------------ primitives
    @abc.abstractmethod
    def complex(self, real, imag):
        """``real + 1j * imag`` for two real tensors of one float dtype: complex64 for float32, complex128 for
        float64."""

    @abc.abstractmethod
    def real(self, x):
        """The real part of a complex ``x`` (float32 for complex64); a real ``x`` is returned unchanged."""

    @abc.abstractmethod
    def imag(self, x):
        """The imaginary part of a complex ``x``; zeros of the dtype of a real ``x``."""

    @abc.abstractmethod
    def complex_fft(self, x, ndims, inverse=False):
        """The discrete Fourier transform of a complex ``x`` over its last ``ndims`` axes (1 or 2): unnormalized,
        or the inverse, normalized by the number of points (numpy's ``norm="backward"``)."""

    @abc.abstractmethod
    def complex_rfft(self, x, n):
        """The DFT of ``n`` points of a real float ``x`` along its last axis (cropped or zero-padded to ``n``):
        its ``n // 2 + 1`` non-negative frequencies, complex."""

    @abc.abstractmethod
    def complex_irfft(self, x, n):
        """The real signal of ``n`` points whose DFT has the non-negative frequencies ``x`` (complex, along its last
        axis, cropped or zero-padded to ``n // 2 + 1``), as ``numpy.fft.irfft``."""

    # ------------------------------------------------------------------------------------ complex numbers
    def _complex_of_parts(self, real, imag):
        """Two real tensors promoted to one float dtype (float16/bfloat16 and integers computed in float32 or
        floatx) and joined into a complex tensor; also returns the float dtype the parts had."""
        real, imag = self.convert_to_tensor(real), self.convert_to_tensor(imag)
        dt = dtypes.result_type(self.dtype(real), self.dtype(imag))
        if dt not in dtypes.FLOAT_DTYPES:
            dt = dtypes.floatx()
        work = "float64" if dt == "float64" else "float32"
        return self.complex(self.cast(real, work), self.cast(imag, work)), dt

    def _parts(self, z, dtype):
        """``(real(z), imag(z))`` in ``dtype``."""
        return self.cast(self.real(z), dtype), self.cast(self.imag(z), dtype)

    def conj(self, x):
        """The complex conjugate; a real ``x`` is returned unchanged."""
        x = self.convert_to_tensor(x)
        if self.dtype(x) not in dtypes.COMPLEX_DTYPES:
            return x
        return self.complex(self.real(x), self.negative(self.imag(x)))

    def angle(self, x):
        """The argument of each complex entry, in ``(-pi, pi]``; 0 or pi for a real ``x`` (float)."""
        x = self.convert_to_tensor(x)
        if self.dtype(x) in dtypes.COMPLEX_DTYPES:
            return self.arctan2(self.imag(x), self.real(x))
        if self.dtype(x) not in dtypes.FLOAT_DTYPES:
            x = self.cast(x, dtypes.floatx())
        # piecewise constant in a real x: its gradient is 0 everywhere (arctan2's would be 0/0 at 0)
        return self.stop_gradient(self.arctan2(self.zeros((), self.dtype(x)), x))

    def view_as_complex(self, x):
        """A real tensor of shape ``(..., 2)`` (real and imaginary parts) as a complex tensor of shape ``(...)``."""
        x = self.convert_to_tensor(x)
        return self._complex_of_parts(self.getitem(x, (Ellipsis, 0)), self.getitem(x, (Ellipsis, 1)))[0]

    def view_as_real(self, x):
        """A complex tensor of shape ``(...)`` as a real tensor of shape ``(..., 2)`` (real and imaginary parts)."""
        x = self.convert_to_tensor(x)
        return self.stack([self.real(x), self.imag(x)], axis=-1)

    def polar(self, abs_, angle):
        """The complex numbers of modulus ``abs_`` and argument ``angle``: ``abs_ * (cos(angle) + 1j sin(angle))``."""
        abs_, angle = self.convert_to_tensor(abs_), self.convert_to_tensor(angle)
        return self._complex_of_parts(self.multiply(abs_, self.cos(angle)), self.multiply(abs_, self.sin(angle)))[0]

    # ----------------------------------------------------------------------------- transforms of pairs
    def _transform_pair(self, x, ndims, inverse):
        z, dt = self._complex_of_parts(*x)
        return self._parts(self.complex_fft(z, ndims, inverse), dt)

    def fft(self, x):
        """The DFT along the last axis of a ``(real, imag)`` pair; returns a pair of the input's float dtype."""
        return self._transform_pair(x, 1, False)

    def fft2(self, x):
        """The DFT over the last two axes of a ``(real, imag)`` pair."""
        return self._transform_pair(x, 2, False)

    def ifft2(self, x):
        """The inverse DFT (normalized by the number of points) over the last two axes of a ``(real, imag)`` pair."""
        return self._transform_pair(x, 2, True)

    def _float_input(self, x):
        x = self.convert_to_tensor(x)
        dt = self.dtype(x)
        if dt not in dtypes.FLOAT_DTYPES:
            dt = dtypes.floatx()
        return self.cast(x, "float64" if dt == "float64" else "float32"), dt

    def rfft(self, x, fft_length=None):
        """The non-negative frequencies of the DFT of a real ``x`` along its last axis, as a ``(real, imag)`` pair
        (canonical ``fft_length``: an int)."""
        x, dt = self._float_input(x)
        n = self.shape(x)[-1] if fft_length is None else fft_length
        return self._parts(self.complex_rfft(x, n), dt)

    def irfft(self, x, fft_length=None):
        """The real signal of ``fft_length`` points (default ``2 * (m - 1)``) whose non-negative frequencies are the
        ``(real, imag)`` pair ``x``."""
        z, dt = self._complex_of_parts(*x)
        n = 2 * (self.shape(z)[-1] - 1) if fft_length is None else fft_length
        return self.cast(self.complex_irfft(z, n), dt)

    # ------------------------------------------------------------------------- framing, short-time DFT
    def extract_sequences(self, x, sequence_length, sequence_stride):
        """Frames of ``sequence_length`` samples every ``sequence_stride`` samples along the last axis: shape
        ``(..., 1 + (n - sequence_length) // sequence_stride, sequence_length)``."""
        x = self.convert_to_tensor(x)
        n = self.shape(x)[-1]
        count = 1 + (n - sequence_length) // sequence_stride if n >= sequence_length else 0
        index = (np.arange(count)[:, None] * sequence_stride + np.arange(sequence_length)[None, :]).astype(np.int32)
        return self.take(x, self.convert_to_tensor(index), axis=self.ndim(x) - 1)

    def _stft_window(self, window, sequence_length, fft_length, dtype):
        """The analysis window, zero-padded (centred) to ``fft_length``; ``None`` is a window of ones of
        ``fft_length``."""
        if window is None:
            return self.ones((fft_length,), dtype)
        if isinstance(window, str):
            w = self.convert_to_tensor(window_values(window, sequence_length).astype(dtype))
        else:
            w = self.cast(window, dtype)
        left = (fft_length - sequence_length) // 2
        return self.pad(w, ((left, fft_length - sequence_length - left),))

    def stft(self, x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
        """The short-time DFT of ``x`` along its last axis as a ``(real, imag)`` pair of shape
        ``(..., frames, fft_length // 2 + 1)`` (see ``hl.ops.stft``)."""
        x, dt = self._float_input(x)
        if center:
            half = fft_length // 2
            x = self.pad(x, ((0, 0),) * (self.ndim(x) - 1) + ((half, half),), mode="reflect")
        frames = self.extract_sequences(x, fft_length, sequence_stride)
        frames = self.multiply(frames, self._stft_window(window, sequence_length, fft_length, self.dtype(x)))
        return self._parts(self.complex_rfft(frames, fft_length), dt)

    def _overlap_add(self, frames, stride):
        """Sums frames ``(..., F, n)`` placed every ``stride`` samples: shape ``(..., (F - 1) * stride + n)``."""
        shape = self.shape(frames)
        count, n = shape[-2], shape[-1]
        blocks = -(-n // stride)  # frame length in strides, rounded up
        lead = ((0, 0),) * (len(shape) - 2)
        frames = self.pad(frames, lead + ((0, 0), (0, blocks * stride - n)))
        frames = self.reshape(frames, shape[:-2] + (count, blocks, stride))
        total = None
        for j in range(blocks):  # block j of frame f lands on output block f + j
            part = self.pad(
                self.getitem(frames, (Ellipsis, slice(None), j, slice(None))), lead + ((j, blocks - 1 - j), (0, 0))
            )
            total = part if total is None else self.add(total, part)
        out = self.reshape(total, shape[:-2] + ((count + blocks - 1) * stride,))
        return self.getitem(out, (Ellipsis, slice(0, (count - 1) * stride + n)))

    def istft(self, x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True):
        """The signal whose short-time DFT is the ``(real, imag)`` pair ``x``: each frame's inverse DFT, windowed,
        overlap-added and divided by the overlap-added squared window (see ``hl.ops.istft``)."""
        z, dt = self._complex_of_parts(*x)
        work = self.dtype(self.real(z))
        frames = self.complex_irfft(z, fft_length)
        count = self.shape(frames)[-2]
        win = self._stft_window(window, sequence_length, fft_length, work)
        signal = self._overlap_add(self.multiply(frames, win), sequence_stride)
        norm = self._overlap_add(self.broadcast_to(self.square(win), (count, fft_length)), sequence_stride)
        # where the squared windows add up to (nearly) nothing the signal cannot be recovered: left as summed
        norm = self.where(self.greater(norm, 1e-10), norm, self.ones((), work))
        signal = self.divide(signal, norm)
        total = self.shape(signal)[-1]
        start = fft_length // 2 if center else 0
        if length is not None:
            stop = start + length
        else:
            stop = total - fft_length // 2 if center else total
        signal = self.getitem(signal, (Ellipsis, slice(start, max(start, min(stop, total)))))
        if length is not None and self.shape(signal)[-1] < length:  # past the frames: zeros, to exactly length
            missing = length - self.shape(signal)[-1]
            signal = self.pad(signal, ((0, 0),) * (self.ndim(signal) - 1) + ((0, missing),))
        return self.cast(signal, dt)


__all__ = ["SpectralContract", "window_values"]
