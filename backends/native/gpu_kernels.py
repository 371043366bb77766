"""Fused elementwise CUDA kernels of the native engine on CuPy (imported only with ``HIGHLEVEL_DEVICE=gpu``).

Written with numpy calls, one Adam step is a dozen kernel launches and a ReLU backward two (a boolean mask,
then the product) plus a temporary; on a GPU each launch costs microseconds of latency and one pass over
memory. These ``cupy.ElementwiseKernel`` s do each in one launch (Chainer's style: a CUDA-C statement per
output over broadcast operands; ``T`` is the arrays' float type, and Python scalars given for ``T`` parameters
are cast to it). CuPy compiles a kernel on its first call and caches the binary.

The Adam kernel writes three fresh outputs rather than updating ``param``/``m``/``v`` in place: the native
engine never writes a variable's buffer (``assign_variable`` shares buffers, and a replayed step's snapshot
is the old buffers), and CuPy's memory pool makes the fresh buffers as cheap as reused ones. The expressions
keep the operation order of the numpy code they replace (``ops_fused.adam_arrays``; the ReLU mask product), so
both paths round alike up to the compiler's fused multiply-adds.

Importing this module is free on a CPU (the test suite imports every module); the kernels are built on first
use, which needs CuPy: on numpy the functions raise a clear error.
"""

import functools

from .xp import on_gpu, xp

#: the dtypes the kernels are used for (float16 keeps the numpy-style code: CUDA's half math differs)
FUSED_DTYPES = frozenset((xp.dtype("float32"), xp.dtype("float64")))

# Keras' Adam with the bias-corrected rate alpha (a 0-d array of T: no host read); the order of
# ops_fused.adam_arrays
_ADAM = (
    "T p, T m, T v, T g, T alpha, T c1, T c2, T eps",
    "T p_new, T m_new, T v_new",
    """
    m_new = (g - m) * c1 + m;
    v_new = (g * g - v) * c2 + v;
    p_new = p - m_new / (sqrt(v_new) + eps) * alpha;
    """,
    "highlevel_adam",
)

# d relu: the incoming gradient where the ReLU's output (or input) is positive, else 0 (gradient 0 at 0)
_RELU_GRAD = (
    "T g, T y",
    "T gx",
    "gx = g * T(y > T(0));",
    "highlevel_relu_grad",
)


@functools.cache
def _kernel(spec):
    if not on_gpu:
        raise RuntimeError(
            f"The fused CUDA kernel {spec[-1]!r} runs only on CuPy (HIGHLEVEL_DEVICE=gpu); "
            "the numpy path uses ops_fused's numpy code instead."
        )
    return xp.ElementwiseKernel(*spec)


def adam(p, m, v, g, alpha, c1, c2, epsilon):
    """One Adam step on device arrays of one float dtype: ``(p', m', v')`` as fresh arrays, one kernel launch.

    Args:
        p, m, v, g: the parameter, first and second moments, and gradient (same shape and dtype).
        alpha: the bias-corrected learning rate, a 0-d array of that dtype.
        c1, c2: ``1 - beta_1`` and ``1 - beta_2`` (Python floats).
        epsilon: Adam's epsilon (a Python float).
    """
    return _kernel(_ADAM)(p, m, v, g, alpha, c1, c2, epsilon)


def relu_grad(g, y):
    """``g * (y > 0)`` in one kernel launch (no boolean temporary); ``y`` is the ReLU's output or input."""
    return _kernel(_RELU_GRAD)(g, y)
