"""Generalized cross-entropy (Zhang & Sabuncu, 2018; ``keras.losses.CategoricalGeneralizedCrossEntropy``): a
classification loss robust to wrong labels, ``(1 - p**q) / q`` of the probability ``p`` given to the true class,
between cross-entropy (``q -> 0``) and mean absolute error (``q = 1``).

>>> import highlevel as hl
>>> v = categorical_generalized_cross_entropy([0, 1], [[0.25, 0.75], [0.36, 0.64]], q=0.5)
>>> [round(x, 4) for x in hl.ops.convert_to_numpy(v).tolist()]
[1.0, 0.4]
"""

from highlevel import ops

from .loss import LossFunctionWrapper


def categorical_generalized_cross_entropy(y_true, y_pred, q):
    """``(1 - p**q) / q`` per sample, ``p`` the predicted probability of the true class.

    Args:
        y_true: integer class indices, ``(batch,)`` or ``(batch, 1)``.
        y_pred: class probabilities, ``(batch, num_classes)``.
        q: the noise parameter in (0, 1).

    Returns:
        ``(batch,)`` loss values.

    >>> import highlevel as hl
    >>> float(hl.ops.convert_to_numpy(categorical_generalized_cross_entropy([1], [[0.0, 1.0]], q=0.7))[0])
    0.0
    """
    y_pred = ops.convert_to_tensor(y_pred)
    labels = ops.cast(y_true, "int32")
    if len(ops.shape(labels)) == len(ops.shape(y_pred)) and ops.shape(labels)[-1] == 1:
        labels = ops.squeeze(labels, axis=-1)
    onehot = ops.cast(ops.one_hot(labels, ops.shape(y_pred)[-1]), ops.dtype(y_pred))
    p = ops.sum(y_pred * onehot, axis=-1)
    return (1.0 - ops.power(p, q)) / q


categorical_generalized_cross_entropy._integer_labels = True  # y_true holds class indices (see Loss.__call__)


class CategoricalGeneralizedCrossEntropy(LossFunctionWrapper):
    """Generalized cross-entropy (:func:`categorical_generalized_cross_entropy`) of integer labels.

    Args:
        q: the noise parameter, strictly between 0 and 1 (default 0.5); nearer 1 is more robust to noisy labels.
        reduction: see :class:`~highlevel.losses.Loss`.
        name: default ``"categorical_generalized_cross_entropy"``.
        dtype: see :class:`~highlevel.losses.Loss`.

    Raises:
        ValueError: for ``q`` outside (0, 1).

    >>> round(float(CategoricalGeneralizedCrossEntropy(q=0.5)([0, 1], [[0.25, 0.75], [0.36, 0.64]])), 4)
    0.7
    """

    def __init__(
        self, q=0.5, reduction="sum_over_batch_size", name="categorical_generalized_cross_entropy", dtype=None
    ):
        if not 0 < q < 1:
            raise ValueError(
                f"CategoricalGeneralizedCrossEntropy expects q strictly between 0 and 1; received q={q!r}. "
                "Use e.g. q=0.5 (q near 0 behaves like cross-entropy, near 1 like mean absolute error)."
            )
        super().__init__(categorical_generalized_cross_entropy, name=name, reduction=reduction, dtype=dtype, q=q)
        self.q = q

    def get_config(self):
        return {**super().get_config(), "q": self.q}
