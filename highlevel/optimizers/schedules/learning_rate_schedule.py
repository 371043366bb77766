"""The base of learning-rate schedules: a serializable function of the step, written with ``hl.ops``."""


class LearningRateSchedule:
    """A learning rate that depends on the optimizer's iteration count (``keras.optimizers.schedules``).

    Subclasses define ``__call__(step)`` with ``hl.ops`` (it is traced into compiled steps) and
    ``get_config()``.
    """

    def __call__(self, step):
        raise TypeError(f"{type(self).__name__} must define __call__(step).")

    def get_config(self):
        raise TypeError(f"{type(self).__name__} must define get_config() to be saved.")

    @classmethod
    def from_config(cls, config):
        return cls(**config)
