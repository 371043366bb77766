"""Refusing batches that hold NaN or infinity, when ``hl.config.set_check_numerics(True)`` asks for it.

A NaN in the data does not always show in the loss (an engine's fused kernels may map it to a finite value)
but it reaches the gradients and then every weight. With the check on, each batch's floating-point numpy
arrays (inputs, targets, sample weights) are scanned on the host before the step runs, and a non-finite value
stops the call with a message that says where it is.

>>> import numpy as np
>>> try:
...     check_finite((np.array([[1.0, np.nan]]), np.array([0.0]), None), "fit", 3)
... except ValueError as e:
...     print(str(e).split(";")[0])
fit: batch 3 has 1 NaN and 0 infinite values in x (first at index (0, 1))
"""

import numpy as np

_PARTS = ("x", "y", "sample_weight")


def _arrays(value, path):
    if value is None:
        return
    if isinstance(value, np.ndarray):
        yield path, value
    elif isinstance(value, dict):
        for k in value:
            yield from _arrays(value[k], f"{path}[{k!r}]")
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from _arrays(item, f"{path}[{i}]")


def check_finite(batch, where, step):
    """Raises ValueError when a float array of ``batch`` (``(x, y, sample_weight)``) holds NaN or infinity."""
    for part, value in zip(_PARTS, batch):
        for path, a in _arrays(value, part):
            if a.dtype.kind not in "fc" or a.size == 0 or np.isfinite(a).all():
                continue
            nans = int(np.isnan(a).sum())
            infs = int(np.isinf(a).sum())
            first = tuple(int(i) for i in np.argwhere(~np.isfinite(a))[0])
            raise ValueError(
                f"{where}: batch {step} has {nans} NaN and {infs} infinite values in {path} (first at index "
                f"{first}); hl.config.set_check_numerics(True) refuses such batches before any update. Clean "
                "the data (drop or impute those rows, e.g. with np.nan_to_num), or turn the check off."
            )
