"""normalization layers: batch, layer, group, RMS and unit normalization."""

from .batch_normalization import BatchNormalization
from .group_normalization import GroupNormalization
from .layer_normalization import LayerNormalization
from .rms_normalization import RMSNormalization
from .unit_normalization import UnitNormalization

__all__ = ["BatchNormalization", "GroupNormalization", "LayerNormalization", "RMSNormalization", "UnitNormalization"]
