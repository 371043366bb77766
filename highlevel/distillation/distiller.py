"""``Distiller``: a model that trains a student to imitate a frozen teacher, with ``compile`` and ``fit``.

>>> import numpy as np, highlevel as hl
>>> teacher = hl.Sequential([hl.Input((4,)), hl.layers.Dense(3)])
>>> student = hl.Sequential([hl.Input((4,)), hl.layers.Dense(3)])
>>> distiller = hl.distillation.Distiller(teacher, student, hl.distillation.LogitsDistillation())
>>> distiller.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
>>> history = distiller.fit(np.ones((8, 4), "float32"), np.zeros((8,), "int32"), epochs=1, verbose=0)
>>> sorted(k for k in history.history if k.endswith("loss"))
['distillation_loss', 'loss', 'student_loss', 'total_loss']
"""

from highlevel import metrics as metrics_module
from highlevel import ops, tree
from highlevel.models import Model, Sequential

from .distillation_loss import loss_functions

_FINAL = "final_output"


def _check_shapes(teacher_shape, student_shape, what):
    teacher_shape, student_shape = tuple(teacher_shape), tuple(student_shape)
    if len(teacher_shape) != len(student_shape) or any(
        a is not None and b is not None and a != b for a, b in zip(teacher_shape, student_shape)
    ):
        raise ValueError(
            f"The teacher's and the student's {what} shapes must match (None matches any size); "
            f"received teacher {teacher_shape}, student {student_shape}."
        )


class Distiller(Model):
    """Knowledge distillation: the student learns from the labels and from a teacher whose weights stay fixed.

    The loss of a step is ``student_loss_weight * student_loss + (1 - student_loss_weight) * distillation``,
    where the student loss compares the student's outputs with the labels (the ``loss`` given to
    :meth:`compile`) and ``distillation`` is the weighted sum of the ``distillation_losses`` between teacher
    and student. Only the student trains: the teacher is made non-trainable and runs in inference mode. The
    logs show ``student_loss``, ``distillation_loss`` and ``total_loss`` next to ``loss``. Calling the
    distiller (``predict``, ``evaluate``) runs the student.

    Args:
        teacher: the trained teacher, a ``Model``.
        student: the student, a ``Model`` with the teacher's input and output shapes.
        distillation_losses: a :class:`DistillationLoss` (:class:`LogitsDistillation`,
            :class:`FeatureDistillation`) or a list of them.
        distillation_loss_weights: one weight per distillation loss (default 1.0 each).
        student_loss_weight: in ``[0, 1]``: the share of the student's own loss in the total (0: distillation
            only, 1: labels only).
        name: the model's name.
        **kwargs: passed on to ``Model``.
    """

    def __init__(
        self,
        teacher,
        student,
        distillation_losses,
        distillation_loss_weights=None,
        student_loss_weight=0.5,
        name="distiller",
        **kwargs,
    ):
        super().__init__(name=name, **kwargs)
        for role, model in (("teacher", teacher), ("student", student)):
            if not isinstance(model, Model):
                raise ValueError(f"The {role} must be a highlevel Model; received {type(model).__name__}.")
        self._check_compatible(teacher, student)
        if (
            isinstance(student_loss_weight, bool)
            or not isinstance(student_loss_weight, (int, float))
            or not 0.0 <= student_loss_weight <= 1.0
        ):
            raise ValueError(f"student_loss_weight must be a number in [0, 1]; received {student_loss_weight!r}.")
        if distillation_losses is None:
            raise ValueError(
                "distillation_losses cannot be None: pass a LogitsDistillation, a FeatureDistillation "
                "or a list of distillation losses."
            )
        if not isinstance(distillation_losses, (list, tuple)):
            distillation_losses, distillation_loss_weights = [distillation_losses], [1.0]
        distillation_losses = list(distillation_losses)
        if distillation_loss_weights is None:
            distillation_loss_weights = [1.0] * len(distillation_losses)
        if len(distillation_loss_weights) != len(distillation_losses):
            raise ValueError(
                f"distillation_loss_weights has {len(distillation_loss_weights)} weights for "
                f"{len(distillation_losses)} distillation losses: give one weight per loss."
            )
        for loss in distillation_losses:
            loss.validate_model_compatibility(teacher, student)
        self.teacher = teacher
        self.student = student
        self.student_loss_weight = student_loss_weight
        self.distillation_losses = distillation_losses
        self.distillation_loss_weights = list(distillation_loss_weights)
        self.teacher.trainable = False
        self._teacher_features = self._feature_model(teacher, "teacher_layer_name")
        self._student_features = self._feature_model(student, "student_layer_name")
        self.student_loss_tracker = metrics_module.Mean(name="student_loss")
        self.distillation_loss_tracker = metrics_module.Mean(name="distillation_loss")
        self.total_loss_tracker = metrics_module.Mean(name="total_loss")

    @staticmethod
    def _check_compatible(teacher, student):
        t_in, s_in = getattr(teacher, "inputs", None), getattr(student, "inputs", None)
        if t_in is not None and s_in is not None:
            tree.map_structure(lambda t, s: _check_shapes(t.shape, s.shape, "input"), t_in, s_in)
            tree.map_structure(lambda t, s: t.dtype == s.dtype or _raise_dtype(t.dtype, s.dtype), t_in, s_in)
        t_out, s_out = getattr(teacher, "outputs", None), getattr(student, "outputs", None)
        if t_out is not None and s_out is not None:
            tree.map_structure(lambda t, s: _check_shapes(t.shape, s.shape, "output"), t_out, s_out)

    def _feature_model(self, model, attribute):
        """A model returning ``{"final_output": ..., layer name: its output, ...}``, or None with no layer named."""
        names = []
        for loss in self.distillation_losses:
            name = getattr(loss, attribute, None)
            if name and name not in names:
                names.append(name)
        if not names:
            return None
        final = model.layers[-1].output if isinstance(model, Sequential) else model.output
        outputs = {_FINAL: final}
        outputs.update({name: model.get_layer(name=name).output for name in names})
        return Model(inputs=model.inputs, outputs=outputs, name=f"{model.name}_features")

    @property
    def metrics(self):
        return list(super().metrics) + [
            self.student_loss_tracker,
            self.distillation_loss_tracker,
            self.total_loss_tracker,
        ]

    def compile(self, optimizer="adam", loss=None, metrics=None, **kwargs):
        """Like ``Model.compile``; ``loss`` is the student's loss against the labels (required).

        Args:
            optimizer: the student's optimizer.
            loss: the student's loss (a name, object or function, or a structure matching its outputs).
            metrics: a list of metrics of the student's outputs.
            **kwargs: passed on to ``Model.compile``.
        """
        if loss is None:
            raise ValueError(
                "Distiller.compile needs `loss`: the student's loss against the labels (e.g. "
                "'sparse_categorical_crossentropy'). Use student_loss_weight=0.0 to train on the "
                "distillation losses only."
            )
        if metrics is not None and not isinstance(metrics, (list, tuple)):
            raise ValueError(f"metrics must be a list or tuple; received {type(metrics).__name__}.")
        self._student_loss = loss_functions(loss, "Distiller.compile")
        self._student_loss_config = loss
        super().compile(optimizer=optimizer, loss=None, metrics=metrics, **kwargs)
        self._compile_config["loss"] = loss  # what a saved distiller is compiled with again when loaded

    def call(self, inputs, training=None):
        if not self.teacher.built:
            self.teacher(inputs, training=False)  # made before any compiled step runs
        return self.student(inputs, training=training)

    def _teacher_outputs(self, x):
        if self._teacher_features is not None:
            return self._teacher_features(x, training=False)
        return {_FINAL: self.teacher(x, training=False)}

    def _student_outputs(self, x, y_pred):
        if self._student_features is not None:
            return self._student_features(x, training=True)
        return {_FINAL: y_pred}

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        if y_pred is None:
            y_pred = self(x, training=training)
        student_loss = ops.convert_to_tensor(0.0)
        if self.student_loss_weight > 0.0 and y is not None:
            values = tree.flatten(
                tree.map_structure(lambda fn, target, pred: fn(target, pred), self._student_loss, y, y_pred)
            )
            student_loss = ops.sum(ops.stack([ops.mean(v) for v in values]))
        distillation = ops.convert_to_tensor(0.0)
        if self.student_loss_weight < 1.0:
            teacher_features = self._teacher_outputs(x)
            student_features = self._student_outputs(x, y_pred)
            for loss, weight in zip(self.distillation_losses, self.distillation_loss_weights):
                named = getattr(loss, "teacher_layer_name", None) is not None
                teacher_out = teacher_features[loss.teacher_layer_name if named else _FINAL]
                if named:
                    student_out = student_features[getattr(loss, "student_layer_name", None) or _FINAL]
                else:
                    student_out = y_pred
                teacher_out = (
                    ops.stop_gradient(teacher_out)
                    if ops.is_tensor(teacher_out)
                    else tree.map_structure(ops.stop_gradient, teacher_out)
                )
                loss.validate_outputs(teacher_out, student_out)
                value = loss.compute_loss(teacher_out, student_out)
                if len(ops.shape(value)) > 0:
                    raise ValueError(
                        f"{type(loss).__name__}.compute_loss must return a scalar; it returned a "
                        f"tensor of shape {tuple(ops.shape(value))}."
                    )
                distillation = distillation + weight * value
        total = self.student_loss_weight * student_loss + (1.0 - self.student_loss_weight) * distillation
        self.student_loss_tracker.update_state(student_loss)
        self.distillation_loss_tracker.update_state(distillation)
        self.total_loss_tracker.update_state(total)
        return total

    def get_config(self):
        from highlevel.layers import serialize

        config = super().get_config()
        config.update(
            {
                "teacher": serialize(self.teacher),
                "student": serialize(self.student),
                "distillation_losses": [
                    {"class_name": type(loss).__name__, "config": loss.get_config()}
                    for loss in self.distillation_losses
                ],
                "distillation_loss_weights": list(self.distillation_loss_weights),
                "student_loss_weight": self.student_loss_weight,
            }
        )
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from highlevel.layers import deserialize

        from . import feature_distillation, logits_distillation

        known = {
            "LogitsDistillation": logits_distillation.LogitsDistillation,
            "FeatureDistillation": feature_distillation.FeatureDistillation,
        }
        config = dict(config)
        config["teacher"] = deserialize(config["teacher"], custom_objects=custom_objects)
        config["student"] = deserialize(config["student"], custom_objects=custom_objects)
        losses = []
        for entry in config["distillation_losses"]:
            loss_cls = known.get(entry["class_name"]) or (custom_objects or {}).get(entry["class_name"])
            if loss_cls is None:
                raise ValueError(
                    f"Unknown distillation loss {entry['class_name']!r}: pass your own class in custom_objects."
                )
            losses.append(loss_cls.from_config(entry["config"]))
        config["distillation_losses"] = losses
        return cls(**config)

    def reset_metrics(self):
        super().reset_metrics()
        for tracker in (self.student_loss_tracker, self.distillation_loss_tracker, self.total_loss_tracker):
            tracker.reset_state()


def _raise_dtype(teacher_dtype, student_dtype):
    raise ValueError(
        f"The teacher's and the student's input dtypes must match; received teacher {teacher_dtype}, "
        f"student {student_dtype}."
    )
