"""Dropout: zeros a random fraction of the inputs during training and rescales the rest."""

from highlevel import ops, random
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._checks import check_noise_shape, check_rate, check_seed


class Dropout(Layer):
    """Randomly sets inputs to 0 with frequency ``rate`` during training (``keras.layers.Dropout``).

    The entries that are kept are scaled by ``1 / (1 - rate)`` so that the expected sum is unchanged.
    The layer only acts when called with ``training=True`` (``fit`` does this); at inference it returns
    its input unchanged.

    Args:
        rate: float in ``[0, 1)``, the fraction of the inputs to drop.
        noise_shape: optional tuple, the shape of the binary keep mask, broadcast against the input;
            ``None`` entries take the input's size. E.g. ``(batch, 1, features)`` drops the same
            features at every timestep.
        seed: optional int, for reproducible masks (each call still draws a new mask).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: a tensor of any rank.
        training: whether to drop (True) or pass the input through (False / None).

    Input shape: any. Output shape: the input's shape.

    >>> import highlevel as hl
    >>> layer = hl.layers.Dropout(0.5, seed=1)
    >>> x = hl.ops.ones((2, 4))
    >>> hl.ops.convert_to_numpy(layer(x)).tolist()  # inference: identity
    [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]
    >>> sorted(set(hl.ops.convert_to_numpy(layer(x, training=True)).ravel().tolist())) in ([0.0, 2.0], [2.0], [0.0])
    True
    """

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate = check_rate(rate, "rate", type(self).__name__)
        self.noise_shape = check_noise_shape(noise_shape, type(self).__name__)
        self.seed = check_seed(seed, type(self).__name__)
        # Not a weight: SeedGenerator is neither a Layer nor a Variable, so tracking skips it.
        self.seed_generator = random.SeedGenerator(self.seed) if self.rate > 0 else None
        self.supports_masking = True
        self.built = True

    def _noise_shape_for(self, inputs):
        if self.noise_shape is None:
            return None
        shape = ops.shape(inputs)
        if len(self.noise_shape) != len(shape):
            raise ValueError(
                f"Layer '{self.name}': noise_shape={self.noise_shape} has rank {len(self.noise_shape)}, but the "
                f"input has shape {tuple(shape)} (rank {len(shape)}). Give noise_shape one entry per input axis "
                "(None for 'same as the input')."
            )
        return tuple(d if n is None else n for n, d in zip(self.noise_shape, shape))

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            return random.dropout(
                inputs, self.rate, noise_shape=self._noise_shape_for(inputs), seed=self.seed_generator
            )
        return inputs

    def compute_output_spec(self, inputs, *args, **kwargs):
        # Shape and dtype are those of the input in both modes; no need to trace the random draw.
        return KerasTensor(tuple(inputs.shape), inputs.dtype)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed, "noise_shape": self.noise_shape})
        return config
