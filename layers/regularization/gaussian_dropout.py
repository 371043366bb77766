"""GaussianDropout: multiplies the inputs by normal noise centred on 1 during training."""

import math

from highlevel import ops, random
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._checks import check_rate, check_seed


class GaussianDropout(Layer):
    """Multiplicative 1-centred Gaussian noise (``keras.layers.GaussianDropout``).

    During training each input is multiplied by a draw of ``N(1, sqrt(rate / (1 - rate)))``, the noise
    whose variance matches that of Dropout with the same ``rate``; at inference the input passes through.

    Args:
        rate: float in ``[0, 1)``, the drop probability of the equivalent Dropout.
        seed: optional int for reproducible noise (each call still draws new noise).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: any. Output shape: the input's shape.

    >>> import highlevel as hl
    >>> layer = hl.layers.GaussianDropout(0.2, seed=0)
    >>> y = hl.ops.convert_to_numpy(layer(hl.ops.ones((4000,)), training=True))
    >>> 0.95 < float(y.mean()) < 1.05 and 0.45 < float(y.std()) < 0.55
    True
    """

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate = check_rate(rate, "rate", "GaussianDropout")
        self.seed = check_seed(seed, "GaussianDropout")
        self.seed_generator = random.SeedGenerator(self.seed) if self.rate > 0 else None
        self.supports_masking = True
        self.built = True

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            dtype = ops.dtype(inputs)
            dtype = dtype if "float" in dtype else self.compute_dtype
            stddev = math.sqrt(self.rate / (1.0 - self.rate))
            noise = random.normal(ops.shape(inputs), mean=1.0, stddev=stddev, dtype=dtype, seed=self.seed_generator)
            return ops.multiply(inputs, noise)
        return inputs

    def compute_output_spec(self, inputs, training=False, **kwargs):
        dtype = inputs.dtype if (not training or "float" in inputs.dtype) else self.compute_dtype
        return KerasTensor(tuple(inputs.shape), dtype)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed})
        return config
