"""The Circle loss for metric learning (Sun et al., 2020; ``keras.losses.Circle``): it pulls the embeddings of
one class together and pushes those of different classes apart, in the cosine distance of L2-normalized
embeddings, weighting each pair by how far it is from its optimum.

``y_true`` holds integer class labels of shape ``(batch,)`` and ``y_pred`` the embeddings ``(batch, dim)``,
which the model should L2-normalize (``UnitNormalization``). Samples with nothing left to learn (a loss of
exactly 0) are left out of the batch average, as in Keras.

>>> import highlevel as hl
>>> emb = hl.ops.convert_to_tensor([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
>>> float(Circle()([0, 0, 1, 1], emb)) < float(Circle()([0, 1, 0, 1], emb))
True
"""

from highlevel import ops

from .loss import LossFunctionWrapper


def _pair_masks(labels, ref_labels, remove_diagonal):
    labels = ops.reshape(labels, (-1, 1))
    ref_labels = ops.reshape(ref_labels, (1, -1))
    positive = ops.equal(labels, ref_labels)
    negative = ops.logical_not(positive)
    if remove_diagonal:
        n, m = ops.shape(labels)[0], ops.shape(ref_labels)[1]
        positive = ops.logical_and(positive, ops.logical_not(ops.eye(n, m, dtype="bool")))
    return positive, negative


def _circle_with_mask(y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True, gamma=80, margin=0.4):
    y_pred = ops.convert_to_tensor(y_pred)
    if len(ops.shape(y_pred)) != 2:
        raise ValueError(
            f"circle expects embeddings y_pred of shape (batch, dim); received shape {ops.shape(y_pred)}. "
            "Flatten or pool the features to one vector per sample first."
        )
    y_true = ops.cast(y_true, "int32")
    ref_embeddings = y_pred if ref_embeddings is None else ops.convert_to_tensor(ref_embeddings, ops.dtype(y_pred))
    ref_labels = y_true if ref_labels is None else ops.cast(ref_labels, "int32")

    distance = ops.maximum(1.0 - ops.matmul(y_pred, ops.transpose(ref_embeddings)), 0.0)
    positive, negative = _pair_masks(y_true, ref_labels, remove_diagonal)
    pos_f, neg_f = ops.cast(positive, ops.dtype(distance)), ops.cast(negative, ops.dtype(distance))

    # Each pair's weight grows with its distance from the optimum (margin for positives, 1 + margin for negatives).
    pos_weight = ops.maximum((margin + distance) * pos_f, 0.0)
    neg_weight = ops.maximum((1.0 + margin - distance) * neg_f, 0.0)
    pos_logits = -gamma * pos_weight * (margin - distance)
    neg_logits = gamma * neg_weight * ((1.0 - margin) - distance)

    pos_term = ops.logsumexp(ops.where(positive, pos_logits, float("-inf")), axis=1)
    neg_term = ops.logsumexp(ops.where(negative, neg_logits, float("-inf")), axis=1)
    values = ops.softplus(pos_term + neg_term)
    return values, values > 0


def circle(y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True, gamma=80, margin=0.4):
    """The Circle loss of each sample against the reference embeddings (the batch itself by default).

    Args:
        y_true: ``(batch,)`` integer labels.
        y_pred: ``(batch, dim)`` L2-normalized embeddings.
        ref_labels: optional labels of the reference embeddings; defaults to ``y_true``.
        ref_embeddings: optional ``(refs, dim)`` L2-normalized reference embeddings; defaults to ``y_pred``.
        remove_diagonal: whether a sample is not its own positive pair (default True).
        gamma: the scale of the similarities (default 80).
        margin: the relaxation margin (default 0.4).

    Returns:
        ``(batch,)`` loss values. A sample without any positive (or negative) pair gets 0.

    >>> import highlevel as hl
    >>> v = circle([0, 0, 1], hl.ops.convert_to_tensor([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
    >>> hl.ops.shape(v)
    (3,)
    """
    return _circle_with_mask(y_true, y_pred, ref_labels, ref_embeddings, remove_diagonal, gamma, margin)[0]


circle.with_mask = _circle_with_mask  # samples whose loss is 0 do not count in the average (see Loss.__call__)


class Circle(LossFunctionWrapper):
    """The Circle loss (:func:`circle`) of a batch of embeddings against each other.

    Args:
        gamma: the scale of the similarities (default 80.0).
        margin: the relaxation margin (default 0.4).
        remove_diagonal: whether a sample is not its own positive pair (default True).
        reduction: see :class:`~highlevel.losses.Loss`.
        name: default ``"circle"``.
        dtype: see :class:`~highlevel.losses.Loss`.

    >>> Circle(gamma=32.0).get_config()["gamma"]
    32.0
    """

    def __init__(
        self, gamma=80.0, margin=0.4, remove_diagonal=True, reduction="sum_over_batch_size", name="circle", dtype=None
    ):
        super().__init__(
            circle,
            name=name,
            reduction=reduction,
            dtype=dtype,
            gamma=gamma,
            margin=margin,
            remove_diagonal=remove_diagonal,
        )
        self.gamma = gamma
        self.margin = margin
        self.remove_diagonal = remove_diagonal

    def get_config(self):
        return {
            **super().get_config(),
            "gamma": self.gamma,
            "margin": self.margin,
            "remove_diagonal": self.remove_diagonal,
        }
