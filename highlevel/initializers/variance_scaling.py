"""Variance scaling: draws whose variance is ``scale / fan`` — and the Glorot, He and LeCun presets.

>>> compute_fans((3, 3, 16, 32))
(144, 288)
>>> import highlevel as hl
>>> w = hl.ops.convert_to_numpy(GlorotUniform(seed=0)((100, 200)))
>>> limit = (6 / (100 + 200)) ** 0.5
>>> bool(abs(w).max() <= limit)
True
"""

import math
import numbers

import numpy as np

from .host_values import to_tensor, truncated_standard_normal
from .random_initializers import RandomInitializer

# The standard deviation of a standard normal truncated to [-2, 2]: dividing by it gives the truncated
# draws the requested variance.
_TRUNCATED_STDDEV = 0.87962566103423978

_MODES = ("fan_in", "fan_out", "fan_avg")
_DISTRIBUTIONS = ("truncated_normal", "untruncated_normal", "uniform")


def compute_fans(shape, input_axes=None, output_axes=None):
    """``(fan_in, fan_out)`` of a weight of ``shape``, as Keras computes them.

    Rank 0: (1, 1); rank 1: (n, n); rank 2: (rows, cols); rank > 2 (a convolution kernel laid out as
    ``(*spatial, in, out)``): the receptive field size (product of the spatial dims) times the last two
    dims. ``input_axes`` and ``output_axes`` (both given) instead name the axes whose sizes multiply.

    Args:
        shape: the weight's shape, a tuple of ints.
        input_axes: optional axes whose sizes multiply into fan_in (used only with ``output_axes``).
        output_axes: optional axes whose sizes multiply into fan_out.

    Returns:
        A pair of ints ``(fan_in, fan_out)``.

    >>> import highlevel as hl
    >>> hl.initializers.compute_fans((4, 5)), hl.initializers.compute_fans((3, 3, 16, 32))
    ((4, 5), (144, 288))
    """
    shape = tuple(shape)
    if input_axes is not None and output_axes is not None:
        return int(np.prod([shape[a] for a in input_axes])), int(np.prod([shape[a] for a in output_axes]))
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return int(shape[0]), int(shape[0])
    if len(shape) == 2:
        return int(shape[0]), int(shape[1])
    receptive_field = int(np.prod(shape[:-2]))
    return int(shape[-2] * receptive_field), int(shape[-1] * receptive_field)


class VarianceScaling(RandomInitializer):
    """Draws with variance ``scale / n``, ``n`` being fan_in, fan_out or their average (at least 1).

    ``"truncated_normal"``: a normal cut at two standard deviations, with stddev
    ``sqrt(scale / n) / 0.8796...`` (so the truncated draws have the variance); ``"untruncated_normal"``:
    a normal with stddev ``sqrt(scale / n)``; ``"uniform"``: uniform in ``[-limit, limit)`` with
    ``limit = sqrt(3 * scale / n)``.

    Args:
        scale: a positive factor.
        mode: ``"fan_in"``, ``"fan_out"`` or ``"fan_avg"``.
        distribution: ``"truncated_normal"`` (also spelled ``"normal"``), ``"untruncated_normal"`` or
            ``"uniform"``.
        seed: None, an int or a ``SeedGenerator`` (see ``RandomInitializer``).
        input_axes, output_axes: optional axes whose sizes give fan_in and fan_out.
        output_axes: optional axes whose sizes multiply into fan_out (give both, or neither: then the shape's layout
            decides, see :func:`compute_fans`).

    Raises:
        ValueError: if ``scale`` is not positive, or ``mode`` or ``distribution`` is not one of its values.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> init = hl.initializers.VarianceScaling(scale=2.0, mode="fan_in", distribution="uniform", seed=0)
    >>> w = hl.ops.convert_to_numpy(init((50, 10)))
    >>> bool(np.abs(w).max() <= np.sqrt(3 * 2.0 / 50))
    True
    """

    def __init__(
        self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None, input_axes=None, output_axes=None
    ):
        who = type(self).__name__
        if not isinstance(scale, numbers.Real) or isinstance(scale, bool) or not scale > 0.0:
            raise ValueError(f"{who}: scale must be a positive number; received scale={scale!r}.")
        if mode not in _MODES:
            raise ValueError(f"{who}: mode must be one of {_MODES}; received mode={mode!r}.")
        if not isinstance(distribution, str) or distribution.lower() not in _DISTRIBUTIONS + ("normal",):
            raise ValueError(
                f"{who}: distribution must be one of {_DISTRIBUTIONS} (or 'normal', meaning "
                f"'truncated_normal'); received distribution={distribution!r}."
            )
        distribution = distribution.lower()
        self.scale = float(scale)
        self.mode = mode
        self.distribution = "truncated_normal" if distribution == "normal" else distribution
        self.input_axes = input_axes
        self.output_axes = output_axes
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        shape, dtype, rng = self._draw(shape, dtype)
        fan_in, fan_out = compute_fans(shape, self.input_axes, self.output_axes)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale = self.scale / max(1.0, fan)
        if self.distribution == "truncated_normal":
            values = (math.sqrt(scale) / _TRUNCATED_STDDEV) * truncated_standard_normal(rng, shape)
        elif self.distribution == "untruncated_normal":
            values = math.sqrt(scale) * rng.standard_normal(shape)
        else:
            limit = math.sqrt(3.0 * scale)
            values = rng.uniform(-limit, limit, size=shape)
        return to_tensor(values, dtype)

    def get_config(self):
        return {
            "scale": self.scale,
            "mode": self.mode,
            "distribution": self.distribution,
            "input_axes": self.input_axes,
            "output_axes": self.output_axes,
            **super().get_config(),
        }


class _Preset(VarianceScaling):
    """A VarianceScaling whose scale, mode and distribution are fixed by the subclass."""

    _SCALE, _MODE, _DISTRIBUTION = 1.0, "fan_in", "truncated_normal"

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(
            scale=self._SCALE,
            mode=self._MODE,
            distribution=self._DISTRIBUTION,
            seed=seed,
            input_axes=input_axes,
            output_axes=output_axes,
        )

    def get_config(self):
        config = super().get_config()
        return {"seed": config["seed"], "input_axes": self.input_axes, "output_axes": self.output_axes}


class GlorotUniform(_Preset):
    """Glorot (Xavier) uniform: uniform in ``[-limit, limit)``, ``limit = sqrt(6 / (fan_in + fan_out))``.

    Args:
        seed: None, an int or a ``SeedGenerator``.
        input_axes: optional axes whose sizes multiply into fan_in (with ``output_axes``; by default the shape's layout
            decides, see :func:`compute_fans`).
        output_axes: optional axes whose sizes multiply into fan_out.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> w = hl.ops.convert_to_numpy(hl.initializers.GlorotUniform(seed=0)((50, 10)))
    >>> w.shape, bool(np.abs(w).max() <= np.sqrt(6 / (50 + 10)))  # the uniform limit
    ((50, 10), True)
    """

    _SCALE, _MODE, _DISTRIBUTION = 1.0, "fan_avg", "uniform"


class GlorotNormal(_Preset):
    """Glorot (Xavier) normal: truncated normal with variance ``2 / (fan_in + fan_out)``.

    Args:
        seed: None, an int or a ``SeedGenerator``.
        input_axes: optional axes whose sizes multiply into fan_in (with ``output_axes``; by default the shape's layout
            decides, see :func:`compute_fans`).
        output_axes: optional axes whose sizes multiply into fan_out.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> w = hl.ops.convert_to_numpy(hl.initializers.GlorotNormal(seed=0)((50, 10)))
    >>> w.shape, bool(np.abs(w).max() <= 2 * np.sqrt(2 / (50 + 10)) / 0.88)  # truncated at two standard deviations
    ((50, 10), True)
    """

    _SCALE, _MODE, _DISTRIBUTION = 1.0, "fan_avg", "truncated_normal"


class HeUniform(_Preset):
    """He uniform: uniform in ``[-limit, limit)``, ``limit = sqrt(6 / fan_in)``.

    Args:
        seed: None, an int or a ``SeedGenerator``.
        input_axes: optional axes whose sizes multiply into fan_in (with ``output_axes``; by default the shape's layout
            decides, see :func:`compute_fans`).
        output_axes: optional axes whose sizes multiply into fan_out.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> w = hl.ops.convert_to_numpy(hl.initializers.HeUniform(seed=0)((50, 10)))
    >>> w.shape, bool(np.abs(w).max() <= np.sqrt(6 / 50))  # the uniform limit
    ((50, 10), True)
    """

    _SCALE, _MODE, _DISTRIBUTION = 2.0, "fan_in", "uniform"


class HeNormal(_Preset):
    """He normal: truncated normal with variance ``2 / fan_in``.

    Args:
        seed: None, an int or a ``SeedGenerator``.
        input_axes: optional axes whose sizes multiply into fan_in (with ``output_axes``; by default the shape's layout
            decides, see :func:`compute_fans`).
        output_axes: optional axes whose sizes multiply into fan_out.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> w = hl.ops.convert_to_numpy(hl.initializers.HeNormal(seed=0)((50, 10)))
    >>> w.shape, bool(np.abs(w).max() <= 2 * np.sqrt(2 / 50) / 0.88)  # truncated at two standard deviations
    ((50, 10), True)
    """

    _SCALE, _MODE, _DISTRIBUTION = 2.0, "fan_in", "truncated_normal"


class LecunUniform(_Preset):
    """LeCun uniform: uniform in ``[-limit, limit)``, ``limit = sqrt(3 / fan_in)``.

    Args:
        seed: None, an int or a ``SeedGenerator``.
        input_axes: optional axes whose sizes multiply into fan_in (with ``output_axes``; by default the shape's layout
            decides, see :func:`compute_fans`).
        output_axes: optional axes whose sizes multiply into fan_out.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> w = hl.ops.convert_to_numpy(hl.initializers.LecunUniform(seed=0)((50, 10)))
    >>> w.shape, bool(np.abs(w).max() <= np.sqrt(3 / 50))  # the uniform limit
    ((50, 10), True)
    """

    _SCALE, _MODE, _DISTRIBUTION = 1.0, "fan_in", "uniform"


class LecunNormal(_Preset):
    """LeCun normal: truncated normal with variance ``1 / fan_in``.

    Args:
        seed: None, an int or a ``SeedGenerator``.
        input_axes: optional axes whose sizes multiply into fan_in (with ``output_axes``; by default the shape's layout
            decides, see :func:`compute_fans`).
        output_axes: optional axes whose sizes multiply into fan_out.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> w = hl.ops.convert_to_numpy(hl.initializers.LecunNormal(seed=0)((50, 10)))
    >>> w.shape, bool(np.abs(w).max() <= 2 * np.sqrt(1 / 50) / 0.88)  # truncated at two standard deviations
    ((50, 10), True)
    """

    _SCALE, _MODE, _DISTRIBUTION = 1.0, "fan_in", "truncated_normal"
