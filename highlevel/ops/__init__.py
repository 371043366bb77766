"""``highlevel.ops``: one numpy-like and neural-network op set with the same semantics on every engine.

Names and arguments follow ``keras.ops``; so do the namespaces: ``hl.ops.numpy``, ``hl.ops.nn``,
``hl.ops.linalg`` and ``hl.ops.image`` hold Keras's names of each family, and every name of the first three (and
the core and math ops) is also here, at the top. Each op is a plain function of one of those modules that
checks its arguments once and calls the current engine through the front door (:mod:`highlevel.ops._door`).

>>> import highlevel as hl
>>> x = hl.ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
>>> hl.ops.convert_to_numpy(hl.ops.sum(x, axis=0)).tolist()
[4.0, 6.0]
>>> hl.ops.dtype(hl.ops.softmax(x))
'float32'
>>> hl.ops.nn.softmax is hl.ops.softmax
True
"""

from .core import (  # noqa: F401
    convert_to_tensor, is_tensor, cast, shape, dtype, stop_gradient, value_and_grad, grad, getitem, slice,
    slice_update, scan, dense, fused_batch_norm, sparse_softmax_cross_entropy, convert_to_numpy, concat,
)

from .numpy import (  # noqa: F401
    ndim, size, zeros, ones, full, zeros_like, ones_like, full_like, arange, eye, linspace, copy, negative,
    abs, sign, sqrt, square, exp, expm1, log, log1p, log2, log10, sin, cos, tan, arcsin, arccos, arctan, sinh,
    cosh, tanh, arcsinh, arccosh, arctanh, floor, ceil, reciprocal, isnan, isinf, isfinite, logical_not,
    round, clip, nan_to_num, add, subtract, multiply, divide, floor_divide, mod, power, arctan2, maximum,
    minimum, logaddexp, equal, not_equal, less, less_equal, greater, greater_equal, logical_and, logical_or,
    logical_xor, sum, mean, max, min, prod, var, std, any, all, argmax, argmin, cumsum, cumprod, matmul,
    einsum, tensordot, outer, reshape, transpose, swapaxes, moveaxis, concatenate, stack, split, expand_dims,
    squeeze, take, take_along_axis, where, pad, tile, repeat, broadcast_to, flip, sort, argsort,
    divide_no_nan, absolute, true_divide, amax, amin,
)

from .nn import (  # noqa: F401
    one_hot, relu, relu6, sigmoid, softplus, softsign, silu, gelu, elu, selu, leaky_relu, hard_sigmoid,
    softmax, log_softmax, conv, depthwise_conv, conv_transpose, max_pool, average_pool, moments, swish,
)

from .math import (  # noqa: F401
    rsqrt, erf, logsumexp, top_k,
)

from . import image, linalg, nn, numpy  # noqa: E402,F401  (the namespaces, as in keras.ops)

__all__ = [name for name in dir() if not name.startswith("_") and name not in ("core", "image", "linalg", "math", "nn", "numpy")]
