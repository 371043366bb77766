"""AlphaDropout: dropout for self-normalizing (SELU) networks, which keeps the mean and variance of its inputs."""

from highlevel import ops, random
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._checks import check_noise_shape, check_rate, check_seed

# SELU's constants: a dropped unit is set to SELU's negative saturation value -scale * alpha.
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


class AlphaDropout(Layer):
    """Alpha dropout (``keras.layers.AlphaDropout``; Klambauer et al., 2017).

    During training each unit is dropped with probability ``rate`` and set to ``a' = -scale·alpha`` (SELU's
    lower limit) instead of 0; then ``a·x + b`` restores the mean 0 and variance 1 that a SELU network keeps:
    ``a = ((1 - rate)(1 + rate·a'²))^-1/2`` and ``b = -a·a'·rate``. At inference the input passes through.

    Args:
        rate: float in ``[0, 1)``, the drop probability.
        noise_shape: optional tuple, the shape of the keep mask broadcast against the input (None entries:
            the input's size).
        seed: optional int for reproducible masks (each call still draws a new mask).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: any. Output shape: the input's shape.

    >>> import highlevel as hl
    >>> x = hl.random.normal((20000,), seed=1)
    >>> y = hl.ops.convert_to_numpy(hl.layers.AlphaDropout(0.3, seed=0)(x, training=True))
    >>> abs(float(y.mean())) < 0.05 and abs(float(y.std()) - 1.0) < 0.05
    True
    """

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate = check_rate(rate, "rate", "AlphaDropout")
        self.noise_shape = check_noise_shape(noise_shape, "AlphaDropout")
        self.seed = check_seed(seed, "AlphaDropout")
        self.seed_generator = random.SeedGenerator(self.seed) if self.rate > 0 else None
        self.supports_masking = True
        self.built = True

    def _mask_shape(self, inputs):
        shape = ops.shape(inputs)
        if self.noise_shape is None:
            return tuple(shape)
        if len(self.noise_shape) != len(shape):
            raise ValueError(
                f"Layer '{self.name}': noise_shape={self.noise_shape} has rank {len(self.noise_shape)}, but the "
                f"input has shape {tuple(shape)} (rank {len(shape)}). Give noise_shape one entry per input axis "
                "(None for 'same as the input')."
            )
        return tuple(d if n is None else n for n, d in zip(self.noise_shape, shape))

    def call(self, inputs, training=False):
        if not (training and self.rate > 0):
            return inputs
        dtype = ops.dtype(inputs)
        kept = ops.cast(
            ops.greater_equal(random.uniform(self._mask_shape(inputs), seed=self.seed_generator), self.rate), dtype
        )
        saturation = -_SELU_ALPHA * _SELU_SCALE
        a = ((1.0 - self.rate) * (1.0 + self.rate * saturation**2)) ** -0.5
        b = -a * saturation * self.rate
        return a * (inputs * kept + saturation * (1.0 - kept)) + b

    def compute_output_spec(self, inputs, *args, **kwargs):
        return KerasTensor(tuple(inputs.shape), inputs.dtype)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed, "noise_shape": self.noise_shape})
        return config
