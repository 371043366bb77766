"""preprocessing layers: feature rescaling and normalization (with ``adapt``)."""

from .aug_mix import AugMix
from .auto_contrast import AutoContrast
from .category_encoding import CategoryEncoding
from .center_crop import CenterCrop
from .clahe import ContrastLimitedAdaptiveHistogramEqualization
from .cut_mix import CutMix
from .discretization import Discretization
from .equalization import Equalization
from .hashed_crossing import HashedCrossing
from .hashing import Hashing
from .integer_lookup import IntegerLookup
from .max_num_bounding_boxes import MaxNumBoundingBoxes
from .mel_spectrogram import MelSpectrogram
from .mix_up import MixUp
from .normalization import Normalization
from .pipeline import Pipeline
from .rand_augment import RandAugment
from .random_brightness import RandomBrightness
from .random_color_degeneration import RandomColorDegeneration
from .random_color_jitter import RandomColorJitter
from .random_contrast import RandomContrast
from .random_crop import RandomCrop
from .random_elastic_transform import RandomElasticTransform
from .random_erasing import RandomErasing
from .random_flip import RandomFlip
from .random_gaussian_blur import RandomGaussianBlur
from .random_grayscale import RandomGrayscale
from .random_hue import RandomHue
from .random_invert import RandomInvert
from .random_perspective import RandomPerspective
from .random_posterization import RandomPosterization
from .random_rotation import RandomRotation
from .random_saturation import RandomSaturation
from .random_sharpness import RandomSharpness
from .random_shear import RandomShear
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
    "ContrastLimitedAdaptiveHistogramEqualization",
    # geometric and mixing augmentation
    "RandomCrop",
    "Pipeline",
    "RandomErasing",
    "RandomShear",
    "RandomPerspective",
    "RandomElasticTransform",
    "RandAugment",
    "AugMix",
    "MixUp",
    "CutMix",
    "MaxNumBoundingBoxes",
    # audio
    "STFTSpectrogram",
    "MelSpectrogram",
]
