"""``keras.applications.resnet50``: ResNet50 and its input scaling, at Keras's path.

>>> from highlevel.applications import resnet, resnet50
>>> resnet50.ResNet50 is resnet.ResNet50
True
"""

from .resnet import ResNet50, decode_predictions, preprocess_input

__all__ = ["ResNet50", "decode_predictions", "preprocess_input"]
