"""Polynomial decay from ``initial_learning_rate`` to ``end_learning_rate`` over ``decay_steps``.

>>> import highlevel as hl
>>> s = hl.optimizers.schedules.PolynomialDecay(1.0, decay_steps=10, end_learning_rate=0.0)
>>> [round(float(hl.ops.convert_to_numpy(s(t))), 4) for t in (0, 5, 10, 15)]
[1.0, 0.5, 0.0, 0.0]
"""

from highlevel import ops

from .._checks import check_number
from .learning_rate_schedule import LearningRateSchedule


class PolynomialDecay(LearningRateSchedule):
    """``(initial - end) * (1 - step / decay_steps) ** power + end`` (``keras.optimizers.schedules``).

    Without ``cycle`` the step is capped at ``decay_steps`` (then the rate stays at ``end_learning_rate``);
    with ``cycle``, ``decay_steps`` grows to the first multiple of itself at or above the step.

    Args:
        initial_learning_rate: the rate at step 0.
        decay_steps: the length of the decay (> 0).
        end_learning_rate: the final rate (0.0001).
        power: the polynomial's power (1.0: linear).
        cycle: restart the decay past ``decay_steps``.
        name: a name (kept in the config).

    >>> import highlevel as hl
    >>> schedule = hl.optimizers.schedules.PolynomialDecay(0.1, decay_steps=100, end_learning_rate=0.01)
    >>> [round(float(schedule(step)), 4) for step in (0, 50, 100)]
    [0.1, 0.055, 0.01]
    """

    def __init__(
        self,
        initial_learning_rate,
        decay_steps,
        end_learning_rate=0.0001,
        power=1.0,
        cycle=False,
        name="PolynomialDecay",
    ):
        self.initial_learning_rate = check_number("initial_learning_rate", initial_learning_rate)
        self.decay_steps = check_number("decay_steps", decay_steps, 0, low_open=True)
        self.end_learning_rate = check_number("end_learning_rate", end_learning_rate)
        self.power = check_number("power", power)
        self.cycle = bool(cycle)
        self.name = name

    def __call__(self, step):
        initial = ops.convert_to_tensor(float(self.initial_learning_rate))
        dtype = ops.dtype(initial)
        end = ops.cast(self.end_learning_rate, dtype)
        step = ops.cast(step, dtype)
        decay_steps = ops.cast(self.decay_steps, dtype)
        if self.cycle:
            # The first multiple of decay_steps at or above the step (1 at step 0).
            multiplier = ops.where(ops.equal(step, 0), 1.0, ops.ceil(step / float(self.decay_steps)))
            decay_steps = decay_steps * multiplier
        else:
            step = ops.minimum(step, decay_steps)
        p = step / decay_steps
        return (initial - end) * ops.power(1.0 - p, ops.cast(self.power, dtype)) + end

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "end_learning_rate": self.end_learning_rate,
            "power": self.power,
            "cycle": self.cycle,
            "name": self.name,
        }
