"""Learning-rate schedules against Keras 3 at many steps on every backend; validation; serialization."""

import numpy as np
import pytest

import highlevel as hl
from highlevel.optimizers import schedules

keras = pytest.importorskip("keras")

STEPS = list(range(0, 61)) + [99, 100, 101, 1000]

#: (class name, kwargs)
CASES = [
    ("ExponentialDecay", {"initial_learning_rate": 0.1, "decay_steps": 7, "decay_rate": 0.8}),
    ("ExponentialDecay", {"initial_learning_rate": 0.1, "decay_steps": 7, "decay_rate": 0.8, "staircase": True}),
    ("PiecewiseConstantDecay", {"boundaries": [5, 20, 40], "values": [1.0, 0.5, 0.1, 0.01]}),
    ("PiecewiseConstantDecay", {"boundaries": [10], "values": [0.3, 0.03]}),
    ("PolynomialDecay", {"initial_learning_rate": 0.1, "decay_steps": 30}),
    (
        "PolynomialDecay",
        {"initial_learning_rate": 0.1, "decay_steps": 13, "end_learning_rate": 0.01, "power": 0.5, "cycle": True},
    ),
    ("InverseTimeDecay", {"initial_learning_rate": 0.1, "decay_steps": 5, "decay_rate": 0.5}),
    ("InverseTimeDecay", {"initial_learning_rate": 0.1, "decay_steps": 5, "decay_rate": 0.5, "staircase": True}),
    ("CosineDecay", {"initial_learning_rate": 0.1, "decay_steps": 40}),
    ("CosineDecay", {"initial_learning_rate": 0.1, "decay_steps": 40, "alpha": 0.2}),
    ("CosineDecay", {"initial_learning_rate": 0.0, "decay_steps": 40, "warmup_target": 0.2, "warmup_steps": 10}),
    (
        "CosineDecay",
        {"initial_learning_rate": 0.05, "decay_steps": 25, "alpha": 0.1, "warmup_target": 0.2, "warmup_steps": 7},
    ),
    ("CosineDecayRestarts", {"initial_learning_rate": 0.1, "first_decay_steps": 7}),
    (
        "CosineDecayRestarts",
        {"initial_learning_rate": 0.1, "first_decay_steps": 4, "t_mul": 1.0, "m_mul": 0.8, "alpha": 0.1},
    ),
    ("CosineDecayRestarts", {"initial_learning_rate": 0.1, "first_decay_steps": 3, "t_mul": 1.5, "m_mul": 0.5}),
]
IDS = [f"{c}-{i}" for i, (c, _) in enumerate(CASES)]


@pytest.mark.parametrize("cls,kwargs", CASES, ids=IDS)
def test_matches_keras(backend, cls, kwargs):
    ours = getattr(schedules, cls)(**kwargs)
    theirs = getattr(keras.optimizers.schedules, cls)(**kwargs)
    got = np.array([hl.ops.convert_to_numpy(ours(hl.ops.convert_to_tensor(np.int64(s)))) for s in STEPS])
    want = np.array([keras.ops.convert_to_numpy(theirs(s)) for s in STEPS])
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)
    assert ours.get_config() == theirs.get_config()


@pytest.mark.parametrize("cls,kwargs", CASES, ids=IDS)
def test_serialize_round_trip(cls, kwargs):
    with hl.config.backend_scope("native"):
        s = getattr(schedules, cls)(**kwargs)
        again = schedules.deserialize(schedules.serialize(s))
        assert type(again) is type(s) and again.get_config() == s.get_config()
        assert float(hl.ops.convert_to_numpy(again(17))) == float(hl.ops.convert_to_numpy(s(17)))


def test_step_as_python_int_and_variable(backend):
    s = schedules.PiecewiseConstantDecay([3], [0.5, 0.25])
    assert float(hl.ops.convert_to_numpy(s(3))) == 0.5
    assert float(hl.ops.convert_to_numpy(s(hl.Variable(4, dtype="int64")))) == 0.25


def test_custom_schedule_deserializes_with_custom_objects():
    class Halving(schedules.LearningRateSchedule):
        def __init__(self, rate):
            self.rate = rate

        def __call__(self, step):
            return self.rate * hl.ops.power(0.5, hl.ops.cast(step, "float32"))

        def get_config(self):
            return {"rate": self.rate}

    config = {"class_name": "Halving", "config": {"rate": 1.0}}
    assert schedules.deserialize(config, custom_objects={"Halving": Halving}).rate == 1.0
    with pytest.raises(ValueError, match="Unknown learning-rate schedule"):
        schedules.deserialize({"class_name": "Nope", "config": {}})


@pytest.mark.parametrize(
    "cls,kwargs,match",
    [
        ("ExponentialDecay", {"initial_learning_rate": 0.1, "decay_steps": 0, "decay_rate": 0.5}, "decay_steps"),
        (
            "ExponentialDecay",
            {"initial_learning_rate": "big", "decay_steps": 1, "decay_rate": 0.5},
            "initial_learning_rate",
        ),
        ("InverseTimeDecay", {"initial_learning_rate": 0.1, "decay_steps": -3, "decay_rate": 0.5}, "decay_steps"),
        ("InverseTimeDecay", {"initial_learning_rate": 0.1, "decay_steps": 3, "decay_rate": -0.5}, "decay_rate"),
        ("PolynomialDecay", {"initial_learning_rate": 0.1, "decay_steps": 0}, "decay_steps"),
        ("PiecewiseConstantDecay", {"boundaries": [1, 2], "values": [0.1, 0.2]}, "one more value"),
        ("PiecewiseConstantDecay", {"boundaries": [5, 2], "values": [0.1, 0.2, 0.3]}, "non-decreasing"),
        ("CosineDecay", {"initial_learning_rate": 0.1, "decay_steps": 0}, "decay_steps"),
        ("CosineDecay", {"initial_learning_rate": 0.1, "decay_steps": 5, "warmup_steps": -1}, "warmup_steps"),
        ("CosineDecayRestarts", {"initial_learning_rate": 0.1, "first_decay_steps": 0}, "first_decay_steps"),
        ("CosineDecayRestarts", {"initial_learning_rate": 0.1, "first_decay_steps": 5, "t_mul": 0.0}, "t_mul"),
    ],
)
def test_invalid_arguments(cls, kwargs, match):
    with pytest.raises(ValueError, match=match):
        getattr(schedules, cls)(**kwargs)
