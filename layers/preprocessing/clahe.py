"""ContrastLimitedAdaptiveHistogramEqualization: histogram equalization per tile, with a clip limit."""

import numbers

import numpy as np

from highlevel import ops

from ._color_base import BaseColorLayer, check_value_range, rescale_range

#: The number of gray levels the histograms count (values on the [0, 255] scale).
_LEVELS = 256


def _check_grid(tile_grid_size, who):
    if (
        not isinstance(tile_grid_size, (tuple, list))
        or len(tile_grid_size) != 2
        or not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) and v > 0 for v in tile_grid_size)
    ):
        raise ValueError(
            f"Invalid value received for argument `tile_grid_size` of {who}. Expected a pair of two positive "
            f"integers (rows, columns), e.g. (8, 8). Received: tile_grid_size={tile_grid_size!r}"
        )
    return (int(tile_grid_size[0]), int(tile_grid_size[1]))


def _neighbours(size, tile, grid):
    """For each of ``size`` pixel positions along an axis: the two nearest tile centers (indices clamped to the
    grid) and the weight of the second one, as numpy constants."""
    position = np.arange(size, dtype="float64") / tile - 0.5  # in tile units, 0 at the first tile's center
    first = np.floor(position)
    weight = (position - first).astype("float32")
    low = np.clip(first, 0, grid - 1).astype("int32")
    high = np.clip(first + 1, 0, grid - 1).astype("int32")
    return low, high, weight


class ContrastLimitedAdaptiveHistogramEqualization(BaseColorLayer):
    """Contrast-limited adaptive histogram equalization, CLAHE.

    The layer of ``keras.layers.ContrastLimitedAdaptiveHistogramEqualization``.

    On the ``[0, 255]`` scale, each image is cut into ``tile_grid_size`` tiles (the bottom and right edges
    padded by mirroring when the size does not divide). Each tile and channel gets a histogram of the integer
    part of its values; bins above ``clip_limit * pixels_per_tile / 256`` are cut down to that height and the
    excess is spread evenly over all 256 bins (no clipping when ``clip_limit`` is 0). With ``cdf`` the
    cumulative histogram, gray level ``v`` of that tile maps to ``255 * (cdf[v] - cdf[0]) / (pixels - cdf[0])``;
    a pixel's output blends the maps of the four nearest tile centers bilinearly. The output is not rounded.
    The layer is deterministic and acts in
    training and at inference alike, as in Keras.

    Args:
        value_range: ``(low, high)``, the range of the pixel values (mapped to ``[0, 255]`` and back).
        clip_limit: a number >= 0, the relative height where histograms are cut (0: no cut).
        tile_grid_size: ``(rows, columns)`` of tiles.
        data_format: ``"channels_last"`` or ``"channels_first"`` (default: the global setting).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments:
        inputs: ``(batch, height, width, channels)`` or ``(height, width, channels)`` images.
        training: ignored (the layer does the same in both modes).

    Raises:
        ValueError: if ``clip_limit`` is not a number >= 0 (or another argument is out of its range).

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[[[10.0], [20.0]], [[20.0], [30.0]]]])
    >>> layer = hl.layers.ContrastLimitedAdaptiveHistogramEqualization(clip_limit=0.0, tile_grid_size=(1, 1))
    >>> hl.ops.convert_to_numpy(layer(x))[0, :, :, 0].tolist()
    [[63.75, 191.25], [191.25, 255.0]]
    """

    # Keras's base class takes `factor` here and keeps it without using it; so does this layer.
    _accepts_base_factor = True

    def __init__(self, value_range=(0, 255), clip_limit=4.0, tile_grid_size=(8, 8), data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.seed_generator = None  # nothing is drawn
        who = type(self).__name__
        self.value_range = check_value_range(value_range, who)
        if not (isinstance(clip_limit, numbers.Real) and not isinstance(clip_limit, bool) and clip_limit >= 0):
            raise ValueError(
                f"Invalid value received for argument `clip_limit` of {who}. Expected a number >= 0 (0 turns the "
                f"limit off). Received: clip_limit={clip_limit!r}"
            )
        self.clip_limit = float(clip_limit)
        self.tile_grid_size = _check_grid(tile_grid_size, who)

    def get_random_transformation(self, images, training=True, seed=None):
        return None

    def _maps(self, padded, tile_h, tile_w):
        """The gray-level map of every tile: ``(batch, rows, columns, channels, 256)`` in ``[0, 255]``."""
        rows, cols = self.tile_grid_size
        channels = ops.shape(padded)[3]
        tiles = ops.reshape(padded, (-1, rows, tile_h, cols, tile_w, channels))
        tiles = ops.transpose(tiles, (0, 1, 3, 5, 2, 4))
        tiles = ops.reshape(tiles, (-1, rows, cols, channels, tile_h * tile_w))
        levels = ops.clip(ops.cast(tiles, "int32"), 0, _LEVELS - 1)
        hist = ops.sum(ops.one_hot(levels, _LEVELS, dtype="float32"), axis=-2)
        pixels = float(tile_h * tile_w)
        if self.clip_limit > 0:
            limit = self.clip_limit * pixels / _LEVELS
            kept = ops.minimum(hist, limit)
            excess = ops.sum(ops.subtract(hist, kept), axis=-1, keepdims=True)
            hist = ops.add(kept, ops.divide(excess, float(_LEVELS)))
        cdf = ops.cumsum(hist, axis=-1)
        lowest = cdf[..., :1]
        spread = ops.subtract(pixels, lowest)
        spread = ops.where(ops.equal(spread, 0.0), 1.0, spread)
        return ops.clip(ops.divide(ops.multiply(ops.subtract(cdf, lowest), 255.0), spread), 0.0, 255.0)

    def transform_images(self, images, transformation=None, training=True):
        """CLAHE of a rank-4 batch (``training`` and ``transformation`` are ignored)."""
        dtype = ops.dtype(images)
        x = images if self.data_format == "channels_last" else ops.transpose(images, (0, 2, 3, 1))
        x = rescale_range(ops.cast(x, "float32"), self.value_range, (0.0, 255.0))
        _, height, width, channels = ops.shape(x)
        rows, cols = self.tile_grid_size
        tile_h, tile_w = -(-height // rows), -(-width // cols)
        pad_h, pad_w = tile_h * rows - height, tile_w * cols - width
        padded = x
        if pad_h or pad_w:
            padded = ops.pad(x, ((0, 0), (0, pad_h), (0, pad_w), (0, 0)), mode="symmetric")
        # One row of maps per image: (batch, rows * cols * channels * 256).
        maps = ops.reshape(self._maps(padded, tile_h, tile_w), (-1, rows * cols * channels * _LEVELS))
        # Each pixel reads the maps of its four nearest tile centers at its own gray level, through an index
        # (((row * cols + col) * channels + c) * 256 + level) into its image's row.
        y0, y1, wy = _neighbours(height, tile_h, rows)
        x0, x1, wx = _neighbours(width, tile_w, cols)
        level = ops.clip(ops.cast(x, "int32"), 0, _LEVELS - 1)
        c = ops.reshape(ops.arange(channels, dtype="int32"), (1, 1, 1, -1))

        def read(row_index, col_index):
            tile = row_index.reshape(-1, 1) * cols + col_index.reshape(1, -1)  # (height, width), numpy
            tile = ops.convert_to_tensor(tile.reshape(1, height, width, 1).astype("int32"))
            index = ops.add(ops.multiply(ops.add(ops.multiply(tile, channels), c), _LEVELS), level)
            picked = ops.take_along_axis(maps, ops.reshape(index, (-1, height * width * channels)), axis=1)
            return ops.reshape(picked, (-1, height, width, channels))

        wy = ops.convert_to_tensor(wy.reshape(1, -1, 1, 1))
        wx = ops.convert_to_tensor(wx.reshape(1, 1, -1, 1))
        top = ops.add(ops.multiply(read(y0, x0), ops.subtract(1.0, wx)), ops.multiply(read(y0, x1), wx))
        bottom = ops.add(ops.multiply(read(y1, x0), ops.subtract(1.0, wx)), ops.multiply(read(y1, x1), wx))
        out = ops.add(ops.multiply(top, ops.subtract(1.0, wy)), ops.multiply(bottom, wy))
        out = ops.cast(rescale_range(out, (0.0, 255.0), self.value_range), dtype)
        return out if self.data_format == "channels_last" else ops.transpose(out, (0, 3, 1, 2))

    def call(self, inputs, training=True):
        # Deterministic: the same in both modes.
        return super().call(inputs, training=True)

    def get_config(self):
        config = super().get_config()
        config.pop("seed", None)
        config.update(
            {
                "value_range": list(self.value_range),
                "clip_limit": self.clip_limit,
                "tile_grid_size": list(self.tile_grid_size),
            }
        )
        return config
