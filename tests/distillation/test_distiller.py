"""Distiller: a student trained from a frozen teacher comes to agree with it; the teacher never changes."""

import numpy as np
import pytest

import highlevel as hl
from highlevel.backends.contract.interop import front_class

RNG = np.random.default_rng(0)
X = RNG.normal(size=(96, 6)).astype("float32")


def _teacher():
    hl.utils.set_random_seed(1)
    inputs = hl.Input((6,))
    hidden = hl.layers.Dense(8, activation="tanh", name="h")(inputs)
    outputs = hl.layers.Dense(4, name="logits")(hidden)
    teacher = hl.Model(inputs, outputs, name="teacher")
    kernel, bias = teacher.get_layer("logits").get_weights()
    teacher.get_layer("logits").set_weights([kernel * 4.0, bias])  # confident, clearly separated classes
    return teacher


def _student():
    hl.utils.set_random_seed(2)
    inputs = hl.Input((6,))
    hidden = hl.layers.Dense(8, activation="tanh", name="h")(inputs)
    return hl.Model(inputs, hl.layers.Dense(4, name="logits")(hidden), name="student")


def _agreement(teacher, student):
    return float(np.mean(np.argmax(teacher.predict(X, verbose=0), -1) == np.argmax(student.predict(X, verbose=0), -1)))


def test_student_learns_from_the_teacher_alone(backend):
    teacher, student = _teacher(), _student()
    frozen = [w.copy() for w in teacher.get_weights()]
    before = _agreement(teacher, student)
    distiller = hl.distillation.Distiller(
        teacher, student, hl.distillation.LogitsDistillation(temperature=2.0), student_loss_weight=0.0
    )
    distiller.compile(optimizer=hl.optimizers.Adam(0.03), loss="sparse_categorical_crossentropy")
    labels = np.zeros((len(X),), "int32")  # ignored: student_loss_weight=0
    history = distiller.fit(X, labels, batch_size=32, epochs=25, verbose=0)
    losses = history.history["distillation_loss"]
    assert losses[-1] < 0.3 * losses[0]
    assert history.history["student_loss"] == [0.0] * 25
    np.testing.assert_allclose(history.history["total_loss"], losses, rtol=1e-5)
    after = _agreement(teacher, student)
    assert after > max(before + 0.2, 0.85)
    for want, got in zip(frozen, teacher.get_weights()):
        np.testing.assert_array_equal(got, want)  # the teacher never trains
    assert not any(v is w for v in distiller.trainable_variables for w in teacher.variables)
    # The distiller predicts with the student.
    np.testing.assert_allclose(distiller.predict(X[:4], verbose=0), student.predict(X[:4], verbose=0), rtol=1e-6)


def test_labels_and_features_together(backend):
    teacher, student = _teacher(), _student()
    labels = np.argmax(teacher.predict(X, verbose=0), -1).astype("int32")
    distiller = hl.distillation.Distiller(
        teacher,
        student,
        [
            hl.distillation.LogitsDistillation(temperature=3.0),
            hl.distillation.FeatureDistillation(loss="mse", teacher_layer_name="h", student_layer_name="h"),
        ],
        distillation_loss_weights=[1.0, 0.5],
        student_loss_weight=0.3,
    )
    distiller.compile(optimizer=hl.optimizers.Adam(0.03), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = distiller.fit(X, labels, batch_size=32, epochs=20, verbose=0)
    h = history.history
    assert h["student_loss"][-1] < 0.5 * h["student_loss"][0]
    assert h["distillation_loss"][-1] < 0.5 * h["distillation_loss"][0]
    np.testing.assert_allclose(
        h["total_loss"], 0.3 * np.array(h["student_loss"]) + 0.7 * np.array(h["distillation_loss"]), rtol=1e-4
    )
    assert h["accuracy"][-1] > 0.85


def _hidden_gap(teacher, student):
    def hidden(model):
        return hl.Model(model.inputs, model.get_layer("h").output).predict(X, verbose=0)

    return float(np.mean((hidden(student) - hidden(teacher)) ** 2))


def test_feature_distillation_pulls_the_hidden_layer(backend):
    teacher, student = _teacher(), _student()
    before = _hidden_gap(teacher, student)
    distiller = hl.distillation.Distiller(
        teacher,
        student,
        hl.distillation.FeatureDistillation(teacher_layer_name="h", student_layer_name="h"),
        student_loss_weight=0.0,
    )
    distiller.compile(optimizer=hl.optimizers.Adam(0.03), loss="mse")
    history = distiller.fit(X, np.zeros((len(X), 4), "float32"), batch_size=32, epochs=15, verbose=0)
    assert history.history["distillation_loss"][-1] < 0.2 * history.history["distillation_loss"][0]
    assert _hidden_gap(teacher, student) < 0.2 * before


def test_bad_arguments_are_named():
    teacher, student = _teacher(), _student()
    logits = hl.distillation.LogitsDistillation()
    with pytest.raises(ValueError, match=r"student_loss_weight must be a number in \[0, 1\]; received 1.5"):
        hl.distillation.Distiller(teacher, student, logits, student_loss_weight=1.5)
    with pytest.raises(ValueError, match="student must be a highlevel Model"):
        hl.distillation.Distiller(teacher, hl.layers.Dense(4), logits)
    narrow = hl.Sequential([hl.Input((6,)), hl.layers.Dense(3)])
    with pytest.raises(ValueError, match=r"output shapes must match.*\(None, 4\).*\(None, 3\)"):
        hl.distillation.Distiller(teacher, narrow, logits)
    with pytest.raises(ValueError, match="one weight per loss"):
        hl.distillation.Distiller(teacher, student, [logits, logits], distillation_loss_weights=[1.0])
    with pytest.raises(ValueError, match="In the teacher model"):
        hl.distillation.Distiller(teacher, student, hl.distillation.FeatureDistillation(teacher_layer_name="nope"))
    distiller = hl.distillation.Distiller(teacher, student, logits)
    with pytest.raises(ValueError, match="needs `loss`"):
        distiller.compile(optimizer="adam")


def test_a_saved_distiller_loads_and_predicts_the_same(backend, tmp_path):
    teacher, student = _teacher(), _student()
    distiller = hl.distillation.Distiller(
        teacher,
        student,
        [
            hl.distillation.LogitsDistillation(temperature=2.0, loss="kl_divergence"),
            hl.distillation.FeatureDistillation(loss="mae", teacher_layer_name="h", student_layer_name="h"),
        ],
        distillation_loss_weights=[1.0, 0.25],
        student_loss_weight=0.2,
    )
    distiller.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    labels = np.argmax(teacher.predict(X, verbose=0), -1).astype("int32")
    distiller.fit(X, labels, batch_size=32, epochs=2, verbose=0)
    path = str(tmp_path / "distiller.keras")
    distiller.save(path)
    loaded = hl.models.load_model(path)
    assert front_class(type(loaded)) is hl.distillation.Distiller
    assert (loaded.student_loss_weight, loaded.distillation_loss_weights) == (0.2, [1.0, 0.25])
    assert [type(loss).__name__ for loss in loaded.distillation_losses] == ["LogitsDistillation", "FeatureDistillation"]
    np.testing.assert_allclose(loaded.predict(X, verbose=0), distiller.predict(X, verbose=0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        loaded.teacher.predict(X, verbose=0), teacher.predict(X, verbose=0), rtol=1e-5, atol=1e-6
    )
    assert not loaded.teacher.trainable
    want = distiller.evaluate(X, labels, verbose=0, return_dict=True)
    got = loaded.evaluate(X, labels, verbose=0, return_dict=True)
    for key in ("student_loss", "distillation_loss", "total_loss"):
        assert got[key] == pytest.approx(want[key], rel=1e-4)
