"""Conformance cases of the image preprocessing layers (Resizing, CenterCrop and the random augmentations).

The random layers are compared in inference mode (``random=True``); the cases whose factor range is a single
point draw a known transform, so they also compare their training-mode output and gradients across engines.
"""

import highlevel as hl

from .layer_case import LayerCase, normal, positive


def _pipeline(dtype):
    return hl.layers.Pipeline(
        [hl.layers.Rescaling(2.0, offset=-1.0, dtype=dtype), hl.layers.CenterCrop(3, 4, dtype=dtype)]
    )


L = LayerCase
CASES = [
    L("resizing_bilinear", "Resizing", {"height": 5, "width": 7}, normal(2, 4, 6, 3), like="matmul"),
    L(
        "resizing_bicubic_antialias",
        "Resizing",
        {"height": 3, "width": 2, "interpolation": "bicubic", "antialias": True},
        normal(2, 6, 5, 2),
        like="matmul",
    ),
    L(
        "resizing_nearest_crop",
        "Resizing",
        {"height": 4, "width": 4, "interpolation": "nearest", "crop_to_aspect_ratio": True},
        normal(2, 5, 7, 2),
    ),
    L(
        "resizing_pad_channels_first",
        "Resizing",
        {"height": 6, "width": 3, "pad_to_aspect_ratio": True, "data_format": "channels_first"},
        normal(2, 3, 4, 4),
        like="matmul",
    ),
    L("center_crop", "CenterCrop", {"height": 3, "width": 4}, normal(2, 5, 7, 2)),
    L("center_crop_upscale", "CenterCrop", {"height": 6, "width": 4}, normal(2, 4, 5, 2), like="matmul"),
    L("pipeline", "Pipeline", {}, normal(2, 5, 7, 2), build=_pipeline),
    L("random_flip", "RandomFlip", {"seed": 1}, normal(2, 4, 5, 3), random=True),
    L("random_rotation", "RandomRotation", {"factor": 0.2, "seed": 1}, normal(2, 5, 6, 2), random=True),
    L(
        "random_translation",
        "RandomTranslation",
        {"height_factor": 0.2, "width_factor": 0.3, "seed": 1},
        normal(2, 5, 6, 2),
        random=True,
    ),
    L("random_zoom", "RandomZoom", {"height_factor": 0.3, "seed": 1}, normal(2, 5, 6, 2), random=True),
    L("random_contrast", "RandomContrast", {"factor": 0.4, "seed": 1}, positive(2, 4, 5, 3), random=True),
    L(
        "random_crop",
        "RandomCrop",
        {"height": 3, "width": 4, "seed": 1},
        normal(2, 5, 6, 2),
        like="matmul",
        random=True,
    ),
    # Single-point factor ranges: a known transform, so training mode is comparable too.
    L(
        "random_rotation_fixed",
        "RandomRotation",
        {"factor": (0.1, 0.1), "fill_mode": "constant", "seed": 2},
        normal(2, 5, 6, 2),
        like="matmul",
        modes=(False, True),
    ),
    L(
        "random_translation_fixed",
        "RandomTranslation",
        {"height_factor": (0.3, 0.3), "width_factor": (-0.15, -0.15), "fill_mode": "wrap", "seed": 2},
        normal(2, 5, 6, 2),
        like="matmul",
        modes=(False, True),
    ),
    L(
        "random_zoom_fixed",
        "RandomZoom",
        {"height_factor": (-0.3, -0.3), "width_factor": (0.2, 0.2), "seed": 2},
        normal(2, 5, 6, 2),
        like="matmul",
        modes=(False, True),
    ),
    L("random_erasing", "RandomErasing", {"seed": 1}, positive(2, 4, 5, 3), random=True),
    # Never erases (factor 0): training mode is comparable too.
    L(
        "random_erasing_never",
        "RandomErasing",
        {"factor": 0.0, "seed": 2},
        positive(2, 4, 5, 3),
        modes=(False, True),
    ),
    L("random_shear", "RandomShear", {"x_factor": 0.3, "y_factor": 0.2, "seed": 1}, normal(2, 5, 6, 2), random=True),
    L("random_perspective", "RandomPerspective", {"scale": 0.4, "seed": 1}, normal(2, 5, 6, 2), random=True),
    L("mix_up", "MixUp", {"seed": 1}, normal(3, 4, 5, 2), random=True),
    L("cut_mix", "CutMix", {"seed": 1}, normal(3, 4, 5, 2), random=True),
    # Not larger than the target in height: the centered window in training too.
    L(
        "random_crop_centered",
        "RandomCrop",
        {"height": 5, "width": 4, "seed": 2},
        normal(2, 5, 6, 2),
        like="matmul",
        modes=(False, True),
    ),
    L(
        "random_contrast_fixed",
        "RandomContrast",
        {"factor": (-0.5, 0.5), "value_range": (0, 2), "seed": 2},
        positive(2, 4, 5, 3),
        like="mean",
        modes=(False, True),
    ),
    # The color and intensity layers.
    L("random_brightness", "RandomBrightness", {"factor": 0.3, "seed": 1}, positive(2, 4, 5, 3), random=True),
    L(
        "random_brightness_fixed",
        "RandomBrightness",
        {"factor": (0.1, 0.1), "value_range": (0, 4), "seed": 2},
        positive(2, 4, 5, 3),
        modes=(False, True),
    ),
    L("random_grayscale", "RandomGrayscale", {"seed": 1}, positive(2, 4, 5, 3), random=True),
    L(
        "random_grayscale_always",
        "RandomGrayscale",
        {"factor": 1.0, "seed": 2},
        positive(2, 4, 5, 3),
        like="matmul",
        modes=(False, True),
    ),
    L("random_invert", "RandomInvert", {"seed": 1}, positive(2, 4, 5, 3), random=True),
    L(
        "random_invert_always",
        "RandomInvert",
        {"factor": (1.0, 1.0), "value_range": (0, 4), "seed": 2},
        positive(2, 4, 5, 3),
        modes=(False, True),
    ),
    L("solarization", "Solarization", {"threshold_factor": 0.5, "seed": 1}, positive(2, 4, 5, 3), random=True),
    L(
        "solarization_invert",
        "Solarization",
        {"value_range": (0, 4), "seed": 2},
        positive(2, 4, 5, 3),
        like="mean",
        modes=(False, True),
    ),
    L("random_posterization", "RandomPosterization", {"factor": 4, "seed": 1}, positive(2, 4, 5, 3), random=True),
    L("auto_contrast", "AutoContrast", {"value_range": (0, 4)}, positive(2, 4, 5, 3), like="mean", modes=(False, True)),
    L("random_saturation", "RandomSaturation", {"factor": 0.5, "seed": 1}, positive(2, 4, 5, 3), random=True),
    L(
        "random_saturation_fixed",
        "RandomSaturation",
        {"factor": (0.3, 0.3), "value_range": (0, 4), "seed": 2},
        positive(2, 4, 5, 3),
        like="mean",
        modes=(False, True),
    ),
    L(
        "random_color_degeneration",
        "RandomColorDegeneration",
        {"factor": 0.5, "seed": 1},
        positive(2, 4, 5, 3),
        random=True,
    ),
    L(
        "random_color_degeneration_fixed",
        "RandomColorDegeneration",
        {"factor": (0.4, 0.4), "value_range": (0, 4), "seed": 2},
        positive(2, 4, 5, 3),
        like="matmul",
        modes=(False, True),
    ),
    L("random_sharpness", "RandomSharpness", {"factor": 0.5, "seed": 1}, positive(2, 4, 5, 3), random=True),
    L(
        "random_sharpness_fixed",
        "RandomSharpness",
        {"factor": (0.8, 0.8), "value_range": (0, 4), "seed": 2, "data_format": "channels_first"},
        positive(2, 3, 4, 5),
        like="conv",
        modes=(False, True),
    ),
    L("random_hue", "RandomHue", {"factor": 0.5, "seed": 1}, positive(2, 4, 5, 3), random=True),
    L(
        "random_color_jitter",
        "RandomColorJitter",
        {"value_range": (0, 4), "brightness_factor": 0.2, "contrast_factor": 0.3, "hue_factor": 0.2, "seed": 1},
        positive(2, 4, 5, 3),
        random=True,
    ),
    L(
        "random_color_jitter_fixed",
        "RandomColorJitter",
        {"value_range": (0, 4), "brightness_factor": (0.1, 0.1), "contrast_factor": (-0.2, 0.2), "seed": 2},
        positive(2, 4, 5, 3),
        like="mean",
        modes=(False, True),
    ),
    L("random_gaussian_blur", "RandomGaussianBlur", {"seed": 1}, positive(2, 5, 6, 3), random=True),
    L("equalization", "Equalization", {"value_range": (0, 4), "bins": 32}, positive(2, 4, 5, 3), modes=(False, True)),
    L(
        "clahe",
        "ContrastLimitedAdaptiveHistogramEqualization",
        {"value_range": (0, 4), "clip_limit": 2.0, "tile_grid_size": (2, 2)},
        positive(2, 8, 8, 3),
        modes=(False, True),
    ),
    L("rand_augment", "RandAugment", {"value_range": (0, 4), "seed": 1}, positive(2, 6, 6, 3), random=True),
    L("aug_mix", "AugMix", {"value_range": (0, 4), "seed": 1}, positive(2, 6, 6, 3), random=True),
    L(
        "random_elastic_transform",
        "RandomElasticTransform",
        {"value_range": (0, 4), "seed": 1},
        positive(2, 6, 6, 3),
        random=True,
    ),
]
