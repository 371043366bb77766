"""The base of learning-rate schedules: a serializable function of the step, written with ``hl.ops``."""


class LearningRateSchedule:
    """A learning rate that depends on the optimizer's iteration count (``keras.optimizers.schedules``).

    Subclasses define ``__call__(step)`` with ``hl.ops`` (it is traced into compiled steps) and
    ``get_config()``.

    >>> import highlevel as hl
    >>> class Halving(hl.optimizers.schedules.LearningRateSchedule):
    ...     def __call__(self, step):
    ...         return 0.1 * 0.5 ** hl.ops.floor_divide(step, 10)
    ...     def get_config(self):
    ...         return {}
    >>> schedule = Halving()
    >>> [round(float(schedule(step)), 4) for step in (0, 10, 25)]
    [0.1, 0.05, 0.025]
    """

    def __call__(self, step):
        raise TypeError(f"{type(self).__name__} must define __call__(step).")

    def get_config(self):
        raise TypeError(f"{type(self).__name__} must define get_config() to be saved.")

    @classmethod
    def from_config(cls, config):
        return cls(**config)
