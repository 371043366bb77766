"""Connectionist temporal classification (Graves et al., 2006; ``keras.losses.CTC``): the loss of a sequence
model whose output steps outnumber the labels and are not aligned with them (speech, handwriting).

``y_true`` is ``(batch, max_label_length)`` integer labels padded with 0, which is also the CTC blank: classes
start at 1. ``y_pred`` is ``(batch, steps, num_classes)`` logits (not softmaxed); every step counts.

>>> import highlevel as hl
>>> logits = hl.ops.convert_to_tensor([[[0.0, 5.0, 0.0], [0.0, 0.0, 5.0]]])
>>> float(CTC()([[1, 2]], logits)) < float(CTC()([[2, 1]], logits))
True
"""

from highlevel import ops

from .loss import LossFunctionWrapper


def ctc(y_true, y_pred):
    """The CTC loss of each sequence (label 0 is the blank and the padding).

    Args:
        y_true: ``(batch, max_label_length)`` integer labels, padded with 0.
        y_pred: ``(batch, steps, num_classes)`` logits.

    Returns:
        ``(batch,)``: the negative log-likelihood of each label sequence.

    Raises:
        ValueError: for inputs of another rank.

    >>> import highlevel as hl
    >>> v = ctc([[1, 0]], hl.ops.zeros((1, 3, 2)))
    >>> round(float(hl.ops.convert_to_numpy(v)[0]), 4)  # -log(6 / 8): 6 of the 8 paths spell "1"
    0.2877
    """
    y_true = ops.convert_to_tensor(y_true)
    y_pred = ops.convert_to_tensor(y_pred)
    if len(ops.shape(y_true)) != 2:
        raise ValueError(
            "ctc expects y_true of shape (batch_size, max_length) holding integer labels padded with 0; "
            f"received shape {ops.shape(y_true)}."
        )
    if len(ops.shape(y_pred)) != 3:
        raise ValueError(
            "ctc expects y_pred of shape (batch_size, steps, num_classes) holding logits; "
            f"received shape {ops.shape(y_pred)}."
        )
    labels = ops.cast(y_true, "int32")
    batch, steps = ops.shape(y_pred)[0], ops.shape(y_pred)[1]
    label_length = ops.cast(ops.sum(ops.cast(ops.not_equal(labels, 0), "int32"), axis=-1), "int32")
    output_length = ops.full((batch,), steps, dtype="int32")
    return ops.ctc_loss(labels, y_pred, label_length, output_length, mask_index=0)


ctc._integer_labels = True  # y_true holds class indices (see Loss.__call__)


class CTC(LossFunctionWrapper):
    """The CTC loss (:func:`ctc`) of a batch of sequences.

    Args:
        reduction: see :class:`~highlevel.losses.Loss`.
        name: default ``"ctc"``.
        dtype: see :class:`~highlevel.losses.Loss`.

    >>> CTC().name
    'ctc'
    """

    def __init__(self, reduction="sum_over_batch_size", name="ctc", dtype=None):
        super().__init__(ctc, name=name, reduction=reduction, dtype=dtype)
