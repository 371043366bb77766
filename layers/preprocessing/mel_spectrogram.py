"""MelSpectrogram: the power spectrogram of audio signals mapped onto the mel scale, optionally in decibels."""

import numpy as np

from highlevel import ops
from highlevel.layer import Layer

#: the mel scale ``m = 1127 ln(1 + f / 700)`` (the HTK form)
_MEL_Q, _MEL_BREAK_HZ = 1127.0, 700.0


def _hz_to_mel(hz):
    return _MEL_Q * np.log1p(np.asarray(hz, "float64") / _MEL_BREAK_HZ)


def mel_weight_matrix(num_mel_bins, num_spectrogram_bins, sampling_rate, lower_edge_hertz, upper_edge_hertz):
    """The ``(num_spectrogram_bins, num_mel_bins)`` matrix of triangular mel filters (numpy, float64).

    Bin ``k`` of a one-sided spectrum is at ``k * sampling_rate / 2 / (num_spectrogram_bins - 1)`` Hz; the
    filters' edges are ``num_mel_bins + 2`` points evenly spaced on the mel scale between the two edges; the
    DC bin gets no weight.

    >>> mel_weight_matrix(2, 5, 8000, 0.0, 4000.0).shape
    (5, 2)
    """
    freqs_mel = _hz_to_mel(np.linspace(0.0, sampling_rate / 2.0, num_spectrogram_bins)[1:])[:, None]
    edges = np.linspace(_hz_to_mel(lower_edge_hertz), _hz_to_mel(upper_edge_hertz), num_mel_bins + 2)
    lower, center, upper = edges[:-2][None], edges[1:-1][None], edges[2:][None]
    rising = (freqs_mel - lower) / (center - lower)
    falling = (upper - freqs_mel) / (upper - center)
    weights = np.maximum(0.0, np.minimum(rising, falling))
    return np.concatenate([np.zeros((1, num_mel_bins)), weights], axis=0)


class MelSpectrogram(Layer):
    """Mel spectrogram of audio (``keras.layers.MelSpectrogram``): ``|stft(x)| ** mag_exp`` projected onto
    ``num_mel_bins`` triangular mel filters, then (with ``power_to_db``) in decibels relative to
    ``ref_power``, floored ``top_db`` below the maximum.

    The transform has no weights: frames of ``fft_length`` samples every ``sequence_stride`` samples, each
    centred on its sample (the signal padded by reflection) and windowed by ``sequence_length`` samples.

    Args:
        fft_length: points of each frame's transform (default 2048).
        sequence_stride: hop between frames (default 512).
        sequence_length: window length, at most ``fft_length`` (default ``fft_length``).
        window: ``"hann"`` (default), ``"hamming"`` or None.
        sampling_rate: samples per second of the signal (default 16000).
        num_mel_bins: number of mel filters (default 128).
        min_freq: the lowest filter edge in Hz (default 20).
        max_freq: the highest filter edge in Hz (default None: ``sampling_rate / 2``).
        power_to_db: output ``10 log10(max(mel, min_power) / ref_power)`` instead of the mel power.
        top_db: the dB range kept below the maximum (taken over the whole batch, as Keras does).
        mag_exp: the exponent of the magnitude (2: power, 1: magnitude).
        min_power: the floor of the power before the logarithm.
        ref_power: the power of 0 dB.
        **kwargs: base layer arguments.

    Input: ``(samples,)`` or ``(batch, samples)``. Output: ``(num_mel_bins, frames)`` or ``(batch,
    num_mel_bins, frames)`` with ``frames = 1 + samples // sequence_stride`` when ``fft_length`` is even.

    Raises:
        ValueError: if ``fft_length``, ``sequence_stride`` or ``num_mel_bins`` is not a positive int, or ``fft_length``
            is smaller than ``sequence_length``.

    >>> import highlevel as hl
    >>> layer = hl.layers.MelSpectrogram(fft_length=64, sequence_stride=32, num_mel_bins=8)
    >>> hl.ops.shape(layer(hl.ops.ones((2, 256))))
    (2, 8, 9)
    """

    def __init__(
        self,
        fft_length=2048,
        sequence_stride=512,
        sequence_length=None,
        window="hann",
        sampling_rate=16000,
        num_mel_bins=128,
        min_freq=20.0,
        max_freq=None,
        power_to_db=True,
        top_db=80.0,
        mag_exp=2.0,
        min_power=1e-10,
        ref_power=1.0,
        **kwargs,
    ):
        for name, value in (("fft_length", fft_length), ("sequence_stride", sequence_stride)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"`{name}` must be a positive integer; received {name}={value!r}.")
        sequence_length = sequence_length or fft_length
        if fft_length < sequence_length:
            raise ValueError(
                "`fft_length` must be at least `sequence_length`; received "
                f"sequence_length={sequence_length}, fft_length={fft_length}."
            )
        if not isinstance(num_mel_bins, int) or num_mel_bins < 1:
            raise ValueError(f"`num_mel_bins` must be a positive integer; received num_mel_bins={num_mel_bins!r}.")
        super().__init__(**kwargs)
        self.fft_length = fft_length
        self.sequence_stride = sequence_stride
        self.sequence_length = sequence_length
        self.window = window
        self.sampling_rate = sampling_rate
        self.num_mel_bins = num_mel_bins
        self.min_freq = min_freq
        self.max_freq = max_freq or int(sampling_rate / 2)
        self.power_to_db = power_to_db
        self.top_db = top_db
        self.mag_exp = mag_exp
        self.min_power = min_power
        self.ref_power = ref_power
        self._mel_matrix = mel_weight_matrix(
            num_mel_bins, fft_length // 2 + 1, sampling_rate, self.min_freq, self.max_freq
        )

    def call(self, inputs):
        # the spectral transforms run in float32 or float64
        dtype = self.compute_dtype if self.compute_dtype in ("float32", "float64") else "float32"
        x = ops.cast(inputs, dtype)
        real, imag = ops.stft(
            x, self.sequence_length, self.sequence_stride, self.fft_length, window=self.window, center=True
        )
        spec = ops.power(ops.sqrt(ops.square(real) + ops.square(imag)), self.mag_exp)
        mel = ops.tensordot(spec, ops.convert_to_tensor(self._mel_matrix, dtype=dtype), axes=1)
        if self.power_to_db:
            db = 10.0 * ops.log10(ops.maximum(mel, self.min_power))
            db = db - 10.0 * float(np.log10(max(abs(self.ref_power), self.min_power)))
            mel = ops.maximum(db, ops.max(db) - self.top_db)
        return ops.cast(ops.swapaxes(mel, -1, -2), self.compute_dtype)

    def compute_output_shape(self, input_shape):
        samples = input_shape[-1]
        pad = 2 * (self.fft_length // 2)
        frames = None if samples is None else 1 + (samples + pad - self.fft_length) // self.sequence_stride
        return tuple(input_shape[:-1]) + (self.num_mel_bins, frames)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "fft_length": self.fft_length,
                "sequence_stride": self.sequence_stride,
                "sequence_length": self.sequence_length,
                "window": self.window,
                "sampling_rate": self.sampling_rate,
                "num_mel_bins": self.num_mel_bins,
                "min_freq": self.min_freq,
                "max_freq": self.max_freq,
                "power_to_db": self.power_to_db,
                "top_db": self.top_db,
                "mag_exp": self.mag_exp,
                "min_power": self.min_power,
                "ref_power": self.ref_power,
            }
        )
        return config
