"""Unique automatic names ("dense", "dense_1", ...) and the snake_case of class names."""

import collections
import re

_counts = collections.defaultdict(int)


def to_snake_case(name):
    """``"BatchNormalization"`` -> ``"batch_normalization"``; ``"Conv2D"`` -> ``"conv2d"``."""
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()


def unique_name(base):
    """``base`` the first time, then ``base_1``, ``base_2``, ... for the rest of the process."""
    n = _counts[base]
    _counts[base] += 1
    return base if n == 0 else f"{base}_{n}"


def reset_names():
    """Restarts the automatic numbering (``hl.utils.clear_session``)."""
    _counts.clear()
