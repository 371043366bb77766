"""Piecewise constant: ``values[i]`` while ``boundaries[i-1] < step <= boundaries[i]``.

>>> import highlevel as hl
>>> s = hl.optimizers.schedules.PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.1])
>>> [round(float(hl.ops.convert_to_numpy(s(t))), 4) for t in (0, 10, 11, 20, 21)]
[1.0, 1.0, 0.5, 0.5, 0.1]
"""

from highlevel import ops

from .._checks import check_number
from .learning_rate_schedule import LearningRateSchedule


class PiecewiseConstantDecay(LearningRateSchedule):
    """A step function of the step (``keras.optimizers.schedules.PiecewiseConstantDecay``).

    ``values[0]`` for ``step <= boundaries[0]``, ``values[i]`` for ``boundaries[i-1] < step <= boundaries[i]``
    and ``values[-1]`` for ``step > boundaries[-1]``. Computed as a sum of masked constants, so it traces.

    Args:
        boundaries: increasing step numbers (at least one).
        values: the rates, one more than ``boundaries``.
        name: a name (kept in the config).

    Raises:
        ValueError: if ``boundaries`` is empty or not non-decreasing, or ``values`` does not have exactly one more entry
            than ``boundaries``.

    >>> import highlevel as hl
    >>> schedule = hl.optimizers.schedules.PiecewiseConstantDecay([10, 20], [0.1, 0.01, 0.001])
    >>> [round(float(schedule(step)), 4) for step in (0, 10, 15, 50)]
    [0.1, 0.1, 0.01, 0.001]
    """

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        boundaries, values = list(boundaries), list(values)
        if len(boundaries) != len(values) - 1 or not boundaries:
            raise ValueError(
                "PiecewiseConstantDecay needs at least one boundary and exactly one more value than "
                f"boundaries; received boundaries={boundaries} (length {len(boundaries)}) and "
                f"values={values} (length {len(values)})."
            )
        for b in boundaries:
            check_number("boundaries[i]", b)
        for v in values:
            check_number("values[i]", v)
        if any(b1 > b2 for b1, b2 in zip(boundaries, boundaries[1:])):
            raise ValueError(f"`boundaries` must be non-decreasing; received boundaries={boundaries}.")
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def __call__(self, step):
        step = ops.convert_to_tensor(step)
        step_dtype = ops.dtype(step)
        bounds = [ops.cast(ops.convert_to_tensor(b), step_dtype) for b in self.boundaries]
        values = [ops.convert_to_tensor(float(v)) for v in self.values]
        dtype = ops.dtype(values[0])
        result = ops.cast(ops.less_equal(step, bounds[0]), dtype) * values[0]
        result = result + ops.cast(ops.greater(step, bounds[-1]), dtype) * values[-1]
        for low, high, value in zip(bounds[:-1], bounds[1:], values[1:-1]):
            inside = ops.logical_and(ops.greater(step, low), ops.less_equal(step, high))
            result = result + ops.cast(inside, dtype) * value
        return result

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}
