"""Squashing and smooth activations: sigmoid, hard_sigmoid, log_sigmoid, tanh, hard_tanh, softplus,
softsign, exponential, linear.

>>> import highlevel as hl
>>> hl.ops.convert_to_numpy(hard_sigmoid(hl.ops.convert_to_tensor([-6.0, 0.0, 6.0]))).tolist()
[0.0, 0.5, 1.0]
"""

from highlevel import ops


def sigmoid(x):
    """``1 / (1 + exp(-x))``."""
    return ops.sigmoid(x)


def hard_sigmoid(x):
    """Piecewise-linear sigmoid: ``clip(x / 6 + 0.5, 0, 1)``."""
    return ops.hard_sigmoid(x)


def log_sigmoid(x):
    """``log(sigmoid(x)) = -softplus(-x)``, stable for large ``|x|``."""
    return ops.log_sigmoid(x)


def tanh(x):
    """Hyperbolic tangent."""
    return ops.tanh(x)


def hard_tanh(x):
    """``clip(x, -1, 1)``."""
    return ops.hard_tanh(x)


def softplus(x):
    """``log(1 + exp(x))``."""
    return ops.softplus(x)


def softsign(x):
    """``x / (1 + |x|)``."""
    return ops.softsign(x)


def exponential(x):
    """``exp(x)``."""
    return ops.exp(x)


def linear(x):
    """The identity: returns ``x`` unchanged."""
    return x
