"""preprocessing layers: feature rescaling and normalization (with ``adapt``)."""

from .category_encoding import CategoryEncoding
from .center_crop import CenterCrop
from .cut_mix import CutMix
from .discretization import Discretization
from .hashed_crossing import HashedCrossing
from .hashing import Hashing
from .integer_lookup import IntegerLookup
from .max_num_bounding_boxes import MaxNumBoundingBoxes
from .mel_spectrogram import MelSpectrogram
from .mix_up import MixUp
from .normalization import Normalization
from .pipeline import Pipeline
from .random_contrast import RandomContrast
from .random_crop import RandomCrop
from .random_erasing import RandomErasing
from .random_flip import RandomFlip
from .random_perspective import RandomPerspective
from .random_rotation import RandomRotation
from .random_shear import RandomShear
from .random_translation import RandomTranslation
from .random_zoom import RandomZoom
from .rescaling import Rescaling
from .resizing import Resizing
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
    "RandomCrop",
    "Pipeline",
    "RandomErasing",
    "RandomShear",
    "RandomPerspective",
    "MixUp",
    "CutMix",
    "MaxNumBoundingBoxes",
    # audio
    "STFTSpectrogram",
    "MelSpectrogram",
]
