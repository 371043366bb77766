"""Whether a batch's targets have the shape its loss compares them with, checked on the host before training.

The built-in losses that compare targets and predictions entry by entry (mean squared error, the cross-entropies
on probabilities or one-hot targets, the hinges, ...) would broadcast a ``(batch, 1)`` target against a
``(batch, 3)`` output and train on a meaningless loss, or fail inside the engine with its own words. ``fit`` and
``evaluate`` check the first batch instead and say what to change. Keras broadcasts here without a word: we
differ on purpose. Sparse losses (class indices as targets) and user functions are not checked.

>>> import numpy as np
>>> import highlevel as hl
>>> try:
...     check_targets(hl.losses.MeanSquaredError(), np.zeros((4, 1)), np.zeros((4, 3)), "dense")
... except ValueError as e:
...     print(str(e).split(".")[0])
Output 'dense' has shape (4, 3), but its targets have shape (4, 1)
"""

from . import crossentropy_losses as _ce
from . import hinge_losses as _hinge
from . import probabilistic_losses as _prob
from . import regression_losses as _reg

#: The functions that compare ``y_true`` and ``y_pred`` entry by entry (after Keras's rank adjustment).
ELEMENTWISE = frozenset(
    {
        _reg.mean_squared_error,
        _reg.mean_absolute_error,
        _reg.mean_absolute_percentage_error,
        _reg.mean_squared_logarithmic_error,
        _reg.cosine_similarity,
        _reg.huber,
        _reg.log_cosh,
        _ce.binary_crossentropy,
        _ce.binary_focal_crossentropy,
        _ce.categorical_crossentropy,
        _ce.categorical_focal_crossentropy,
        _hinge.hinge,
        _hinge.squared_hinge,
        _hinge.categorical_hinge,
        _prob.kl_divergence,
        _prob.poisson,
    }
)

_SPARSE_HINT = {
    _ce.categorical_crossentropy: "sparse_categorical_crossentropy",
    _ce.categorical_focal_crossentropy: "sparse_categorical_crossentropy",
}


def _same_rank(t, p):
    """The two shapes after the rank adjustment the losses make (a trailing axis of 1 dropped from the longer)."""
    if len(t) == len(p) + 1 and t[-1] == 1:
        t = t[:-1]
    elif len(p) == len(t) + 1 and p[-1] == 1:
        p = p[:-1]
    return t, p


def check_targets(loss, y_true, y_pred, output_name):
    """Raises ValueError when ``loss`` is a built-in element-wise loss and ``y_true``'s shape does not match
    ``y_pred``'s (None dims match anything)."""
    fn = getattr(loss, "fn", loss)
    if fn not in ELEMENTWISE or not hasattr(y_true, "shape") or not hasattr(y_pred, "shape"):
        return
    t_shape = tuple(None if d is None else int(d) for d in y_true.shape)
    p_shape = tuple(None if d is None else int(d) for d in y_pred.shape)
    t, p = _same_rank(t_shape, p_shape)
    if len(t) == len(p) and all(a is None or b is None or a == b for a, b in zip(t, p)):
        return
    name = getattr(fn, "__name__", type(loss).__name__)
    wanted = (
        "(" + ", ".join("batch" if d is None else str(d) for d in p_shape) + ("," if len(p_shape) == 1 else "") + ")"
    )
    fix = f"give targets of shape {wanted}"
    if fn in _SPARSE_HINT and len(t_shape) in (len(p_shape) - 1, len(p_shape)) and (len(t) < len(p) or t[-1] == 1):
        fix += (
            f" (one-hot: hl.utils.to_categorical(y, {p_shape[-1]})), or use loss='{_SPARSE_HINT[fn]}' for class indices"
        )
    else:
        fix += ", or change the model's last layer to give as many values as each target has"
    raise ValueError(
        f"Output '{output_name}' has shape {p_shape}, but its targets have shape {t_shape}. {name} compares them "
        f"entry by entry, so they must match: {fix}."
    )
