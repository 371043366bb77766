"""Conformance cases: the rest of ``keras.ops.nn`` (``backends/contract/nn_more.py``) against the float64
references of :mod:`reference_nn_more`.

Inputs keep a margin from the kinks of the piecewise activations (finite differences must not straddle one);
the gradient conventions at the kinks themselves are pinned in ``tests/ops/test_nn_more.py``. Sizes stay small:
every differentiable case is also checked against finite differences and through a Hessian-vector product.
"""

import numpy as np

from . import reference_nn_more as R
from .harness import (
    F32_64,
    FLOAT,
    INT32,
    INTS,
    NONE,
    C,
    Gen,
    const,
    distinct,
    fixed,
    ints,
    normal,
    positive,
    uniform,
)

CF = "channels_first"
HALF = ("float16", "bfloat16")
LARGE = const([[1e4, -1e4, 0.0, 1.0], [-1e4, -1e4, -1e4, -1e4], [1e4, 1e4, -3.0, 2.0]])


def simplex(*shape):
    """Rows of soft labels: non-negative, summing to 1 along the last axis."""

    def fn(rng):
        v = rng.uniform(0.05, 1.0, shape)
        return v / v.sum(axis=-1, keepdims=True)

    return Gen(fn, f"simplex{shape}")


def labels(*values):
    return fixed(np.array(values, np.int32))


# ------------------------------------------------------------------------------------------------ activations
# (op, reference, kinks, keyword arguments)
ACTIVATIONS = [
    ("celu", R.celu, [0.0], {}),
    ("hard_shrink", R.hard_shrink, [-0.5, 0.5], {}),
    ("hard_silu", R.hard_silu, [-3.0, 3.0], {}),
    ("hard_tanh", R.hard_tanh, [-1.0, 1.0], {}),
    ("log_sigmoid", R.log_sigmoid, None, {}),
    ("soft_shrink", R.soft_shrink, [-0.5, 0.5], {}),
    ("sparse_plus", R.sparse_plus, [-1.0, 1.0], {}),
    ("sparse_sigmoid", R.sparse_sigmoid, [-1.0, 1.0], {}),
    ("squareplus", R.squareplus, None, {}),
    ("tanh_shrink", R.tanh_shrink, None, {}),
]

_ACTIVATION_CASES = [
    *[
        C(op, "basic", (normal(3, 5, scale=2.5, away=kinks),), ref, dtypes=F32_64, grad=(0,), out=FLOAT, **kw)
        for op, ref, kinks, kw in ACTIVATIONS
    ],
    *[C(op, "half", (normal(3, 4, scale=2),), ref, dtypes=HALF, out=FLOAT) for op, ref, _, _ in ACTIVATIONS],
    *[C(op, "int", (ints(3, 4),), ref, dtypes=("int32",), out=FLOAT) for op, ref, _, _ in ACTIVATIONS],
    *[
        C(op, "large", (LARGE,), ref, dtypes=F32_64, finite=True)
        for op, ref, _, _ in ACTIVATIONS
        if op in ("celu", "log_sigmoid", "hard_silu", "sparse_plus", "tanh_shrink")
    ],
    C("celu", "alpha", (normal(3, 4, scale=2, away=[0.0]),), R.celu, grad=(0,), alpha=0.5),
    C("hard_shrink", "threshold", (normal(3, 4, away=[-1.0, 1.0]),), R.hard_shrink, grad=(0,), threshold=1.0),
    C("soft_shrink", "threshold", (normal(3, 4, away=[-0.2, 0.2]),), R.soft_shrink, grad=(0,), threshold=0.2),
    C("squareplus", "b", (normal(3, 4, scale=3),), R.squareplus, dtypes=F32_64, grad=(0,), b=1),
    C(
        "threshold",
        "basic",
        (normal(3, 5, away=[0.3]),),
        R.threshold,
        dtypes=F32_64,
        grad=(0,),
        out=FLOAT,
        threshold=0.3,
        default_value=-2.0,
    ),
    C("threshold", "int", (ints(3, 4),), R.threshold, dtypes=("int32",), out=FLOAT, threshold=1, default_value=0),
    C("glu", "last", (normal(3, 6, scale=2),), R.glu, dtypes=F32_64, grad=(0,), out=FLOAT),
    C("glu", "axis0", (normal(4, 3, scale=2),), R.glu, grad=(0,), axis=0),
    C("glu", "half", (normal(2, 4),), R.glu, dtypes=HALF),
    # the projection onto the simplex (sums to 1); every Keras 3.15 backend sums cumulative sums into its threshold
    C("sparsemax", "last", (distinct(3, 5, spacing=0.3),), R.sparsemax, dtypes=F32_64, grad=(0,), out=FLOAT),
    C("sparsemax", "axis0", (distinct(4, 3, spacing=0.3),), R.sparsemax, grad=(0,), axis=0),
    C("sparsemax", "spread", (distinct(2, 6, spacing=2.0),), R.sparsemax, grad=(0,)),  # one winner per row
    C("sparsemax", "int", (ints(2, 4),), R.sparsemax, dtypes=("int32",), out=FLOAT),
]

# --------------------------------------------------------------------------------------------- normalizations
_NORM_CASES = [
    C(
        "batch_normalization",
        "axis1",
        (normal(2, 3, 4), normal(3), positive(3), 1, normal(3), normal(3)),
        R.batch_normalization,
        dtypes=F32_64,
        grad=(0, 1, 2, 4, 5),
        tol_op="moments",
    ),
    C(
        "batch_normalization",
        "last-no-affine",
        (normal(4, 5), normal(5), positive(5), -1),
        R.batch_normalization,
        grad=(0, 1, 2),
        tol_op="moments",
        epsilon=1e-5,
    ),
    # A channels-last image batch: TensorFlow runs it as its inference batch-norm kernel with its own gradient.
    C(
        "batch_normalization",
        "image-last",
        (normal(2, 3, 3, 4), normal(4), positive(4), -1, normal(4), normal(4)),
        R.batch_normalization,
        dtypes=F32_64,
        grad=(0, 1, 2, 4, 5),
        tol_op="moments",
    ),
    C("batch_normalization", "half", (normal(4, 3), normal(3), positive(3), 1), R.batch_normalization, dtypes=HALF),
    C(
        "layer_normalization",
        "last",
        (normal(3, 6, scale=2, shift=1), normal(6), normal(6)),
        R.layer_normalization,
        dtypes=F32_64,
        grad=(0, 1, 2),
        tol_op="moments",
        epsilon=1e-5,
    ),
    C(
        "layer_normalization",
        "axes",
        (normal(2, 3, 4), normal(3, 4), normal(3, 4)),
        R.layer_normalization,
        grad=(0, 1, 2),
        tol_op="moments",
        axis=(1, -1),
    ),
    C(
        "layer_normalization",
        "axis1",
        (normal(2, 3, 4), normal(3), normal(3)),
        R.layer_normalization,
        grad=(0, 1, 2),
        tol_op="moments",
        axis=1,
    ),
    C("layer_normalization", "plain", (normal(4, 5),), R.layer_normalization, grad=(0,), tol_op="moments"),
    C("layer_normalization", "half", (normal(3, 8),), R.layer_normalization, dtypes=HALF, tol_op="moments"),
    C(
        "layer_normalization",
        "int",
        (ints(3, 4),),
        R.layer_normalization,
        dtypes=("int32",),
        out=FLOAT,
        tol_op="moments",
    ),  # floatx: Keras casts the normalized values back to int32 (-1.22 -> -1)
    C(
        "rms_normalization",
        "last",
        (normal(3, 6), normal(6)),
        R.rms_normalization,
        dtypes=F32_64,
        grad=(0, 1),
        tol_op="moments",
    ),
    C(
        "rms_normalization",
        "axes",
        (normal(2, 3, 4),),
        R.rms_normalization,
        grad=(0,),
        tol_op="moments",
        axis=(0, 2),
        epsilon=1e-4,
    ),
    C("rms_normalization", "half", (normal(3, 8), normal(8)), R.rms_normalization, dtypes=HALF, tol_op="moments"),
    C("normalize", "l2", (normal(3, 5),), R.normalize, dtypes=F32_64, grad=(0,), out=FLOAT, tol_op="moments"),
    C("normalize", "l1-axis0", (normal(4, 3, away=[0.0]),), R.normalize, grad=(0,), tol_op="moments", axis=0, order=1),
    # several axes: the entrywise norm of the block (Keras's backends take a matrix norm there: the same for
    # order 2, the largest column sum for order 1, an error for order 3)
    C("normalize", "l3-axes", (normal(2, 3, 4),), R.normalize, grad=(0,), tol_op="moments", axis=(1, 2), order=3),
    C("normalize", "all", (normal(2, 3),), R.normalize, grad=(0,), tol_op="moments", axis=None),
    C(
        "normalize",
        "zero-row",
        (const([[0.0, 0.0, 0.0], [1e-9, 0.0, 0.0], [3.0, 0.0, -4.0]]),),
        R.normalize,
        dtypes=F32_64,
        tol_op="moments",
    ),
    C("normalize", "int", (ints(3, 4, low=1),), R.normalize, dtypes=("int32",), out=FLOAT, tol_op="moments"),
    C(
        "psnr",
        "basic",
        (uniform(2, 4, 4, 3, low=0, high=1), uniform(2, 4, 4, 3, low=0, high=1), 1.0),
        R.psnr,
        dtypes=F32_64,
        grad=(0, 1),
        tol_op="moments",
    ),
    C("psnr", "max255", (normal(3, 5, scale=40), normal(3, 5, scale=40), 255.0), R.psnr, grad=(0, 1), tol_op="moments"),
]

# ---------------------------------------------------------------------------------------------- cross-entropy
_XENT_CASES = [
    C(
        "binary_crossentropy",
        "probs",
        (uniform(3, 4, low=0, high=1), uniform(3, 4, low=0.05, high=0.95)),
        R.binary_crossentropy,
        dtypes=F32_64,
        grad=(0, 1),
        tol_op="log",
    ),
    C(
        "binary_crossentropy",
        "logits",
        (uniform(3, 4, low=0, high=1), normal(3, 4, scale=3)),
        R.binary_crossentropy,
        dtypes=F32_64,
        grad=(0, 1),
        tol_op="log",
        from_logits=True,
    ),
    C(
        "binary_crossentropy",
        "logits-large",
        (fixed(np.array([[1, 0, 1, 0]] * 3, np.float32)), LARGE),
        R.binary_crossentropy,
        dtypes=F32_64,
        finite=True,
        tol_op="log",
        from_logits=True,
    ),
    # float64 only: in float32 the upper clip bound 1 - 1e-7 rounds to 1 - 1.19e-7 (as in Keras), so a
    # prediction of 1 for a label 0 costs -log(1.19e-7) = 15.94 instead of the exact -log(1e-7) = 16.12
    C(
        "binary_crossentropy",
        "clipped",
        (const([[1.0, 0.0, 1.0, 0.0]]), const([[0.0, 1.0, 1.0, 0.0]])),
        R.binary_crossentropy,
        dtypes=("float64",),
        finite=True,
        tol_op="log",
    ),
    C(
        "binary_crossentropy",
        "half",
        (uniform(3, 4, low=0, high=1), uniform(3, 4, low=0.1, high=0.9)),
        R.binary_crossentropy,
        dtypes=HALF,
        tol_op="log",
    ),
    C(
        "categorical_crossentropy",
        "probs",
        (simplex(3, 5), positive(3, 5)),
        R.categorical_crossentropy,
        dtypes=F32_64,
        grad=(0, 1),
        tol_op="log_softmax",
    ),
    C(
        "categorical_crossentropy",
        "logits-axis0",
        (simplex(4, 3), normal(4, 3, scale=2)),
        R.categorical_crossentropy,
        grad=(0, 1),
        tol_op="log_softmax",
        from_logits=True,
        axis=0,
    ),
    C(
        "categorical_crossentropy",
        "logits-large",
        (fixed(np.eye(3, 4, dtype=np.float32)), LARGE),
        R.categorical_crossentropy,
        dtypes=F32_64,
        finite=True,
        tol_op="log_softmax",
        from_logits=True,
    ),
    C(
        "sparse_categorical_crossentropy",
        "probs",
        (labels(0, 3, 1), positive(3, 4)),
        R.sparse_categorical_crossentropy,
        dtypes=F32_64,
        grad=(1,),
        tol_op="log_softmax",
    ),
    C(
        "sparse_categorical_crossentropy",
        "logits",
        (labels([0, 2], [1, 1]), normal(2, 2, 3, scale=2)),
        R.sparse_categorical_crossentropy,
        dtypes=F32_64,
        grad=(1,),
        tol_op="log_softmax",
        from_logits=True,
    ),
    C(
        "sparse_categorical_crossentropy",
        "axis1",
        (labels([0, 2], [1, 0]), normal(2, 3, 2)),
        R.sparse_categorical_crossentropy,
        grad=(1,),
        tol_op="log_softmax",
        from_logits=True,
        axis=1,
    ),
    C(
        "sparse_categorical_crossentropy",
        "trailing-1",
        (labels([0], [3], [1]), positive(3, 4)),
        R.sparse_categorical_crossentropy,
        grad=(1,),
        tol_op="log_softmax",
    ),
    C("multi_hot", "rows", (labels([0, 2], [1, 1], [3, 0]), 4), R.multi_hot, dtypes=(NONE,), out="float32"),
    C("multi_hot", "vector", (labels(0, 4, 2), 5), R.multi_hot, dtypes=(NONE,), out="float32"),
    C(
        "multi_hot",
        "rank3",
        (labels([[0, 2], [1, 1]], [[3, 3], [0, 1]]), 4),
        R.multi_hot,
        dtypes=(NONE,),
        out="float32",
    ),
    C("multi_hot", "axis0", (labels([0, 2], [1, 1]), 4), R.multi_hot, dtypes=(NONE,), out="float32", axis=0),
    C("multi_hot", "out-of-range", (labels([0, 7], [-1, 2]), 3), R.multi_hot, dtypes=(NONE,), out="float32"),
    C("multi_hot", "int-dtype", (labels([0, 2], [1, 1]), 4), R.multi_hot, dtypes=(NONE,), out="int32", dtype="int32"),
]

# ------------------------------------------------------------------------------------- pooling, convolutions
_POOL_CASES = [
    C(
        "adaptive_average_pool",
        "2d",
        (normal(2, 5, 7, 3), (3, 4)),
        R.adaptive_average_pool,
        dtypes=F32_64,
        grad=(0,),
        out=FLOAT,
        tol_op="average_pool",
    ),
    C(
        "adaptive_average_pool",
        "1d-int-size",
        (normal(2, 7, 3), 3),
        R.adaptive_average_pool,
        grad=(0,),
        tol_op="average_pool",
    ),
    C(
        "adaptive_average_pool",
        "3d",
        (normal(1, 4, 5, 3, 2), (2, 3, 2)),
        R.adaptive_average_pool,
        grad=(0,),
        tol_op="average_pool",
    ),
    C(
        "adaptive_average_pool",
        "upsample-cf",
        (normal(2, 3, 3, 2), (5, 4)),
        R.adaptive_average_pool,
        grad=(0,),
        tol_op="average_pool",
        data_format=CF,
    ),
    C(
        "adaptive_average_pool",
        "int",
        (ints(1, 6, 5, 2), 2),
        R.adaptive_average_pool,
        dtypes=("int32",),
        out=FLOAT,
        tol_op="average_pool",
    ),
    C(
        "adaptive_average_pool",
        "half",
        (normal(1, 6, 6, 2), 4),
        R.adaptive_average_pool,
        dtypes=HALF,
        tol_op="average_pool",
    ),
    C("adaptive_max_pool", "2d", (distinct(2, 5, 7, 3), (3, 4)), R.adaptive_max_pool, dtypes=F32_64, grad=(0,)),
    C("adaptive_max_pool", "1d", (distinct(2, 7, 3), 3), R.adaptive_max_pool, grad=(0,)),
    C(
        "adaptive_max_pool",
        "3d-cf",
        (distinct(1, 2, 4, 5, 3), (3, 2, 2)),
        R.adaptive_max_pool,
        grad=(0,),
        data_format=CF,
    ),
    C("adaptive_max_pool", "upsample", (distinct(1, 3, 2, 2), (4, 5)), R.adaptive_max_pool, grad=(0,)),
    C("adaptive_max_pool", "int", (distinct(1, 6, 5, 2, spacing=1, jitter=0), 2), R.adaptive_max_pool, dtypes=INTS),
    C(
        "separable_conv",
        "2d",
        (normal(2, 5, 6, 3), normal(3, 3, 3, 2), normal(1, 1, 6, 4)),
        R.separable_conv,
        dtypes=F32_64,
        grad=(0, 1, 2),
        tol_op="conv",
    ),
    C(
        "separable_conv",
        "2d-same-stride2",
        (normal(1, 6, 5, 2), normal(3, 3, 2, 1), normal(1, 1, 2, 3)),
        R.separable_conv,
        grad=(0, 1, 2),
        tol_op="conv",
        strides=2,
        padding="same",
    ),
    C(
        "separable_conv",
        "2d-dilation-cf",
        (normal(1, 2, 6, 6), normal(2, 2, 2, 2), normal(1, 1, 4, 3)),
        R.separable_conv,
        grad=(0, 1, 2),
        tol_op="conv",
        dilation_rate=2,
        data_format=CF,
    ),
    C(
        "separable_conv",
        "1d",
        (normal(2, 7, 3), normal(3, 3, 2), normal(1, 6, 2)),
        R.separable_conv,
        grad=(0, 1, 2),
        tol_op="conv",
    ),
    C("unfold", "basic", (normal(2, 3, 4, 5), 2), R.unfold, dtypes=F32_64 + INTS, grad=(0,)),
    C(
        "unfold",
        "options",
        (normal(1, 2, 6, 7), (2, 3)),
        R.unfold,
        grad=(0,),
        dilation=(2, 1),
        padding=(1, 2),
        stride=(2, 3),
    ),
    C("fold", "basic", (normal(2, 12, 12), (4, 5), 2), R.fold, dtypes=F32_64 + INTS, grad=(0,), tol_op="sum"),
    C(
        "fold",
        "options",
        (normal(1, 12, 9), (6, 7), (2, 3)),
        R.fold,
        grad=(0,),
        tol_op="sum",
        dilation=(2, 1),
        padding=(1, 2),
        stride=(2, 3),
    ),
    C("fold", "stride-gap", (normal(1, 4, 4), 5, 2), R.fold, grad=(0,), tol_op="sum", stride=3),
    C("depth_to_space", "last", (normal(2, 2, 3, 8), 2), R.depth_to_space, dtypes=F32_64 + INTS, grad=(0,)),
    # channels_first orders the channels as PyTorch's pixel_shuffle, with Keras's JAX, PyTorch and NumPy backends
    # (its TensorFlow backend transposes to channels_last and uses that order)
    C("depth_to_space", "first", (normal(1, 18, 2, 2), 3), R.depth_to_space, grad=(0,), data_format=CF),
    C("space_to_depth", "last", (normal(2, 4, 6, 3), 2), R.space_to_depth, dtypes=F32_64 + INTS, grad=(0,)),
    C("space_to_depth", "first", (normal(1, 2, 6, 3), 3), R.space_to_depth, grad=(0,), data_format=CF),
]

# ------------------------------------------------------------------------------------------------- attention
_MASK = fixed(np.array([[[[True, False, True, True, False, True]]]] * 2))  # (2, 1, 1, 6)
_ATTENTION_CASES = [
    C(
        "dot_product_attention",
        "mha",
        (normal(2, 3, 2, 4), normal(2, 5, 2, 4), normal(2, 5, 2, 3)),
        R.dot_product_attention,
        dtypes=F32_64,
        grad=(0, 1, 2),
        tol_op="softmax",
    ),
    C(
        "dot_product_attention",
        "gqa-bias",
        (normal(2, 3, 4, 5), normal(2, 6, 2, 5), normal(2, 6, 2, 3), normal(1, 4, 3, 6)),
        R.dot_product_attention,
        grad=(0, 1, 2, 3),
        tol_op="softmax",
    ),
    C(
        "dot_product_attention",
        "mqa-mask-scale",
        (normal(2, 3, 2, 4), normal(2, 6, 1, 4), normal(2, 6, 1, 4), None, _MASK),
        R.dot_product_attention,
        grad=(0, 1, 2),
        tol_op="softmax",
        scale=0.3,
    ),
    C(
        "dot_product_attention",
        "causal",
        (normal(1, 4, 2, 3), normal(1, 4, 2, 3), normal(1, 4, 2, 3)),
        R.dot_product_attention,
        dtypes=F32_64,
        grad=(0, 1, 2),
        tol_op="softmax",
        is_causal=True,
    ),
    C(
        "dot_product_attention",
        "causal-and-mask",
        (normal(2, 3, 1, 4), normal(2, 6, 1, 4), normal(2, 6, 1, 4)),
        R.dot_product_attention,
        grad=(0, 1, 2),
        tol_op="softmax",
        is_causal=True,
        mask=np.array([[True, True, False, True, True, True]]),
    ),
    C(
        "dot_product_attention",
        "fully-masked-row",
        (normal(1, 2, 1, 3), normal(1, 3, 1, 3), normal(1, 3, 1, 3)),
        R.dot_product_attention,
        tol_op="softmax",
        mask=np.array([[True, False, True], [False, False, False]]),
    ),
    C(
        "dot_product_attention",
        "soft-cap",
        (normal(1, 3, 2, 4, scale=3), normal(1, 4, 2, 4, scale=3), normal(1, 4, 2, 2)),
        R.dot_product_attention,
        grad=(0, 1, 2),
        tol_op="softmax",
        attn_logits_soft_cap=2.0,
    ),
    C(
        "dot_product_attention",
        "half",
        (normal(2, 3, 2, 4), normal(2, 5, 2, 4), normal(2, 5, 2, 3)),
        R.dot_product_attention,
        dtypes=HALF,
        tol_op="softmax",
    ),
]

# ------------------------------------------------------------------------------------------------------- CTC
_TARGET = labels([1, 2, 2, 3], [3, 1, 0, 0], [0, 0, 0, 0])
_CTC_CASES = [
    C(
        "ctc_loss",
        "basic",
        (_TARGET, normal(3, 8, 5, scale=2), labels(4, 2, 0), labels(8, 6, 5)),
        R.ctc_loss,
        dtypes=F32_64,
        grad=(1,),
        out=FLOAT,
        tol_op="logsumexp",
    ),
    C(
        "ctc_loss",
        "blank-last",
        (labels([1, 1, 0], [2, 0, 2]), normal(2, 7, 4), labels(3, 3), labels(7, 5)),
        R.ctc_loss,
        grad=(1,),
        tol_op="logsumexp",
        mask_index=3,
    ),
    C(
        "ctc_loss",
        "tight",
        (labels([1, 1, 2]), normal(1, 4, 3), labels(3), labels(4)),
        R.ctc_loss,
        grad=(1,),
        tol_op="logsumexp",
    ),  # "1 - 1 2": exactly enough steps for the repeat's blank
    C(
        "ctc_loss",
        "impossible",
        (labels([1, 1, 2], [1, 2, 0]), normal(2, 4, 3), labels(3, 2), labels(3, 4)),
        R.ctc_loss,
        dtypes=F32_64,
        tol_op="logsumexp",
    ),
    # ^ the first row needs 4 steps: probability 0, loss inf (PyTorch's too; Keras's JAX backend gives ~1e5, its
    #   TensorFlow backend ~709: finite stand-ins for log 0)
    C(
        "ctc_loss",
        "half",
        (_TARGET, normal(3, 8, 5), labels(4, 2, 0), labels(8, 6, 5)),
        R.ctc_loss,
        dtypes=HALF,
        out="float32",
        tol_op="logsumexp",
    ),
    C(
        "ctc_decode",
        "greedy",
        (normal(3, 7, 4, scale=2), labels(7, 4, 0)),
        R.ctc_decode,
        dtypes=F32_64,
        out=(INT32, FLOAT),
    ),
    C(
        "ctc_decode",
        "greedy-no-merge-blank-last",
        (normal(2, 6, 3, scale=2), labels(6, 5)),
        R.ctc_decode,
        out=(INT32, FLOAT),
        merge_repeated=False,
        mask_index=None,
    ),
    C(
        "ctc_decode",
        "beam",
        (normal(3, 6, 4, scale=2), labels(6, 4, 5)),
        R.ctc_decode,
        dtypes=F32_64,
        out=(INT32, FLOAT),
        tol_op="logsumexp",
        strategy="beam_search",
        beam_width=5,
        top_paths=3,
    ),
    C(
        "ctc_decode",
        "beam-blank-last",
        (normal(2, 5, 3, scale=2), labels(5, 5)),
        R.ctc_decode,
        out=(INT32, FLOAT),
        tol_op="logsumexp",
        strategy="beam_search",
        beam_width=3,
        top_paths=2,
        mask_index=2,
    ),
    C(
        "ctc_decode",
        "beam-wide",
        (normal(1, 4, 3, scale=2), labels(4)),
        R.ctc_decode,
        out=(INT32, FLOAT),
        tol_op="logsumexp",
        strategy="beam_search",
        beam_width=40,
        top_paths=4,
    ),
]

CASES = _ACTIVATION_CASES + _NORM_CASES + _XENT_CASES + _POOL_CASES + _ATTENTION_CASES + _CTC_CASES
