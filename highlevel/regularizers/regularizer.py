"""The base class of every regularizer: ``regularizer(weight) -> scalar penalty`` added to the loss.

>>> import highlevel as hl
>>> class Sum(Regularizer):
...     def __call__(self, x):
...         return hl.ops.sum(x)
>>> float(hl.ops.convert_to_numpy(Sum()([1.0, 2.0])))
3.0
"""

import math
import numbers


class Regularizer:
    """Regularizer base class (``keras.regularizers.Regularizer``).

    A subclass implements ``__call__(x)`` returning a scalar tensor and, when its constructor takes
    arguments, ``get_config()`` so that ``from_config(get_config())`` rebuilds it.

    >>> import highlevel as hl
    >>> class SumOfSquares(hl.regularizers.Regularizer):
    ...     def __call__(self, x):
    ...         return 0.1 * hl.ops.sum(hl.ops.square(x))
    >>> float(hl.ops.convert_to_numpy(SumOfSquares()(hl.ops.convert_to_tensor([1.0, 2.0]))))
    0.5
    """

    def __call__(self, x):
        """The penalty for weight ``x``; the base class penalizes nothing."""
        return 0.0

    def get_config(self):
        """The constructor arguments as a JSON-serializable dict."""
        return {}

    @classmethod
    def from_config(cls, config):
        """Builds a regularizer from the output of :meth:`get_config`."""
        return cls(**config)

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_config().items())
        return f"{type(self).__name__}({args})"


def validate_factor(value, name, who):
    """``value`` as a float, after checking it is a finite non-negative number."""
    if (
        not isinstance(value, numbers.Real)
        or isinstance(value, bool)
        or math.isinf(value)
        or math.isnan(value)
        or value < 0
    ):
        raise ValueError(f"{who}: {name} must be a finite non-negative number; received {name}={value!r}.")
    return float(value)
