"""GaussianNoise: adds zero-centred normal noise during training."""

import math
import numbers

from highlevel import ops, random
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._checks import check_seed


class GaussianNoise(Layer):
    """Adds zero-centred Gaussian noise of standard deviation ``stddev`` (``keras.layers.GaussianNoise``).

    A regularizer (data augmentation with real-valued noise), only active with ``training=True``; at
    inference the input passes through unchanged.

    Args:
        stddev: non-negative float, the standard deviation of the noise.
        seed: optional int for reproducible noise (each call still draws new noise).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: any. Output shape: the input's shape.

    Raises:
        ValueError: if ``stddev`` is not a finite non-negative number.

    >>> import highlevel as hl
    >>> layer = hl.layers.GaussianNoise(0.1, seed=0)
    >>> x = hl.ops.zeros((1000,))
    >>> float(hl.ops.convert_to_numpy(layer(x)).std())
    0.0
    >>> 0.08 < float(hl.ops.convert_to_numpy(layer(x, training=True)).std()) < 0.12
    True
    """

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(**kwargs)
        if (
            not isinstance(stddev, numbers.Real)
            or isinstance(stddev, bool)
            or math.isnan(stddev)
            or math.isinf(stddev)
            or stddev < 0
        ):
            raise ValueError(
                "Invalid value received for argument `stddev` of GaussianNoise. Expected a finite non-negative "
                f"float. Received: stddev={stddev!r}"
            )
        self.stddev = float(stddev)
        self.seed = check_seed(seed, "GaussianNoise")
        self.seed_generator = random.SeedGenerator(self.seed) if self.stddev > 0 else None
        self.supports_masking = True
        self.built = True

    def call(self, inputs, training=False):
        if training and self.stddev > 0:
            dtype = ops.dtype(inputs)
            dtype = dtype if "float" in dtype else self.compute_dtype
            noise = random.normal(
                ops.shape(inputs), mean=0.0, stddev=self.stddev, dtype=dtype, seed=self.seed_generator
            )
            return ops.add(inputs, noise)
        return inputs

    def compute_output_spec(self, inputs, training=False, **kwargs):
        dtype = inputs.dtype if (not training or "float" in inputs.dtype) else self.compute_dtype
        return KerasTensor(tuple(inputs.shape), dtype)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"stddev": self.stddev, "seed": self.seed})
        return config
