"""``LogitsDistillation``: the student learns the teacher's temperature-softened output distribution.

>>> import numpy as np, highlevel as hl
>>> logits = np.array([[2.0, 0.0, -1.0]], "float32")
>>> float(hl.distillation.LogitsDistillation(temperature=2.0).compute_loss(logits, logits))
0.0
"""

from highlevel import losses, ops, tree

from .distillation_loss import DistillationLoss, loss_functions


def _is_kl_divergence(fn):
    """Whether ``fn`` is the KL divergence (its class, its function, or a wrapper of the function)."""
    return (
        isinstance(fn, losses.KLDivergence)
        or fn is losses.kl_divergence
        or getattr(fn, "fn", None) is losses.kl_divergence
    )


class LogitsDistillation(DistillationLoss):
    """Compares teacher and student logits divided by a ``temperature``.

    With the KL divergence (the default), both softened logits go through a softmax and the divergence of the
    student's distribution from the teacher's is multiplied by ``temperature**2``, which keeps its gradients on
    the scale of the student's own loss (Hinton et al., 2015). Any other loss compares the softened logits
    themselves.

    Args:
        temperature: a positive number; larger values soften the distributions more.
        loss: a loss (name, object or function), or a structure of them matching the models' outputs (None
            leaves that output out).

    Example:

    >>> import highlevel as hl
    >>> hl.distillation.LogitsDistillation(temperature=4.0).temperature
    4.0
    """

    def __init__(self, temperature=3.0, loss="kl_divergence"):
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float)):
            raise ValueError(
                f"temperature must be a number; received {temperature!r} of type {type(temperature).__name__}."
            )
        if temperature <= 0:
            raise ValueError(f"temperature must be positive; received temperature={temperature}.")
        self.temperature = temperature
        self._loss_arg = loss
        self.loss = loss_functions(loss, "LogitsDistillation")

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        """The sum over outputs of the loss between the softened teacher and student logits (a scalar)."""
        t = self.temperature

        def one(fn, teacher, student):
            if fn is None:
                return None
            teacher, student = ops.divide(teacher, t), ops.divide(student, t)
            if _is_kl_divergence(fn):
                value = ops.mean(fn(ops.softmax(teacher, axis=-1), ops.softmax(student, axis=-1)))
                return value * (t**2)
            return ops.mean(fn(teacher, student))

        values = [
            v
            for v in tree.flatten(tree.map_structure(one, self.loss, teacher_outputs, student_outputs))
            if v is not None
        ]
        return ops.sum(ops.stack(values))

    def get_config(self):
        return {"temperature": self.temperature, "loss": tree.map_structure(_serialize, self._loss_arg)}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["loss"] = _deserialize(config["loss"])
        return cls(**config)


def _serialize(loss):
    return loss if loss is None or isinstance(loss, str) else losses.serialize(loss)


def _deserialize(loss):
    """The losses of a config back: a serialized loss is a dict with "class_name"; lists and dicts nest them."""
    if loss is None or isinstance(loss, str):
        return loss
    if isinstance(loss, dict) and "class_name" in loss:
        return losses.deserialize(loss)
    if isinstance(loss, dict):
        return {key: _deserialize(value) for key, value in loss.items()}
    return type(loss)(_deserialize(value) for value in loss)
