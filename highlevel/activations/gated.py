"""Self-gated activations, ``x`` times a gate computed from ``x``: silu (swish), gelu, hard_silu
(hard_swish), mish and glu.

>>> import highlevel as hl
>>> x = hl.ops.convert_to_tensor([-4.0, 0.0, 4.0])
>>> hl.ops.convert_to_numpy(hard_silu(x)).tolist()
[-0.0, 0.0, 4.0]
"""

from highlevel import ops


def silu(x):
    """Sigmoid linear unit (swish): ``x * sigmoid(x)``."""
    return ops.silu(x)


swish = silu


def gelu(x, approximate=False):
    """Gaussian error linear unit: ``x * Phi(x)`` (exact, with erf, by default; the tanh approximation
    when ``approximate=True``)."""
    return ops.gelu(x, approximate=approximate)


def hard_silu(x):
    """Hard SiLU (hard swish): ``x * hard_sigmoid(x)``, with ``hard_sigmoid(x) = clip(x / 6 + 0.5, 0, 1)``."""
    return ops.hard_silu(x)


hard_swish = hard_silu


def mish(x):
    """``x * tanh(softplus(x))``."""
    x = ops.convert_to_tensor(x)
    return ops.multiply(x, ops.tanh(ops.softplus(x)))


def glu(x, axis=-1):
    """Gated linear unit: ``a * sigmoid(b)``, where ``a`` and ``b`` are the two halves of ``x`` along ``axis``."""
    return ops.glu(x, axis=axis)
