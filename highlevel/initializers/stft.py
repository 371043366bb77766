"""``STFT``: the kernel of a convolution that computes one side (real or imaginary) of a short-time Fourier
transform, optionally windowed and normalized.

>>> import highlevel as hl
>>> kernel = hl.initializers.STFT(side="real", window=None, scaling=None)(shape=(4, 1, 3))
>>> hl.ops.convert_to_numpy(kernel)[:, 0, 1].round(6).tolist()  # cos(2 pi t k / 4) for frequency bin k = 1
[1.0, 0.0, -1.0, -0.0]
"""

import numpy as np

from highlevel.backends.contract import dtypes

from .host_values import standardize_shape, to_tensor
from .initializer import Initializer

#: The windows computed here with numpy (``scipy.signal.get_window``'s definitions); others need scipy.
_NUMPY_WINDOWS = {
    "hann": np.hanning,
    "hanning": np.hanning,
    "hamming": np.hamming,
    "blackman": np.blackman,
    "bartlett": np.bartlett,
    "boxcar": np.ones,
    "rectangular": np.ones,
    "ones": np.ones,
}


def _window_by_name(name, length, periodic):
    """``scipy.signal.get_window(name, length, fftbins=periodic)``, in float64."""
    make = _NUMPY_WINDOWS.get(name)
    if make is not None:
        # A periodic window is the symmetric window one sample longer, without its last sample.
        return make(length + 1)[:-1] if periodic else make(length)
    try:
        from scipy import signal
    except ImportError:
        from highlevel._extras import install_command

        raise ImportError(
            f"The window {name!r} needs scipy (built in: {sorted(_NUMPY_WINDOWS)}). Install it with "
            f"`pip install scipy` or {install_command('signal')}, or pass the window's values as an array."
        ) from None
    return np.asarray(signal.get_window(name, length, fftbins=periodic), "float64")


def _check_window_name(name):
    if name in _NUMPY_WINDOWS:
        return
    try:
        from scipy import signal
    except ImportError:
        return  # checked when the kernel is made, with the install hint
    try:
        signal.get_window(name, 1)
    except ValueError as e:
        raise ValueError(f"Unknown window {name!r} for STFT: {e}. Use e.g. 'hann' or 'hamming'.") from None


class STFT(Initializer):
    """The kernel of a short-time Fourier transform as a convolution (``keras.initializers.STFT``).

    For a shape ``(frame_length, channels, bins)`` the kernel is ``cos(-2 pi t k / n)`` (``side="real"``) or
    ``sin(-2 pi t k / n)`` (``"imag"``) at time ``t`` and frequency bin ``k``, with ``n = 2 (bins - 1)``
    the FFT length (the other half of the bins are conjugates). With a window, the kernel is multiplied
    by it along ``t`` and divided by the window's L2 norm (``scaling="density"``) or L1 norm
    (``"spectrum"``). The result has shape ``(frame_length, 1, bins)``, as in Keras. Values are computed
    in float64 and rounded once: for long frames they are more exact than Keras's float32 computation.

    Args:
        side: ``"real"`` or ``"imag"``.
        window: a window name (``"hann"``, ``"hamming"``, ``"blackman"``, ``"bartlett"``, ``"boxcar"``
            built in; other ``scipy.signal.get_window`` names need scipy), the window's values (length
            ``frame_length``), or None for no window.
        scaling: ``"density"``, ``"spectrum"`` or None.
        periodic: use the periodic form of a named window (as for spectral analysis) instead of the symmetric one.

    Raises:
        ValueError: if ``side`` is not ``"real"`` or ``"imag"``, ``scaling`` is not ``"density"``, ``"spectrum"`` or
            None, or ``window`` is neither a known window name nor a 1-D numeric array.

    >>> import highlevel as hl
    >>> kernel = hl.initializers.STFT(side="real")((8, 1, 5))  # a Conv1D kernel: 8 taps, 5 frequencies
    >>> hl.ops.shape(kernel)
    (8, 1, 5)
    """

    def __init__(self, side="real", window="hann", scaling="density", periodic=False):
        if side not in ("real", "imag"):
            raise ValueError(f"`side` must be 'real' or 'imag'; received side={side!r}.")
        if scaling is not None and scaling not in ("density", "spectrum"):
            raise ValueError(f"`scaling` must be 'density', 'spectrum' or None; received scaling={scaling!r}.")
        if isinstance(window, str):
            _check_window_name(window)
        elif window is not None:
            values = np.asarray(window)
            if values.ndim != 1 or not np.issubdtype(values.dtype, np.number):
                raise ValueError(
                    "`window` must be a window name, a 1-D array of its values or None; received an array of "
                    f"shape {values.shape} and dtype {values.dtype}."
                )
            window = values.astype("float64").tolist()
        self.side = side
        self.window = window
        self.scaling = scaling
        self.periodic = bool(periodic)

    def __call__(self, shape, dtype=None):
        shape = standardize_shape(shape, "STFT")
        if len(shape) != 3:
            raise ValueError(
                f"STFT makes convolution kernels of shape (frame_length, channels, bins); received shape={shape}."
            )
        dtype = dtypes.standardize_dtype(dtype)
        if not dtypes.is_float_dtype(dtype):
            raise ValueError(f"STFT makes float kernels; received dtype={dtype!r}. Use e.g. 'float32'.")
        frame_length, _, bins = shape
        if bins < 2:
            raise ValueError(f"STFT needs at least 2 frequency bins (shape[2]); received shape={shape}.")
        fft_length = 2 * (bins - 1)
        t = np.arange(frame_length, dtype="float64").reshape(frame_length, 1, 1)
        k = np.arange(bins, dtype="float64").reshape(1, 1, bins)
        angle = -2.0 * np.pi * t * k / fft_length
        kernel = np.cos(angle) if self.side == "real" else np.sin(angle)
        if self.window is not None:
            if isinstance(self.window, str):
                win = _window_by_name(self.window, frame_length, self.periodic)
            else:
                win = np.asarray(self.window, "float64")
            if win.shape != (frame_length,):
                raise ValueError(
                    f"The window has {win.shape[0]} values but the kernel's frame_length is {frame_length}; "
                    "they must be equal."
                )
            kernel = kernel * win.reshape(frame_length, 1, 1)
            if self.scaling == "density":
                kernel = kernel / np.sqrt(np.sum(np.square(win)))
            elif self.scaling == "spectrum":
                kernel = kernel / np.sum(np.abs(win))
        return to_tensor(kernel, dtype)

    def get_config(self):
        return {"side": self.side, "window": self.window, "periodic": self.periodic, "scaling": self.scaling}
