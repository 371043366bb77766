"""Cosine decay with warm restarts (SGDR, Loshchilov & Hutter, 2017).

>>> import highlevel as hl
>>> s = hl.optimizers.schedules.CosineDecayRestarts(1.0, first_decay_steps=10, t_mul=2.0, m_mul=0.5)
>>> [round(float(hl.ops.convert_to_numpy(s(t))), 4) for t in (0, 5, 10, 20, 30)]
[1.0, 0.5, 0.5, 0.25, 0.25]
"""

import math

from highlevel import ops

from .._checks import check_number
from .learning_rate_schedule import LearningRateSchedule


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay that restarts (``keras.optimizers.schedules.CosineDecayRestarts``).

    The first period lasts ``first_decay_steps``; each next one ``t_mul`` times longer and starts from a rate
    ``m_mul`` times lower. Within a period at fraction ``f``: ``initial * ((1 - alpha) * m_mul^i * 0.5 *
    (1 + cos(pi f)) + alpha)``, ``i`` being the index of the period.

    Args:
        initial_learning_rate: the rate at step 0.
        first_decay_steps: the first period's length (> 0).
        t_mul: the growth factor of the periods' lengths (> 0; 2.0).
        m_mul: the factor applied to the starting rate at each restart (1.0).
        alpha: the final rate of each period as a fraction of the initial rate (0.0).
        name: a name (kept in the config).

    >>> import highlevel as hl
    >>> schedule = hl.optimizers.schedules.CosineDecayRestarts(0.1, first_decay_steps=10)
    >>> [round(float(schedule(step)), 4) for step in (0, 5, 10, 15)]
    [0.1, 0.05, 0.1, 0.0854]
    """

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0, name="SGDRDecay"):
        self.initial_learning_rate = check_number("initial_learning_rate", initial_learning_rate)
        self.first_decay_steps = check_number("first_decay_steps", first_decay_steps, 0, low_open=True)
        self._t_mul = check_number("t_mul", t_mul, 0, low_open=True)
        self._m_mul = check_number("m_mul", m_mul, 0)
        self.alpha = check_number("alpha", alpha)
        self.name = name

    def _period(self, fraction, dtype):
        """(index of the period, fraction completed within it) for ``fraction`` first periods elapsed."""
        if self._t_mul == 1.0:
            i_restart = ops.floor(fraction)
            return i_restart, fraction - i_restart
        t_mul = ops.cast(self._t_mul, dtype)
        # Period i starts after sum_{k<i} t_mul^k = (1 - t_mul^i) / (1 - t_mul) first periods.
        i_restart = ops.floor(ops.log(1.0 - fraction * (1.0 - t_mul)) / ops.log(t_mul))
        # The logarithm's rounding can put a step that lies exactly on a restart into the period before
        # (or after) it: move i_restart to the period whose start is at or before the fraction.
        start_next = (1.0 - ops.power(t_mul, i_restart + 1.0)) / (1.0 - t_mul)
        i_restart = ops.where(ops.greater_equal(fraction, start_next), i_restart + 1.0, i_restart)
        start = (1.0 - ops.power(t_mul, i_restart)) / (1.0 - t_mul)
        i_restart = ops.where(ops.less(fraction, start), i_restart - 1.0, i_restart)
        start = (1.0 - ops.power(t_mul, i_restart)) / (1.0 - t_mul)
        return i_restart, (fraction - start) / ops.power(t_mul, i_restart)

    def __call__(self, step):
        initial = ops.convert_to_tensor(float(self.initial_learning_rate))
        dtype = ops.dtype(initial)
        fraction = ops.cast(step, dtype) / ops.cast(self.first_decay_steps, dtype)
        i_restart, fraction = self._period(fraction, dtype)
        m_fac = ops.power(ops.cast(self._m_mul, dtype), i_restart)
        cosine = 0.5 * m_fac * (1.0 + ops.cos(ops.cast(math.pi, dtype) * fraction))
        return initial * ((1.0 - self.alpha) * cosine + self.alpha)

    def get_config(self):
        return {
            "initial_learning_rate": self.initial_learning_rate,
            "first_decay_steps": self.first_decay_steps,
            "t_mul": self._t_mul,
            "m_mul": self._m_mul,
            "alpha": self.alpha,
            "name": self.name,
        }
