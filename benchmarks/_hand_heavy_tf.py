"""Hand-written TensorFlow training loops of B5-B7 (see ``_workloads.py``): raw ``tf.Variable`` weights, no
``tf.keras``, one ``tf.function`` step each (a ``GradientTape``, Adam written out in Keras's formula with
epsilon 1e-7 as variable assignments, batch statistics and moving averages for batch normalization, the LSTM
time loop as ``tf.scan``). The TensorFlow backend's "hand" column on B5-B7. Each ``make_*`` returns
``epoch()``: one pass over the data in consecutive batches, returning the last loss as a float. Weights come
from ``_hand_heavy_params.py``, as for the JAX loops.

>>> import numpy as np
>>> x = np.zeros((4, 64, 32), np.float32); y = np.zeros(4, np.int64)
>>> 0.0 < make_lstm(x, y, batch=2)() < 10.0
True
"""

import _hand_heavy_params as P
import numpy as np
from _hand_heavy import BLOCKS, BN_EPS, BN_MOMENTUM, HEADS, WIDTH

_B1, _B2, _EPS, _LR = 0.9, 0.999, 1e-7, 1e-3


def _layer_norm(h, g, b, eps=1e-6):
    import tensorflow as tf

    mean, var = tf.nn.moments(h, axes=[-1], keepdims=True)
    return (h - mean) * (g * tf.math.rsqrt(var + eps)) + b


def _transformer_forward(p, xb, stats):
    import tensorflow as tf

    h = tf.gather(p["emb"], xb)
    scale = 1.0 / np.sqrt(WIDTH // HEADS)
    for i in range(BLOCKS):
        q, k, v = (tf.einsum("bsw,whd->bshd", h, p[f"{i}_w{n}"]) + p[f"{i}_b{n}"] for n in "qkv")
        att = tf.nn.softmax(tf.einsum("bqhd,bkhd->bhqk", q * scale, k), axis=-1)
        o = tf.einsum("bhqk,bkhd->bqhd", att, v)
        h = h + tf.einsum("bqhd,hdw->bqw", o, p[f"{i}_wo"]) + p[f"{i}_bo"]
        h = _layer_norm(h, p[f"{i}_ln1_g"], p[f"{i}_ln1_b"])
        ff = tf.nn.relu(h @ p[f"{i}_ff1_w"] + p[f"{i}_ff1_b"]) @ p[f"{i}_ff2_w"] + p[f"{i}_ff2_b"]
        h = _layer_norm(h + ff, p[f"{i}_ln2_g"], p[f"{i}_ln2_b"])
    return tf.reduce_mean(h, axis=1) @ p["head_w"] + p["head_b"]


def _lstm_direction(p, key, xs, reverse):
    """One LSTM layer over ``xs`` (time, batch, features): every step's ``h``, in the input's time order."""
    import tensorflow as tf

    u = p[f"{key}_recurrent"]
    zx = tf.einsum("tbf,fg->tbg", xs, p[f"{key}_kernel"]) + p[f"{key}_bias"]

    def step(carry, z):
        h, c = tf.unstack(carry)
        z = z + h @ u
        i, f, g, o = tf.split(z, 4, axis=-1)
        c = tf.sigmoid(f) * c + tf.sigmoid(i) * tf.tanh(g)
        return tf.stack([tf.sigmoid(o) * tf.tanh(c), c])

    zero = tf.zeros([2, tf.shape(xs)[1], u.shape[0]], xs.dtype)
    return tf.scan(step, zx, initializer=zero, reverse=reverse)[:, 0]


def _lstm_forward(p, xb, stats, bidirectional):
    import tensorflow as tf

    xs = tf.transpose(xb, [1, 0, 2])  # time-major for the scan
    dirs = ("f", "b") if bidirectional else ("f",)
    for layer in range(2):
        outs = [_lstm_direction(p, f"{layer}{d}", xs, reverse=d == "b") for d in dirs]
        if layer == 0:
            xs = tf.concat(outs, axis=-1)
        else:  # the last output: the forward direction's final step, the backward direction's first
            xs = tf.concat([outs[0][-1]] + ([outs[1][0]] if bidirectional else []), axis=-1)
    return xs @ p["head_w"] + p["head_b"]


def _resnet_forward(p, xb, stats):
    import tensorflow as tf

    def conv_bn(h, name):
        stride = next(c for c in P.RESNET_CONVS if c[0] == name)[4]
        h = tf.nn.conv2d(h, p[name], stride, "SAME")
        bn = P.bn_name(name)
        mean, var = tf.nn.moments(h, axes=[0, 1, 2])
        stats[bn] = (mean, var)
        return tf.nn.batch_normalization(h, mean, var, p[f"{bn}_beta"], p[f"{bn}_gamma"], BN_EPS)

    h = tf.nn.relu(conv_bn(xb, "stem"))
    h = tf.nn.relu(conv_bn(tf.nn.relu(conv_bn(h, "b1_conv1")), "b1_conv2") + h)
    h = tf.nn.relu(conv_bn(tf.nn.relu(conv_bn(h, "b2_conv1")), "b2_conv2") + conv_bn(h, "b2_proj"))
    return tf.reduce_mean(h, axis=[1, 2]) @ p["head_w"] + p["head_b"]


def _make(forward, params, x, y, batch, moving_names=()):
    import tensorflow as tf

    names = sorted(params)
    p = {k: tf.Variable(params[k]) for k in names}
    ms = {k: tf.Variable(tf.zeros_like(p[k])) for k in names}
    vs = {k: tf.Variable(tf.zeros_like(p[k])) for k in names}
    moving = {
        k: (tf.Variable(tf.zeros_like(p[f"{k}_beta"])), tf.Variable(tf.ones_like(p[f"{k}_beta"]))) for k in moving_names
    }
    it = tf.Variable(0.0)

    @tf.function(jit_compile=False)
    def step(xb, yb):
        stats = {}
        with tf.GradientTape() as tape:
            logits = forward(p, xb, stats)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(yb, logits))
        grads = tape.gradient(loss, [p[k] for k in names])
        for k, (mean_v, var_v) in moving.items():
            mean_v.assign(BN_MOMENTUM * mean_v + (1 - BN_MOMENTUM) * stats[k][0])
            var_v.assign(BN_MOMENTUM * var_v + (1 - BN_MOMENTUM) * stats[k][1])
        it.assign_add(1.0)
        lr = _LR * tf.sqrt(1 - _B2**it) / (1 - _B1**it)
        for k, g in zip(names, grads):
            g = tf.convert_to_tensor(g)  # the embedding's gradient arrives as IndexedSlices
            ms[k].assign_add((g - ms[k]) * (1 - _B1))
            vs[k].assign_add((g * g - vs[k]) * (1 - _B2))
            p[k].assign_sub(lr * ms[k] / (tf.sqrt(vs[k]) + _EPS))
        return loss

    spans = [(i * batch, (i + 1) * batch) for i in range(len(x) // batch)]
    xt, yt = tf.constant(x), tf.constant(y.astype(np.int32))

    def epoch():
        loss = None
        for a, b in spans:
            loss = step(xt[a:b], yt[a:b])
        return float(loss)

    return epoch


def make_transformer(x, y, batch):
    """B5: embedding, 2 post-norm encoder blocks (4-head self-attention, ReLU feed-forward), mean pool, dense."""
    return _make(_transformer_forward, P.transformer_params(), x.astype(np.int32), y, batch)


def make_lstm(x, y, batch, bidirectional=False):
    """B6: two stacked LSTM layers of 128 units (the second returns its last output), then a dense layer."""

    def forward(p, xb, stats):
        return _lstm_forward(p, xb, stats, bidirectional)

    return _make(forward, P.lstm_params(bidirectional), x, y, batch)


def make_resnet(x, y, batch):
    """B7: conv stem, two residual blocks (the second strided, with a 1x1 projection), global pool, dense."""
    bns = [P.bn_name(c[0]) for c in P.RESNET_CONVS]
    return _make(_resnet_forward, P.resnet_params(), x, y, batch, moving_names=bns)


MAKERS = {
    "transformer": make_transformer,
    "lstm": make_lstm,
    "bilstm": lambda x, y, batch: make_lstm(x, y, batch, bidirectional=True),
    "resnet": make_resnet,
}
