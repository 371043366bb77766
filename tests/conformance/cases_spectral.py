"""Conformance cases: complex numbers (``real``, ``imag``, ``conj``, ``angle``, ``view_as_complex``,
``view_as_real``, ``polar``, and ``abs``/``add``/``multiply`` on complex tensors) and the Fourier transforms (``fft``,
``fft2``, ``ifft2``, ``rfft``, ``irfft``, ``stft``, ``istft``, ``extract_sequences``).

Complex inputs are fixed arrays (the harness draws real masters, and gradients are taken with respect to real
inputs); the transforms take and return ``(real, imag)`` pairs of real tensors, given as lists of masters, so their
gradients are checked. ``stft`` and ``istft`` are checked against ``scipy.signal`` in float64, as Keras's numpy
backend computes them, with one correction: ``istft`` divides out scipy's spectrum scaling by the window's sum for
every window, where Keras divides by ``sequence_stride`` when ``window=None`` (which does not give the signal back;
its other backends disagree with each other there).
"""

import warnings

import numpy as np
import scipy.signal

from highlevel.backends.contract import dtypes as _D
from highlevel.backends.contract.spectral import window_values

from .harness import F32, F32_64, FLOAT, INTS, NONE, C, const, fixed, ints, normal, positive

_RNG = np.random.default_rng(20240611)
Z64 = (_RNG.standard_normal((2, 3)) + 1j * _RNG.standard_normal((2, 3))).astype(np.complex64)
Z128 = (_RNG.standard_normal((4,)) + 1j * _RNG.standard_normal((4,))).astype(np.complex128)
# the four quadrants, the axes and 0 (angle's edge cases)
ZAXES = np.array([1 + 1j, -1 + 1j, -1 - 1j, 1 - 1j, 1, 1j, -1, -1j, 0], np.complex64)


def COMPLEX(p):
    """The complex dtype of the float result (complex64 for float32, complex128 for float64)."""
    return _D.complex_of(FLOAT(p))


def pair(*shape):
    """A ``(real, imag)`` pair of standard normal parts (a list of two masters)."""
    return [normal(*shape), normal(*shape)]


def _parts(z, dtype=None):
    z = np.asarray(z)
    if dtype is not None:
        return z.real.astype(dtype), z.imag.astype(dtype)
    return z.real, z.imag


def ref_fft(x):
    return _parts(np.fft.fft(x[0] + 1j * x[1]))


def ref_fft2(x):
    return _parts(np.fft.fft2(x[0] + 1j * x[1]))


def ref_ifft2(x):
    return _parts(np.fft.ifft2(x[0] + 1j * x[1]))


def ref_rfft(x, fft_length=None):
    return _parts(np.fft.rfft(x, n=fft_length))


def ref_irfft(x, fft_length=None):
    return np.fft.irfft(x[0] + 1j * x[1], n=fft_length)


def _window(window, sequence_length, fft_length):
    if window is None:
        return np.ones(fft_length)
    w = window_values(window, sequence_length) if isinstance(window, str) else np.asarray(window, np.float64)
    left = (fft_length - sequence_length) // 2
    return np.pad(w, (left, fft_length - sequence_length - left))


def ref_stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    if center:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(fft_length // 2, fft_length // 2)], mode="reflect")
    win = _window(window, sequence_length, fft_length)
    z = scipy.signal.stft(
        x,
        fs=1.0,
        window=win,
        nperseg=fft_length,
        noverlap=fft_length - sequence_stride,
        nfft=fft_length,
        boundary=None,
        padded=False,
    )[-1]
    z = np.swapaxes(z * win.sum(), -2, -1)  # scipy scales the spectrum by 1 / sum(window)
    return z.real, z.imag


def ref_istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True):
    z = x[0] + 1j * x[1]
    win = _window(window, sequence_length, fft_length)
    with warnings.catch_warnings():  # where the squared windows add up to 0 (a zero-padded window's first sample)
        warnings.simplefilter("ignore", UserWarning)
        y = (
            scipy.signal.istft(
                z,
                fs=1.0,
                window=win,
                nperseg=fft_length,
                noverlap=fft_length - sequence_stride,
                nfft=fft_length,
                boundary=False,
                time_axis=-2,
                freq_axis=-1,
            )[-1]
            / win.sum()
        )
    start = fft_length // 2 if center else 0
    stop = start + length if length is not None else (y.shape[-1] - fft_length // 2 if center else y.shape[-1])
    y = y[..., start:stop]
    if length is not None and y.shape[-1] < length:
        y = np.pad(y, [(0, 0)] * (y.ndim - 1) + [(0, length - y.shape[-1])])
    return y


def ref_extract_sequences(x, sequence_length, sequence_stride):
    n = x.shape[-1]
    count = 1 + (n - sequence_length) // sequence_stride if n >= sequence_length else 0
    idx = np.arange(count)[:, None] * sequence_stride + np.arange(sequence_length)[None, :]
    return x[..., idx]


def ref_angle(x):
    return np.angle(x).astype(np.float64) if np.asarray(x).dtype.kind in "iub" else np.angle(x)


def ref_view_as_complex(x):
    return x[..., 0] + 1j * x[..., 1]


def ref_view_as_real(x):
    return np.stack([np.real(x), np.imag(x)], axis=-1)


def ref_polar(r, t):
    return r * np.cos(t) + 1j * r * np.sin(t)


CASES = [
    C("real", "complex64", (fixed(Z64),), np.real, dtypes=(NONE,), out="float32"),
    C("real", "complex128", (fixed(Z128),), np.real, dtypes=(NONE,), out="float64"),
    C("real", "real-input", (normal(3, 4),), np.real, dtypes=F32_64, grad=(0,)),
    C("real", "int-input", (ints(5),), np.real, dtypes=INTS),
    C("imag", "complex64", (fixed(Z64),), np.imag, dtypes=(NONE,), out="float32"),
    C("imag", "complex128", (fixed(Z128),), np.imag, dtypes=(NONE,), out="float64"),
    C("imag", "real-input", (normal(3, 4),), np.imag, dtypes=F32_64, grad=(0,)),
    C("conj", "complex64", (fixed(Z64),), np.conj, dtypes=(NONE,), out="complex64"),
    C("conj", "real-input", (normal(3, 4),), np.conj, dtypes=F32_64 + INTS, grad=(0,)),
    C("conjugate", "complex128", (fixed(Z128),), np.conjugate, dtypes=(NONE,), out="complex128"),
    C("angle", "quadrants", (fixed(ZAXES),), np.angle, dtypes=(NONE,), out="float32"),
    C("angle", "complex128", (fixed(Z128),), np.angle, dtypes=(NONE,), out="float64"),
    # a real input: 0 for x >= 0, pi for x < 0, with gradient 0
    C("angle", "real-input", (const([-2.0, -0.5, 0.25, 1.5, 3.0]),), ref_angle, dtypes=F32_64, grad=(0,), out=FLOAT),
    C("angle", "signed-zeros", (const([0.0, -0.0, np.nan]),), ref_angle, dtypes=F32_64, out=FLOAT),
    C("angle", "int-input", (ints(6),), ref_angle, dtypes=INTS, out=FLOAT),
    # float64 parts give complex128 (torch.view_as_complex's rule; Keras casts every input to complex64 on all its
    # backends, dropping half the digits of a float64 input)
    C("view_as_complex", "basic", (normal(2, 3, 2),), ref_view_as_complex, dtypes=F32_64, out=COMPLEX),
    C("view_as_complex", "int", (ints(3, 2),), ref_view_as_complex, dtypes=("int32",), out="complex64"),
    C("view_as_real", "complex64", (fixed(Z64),), ref_view_as_real, dtypes=(NONE,), out="float32"),
    C("view_as_real", "complex128", (fixed(Z128),), ref_view_as_real, dtypes=(NONE,), out="float64"),
    C("view_as_real", "real-input", (normal(3),), ref_view_as_real, dtypes=F32_64, grad=(0,)),
    C("polar", "basic", (positive(2, 3), normal(2, 3)), ref_polar, dtypes=F32_64, out=COMPLEX),
    C("polar", "broadcast", (positive(3), normal(2, 1)), ref_polar, out=COMPLEX),
    # complex tensors through the elementwise ops (promotion: complex64 with float64 gives complex128)
    C("abs", "complex64", (fixed(Z64),), np.abs, dtypes=(NONE,), out="float32"),
    C("add", "complex-float", (fixed(Z64), normal(2, 3)), np.add, dtypes=F32, out="complex64"),
    C("add", "complex-float64", (fixed(Z64), normal(2, 3)), np.add, dtypes=("float64",), out="complex128"),
    C("multiply", "complex", (fixed(Z64), fixed(np.conj(Z64))), np.multiply, dtypes=(NONE,), out="complex64"),
    C("multiply", "complex-scalar", (fixed(Z128), 2.5), np.multiply, dtypes=(NONE,), out="complex128"),
    # the Fourier transforms of (real, imag) pairs
    C("fft", "basic", (pair(2, 8),), ref_fft, dtypes=F32_64, grad=(0,)),
    C("fft", "odd", (pair(5),), ref_fft, grad=(0,)),
    C("fft2", "basic", (pair(3, 4),), ref_fft2, dtypes=F32_64, grad=(0,)),
    C("fft2", "batched", (pair(2, 3, 5),), ref_fft2, grad=(0,)),
    C("ifft2", "basic", (pair(4, 3),), ref_ifft2, dtypes=F32_64, grad=(0,)),
    C("ifft2", "batched", (pair(2, 2, 3),), ref_ifft2, grad=(0,)),
    C("rfft", "basic", (normal(2, 8),), ref_rfft, dtypes=F32_64, grad=(0,)),
    C("rfft", "odd", (normal(7),), ref_rfft, grad=(0,)),
    C("rfft", "crop", (normal(2, 9),), ref_rfft, grad=(0,), fft_length=6),
    C("rfft", "pad", (normal(5),), ref_rfft, grad=(0,), fft_length=9),
    # integers transform in floatx (Keras's numpy backend casts the result back to int32, truncating it)
    C("rfft", "int", (ints(6),), ref_rfft, dtypes=("int32",), out=(FLOAT, FLOAT)),
    C("irfft", "basic", (pair(2, 5),), ref_irfft, dtypes=F32_64, grad=(0,)),
    C("irfft", "odd", (pair(4),), ref_irfft, grad=(0,), fft_length=7),
    C("irfft", "crop", (pair(6),), ref_irfft, grad=(0,), fft_length=6),
    C("irfft", "pad", (pair(3),), ref_irfft, grad=(0,), fft_length=8),
    C("stft", "hann", (normal(2, 24), 8, 3, 8), ref_stft, dtypes=F32_64, grad=(0,)),
    C("stft", "hamming-padded-frames", (normal(30), 6, 4, 10), ref_stft, grad=(0,), window="hamming", center=False),
    C("stft", "no-window", (normal(2, 20), 5, 2, 7), ref_stft, grad=(0,), window=None),
    C("stft", "tensor-window", (normal(20), 6, 2, 8, positive(6)), ref_stft, grad=(0, 4)),
    C("istft", "hann", (pair(2, 7, 5), 8, 2, 8), ref_istft, dtypes=F32_64, grad=(0,)),
    C(
        "istft",
        "hamming-length",
        (pair(6, 6), 8, 3, 10),
        ref_istft,
        grad=(0,),
        length=15,
        window="hamming",
        center=False,
    ),
    C("istft", "no-window-longer", (pair(5, 4), 6, 3, 6), ref_istft, grad=(0,), length=20, window=None),
    C("extract_sequences", "basic", (normal(2, 10), 4, 3), ref_extract_sequences, dtypes=F32_64 + INTS, grad=(0,)),
    C("extract_sequences", "overlap", (normal(9), 5, 1), ref_extract_sequences, grad=(0,)),
    C("extract_sequences", "too-short", (normal(2, 3), 4, 1), ref_extract_sequences, grad=(0,)),
]
