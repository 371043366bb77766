"""Standard image-classification architectures with Keras's layer names, so Keras's weight files load.

>>> import highlevel as hl
>>> hl.applications.MobileNetV3Small(weights=None, input_shape=(32, 32, 3), classes=2).output_shape
(None, 2)
"""

from . import convnext, efficientnet, efficientnet_v2, mobilenet_v3
from .convnext import ConvNeXtBase, ConvNeXtLarge, ConvNeXtSmall, ConvNeXtTiny, ConvNeXtXLarge
from .efficientnet import (
    EfficientNetB0,
    EfficientNetB1,
    EfficientNetB2,
    EfficientNetB3,
    EfficientNetB4,
    EfficientNetB5,
    EfficientNetB6,
    EfficientNetB7,
)
from .efficientnet_v2 import (
    EfficientNetV2B0,
    EfficientNetV2B1,
    EfficientNetV2B2,
    EfficientNetV2B3,
    EfficientNetV2L,
    EfficientNetV2M,
    EfficientNetV2S,
)
from .mobilenet_v3 import MobileNetV3Large, MobileNetV3Small
