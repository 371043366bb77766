"""Initializers whose values involve no randomness: Zeros, Ones, Constant and Identity.

>>> import highlevel as hl
>>> from highlevel.initializers import Constant, Identity
>>> hl.ops.convert_to_numpy(Constant(3.0)((2,))).tolist()
[3.0, 3.0]
>>> hl.ops.convert_to_numpy(Identity(gain=2.0)((2, 3))).tolist()
[[2.0, 0.0, 0.0], [0.0, 2.0, 0.0]]
"""

import numpy as np

from highlevel.backends.contract import dtypes

from .host_values import standardize_shape, to_tensor
from .initializer import Initializer


class Zeros(Initializer):
    """Fills with 0 (any numeric or bool dtype).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(Zeros()((2,), "int32")).tolist()
    [0, 0]
    """

    def __call__(self, shape, dtype=None):
        shape = standardize_shape(shape, "Zeros")
        return to_tensor(np.zeros(shape), dtypes.standardize_dtype(dtype))


class Ones(Initializer):
    """Fills with 1 (any numeric or bool dtype).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.initializers.Ones()((2, 3))).tolist()
    [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
    """

    def __call__(self, shape, dtype=None):
        shape = standardize_shape(shape, "Ones")
        return to_tensor(np.ones(shape), dtypes.standardize_dtype(dtype))


class Constant(Initializer):
    """Fills with ``value``.

    Args:
        value: a Python or numpy scalar (an array that broadcasts to the requested shape works too).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.initializers.Constant(3.0)((2, 2))).tolist()
    [[3.0, 3.0], [3.0, 3.0]]
    """

    def __init__(self, value=0.0):
        if not isinstance(value, (int, float, bool, list, tuple)) and hasattr(value, "__array__"):
            value = np.asarray(value)  # a numpy array or scalar, or a tensor: kept as plain Python values
            value = value.item() if value.ndim == 0 else value.tolist()
        self.value = value

    def __call__(self, shape, dtype=None):
        shape = standardize_shape(shape, "Constant")
        dtype = dtypes.standardize_dtype(dtype)
        value = np.asarray(self.value)
        try:
            values = np.broadcast_to(value, shape)
        except ValueError:
            raise ValueError(
                f"Constant: the value of shape {value.shape} does not broadcast to the requested shape "
                f"{shape}; pass a scalar or an array of a broadcastable shape."
            ) from None
        return to_tensor(values, dtype)

    def get_config(self):
        return {"value": self.value}


class Identity(Initializer):
    """``gain`` times the identity matrix (2-D shapes only; a non-square shape gets ones on the diagonal).

    Args:
        gain: the multiplicative factor.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.initializers.Identity(gain=2.0)((2, 3))).tolist()
    [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0]]
    """

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        shape = standardize_shape(shape, "Identity")
        if len(shape) != 2:
            raise ValueError(
                "The Identity initializer only makes 2-D matrices; received "
                f"shape={shape} of rank {len(shape)}. Use it for Dense kernels, or Orthogonal for higher ranks."
            )
        return to_tensor(self.gain * np.eye(*shape), dtypes.standardize_dtype(dtype))

    def get_config(self):
        return {"gain": self.gain}
