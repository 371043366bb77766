"""Conformance cases of the audio layers (STFTSpectrogram, MelSpectrogram) on short signals."""

from .layer_case import LayerCase, normal

L = LayerCase
CASES = [
    L("stft_spectrogram_log", "STFTSpectrogram", {"frame_length": 16, "frame_step": 8}, normal(2, 64, 2), like="conv"),
    L(
        "stft_spectrogram_stft_channels_first",
        "STFTSpectrogram",
        {"mode": "stft", "frame_length": 12, "fft_length": 16, "padding": "same", "data_format": "channels_first"},
        normal(2, 1, 50),
        like="conv",
    ),
    L(
        "stft_spectrogram_psd_expand",
        "STFTSpectrogram",
        {"mode": "psd", "frame_length": 16, "expand_dims": True, "scaling": "spectrum"},
        normal(1, 48, 3),
        like="conv",
    ),
    L(
        "mel_spectrogram_power",
        "MelSpectrogram",
        {"fft_length": 32, "sequence_stride": 16, "num_mel_bins": 6, "sampling_rate": 8000, "power_to_db": False},
        normal(2, 128),
        like="conv",
    ),
    L(
        "mel_spectrogram_db",
        "MelSpectrogram",
        {"fft_length": 32, "sequence_stride": 16, "num_mel_bins": 6, "sampling_rate": 8000, "top_db": 200.0},
        normal(2, 128),
        like="conv",
    ),
]
