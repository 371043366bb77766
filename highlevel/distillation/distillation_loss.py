"""``DistillationLoss``: the base of the losses a :class:`Distiller` uses to compare teacher and student.

>>> import highlevel as hl
>>> class L1Outputs(hl.distillation.DistillationLoss):
...     def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
...         return hl.ops.mean(hl.ops.abs(teacher_outputs - student_outputs))
>>> float(L1Outputs().compute_loss(hl.ops.ones((2, 3)), hl.ops.zeros((2, 3))))
1.0
"""

from highlevel import losses, tree


def loss_function(loss):
    """A loss given by name (``"mse"``), object or function, as a callable; None stays None."""
    if loss is None:
        return None
    if isinstance(loss, str):
        return losses.get(loss)  # raises a clear error for an unknown name
    if not callable(loss):
        raise ValueError(f"A distillation loss must be a loss name, a Loss object or a function; received {loss!r}.")
    return loss


def loss_functions(loss, owner):
    """``loss`` (one loss or a structure of them, None where an output is left out) as callables."""
    converted = tree.map_structure(loss_function, loss)
    if all(fn is None for fn in tree.flatten(converted)):
        raise ValueError(f"{owner} needs at least one loss that is not None; received loss={loss!r}.")
    return converted


class DistillationLoss:
    """How a :class:`Distiller` measures the gap between the teacher's and the student's outputs.

    Subclasses implement :meth:`compute_loss`, which returns a scalar; they may check the models
    (:meth:`validate_model_compatibility`, when the distiller is made) and the outputs
    (:meth:`validate_outputs`, before each loss).
    """

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        """The scalar loss between ``teacher_outputs`` and ``student_outputs`` (structures of tensors)."""
        raise NotImplementedError(
            f"{type(self).__name__} must implement compute_loss(teacher_outputs, student_outputs)."
        )

    def validate_outputs(self, teacher_outputs, student_outputs):
        """Raises when the teacher's and the student's outputs are not structured alike."""
        tree.assert_same_structure(teacher_outputs, student_outputs)

    def validate_model_compatibility(self, teacher, student):
        """Raises when this loss cannot work with ``teacher`` and ``student`` (the default accepts any)."""
