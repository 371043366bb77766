"""AugMix: a blend of the image with several random chains of augmentations of it."""

import numbers

from highlevel import ops, random

from . import _augment_policy as policy
from ._color_base import BaseColorLayer, check_value_range
from ._image_base import INTERPOLATIONS, check_choice, config_factor, parse_factor

#: The operations that change only the geometry or the gray levels as a whole, always candidates.
BASIC_OPERATIONS = (
    "random_shear",
    "random_translation",
    "random_rotation",
    "random_posterization",
    "solarization",
    "auto_contrast",
    "equalization",
)
#: The operations added with ``all_ops=True``.
EXTRA_OPERATIONS = ("random_brightness", "random_color_degeneration", "random_contrast", "random_sharpness")


def _count(value, name, who, low):
    if not (isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= low):
        raise ValueError(
            f"Invalid value received for argument `{name}` of {who}. Expected an integer >= {low}. "
            f"Received: {name}={value!r}"
        )
    return int(value)


class AugMix(BaseColorLayer):
    """Blends images with chains of random augmentations in training (``keras.layers.AugMix``, after
    Hendrycks et al. 2020, "AugMix").

    Each call builds ``num_chains`` chains; each link of a chain is, with equal chances, one of the candidate
    operations or nothing, so a chain applies between 0 and ``chain_depth`` of them. The candidates are shear,
    translation, rotation, posterization, solarization, auto-contrast and equalization, plus brightness, color
    degeneration, contrast and sharpness with ``all_ops=True``, each the layer of that name set to the
    strength ``factor`` and drawing its amounts per image. The chains' outputs are averaged with weights from
    a Dirichlet(``alpha``) draw, the input is blended with that average by ``m ~ Beta(alpha, alpha)`` (``m *
    input + (1 - m) * chains``), and the result is clipped to ``value_range``. The picks and weights are
    the same for the whole batch. At inference the input passes through (cast to the compute dtype).

    Keras picks the operations with Python's ``random`` module, unseeded and fixed once a call is traced;
    here they are drawn from the layer's seed as tensors, so a seeded layer repeats its picks and a traced
    call still draws anew.

    :meth:`get_random_transformation` returns ``{"chain_mixing_weights": (num_chains,), "weight_sample": (),
    "layer_idxes": (num_chains, chain_depth) int (``len(operations)`` for nothing), "chain_transforms":
    [[{name: drawn transformation}, ...], ...]}``; :meth:`transform_images` applies it, and also takes Keras's
    layout, where ``chain_transforms`` lists ``{"layer_name", "transformation"}`` per link and there is no
    ``layer_idxes``.

    Args:
        value_range: ``(low, high)``, the range of the pixel values; the output is clipped to it.
        num_chains: the number of chains, an integer >= 1.
        chain_depth: the most operations per chain, an integer >= 0.
        factor: the strength, a number in ``[0, 1]`` or a pair in ``[0, 1]``.
        alpha: the concentration of the Dirichlet and Beta draws, a number > 0.
        all_ops: also use brightness, color degeneration, contrast and sharpness.
        interpolation: ``"bilinear"`` (default) or ``"nearest"``, for the geometric operations.
        seed: optional int, for reproducible draws.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: the global setting).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.
        training: augment (True, the default of a direct call) or pass through (False).

    Raises:
        ValueError: if ``alpha`` is not a number > 0 (or another argument is out of its range).

    >>> import highlevel as hl
    >>> x = hl.random.uniform((2, 8, 8, 3), maxval=255.0, seed=0)
    >>> y = hl.layers.AugMix(seed=1)(x, training=True)
    >>> tuple(y.shape), float(hl.ops.convert_to_numpy(hl.ops.max(y))) <= 255.0
    ((2, 8, 8, 3), True)
    """

    def __init__(
        self,
        value_range=(0, 255),
        num_chains=3,
        chain_depth=3,
        factor=0.3,
        alpha=1.0,
        all_ops=True,
        interpolation="bilinear",
        seed=None,
        data_format=None,
        **kwargs,
    ):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        who = type(self).__name__
        self.value_range = check_value_range(value_range, who)
        self.num_chains = _count(num_chains, "num_chains", who, 1)
        self.chain_depth = _count(chain_depth, "chain_depth", who, 0)
        self.factor = config_factor(factor)
        strength = parse_factor(factor, "factor", who, low=0.0, high=1.0, symmetric_low=0.0)
        if not (isinstance(alpha, numbers.Real) and not isinstance(alpha, bool) and alpha > 0):
            raise ValueError(
                f"Invalid value received for argument `alpha` of {who}. Expected a number > 0 (the concentration "
                f"of the Dirichlet and Beta draws). Received: alpha={alpha!r}"
            )
        self.alpha = float(alpha)
        self.all_ops = bool(all_ops)
        self.interpolation = check_choice(interpolation, "interpolation", INTERPOLATIONS, who)
        names = BASIC_OPERATIONS + (EXTRA_OPERATIONS if self.all_ops else ())
        self.operations = policy.build_operations(
            names, strength, self.value_range, self.interpolation, self.seed, self.data_format, self.dtype_policy
        )

    def get_random_transformation(self, images, training=True, seed=None):
        """The weights, picks and amounts of one call; None at inference."""
        if not training:
            return None
        seed = self.seed_generator if seed is None else seed
        gamma = random.gamma((self.num_chains,), self.alpha, dtype="float32", seed=seed)
        weights = ops.divide(gamma, ops.sum(gamma))  # a Dirichlet draw
        blend = random.beta((), self.alpha, self.alpha, dtype="float32", seed=seed)
        picks = random.randint(
            (self.num_chains, self.chain_depth), 0, len(self.operations) + 1, dtype="int32", seed=seed
        )
        chains = [
            [policy.draw_all(self.operations, images, seed) for _ in range(self.chain_depth)]
            for _ in range(self.num_chains)
        ]
        return {
            "chain_mixing_weights": weights,
            "weight_sample": blend,
            "layer_idxes": picks,
            "chain_transforms": chains,
        }

    def _chain(self, images, links, picks):
        for depth, link in enumerate(links):
            if picks is None:  # Keras's layout: the link names its operation
                layer = self.operations[link["layer_name"]]
                images = ops.cast(layer.transform_images(images, link["transformation"]), ops.dtype(images))
            else:
                images = policy.apply_chosen(self.operations, images, picks[depth], link)
        return images

    def transform_images(self, images, transformation, training=True):
        """A rank-4 batch blended with its augmentation chains; unchanged for None or at inference."""
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        dtype = ops.dtype(images)
        weights = ops.cast(transformation["chain_mixing_weights"], dtype)
        blend = ops.cast(transformation["weight_sample"], dtype)
        picks = transformation.get("layer_idxes")
        if picks is not None:
            picks = ops.convert_to_tensor(picks, dtype="int32")
        mixed = ops.zeros_like(images)
        for index, links in enumerate(transformation["chain_transforms"]):
            chain = self._chain(images, links, None if picks is None else picks[index])
            mixed = ops.add(mixed, ops.multiply(chain, weights[index]))
        out = ops.add(ops.multiply(images, blend), ops.multiply(mixed, ops.subtract(1.0, blend)))
        return ops.clip(out, self.value_range[0], self.value_range[1])

    def call(self, inputs, training=True):
        policy.refuse_moved_targets(inputs, type(self).__name__)
        return super().call(inputs, training=training)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "value_range": list(self.value_range),
                "num_chains": self.num_chains,
                "chain_depth": self.chain_depth,
                "factor": self.factor,
                "alpha": self.alpha,
                "all_ops": self.all_ops,
                "interpolation": self.interpolation,
            }
        )
        return config
