"""Exponential decay: ``lr · rate^(step / decay_steps)``.

>>> import highlevel as hl
>>> s = hl.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
>>> round(float(hl.ops.convert_to_numpy(s(20))), 6)
0.025
"""

from highlevel import ops

from .._checks import check_number
from .learning_rate_schedule import LearningRateSchedule


class ExponentialDecay(LearningRateSchedule):
    """``initial_learning_rate * decay_rate ** (step / decay_steps)`` (``keras.optimizers.schedules``).

    Args:
        initial_learning_rate: the rate at step 0.
        decay_steps: the number of steps over which the rate is multiplied by ``decay_rate`` (> 0).
        decay_rate: the decay factor.
        staircase: decay in steps: the exponent is ``floor(step / decay_steps)``.
        name: a name (kept in the config).

    >>> import highlevel as hl
    >>> schedule = hl.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
    >>> [round(float(schedule(step)), 4) for step in (0, 10, 15)]
    [0.1, 0.05, 0.0354]
    """

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="ExponentialDecay"):
        self.initial_learning_rate = check_number("initial_learning_rate", initial_learning_rate)
        self.decay_steps = check_number("decay_steps", decay_steps, 0, low_open=True)
        self.decay_rate = check_number("decay_rate", decay_rate, 0)
        self.staircase = bool(staircase)
        self.name = name

    def __call__(self, step):
        initial = ops.convert_to_tensor(float(self.initial_learning_rate))
        dtype = ops.dtype(initial)
        p = ops.cast(step, dtype) / ops.cast(self.decay_steps, dtype)
        if self.staircase:
            p = ops.floor(p)
        return initial * ops.power(ops.cast(self.decay_rate, dtype), p)

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "decay_rate": self.decay_rate,
            "staircase": self.staircase,
            "name": self.name,
        }
