"""``FeatureDistillation``: the student's intermediate (or final) features are pulled towards the teacher's.

>>> import numpy as np, highlevel as hl
>>> features = hl.distillation.FeatureDistillation(loss="mse")
>>> float(features.compute_loss(np.ones((2, 3), "float32"), np.zeros((2, 3), "float32")))
1.0
"""

from highlevel import ops, tree

from .distillation_loss import DistillationLoss, loss_functions
from .logits_distillation import _deserialize, _serialize


class FeatureDistillation(DistillationLoss):
    """Compares the output of a teacher layer with that of a student layer (or the models' final outputs).

    The two layers' outputs must have the same shape (add a projection layer to the student otherwise). Naming
    layers needs functional or ``Sequential`` models, whose layers' outputs can be read.

    Args:
        loss: a loss (name, object or function), or a structure of them matching the features.
        teacher_layer_name: the teacher layer whose output is the target; None: the teacher's output.
        student_layer_name: the student layer pulled towards it; None: the student's output.

    Example:

    >>> import highlevel as hl
    >>> hl.distillation.FeatureDistillation(teacher_layer_name="h", student_layer_name="h").teacher_layer_name
    'h'
    """

    def __init__(self, loss="mse", teacher_layer_name=None, student_layer_name=None):
        self.teacher_layer_name = teacher_layer_name
        self.student_layer_name = student_layer_name
        self._loss_arg = loss
        self.loss = loss_functions(loss, "FeatureDistillation")

    def validate_model_compatibility(self, teacher, student):
        for role, model, name in (
            ("teacher", teacher, self.teacher_layer_name),
            ("student", student, self.student_layer_name),
        ):
            if name is None:
                continue
            if getattr(model, "inputs", None) is None:
                raise ValueError(
                    f"FeatureDistillation(…_layer_name={name!r}) reads a layer's output, which needs a "
                    f"functional or Sequential {role}; the {role} model {model.name!r} is subclassed. "
                    "Distill its final outputs instead (no layer name), or use LogitsDistillation."
                )
            try:
                model.get_layer(name=name)
            except ValueError as error:
                raise ValueError(f"In the {role} model: {error}") from error

    def validate_outputs(self, teacher_outputs, student_outputs):
        super().validate_outputs(teacher_outputs, student_outputs)
        try:
            tree.assert_same_structure(self.loss, teacher_outputs)
        except ValueError as error:
            raise ValueError(
                f"The losses of FeatureDistillation are structured as {self.loss!r}, the features as "
                f"{tree.map_structure(lambda _: '*', teacher_outputs)!r}: give one loss per feature. "
                f"({error})"
            ) from error

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        """The sum over features of the mean loss between teacher and student features (a scalar)."""
        values = tree.map_structure(
            lambda fn, t, s: None if fn is None else ops.mean(fn(t, s)), self.loss, teacher_outputs, student_outputs
        )
        return ops.sum(ops.stack([v for v in tree.flatten(values) if v is not None]))

    def get_config(self):
        return {
            "loss": tree.map_structure(_serialize, self._loss_arg),
            "teacher_layer_name": self.teacher_layer_name,
            "student_layer_name": self.student_layer_name,
        }

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["loss"] = _deserialize(config["loss"])
        return cls(**config)
