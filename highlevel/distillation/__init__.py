"""``hl.distillation``: knowledge distillation, a student model trained to imitate a frozen teacher.

>>> import highlevel as hl
>>> issubclass(hl.distillation.LogitsDistillation, hl.distillation.DistillationLoss)
True
"""

from .distillation_loss import DistillationLoss
from .distiller import Distiller
from .feature_distillation import FeatureDistillation
from .logits_distillation import LogitsDistillation

__all__ = ["DistillationLoss", "Distiller", "FeatureDistillation", "LogitsDistillation"]
