"""Cosine decay, with an optional linear warmup (Loshchilov & Hutter, 2017; Goyal et al., 2017).

>>> import highlevel as hl
>>> s = hl.optimizers.schedules.CosineDecay(1.0, decay_steps=10)
>>> [round(float(hl.ops.convert_to_numpy(s(t))), 4) for t in (0, 5, 10, 20)]
[1.0, 0.5, 0.0, 0.0]
>>> w = hl.optimizers.schedules.CosineDecay(0.0, decay_steps=10, warmup_target=1.0, warmup_steps=4)
>>> [round(float(hl.ops.convert_to_numpy(w(t))), 4) for t in (0, 2, 4, 9, 14)]
[0.0, 0.5, 1.0, 0.5, 0.0]
"""

import math

from highlevel import ops

from .._checks import check_number
from .learning_rate_schedule import LearningRateSchedule


class CosineDecay(LearningRateSchedule):
    """Cosine decay (``keras.optimizers.schedules.CosineDecay``).

    Without warmup: ``initial * ((1 - alpha) * 0.5 * (1 + cos(pi * min(step, decay_steps) / decay_steps))
    + alpha)``. With ``warmup_target``: the rate rises linearly from ``initial_learning_rate`` to
    ``warmup_target`` over ``warmup_steps`` steps, then decays from ``warmup_target`` as above (the step
    counted from the end of the warmup).

    Args:
        initial_learning_rate: the rate at step 0.
        decay_steps: the length of the decay (> 0).
        alpha: the final rate as a fraction of the decayed-from rate (0.0).
        name: a name (kept in the config).
        warmup_target: the rate reached at the end of the warmup; None: no warmup.
        warmup_steps: the warmup's length (>= 0).

    >>> import highlevel as hl
    >>> schedule = hl.optimizers.schedules.CosineDecay(0.1, decay_steps=100)
    >>> [round(float(schedule(step)), 4) for step in (0, 50, 100)]
    [0.1, 0.05, 0.0]
    """

    def __init__(
        self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay", warmup_target=None, warmup_steps=0
    ):
        self.initial_learning_rate = check_number("initial_learning_rate", initial_learning_rate)
        self.decay_steps = check_number("decay_steps", decay_steps, 0, low_open=True)
        self.alpha = check_number("alpha", alpha)
        self.name = name
        self.warmup_target = None if warmup_target is None else check_number("warmup_target", warmup_target)
        self.warmup_steps = check_number("warmup_steps", warmup_steps, 0)

    def _decay(self, step, decay_steps, decay_from, dtype):
        fraction = step / decay_steps
        cosine = 0.5 * (1.0 + ops.cos(ops.cast(math.pi, dtype) * fraction))
        return decay_from * ((1.0 - self.alpha) * cosine + self.alpha)

    def __call__(self, step):
        initial = ops.convert_to_tensor(float(self.initial_learning_rate))
        dtype = ops.dtype(initial)
        decay_steps = ops.cast(self.decay_steps, dtype)
        step = ops.cast(step, dtype)
        if self.warmup_target is None:
            return self._decay(ops.minimum(step, decay_steps), decay_steps, initial, dtype)
        target = ops.cast(self.warmup_target, dtype)
        warmup_steps = ops.cast(self.warmup_steps, dtype)
        step = ops.minimum(step, decay_steps + warmup_steps)
        # Both branches are computed and one is selected, so that the choice traces; with warmup_steps=0
        # the warmup branch divides by zero but is never selected.
        warmup = (target - initial) * (step / warmup_steps) + initial
        decay = self._decay(step - warmup_steps, decay_steps, target, dtype)
        return ops.where(ops.less(step, warmup_steps), warmup, decay)

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "decay_steps": self.decay_steps,
            "alpha": self.alpha,
            "name": self.name,
            "warmup_target": self.warmup_target,
            "warmup_steps": self.warmup_steps,
        }
