"""The distillation losses: the same values as Keras's for the same inputs, on every backend."""

import numpy as np
import pytest

import highlevel as hl

TEACHER = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]], "float32")
STUDENT = np.array([[0.5, 1.0, 1.0], [1.0, 0.0, 0.0]], "float32")


def _value(x):
    return float(hl.ops.convert_to_numpy(x))


def test_logits_distillation_matches_keras(keras, backend):
    t, s = hl.ops.convert_to_tensor(TEACHER), hl.ops.convert_to_tensor(STUDENT)
    # The KL divergence of the softened distributions, times T**2.
    want = float(
        keras.distillation.LogitsDistillation(2.0, loss=keras.losses.KLDivergence()).compute_loss(TEACHER, STUDENT)
    )
    assert _value(
        hl.distillation.LogitsDistillation(2.0, loss=hl.losses.KLDivergence()).compute_loss(t, s)
    ) == pytest.approx(want, rel=1e-5)
    # The name "kl_divergence" (the default) means the same here (Keras applies its function to raw logits).
    assert _value(hl.distillation.LogitsDistillation(2.0).compute_loss(t, s)) == pytest.approx(want, rel=1e-5)
    # Other losses compare the softened logits themselves.
    want = float(keras.distillation.LogitsDistillation(3.0, loss="mse").compute_loss(TEACHER, STUDENT))
    assert _value(hl.distillation.LogitsDistillation(3.0, loss="mse").compute_loss(t, s)) == pytest.approx(
        want, rel=1e-5
    )


def test_feature_distillation_matches_keras(keras, backend):
    for loss in ("mse", "mae", ["mse", None]):
        teacher = [TEACHER, TEACHER * 2] if isinstance(loss, list) else TEACHER
        student = [STUDENT, STUDENT] if isinstance(loss, list) else STUDENT
        want = float(keras.distillation.FeatureDistillation(loss=loss).compute_loss(teacher, student))
        got = hl.distillation.FeatureDistillation(loss=loss).compute_loss(
            hl.tree.map_structure(hl.ops.convert_to_tensor, teacher),
            hl.tree.map_structure(hl.ops.convert_to_tensor, student),
        )
        assert _value(got) == pytest.approx(want, rel=1e-5)


def test_configs_round_trip():
    logits = hl.distillation.LogitsDistillation(temperature=5.0, loss="mse")
    clone = hl.distillation.LogitsDistillation.from_config(logits.get_config())
    assert clone.temperature == 5.0 and _value(clone.compute_loss(TEACHER, STUDENT)) == pytest.approx(
        _value(logits.compute_loss(TEACHER, STUDENT))
    )
    features = hl.distillation.FeatureDistillation(
        loss=hl.losses.MeanAbsoluteError(), teacher_layer_name="a", student_layer_name="b"
    )
    clone = hl.distillation.FeatureDistillation.from_config(features.get_config())
    assert (clone.teacher_layer_name, clone.student_layer_name) == ("a", "b")
    assert _value(clone.compute_loss(TEACHER, STUDENT)) == pytest.approx(np.abs(TEACHER - STUDENT).mean())


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="temperature must be positive; received temperature=0"):
        hl.distillation.LogitsDistillation(temperature=0)
    with pytest.raises(ValueError, match="temperature must be a number"):
        hl.distillation.LogitsDistillation(temperature="3")
    with pytest.raises(ValueError, match="at least one loss that is not None"):
        hl.distillation.FeatureDistillation(loss=[None, None])
    with pytest.raises(NotImplementedError, match="must implement compute_loss"):
        hl.distillation.DistillationLoss().compute_loss(TEACHER, STUDENT)
