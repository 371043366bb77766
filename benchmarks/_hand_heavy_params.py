"""Initial weights of the hand-written B5-B7 models in JAX and TensorFlow (``_hand_heavy_jax.py``,
``_hand_heavy_tf.py``): one flat ``{name: float32 array}`` dict per model, from a seeded numpy generator, so
that both frameworks start from the same numbers. Glorot-uniform matrices, zero biases and offsets, unit
scales, a forget-gate bias of 1 (as Keras's layers start).

>>> sorted(resnet_params())[:3]
['b1_bn1_beta', 'b1_bn1_gamma', 'b1_conv1']
"""

import numpy as np
from _hand_heavy import BLOCKS, CLASSES, FF, HEADS, IMAGE, RNN_FEATURES, RNN_UNITS, STEM, VOCAB, WIDTH


def _glorot(rng, shape, fan_in, fan_out):
    limit = np.sqrt(6.0 / (fan_in + fan_out))
    return rng.uniform(-limit, limit, size=shape).astype(np.float32)


def _zeros(*shape):
    return np.zeros(shape, np.float32)


def transformer_params(seed=0):
    """B5: ``emb``, per block ``{i}_wq/wk/wv`` (width, heads, head_dim), ``{i}_wo`` (heads, head_dim, width),
    their biases, two layer norms and the feed-forward pair; then ``head_w``, ``head_b``."""
    rng = np.random.default_rng(seed)
    hd = WIDTH // HEADS
    p = {"emb": rng.uniform(-0.05, 0.05, size=(VOCAB, WIDTH)).astype(np.float32)}
    for i in range(BLOCKS):
        for name in ("wq", "wk", "wv"):
            p[f"{i}_{name}"] = _glorot(rng, (WIDTH, HEADS, hd), WIDTH, WIDTH)
            p[f"{i}_b{name[1]}"] = _zeros(HEADS, hd)
        p[f"{i}_wo"] = _glorot(rng, (HEADS, hd, WIDTH), WIDTH, WIDTH)
        p[f"{i}_bo"] = _zeros(WIDTH)
        for ln in ("ln1", "ln2"):
            p[f"{i}_{ln}_g"], p[f"{i}_{ln}_b"] = np.ones(WIDTH, np.float32), _zeros(WIDTH)
        p[f"{i}_ff1_w"], p[f"{i}_ff1_b"] = _glorot(rng, (WIDTH, FF), WIDTH, FF), _zeros(FF)
        p[f"{i}_ff2_w"], p[f"{i}_ff2_b"] = _glorot(rng, (FF, WIDTH), FF, WIDTH), _zeros(WIDTH)
    p["head_w"], p["head_b"] = _glorot(rng, (WIDTH, CLASSES), WIDTH, CLASSES), _zeros(CLASSES)
    return p


def lstm_params(bidirectional=False, seed=0):
    """B6: per layer and direction ``{layer}{dir}_kernel`` (inputs, 4 units), ``_recurrent`` (units, 4 units)
    and ``_bias`` (gates ``[i, f, c, o]``); then ``head_w``, ``head_b``."""
    rng = np.random.default_rng(seed)
    dirs = ("f", "b") if bidirectional else ("f",)
    p = {}
    n_in = RNN_FEATURES
    for layer in range(2):
        for d in dirs:
            key = f"{layer}{d}"
            p[f"{key}_kernel"] = _glorot(rng, (n_in, 4 * RNN_UNITS), n_in, 4 * RNN_UNITS)
            p[f"{key}_recurrent"] = _glorot(rng, (RNN_UNITS, 4 * RNN_UNITS), RNN_UNITS, 4 * RNN_UNITS)
            bias = _zeros(4 * RNN_UNITS)
            bias[RNN_UNITS : 2 * RNN_UNITS] = 1.0
            p[f"{key}_bias"] = bias
        n_in = RNN_UNITS * len(dirs)
    p["head_w"], p["head_b"] = _glorot(rng, (n_in, CLASSES), n_in, CLASSES), _zeros(CLASSES)
    return p


#: B7's convolutions: (name, kernel size, input channels, output channels, stride), in the order they run.
RESNET_CONVS = (
    ("stem", 3, IMAGE[2], STEM, 1),
    ("b1_conv1", 3, STEM, STEM, 1),
    ("b1_conv2", 3, STEM, STEM, 1),
    ("b2_conv1", 3, STEM, 2 * STEM, 2),
    ("b2_conv2", 3, 2 * STEM, 2 * STEM, 1),
    ("b2_proj", 1, STEM, 2 * STEM, 2),
)


def resnet_params(seed=0):
    """B7: each of :data:`RESNET_CONVS` as an HWIO kernel ``{name}`` with batch-norm ``{bn}_gamma``/``_beta``
    (``bn`` = the conv's name with ``conv`` -> ``bn``, ``stem`` -> ``stem_bn``, ``proj`` -> ``proj_bn``); then
    ``head_w``, ``head_b``."""
    rng = np.random.default_rng(seed)
    p = {}
    for name, k, cin, cout, _ in RESNET_CONVS:
        p[name] = _glorot(rng, (k, k, cin, cout), k * k * cin, k * k * cout)
        bn = bn_name(name)
        p[f"{bn}_gamma"], p[f"{bn}_beta"] = np.ones(cout, np.float32), _zeros(cout)
    p["head_w"], p["head_b"] = _glorot(rng, (2 * STEM, CLASSES), 2 * STEM, CLASSES), _zeros(CLASSES)
    return p


def bn_name(conv):
    """The batch normalization after the convolution ``conv``."""
    return conv.replace("conv", "bn") if "conv" in conv else f"{conv}_bn"
