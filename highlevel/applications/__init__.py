"""``keras.applications``: the standard image-classification architectures, with Keras's layer names, so that
Keras's published ImageNet weights load into them (``weights="imagenet"``).

Each family has its module at Keras's path (``hl.applications.resnet``, ``hl.applications.vgg16``, ...) with its
models, its ``preprocess_input`` and ``decode_predictions``; the models are also here at the top. Modules load on
first access.

>>> import highlevel as hl
>>> hl.applications.ResNet50 is hl.applications.resnet50.ResNet50
True
"""

import importlib

#: Family modules, at Keras's paths.
_MODULES = (
    "convnext",
    "densenet",
    "efficientnet",
    "efficientnet_v2",
    "imagenet_utils",
    "mobilenet",
    "mobilenet_v2",
    "mobilenet_v3",
    "nasnet",
    "resnet",
    "resnet50",
    "resnet_v2",
    "vgg16",
    "vgg19",
    "xception",
)

#: Model names -> the module that defines them.
_MODELS = {
    "ResNet50": "resnet",
    "ResNet101": "resnet",
    "ResNet152": "resnet",
    "ResNet50V2": "resnet_v2",
    "ResNet101V2": "resnet_v2",
    "ResNet152V2": "resnet_v2",
    "VGG16": "vgg16",
    "VGG19": "vgg19",
    "DenseNet121": "densenet",
    "DenseNet169": "densenet",
    "DenseNet201": "densenet",
    "MobileNetV3Small": "mobilenet_v3",
    "MobileNetV3Large": "mobilenet_v3",
    "EfficientNetB0": "efficientnet",
    "EfficientNetB1": "efficientnet",
    "EfficientNetB2": "efficientnet",
    "EfficientNetB3": "efficientnet",
    "EfficientNetB4": "efficientnet",
    "EfficientNetB5": "efficientnet",
    "EfficientNetB6": "efficientnet",
    "EfficientNetB7": "efficientnet",
    "EfficientNetV2B0": "efficientnet_v2",
    "EfficientNetV2B1": "efficientnet_v2",
    "EfficientNetV2B2": "efficientnet_v2",
    "EfficientNetV2B3": "efficientnet_v2",
    "EfficientNetV2S": "efficientnet_v2",
    "EfficientNetV2M": "efficientnet_v2",
    "EfficientNetV2L": "efficientnet_v2",
    "ConvNeXtTiny": "convnext",
    "ConvNeXtSmall": "convnext",
    "ConvNeXtBase": "convnext",
    "ConvNeXtLarge": "convnext",
    "ConvNeXtXLarge": "convnext",
    "MobileNet": "mobilenet",
    "MobileNetV2": "mobilenet_v2",
    "Xception": "xception",
    "NASNetMobile": "nasnet",
    "NASNetLarge": "nasnet",
}


def __getattr__(name):
    if name in _MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
    elif name in _MODELS:
        module = getattr(importlib.import_module(f"{__name__}.{_MODELS[name]}"), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = module
    return module


def __dir__():
    return sorted(set(globals()) | set(_MODULES) | set(_MODELS))
