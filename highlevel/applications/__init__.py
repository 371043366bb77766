"""Standard image-classification architectures with Keras's layer names, so Keras's weight files load.

>>> import highlevel as hl
>>> hl.applications.MobileNetV3Small(weights=None, input_shape=(32, 32, 3), classes=2).output_shape
(None, 2)
"""

from . import mobilenet_v3
from .mobilenet_v3 import MobileNetV3Large, MobileNetV3Small
