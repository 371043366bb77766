"""Every class highlevel and Keras 3 both have goes through ``keras_config`` both ways: highlevel's config in
Keras's spelling is what real Keras rebuilds the same class from, and Keras's config of it rebuilds highlevel's."""

import json
import math

import pytest

import highlevel as hl
from highlevel.backends.contract.interop import front_class
from highlevel.saving import keras_config

keras = pytest.importorskip("keras")

MODULES = ("initializers", "regularizers", "constraints", "losses", "metrics", "optimizers", "layers")

#: Constructor arguments for classes that have required ones (the same on both sides).
ARGS = {
    "Dense": {"units": 2},
    "EinsumDense": {"equation": "ab,bc->ac", "output_shape": 2},
    "Conv1D": {"filters": 2, "kernel_size": 3},
    "Conv2D": {"filters": 2, "kernel_size": 3},
    "Conv3D": {"filters": 2, "kernel_size": 3},
    "Conv2DTranspose": {"filters": 2, "kernel_size": 3},
    "SeparableConv2D": {"filters": 2, "kernel_size": 3},
    "DepthwiseConv2D": {"kernel_size": 3},
    "ConvLSTM2D": {"filters": 2, "kernel_size": 3},
    "Embedding": {"input_dim": 3, "output_dim": 2},
    "Dropout": {"rate": 0.1},
    "SpatialDropout1D": {"rate": 0.1},
    "SpatialDropout2D": {"rate": 0.1},
    "GaussianNoise": {"stddev": 0.1},
    "GaussianDropout": {"rate": 0.1},
    "AlphaDropout": {"rate": 0.1},
    "Activation": {"activation": "relu"},
    "LSTM": {"units": 2},
    "GRU": {"units": 2},
    "SimpleRNN": {"units": 2},
    "Reshape": {"target_shape": (2,)},
    "Permute": {"dims": (2, 1)},
    "RepeatVector": {"n": 2},
    "MultiHeadAttention": {"num_heads": 2, "key_dim": 2},
    "GroupQueryAttention": {"head_dim": 2, "num_query_heads": 2, "num_key_value_heads": 1},
    "GroupNormalization": {"groups": 1},
    "Rescaling": {"scale": 0.5},
    "Resizing": {"height": 2, "width": 2},
    "CenterCrop": {"height": 2, "width": 2},
    "Hashing": {"num_bins": 3},
    "CategoryEncoding": {"num_tokens": 3},
    "Discretization": {"bin_boundaries": [0.0, 1.0]},
    "RandomRotation": {"factor": 0.1},
    "RandomZoom": {"height_factor": 0.1},
    "RandomTranslation": {"height_factor": 0.1, "width_factor": 0.1},
    "RandomContrast": {"factor": 0.1},
    "RandomBrightness": {"factor": 0.1},
    "MeanIoU": {"num_classes": 2},
    "IoU": {"num_classes": 2, "target_class_ids": [0]},
    "OneHotIoU": {"num_classes": 2, "target_class_ids": [0]},
    "OneHotMeanIoU": {"num_classes": 2},
    "PrecisionAtRecall": {"recall": 0.5},
    "RecallAtPrecision": {"precision": 0.5},
    "SensitivityAtSpecificity": {"specificity": 0.5},
    "SpecificityAtSensitivity": {"sensitivity": 0.5},
}

#: Base classes: not objects a config names.
BASES = {"Initializer", "Regularizer", "Constraint", "Loss", "Metric", "Optimizer", "Layer", "InputSpec", "Wrapper"}

#: Layers whose range arguments Keras writes in their normalised form (``factor=0.1`` as ``[-0.1, 0.1]``), which
#: highlevel reads as the same range: only the class is compared.
NORMALISED = {
    "AugMix",
    "CutMix",
    "RandAugment",
    "RandomBrightness",
    "RandomContrast",
    "RandomElasticTransform",
    "RandomErasing",
    "RandomGaussianBlur",
    "RandomInvert",
    "RandomPerspective",
    "RandomRotation",
    "RandomShear",
    "Solarization",
}


def _shared_classes():
    for module in MODULES:
        ours, theirs = getattr(hl, module), getattr(keras, module)
        for name in dir(theirs):
            k, h = getattr(theirs, name), getattr(ours, name, None)
            if isinstance(k, type) and isinstance(h, type) and name == k.__name__ and name not in BASES:
                yield module, name, h


def _same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isclose(a, b, rel_tol=1e-6)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return set(a) == set(b) and all(_same(a[k], b[k]) for k in a)
    return a == b


def test_every_shared_class_crosses_both_ways(backend):
    checked, failures = 0, []
    for module, name, cls in _shared_classes():
        try:
            obj = cls(**ARGS.get(name, {}))
        except (TypeError, ValueError):
            continue  # needs arguments this table does not give (a wrapped layer, a vocabulary...)
        config = json.loads(json.dumps(hl.saving.serialize_keras_object(obj)))
        written = keras_config.object_to_keras(config, kind=f"highlevel.{module}")
        try:
            theirs = keras.saving.deserialize_keras_object(written)
            back = keras_config.object_from_keras(json.loads(json.dumps(keras.saving.serialize_keras_object(theirs))))
            again = hl.saving.deserialize_keras_object(back)
        except Exception as e:  # noqa: BLE001 - collected and reported together below
            failures.append(f"{module}.{name}: {type(e).__name__}: {e}")
            continue
        if type(theirs).__name__ != name or front_class(type(again)) is not cls:
            failures.append(f"{module}.{name}: came back as {type(theirs).__name__} / {type(again).__name__}")
        elif name not in NORMALISED and not _same(obj.get_config(), again.get_config()):
            failures.append(f"{module}.{name}: {obj.get_config()} came back as {again.get_config()}")
        checked += 1
    assert not failures, "\n".join(failures)
    assert checked > 150  # the sweep covers the API, not a handful of classes
