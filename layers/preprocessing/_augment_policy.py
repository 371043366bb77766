"""What RandAugment and AugMix share: their candidate operations, built at one strength, and the choice of one.

Both policies apply operations picked at random from a fixed list of the other image layers, all set to the
same ``factor``: each random layer draws its amount from ``factor``'s range, RandomPosterization keeps
``max(1, int(8 * upper))`` bits at most and AutoContrast and Equalization have no amount at all. The choice
of an operation is a tensor, so a traced call (a compiled step, a ``tf.data`` map) still draws it anew: there
every candidate is computed and the chosen one kept, as in Keras. When the choice has a value (an eager call),
only the chosen operation runs.
"""

from highlevel import ops
from highlevel.losses.host_values import concrete_value

from .auto_contrast import AutoContrast
from .equalization import Equalization
from .random_brightness import RandomBrightness
from .random_color_degeneration import RandomColorDegeneration
from .random_contrast import RandomContrast
from .random_posterization import RandomPosterization
from .random_rotation import RandomRotation
from .random_sharpness import RandomSharpness
from .random_shear import RandomShear
from .random_translation import RandomTranslation
from .solarization import Solarization


def build_operations(names, factor, value_range, interpolation, seed, data_format, dtype):
    """``{name: layer}`` for ``names``, each layer set to the strength ``factor = (lower, upper)``."""
    strength = list(factor)
    geometry = {"interpolation": interpolation, "seed": seed, "data_format": data_format, "dtype": dtype}
    color = {"value_range": value_range, "seed": seed, "data_format": data_format, "dtype": dtype}
    makers = {
        "random_shear": lambda: RandomShear(x_factor=strength, y_factor=strength, **geometry),
        "random_translation": lambda: RandomTranslation(height_factor=strength, width_factor=strength, **geometry),
        "random_rotation": lambda: RandomRotation(factor=strength, **geometry),
        "random_brightness": lambda: RandomBrightness(factor=strength, **color),
        "random_color_degeneration": lambda: RandomColorDegeneration(factor=strength, **color),
        "random_contrast": lambda: RandomContrast(factor=strength, **color),
        "random_sharpness": lambda: RandomSharpness(factor=strength, **color),
        "random_posterization": lambda: RandomPosterization(factor=max(1, int(8 * strength[1])), **color),
        "solarization": lambda: Solarization(addition_factor=strength, threshold_factor=strength, **color),
        "auto_contrast": lambda: AutoContrast(value_range=value_range, data_format=data_format, dtype=dtype),
        "equalization": lambda: Equalization(value_range=value_range, data_format=data_format, dtype=dtype),
    }
    return {name: makers[name]() for name in names}


def draw_all(operations, images, seed):
    """One drawn transformation (or None) for every operation, in the order of ``operations``."""
    return {name: op.get_random_transformation(images, training=True, seed=seed) for name, op in operations.items()}


def apply_chosen(operations, images, chosen, transformations):
    """``images`` (rank 4) passed through the operation at position ``chosen`` (an integer tensor or number; a
    position past the end leaves them as they are), with its transformation from ``transformations``."""
    dtype = ops.dtype(images)
    known = concrete_value(chosen)
    out = images
    for position, (name, layer) in enumerate(operations.items()):
        if known is not None:
            if int(known) == position:
                out = ops.cast(layer.transform_images(images, transformations[name], training=True), dtype)
            continue
        candidate = ops.cast(layer.transform_images(images, transformations[name], training=True), dtype)
        out = ops.where(ops.equal(chosen, position), candidate, out)
    return out


def refuse_moved_targets(inputs, who):
    """A clear error for a dict input with boxes or masks: the geometric operations would have to move them,
    which these layers do not do (``labels`` pass through unchanged, as in Keras)."""
    if isinstance(inputs, dict):
        moved = sorted(key for key in ("bounding_boxes", "segmentation_masks") if key in inputs)
        if moved:
            raise NotImplementedError(
                f"{who} received a dict with {moved}: it moves pixels, and does not move boxes or masks with "
                "them. Pass {'images': ..., 'labels': ...} (labels pass through unchanged), or augment the "
                "boxes and masks with a layer that handles them."
            )
