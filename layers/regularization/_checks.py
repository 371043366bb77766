"""Argument checks shared by the dropout and noise layers (rates, seeds, noise shapes)."""

import math
import numbers


def check_rate(value, name, who, allow_one=False):
    """``value`` as a float after checking ``0 <= value < 1`` (``<= 1`` with ``allow_one``)."""
    upper_ok = (lambda v: v <= 1) if allow_one else (lambda v: v < 1)
    if (
        not isinstance(value, numbers.Real)
        or isinstance(value, bool)
        or math.isnan(value)
        or not (0 <= value and upper_ok(value))
    ):
        bound = "[0, 1]" if allow_one else "[0, 1)"
        raise ValueError(
            f"Invalid value received for argument `{name}` of {who}. Expected a float in {bound}. "
            f"Received: {name}={value!r}"
        )
    return float(value)


def check_seed(seed, who):
    """``seed`` after checking it is None or an int in ``[0, 2**31 - 1]``."""
    if seed is None:
        return None
    if not isinstance(seed, numbers.Integral) or isinstance(seed, bool) or not 0 <= int(seed) <= 2**31 - 1:
        raise ValueError(
            f"Invalid value received for argument `seed` of {who}. Expected None or an int in [0, 2**31 - 1]. "
            f"Received: seed={seed!r}"
        )
    return int(seed)


def check_noise_shape(noise_shape, who):
    """``noise_shape`` as a tuple of positive ints / None, or None."""
    if noise_shape is None:
        return None
    if isinstance(noise_shape, str):
        raise ValueError(
            f"Invalid value received for argument `noise_shape` of {who}. Expected a tuple or list of integers "
            f"or None. Received: noise_shape={noise_shape!r}"
        )
    try:
        noise_shape = tuple(noise_shape)
    except TypeError:
        raise ValueError(
            f"Invalid value received for argument `noise_shape` of {who}. Expected a tuple or list of integers "
            f"or None. Received: noise_shape={noise_shape!r}"
        ) from None
    for i, dim in enumerate(noise_shape):
        if dim is None:
            continue
        if not isinstance(dim, numbers.Integral) or isinstance(dim, bool) or dim <= 0:
            raise ValueError(
                f"Invalid value received for argument `noise_shape` of {who}. Expected positive integers or "
                f"None. Received element {dim!r} at index {i} of noise_shape={noise_shape!r}"
            )
    return tuple(None if d is None else int(d) for d in noise_shape)
