"""Conformance cases: activations, softmax / log_softmax and moments.

softmax, log_softmax, sigmoid and softplus also run on inputs of +-1e4, where every entry must be finite.
"""

import math

import numpy as np

from . import reference_nn as R
from .harness import F32_64, FLOAT, FLOATS, C, const, fixed, ints, normal

_erf = np.vectorize(math.erf, otypes=[np.float64])
SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _sigmoid(x):
    return 0.5 * (1.0 + np.tanh(0.5 * x))  # exact and overflow-free


def _softplus(x):
    return np.logaddexp(0.0, x)


def _gelu(x, approximate=True):
    if approximate:
        return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))


def _elu(x, alpha=1.0):
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0.0)))


def _softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _log_softmax(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


def _sparse_xent(labels, logits, axis=-1):
    log_probs = _log_softmax(logits, axis=axis)
    picked = np.take_along_axis(log_probs, np.expand_dims(np.asarray(labels, np.int64), axis), axis=axis)
    return -np.squeeze(picked, axis=axis)


def _lstm_sequence(x, h, c, kernel, recurrent_kernel, bias=None):
    outs = []
    for t in range(x.shape[1]):
        z = x[:, t] @ kernel + h @ recurrent_kernel + (0.0 if bias is None else bias)
        zi, zf, zc, zo = np.split(z, 4, axis=-1)
        c = _sigmoid(zf) * c + _sigmoid(zi) * np.tanh(zc)
        h = _sigmoid(zo) * np.tanh(c)
        outs.append(h)
    return np.stack(outs, axis=1), h, c


def _fused_batch_norm(x, scale=None, offset=None, axis=-1, epsilon=1e-3):
    axes = tuple(d for d in range(x.ndim) if d != axis % x.ndim)
    shape = tuple(-1 if d == axis % x.ndim else 1 for d in range(x.ndim))
    mean, variance = x.mean(axis=axes), x.var(axis=axes)
    y = (x - mean.reshape(shape)) / np.sqrt(variance.reshape(shape) + epsilon)
    if scale is not None:
        y = y * scale.reshape(shape)
    if offset is not None:
        y = y + offset.reshape(shape)
    return y, mean, variance


def _dense(x, kernel, bias=None, activation=None):
    y = x @ kernel + (0.0 if bias is None else bias)
    return {None: y, "linear": y, "relu": np.maximum(y, 0.0), "sigmoid": _sigmoid(y), "tanh": np.tanh(y)}[activation]


ACTIVATIONS = {
    "relu": lambda x: np.maximum(x, 0.0),
    "relu6": lambda x: np.clip(x, 0.0, 6.0),
    "sigmoid": _sigmoid,
    "softplus": _softplus,
    "softsign": lambda x: x / (1.0 + np.abs(x)),
    "silu": lambda x: x * _sigmoid(x),
    "gelu": _gelu,
    "elu": _elu,
    "selu": lambda x: SELU_SCALE * _elu(x, SELU_ALPHA),
    "leaky_relu": lambda x, negative_slope=0.2: np.where(x >= 0, x, negative_slope * x),
    "hard_sigmoid": lambda x: np.clip(x / 6.0 + 0.5, 0.0, 1.0),
}

# kinks of each activation: finite differences keep a margin from them
_KINKS = {
    "relu": [0.0],
    "relu6": [0.0, 6.0],
    "elu": [0.0],
    "selu": [0.0],
    "leaky_relu": [0.0],
    "hard_sigmoid": [-3.0, 3.0],
    "softsign": [0.0],
}

LARGE = const([[1e4, -1e4, 0.0, 1.0], [-1e4, -1e4, -1e4, -1e4], [1e4, 1e4, -3.0, 2.0]])

CASES = [
    *[
        C(
            op,
            "basic",
            (normal(3, 4, scale=4 if op in ("relu6", "hard_sigmoid") else 2, away=_KINKS.get(op)),),
            ref,
            dtypes=F32_64,
            grad=(0,),
            out=FLOAT,
        )
        for op, ref in ACTIVATIONS.items()
    ],
    *[
        C(op, "half", (normal(3, 4, scale=2),), ref, dtypes=("float16", "bfloat16"), out=FLOAT)
        for op, ref in ACTIVATIONS.items()
        if op in ("relu", "sigmoid", "gelu", "silu", "softplus")
    ],
    *[
        C(op, "int", (ints(3, 4),), ref, dtypes=("int32",), out=FLOAT)
        for op, ref in ACTIVATIONS.items()
        if op in ("sigmoid", "softplus", "silu", "gelu", "elu")
    ],
    C("relu", "int", (ints(3, 4),), ACTIVATIONS["relu"], dtypes=("int32",)),
    C("relu", "nan", (const([1.0, float("nan"), -1.0]),), ACTIVATIONS["relu"]),
    C("gelu", "exact", (normal(3, 4, scale=2),), _gelu, dtypes=F32_64, grad=(0,), approximate=False),
    C("elu", "alpha", (normal(3, 4, away=[0.0]),), _elu, grad=(0,), alpha=0.5),
    C("leaky_relu", "slope", (normal(3, 4, away=[0.0]),), ACTIVATIONS["leaky_relu"], grad=(0,), negative_slope=0.05),
    *[
        C(op, "large", (LARGE,), ACTIVATIONS[op], dtypes=F32_64, finite=True)
        for op in ("sigmoid", "softplus", "silu", "softsign", "gelu", "elu", "selu")
    ],
    C("softmax", "last", (normal(2, 3, 4, scale=2),), _softmax, dtypes=FLOATS, grad=(0,), out=FLOAT),
    C("softmax", "axis0", (normal(3, 4, scale=2),), _softmax, grad=(0,), axis=0),
    C("softmax", "large", (LARGE,), _softmax, dtypes=F32_64, finite=True, grad=(0,)),
    C("softmax", "int", (ints(3, 4),), _softmax, dtypes=("int32",), out=FLOAT),
    C("log_softmax", "last", (normal(2, 3, 4, scale=2),), _log_softmax, dtypes=FLOATS, grad=(0,), out=FLOAT),
    C("log_softmax", "axis-neg2", (normal(3, 4, scale=2),), _log_softmax, grad=(0,), axis=-2),
    C("log_softmax", "large", (LARGE,), _log_softmax, dtypes=F32_64, finite=True, grad=(0,)),
    C(
        "sparse_softmax_cross_entropy",
        "last",
        (fixed(np.array([0, 3, 1], np.int32)), normal(3, 4, scale=2)),
        _sparse_xent,
        dtypes=FLOATS,
        grad=(1,),
        out=FLOAT,
        tol_op="log_softmax",
    ),
    C(
        "sparse_softmax_cross_entropy",
        "axis1",
        (fixed(np.array([[0, 2], [1, 1]], np.int32)), normal(2, 3, 2)),
        _sparse_xent,
        dtypes=F32_64,
        grad=(1,),
        out=FLOAT,
        tol_op="log_softmax",
        axis=1,
    ),
    C(
        "sparse_softmax_cross_entropy",
        "large",
        (fixed(np.array([0, 2], np.int32)), const([[1e4, -1e4, 0.0], [-1e4, 1e4, 1e4]])),
        _sparse_xent,
        dtypes=F32_64,
        finite=True,
        grad=(1,),
        out=FLOAT,
        tol_op="log_softmax",
    ),
    # fused batch normalization (the batch statistics come back for the moving averages, without a gradient on
    # some engines: the gradient of the normalized output is checked in tests/backends/contract/test_fused.py)
    C(
        "fused_batch_norm",
        "channels-last",
        (normal(4, 3, 3, 5), normal(5), normal(5)),
        _fused_batch_norm,
        dtypes=F32_64,
        tol_op="moments",
    ),
    C(
        "fused_batch_norm",
        "axis1-no-offset",
        (normal(6, 3, 4), normal(3)),
        _fused_batch_norm,
        dtypes=F32_64,
        tol_op="moments",
        axis=1,
        epsilon=1e-5,
    ),
    C("fused_batch_norm", "plain", (normal(8, 2, scale=3),), _fused_batch_norm, dtypes=F32_64, tol_op="moments"),
    # an LSTM layer's whole time loop as one op (the native engine's fused kernel, ops_recurrent.py)
    C(
        "lstm_sequence",
        "bias",
        (normal(2, 4, 3), normal(2, 2), normal(2, 2), normal(3, 8), normal(2, 8), normal(8)),
        _lstm_sequence,
        dtypes=F32_64,
        grad=(0, 1, 2, 3, 4, 5),
        tol_op="matmul",
    ),
    C(
        "lstm_sequence",
        "no-bias-one-step",
        (normal(3, 1, 2), normal(3, 3), normal(3, 3), normal(2, 12), normal(3, 12)),
        _lstm_sequence,
        dtypes=F32_64,
        grad=(0, 1, 2, 3, 4),
        tol_op="matmul",
    ),
    # the fused dense layer op (backends/contract/fused.py): one case per activation it applies itself
    C(
        "dense",
        "relu",
        (normal(4, 3), normal(3, 5), normal(5)),
        _dense,
        dtypes=F32_64,
        grad=(0, 1, 2),
        tol_op="matmul",
        activation="relu",
    ),
    C(
        "dense",
        "no-bias-rank3",
        (normal(2, 4, 3), normal(3, 5)),
        _dense,
        dtypes=FLOATS,
        grad=(0, 1),
        out=FLOAT,
        tol_op="matmul",
    ),
    C(
        "dense",
        "sigmoid",
        (normal(4, 3), normal(3, 2), normal(2)),
        _dense,
        grad=(0, 1, 2),
        tol_op="matmul",
        activation="sigmoid",
    ),
    C(
        "dense",
        "tanh",
        (normal(4, 3), normal(3, 2), normal(2)),
        _dense,
        grad=(0, 1, 2),
        tol_op="matmul",
        activation="tanh",
    ),
    C(
        "dense",
        "linear",
        (normal(4, 3), normal(3, 2), normal(2)),
        _dense,
        grad=(0, 1, 2),
        tol_op="matmul",
        activation="linear",
    ),
    C(
        "divide_no_nan",
        "zeros",
        (normal(2, 3), fixed(np.array([[1.5, 0.0, -2.0], [0.0, 0.5, 3.0]], np.float32))),
        lambda x, y: np.where(y == 0, 0.0, x / np.where(y == 0, 1.0, y)),
        dtypes=F32_64,
        grad=(0,),
        tol_op="divide",
    ),
    C(
        "divide_no_nan",
        "int",
        (ints(2, 3), fixed(np.array([[2, 0, 3], [0, 1, 4]], np.int32))),
        lambda x, y: np.where(y == 0, 0.0, x / np.where(y == 0, 1.0, y)),
        dtypes=("int32",),
        out=FLOAT,
        tol_op="divide",
    ),
    C("moments", "axes", (normal(2, 3, 4),), R.moments, dtypes=F32_64, grad=(0,), out=FLOAT, axes=(0, 1)),
    C("moments", "keepdims", (normal(2, 3, 4),), R.moments, grad=(0,), out=FLOAT, axes=(-1,), keepdims=True),
    C("moments", "int", (ints(3, 4),), R.moments, dtypes=("int32",), out=FLOAT, axes=(0,)),
]
