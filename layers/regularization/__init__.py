"""regularization layers: dropout and noise (active only in training) and activity penalties."""

from .activity_regularization import ActivityRegularization
from .alpha_dropout import AlphaDropout
from .dropout import Dropout
from .gaussian_dropout import GaussianDropout
from .gaussian_noise import GaussianNoise
from .spatial_dropout1d import SpatialDropout1D
from .spatial_dropout2d import SpatialDropout2D
from .spatial_dropout3d import SpatialDropout3D

__all__ = [
    "ActivityRegularization",
    "AlphaDropout",
    "Dropout",
    "GaussianDropout",
    "GaussianNoise",
    "SpatialDropout1D",
    "SpatialDropout2D",
    "SpatialDropout3D",
]
