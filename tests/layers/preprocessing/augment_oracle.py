"""Shared pieces of the RandAugment and AugMix tests: sample images and Keras 3's draws as numpy."""

import keras
import numpy as np

#: Three 8x8 RGB images in [0, 255).
RGB = (np.random.default_rng(11).random((3, 8, 8, 3)) * 255).astype("float32")


def as_numpy(value):
    """A Keras transformation (nested dicts and lists of tensors) with numpy arrays for its tensors."""
    if isinstance(value, dict):
        return {k: as_numpy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_numpy(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str, tuple)):
        return value
    return np.asarray(keras.ops.convert_to_numpy(value))


def images(value_range):
    return RGB if tuple(value_range) == (0, 255) else RGB / 255.0
