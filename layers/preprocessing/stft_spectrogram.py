"""STFTSpectrogram: the short-time Fourier transform of each channel of a signal, as a strided convolution
with the trainable kernels of ``hl.initializers.STFT``."""

import math
import warnings

from highlevel import config as _config
from highlevel import initializers, ops
from highlevel.backends.contract import dtypes
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer
from highlevel.layers.convolutional.conv_utils import conv_output_length, standardize_data_format

_MODES = ("log", "magnitude", "psd", "real", "imag", "angle", "stft")


class STFTSpectrogram(Layer):
    """Spectrogram of every channel of a signal (``keras.layers.STFTSpectrogram``).

    Frames of ``frame_length`` samples every ``frame_step`` samples are windowed and transformed with an
    ``fft_length``-point real DFT computed as a 1-D convolution: its kernels (``real_kernel`` and
    ``imag_kernel``, shape ``(frame_length, 1, fft_length // 2 + 1)``) start as ``hl.initializers.STFT`` and
    are trainable, so the front end can be fine-tuned.

    Args:
        mode: what to output per bin: ``"log"`` (log magnitude, default), ``"magnitude"``, ``"psd"`` (power,
            the bins between DC and Nyquist doubled), ``"real"``, ``"imag"``, ``"angle"`` (phase) or ``"stft"``
            (the real then the imaginary bins).
        frame_length: samples per frame (default 256).
        frame_step: hop between frames (default ``frame_length // 2``), at most ``frame_length``.
        fft_length: points of each transform, at least ``frame_length`` (default the next power of two).
        window: a window name (``"hann"``, ...), its values, or None.
        periodic: use the periodic form of a named window.
        scaling: ``"density"`` (default), ``"spectrum"`` or None: how the window normalizes the kernels.
        padding: ``"valid"`` (whole frames only) or ``"same"`` (``ceil(time / frame_step)`` frames).
        expand_dims: keep channels and frequency bins as two axes instead of one of ``channels * bins``.
        data_format: ``"channels_last"`` (inputs ``(batch, time, channels)``) or ``"channels_first"``.
        **kwargs: base layer arguments.

    Output shape: ``channels_last``: ``(batch, frames, channels * bins)``, or ``(batch, frames, bins,
    channels)`` with ``expand_dims``; ``channels_first``: ``(batch, channels * bins, frames)`` or ``(batch,
    channels, frames, bins)``. ``bins = fft_length // 2 + 1`` (twice that in ``"stft"`` mode).

    Raises:
        ValueError: if ``frame_length`` is not a positive int, ``frame_step`` is not in ``[1, frame_length]``,
            ``fft_length`` is smaller than ``frame_length``, or ``mode``, ``scaling`` or ``padding`` is not one of its
            values.

    >>> import highlevel as hl
    >>> layer = hl.layers.STFTSpectrogram(frame_length=16, frame_step=8)
    >>> hl.ops.shape(layer(hl.ops.ones((2, 64, 1))))
    (2, 7, 9)
    """

    def __init__(
        self,
        mode="log",
        frame_length=256,
        frame_step=None,
        fft_length=None,
        window="hann",
        periodic=False,
        scaling="density",
        padding="valid",
        expand_dims=False,
        data_format=None,
        **kwargs,
    ):
        if not isinstance(frame_length, int) or isinstance(frame_length, bool) or frame_length < 1:
            raise ValueError(f"`frame_length` must be a positive integer; received frame_length={frame_length!r}.")
        if frame_step is not None and not (isinstance(frame_step, int) and 1 <= frame_step <= frame_length):
            raise ValueError(
                "`frame_step` must be a positive integer not greater than `frame_length`; received "
                f"frame_step={frame_step!r}, frame_length={frame_length}."
            )
        if fft_length is not None and (not isinstance(fft_length, int) or fft_length < frame_length):
            raise ValueError(
                f"`fft_length` must be an integer of at least `frame_length`; received fft_length={fft_length!r}, "
                f"frame_length={frame_length}."
            )
        if fft_length is not None and fft_length & (fft_length - 1):
            warnings.warn(f"`fft_length` is best a power of two; received fft_length={fft_length}.", stacklevel=2)
        if mode not in _MODES:
            raise ValueError(f"`mode` must be one of {', '.join(_MODES)}; received mode={mode!r}.")
        if scaling not in (None, "density", "spectrum"):
            raise ValueError(f"`scaling` must be None, 'density' or 'spectrum'; received scaling={scaling!r}.")
        if padding not in ("valid", "same"):
            raise ValueError(f"`padding` must be 'valid' or 'same'; received padding={padding!r}.")
        # checks the window's name now (the kernels are made at build)
        initializers.STFT("real", window, scaling, periodic)
        super().__init__(**kwargs)
        self.mode = mode
        self.frame_length = frame_length
        self.frame_step = frame_step
        self._frame_step = frame_step or frame_length // 2 or 1
        self.fft_length = fft_length
        self._fft_length = fft_length or 2 ** int(math.ceil(math.log2(frame_length)))
        self.window = window
        self.periodic = periodic
        self.scaling = scaling
        self.padding = padding
        self.expand_dims = expand_dims
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=3)

    @property
    def _bins(self):
        return self._fft_length // 2 + 1

    def build(self, input_shape):
        shape = (self.frame_length, 1, self._bins)
        if self.mode != "imag":
            self.real_kernel = self.add_weight(
                name="real_kernel",
                shape=shape,
                initializer=initializers.STFT("real", self.window, self.scaling, self.periodic),
            )
        if self.mode != "real":
            self.imag_kernel = self.add_weight(
                name="imag_kernel",
                shape=shape,
                initializer=initializers.STFT("imag", self.window, self.scaling, self.periodic),
            )
        self.built = True

    def _transform(self, signals, kernel, channels):
        """``signals`` (batch * channels, time, 1) -> (batch, channels, frames, bins)."""
        out = ops.conv(signals, ops.cast(kernel, signals.dtype), strides=self._frame_step, padding=self.padding)
        return ops.reshape(out, (-1, channels) + tuple(ops.shape(out)[1:]))

    def _arrange(self, x):
        """(batch, channels, frames, bins) -> the layer's output layout."""
        channels, frames, bins = ops.shape(x)[1:]
        if self.data_format == "channels_last":
            if self.expand_dims:
                return ops.transpose(x, (0, 2, 3, 1))
            return ops.reshape(ops.transpose(x, (0, 2, 1, 3)), (-1, frames, channels * bins))
        if self.expand_dims:
            return x
        return ops.reshape(ops.transpose(x, (0, 1, 3, 2)), (-1, channels * bins, frames))

    def call(self, inputs):
        dtype = dtypes.standardize_dtype(inputs.dtype)
        if dtype not in ("float16", "bfloat16", "float32", "float64"):
            raise TypeError(
                f"STFTSpectrogram expects float signals; received dtype {dtype}. Cast the input, e.g. with "
                "hl.ops.cast(x, 'float32')."
            )
        if self.data_format == "channels_last":
            inputs = ops.transpose(inputs, (0, 2, 1))
        channels, time = ops.shape(inputs)[1:]
        signals = ops.reshape(inputs, (-1, time, 1))
        real = self._transform(signals, self.real_kernel, channels) if self.mode != "imag" else None
        imag = self._transform(signals, self.imag_kernel, channels) if self.mode != "real" else None
        if self.mode == "real":
            return self._arrange(real)
        if self.mode == "imag":
            return self._arrange(imag)
        if self.mode == "angle":
            return self._arrange(ops.arctan2(imag, real))
        if self.mode == "stft":
            return self._arrange(ops.concatenate([real, imag], axis=-1))
        power = ops.square(real) + ops.square(imag)
        if self.mode == "psd":
            # one-sided: the bins other than DC and Nyquist stand for two (conjugate) frequencies
            return self._arrange(power + ops.pad(power[..., 1:-1], [(0, 0), (0, 0), (0, 0), (1, 1)]))
        eps = _config.epsilon()
        magnitude = self._arrange(ops.sqrt(ops.maximum(power, eps)))
        if self.mode == "magnitude":
            return magnitude
        return ops.log(ops.maximum(magnitude, eps))

    def compute_output_shape(self, input_shape):
        batch = input_shape[0]
        if self.data_format == "channels_last":
            time, channels = input_shape[1], input_shape[2]
        else:
            channels, time = input_shape[1], input_shape[2]
        frames = conv_output_length(time, self.frame_length, self.padding, self._frame_step)
        bins = self._bins * (2 if self.mode == "stft" else 1)
        flat = None if channels is None else channels * bins
        if self.data_format == "channels_last":
            return (batch, frames, bins, channels) if self.expand_dims else (batch, frames, flat)
        return (batch, channels, frames, bins) if self.expand_dims else (batch, flat, frames)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "mode": self.mode,
                "frame_length": self.frame_length,
                "frame_step": self.frame_step,
                "fft_length": self.fft_length,
                "window": self.window,
                "periodic": self.periodic,
                "scaling": self.scaling,
                "padding": self.padding,
                "data_format": self.data_format,
                "expand_dims": self.expand_dims,
            }
        )
        return config
