"""preprocessing layers: feature rescaling and normalization (with ``adapt``)."""

from .auto_contrast import AutoContrast
from .category_encoding import CategoryEncoding
from .center_crop import CenterCrop
from .discretization import Discretization
from .equalization import Equalization
from .hashed_crossing import HashedCrossing
from .hashing import Hashing
from .integer_lookup import IntegerLookup
from .mel_spectrogram import MelSpectrogram
from .normalization import Normalization
from .random_brightness import RandomBrightness
from .random_color_degeneration import RandomColorDegeneration
from .random_color_jitter import RandomColorJitter
from .random_contrast import RandomContrast
from .random_flip import RandomFlip
from .random_gaussian_blur import RandomGaussianBlur
from .random_grayscale import RandomGrayscale
from .random_hue import RandomHue
from .random_invert import RandomInvert
from .random_posterization import RandomPosterization
from .random_rotation import RandomRotation
from .random_saturation import RandomSaturation
from .random_sharpness import RandomSharpness
from .random_translation import RandomTranslation
from .random_zoom import RandomZoom
from .rescaling import Rescaling
from .resizing import Resizing
from .solarization import Solarization
from .stft_spectrogram import STFTSpectrogram
from .string_lookup import StringLookup
from .text_vectorization import TextVectorization

__all__ = [
    "Normalization",
    "Rescaling",
    "CategoryEncoding",
    "Discretization",
    "Hashing",
    "HashedCrossing",
    "IntegerLookup",
    "StringLookup",
    "TextVectorization",
    # image preprocessing
    "Resizing",
    "CenterCrop",
    "RandomFlip",
    "RandomRotation",
    "RandomTranslation",
    "RandomZoom",
    "RandomContrast",
    # color and intensity augmentation
    "AutoContrast",
    "RandomBrightness",
    "RandomGrayscale",
    "RandomInvert",
    "RandomPosterization",
    "Solarization",
    "RandomColorDegeneration",
    "RandomSaturation",
    "RandomSharpness",
    "RandomHue",
    "RandomColorJitter",
    "RandomGaussianBlur",
    "Equalization",
    # audio
    "STFTSpectrogram",
    "MelSpectrogram",
]
