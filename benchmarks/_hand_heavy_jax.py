"""Hand-written JAX training loops of B5-B7 (see ``_workloads.py``): plain ``jax.numpy`` / ``jax.lax`` models
(no Flax, no Optax), one ``jax.jit`` step each with Adam written out (Keras's formula, epsilon 1e-7), batch
statistics and moving averages for batch normalization, ``lax.scan`` for the LSTM time loop. The JAX backend's
"hand" column on B5-B7. Each ``make_*`` returns ``epoch()``: one pass over the data in consecutive batches,
returning the last loss as a float. Weights come from ``_hand_heavy_params.py``.

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
    import jax.numpy as jnp

    mean = h.mean(axis=-1, keepdims=True)
    var = jnp.square(h - mean).mean(axis=-1, keepdims=True)
    return (h - mean) * (g / jnp.sqrt(var + eps)) + b


def _xent(logits, yb):
    import jax
    import jax.numpy as jnp

    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), yb[:, None], axis=1))


def _transformer_forward(p, xb):
    import jax
    import jax.numpy as jnp

    h = p["emb"][xb]
    scale = 1.0 / np.sqrt(WIDTH // HEADS)
    for i in range(BLOCKS):
        q, k, v = (jnp.einsum("bsw,whd->bshd", h, p[f"{i}_w{n}"]) + p[f"{i}_b{n}"] for n in "qkv")
        att = jax.nn.softmax(jnp.einsum("bqhd,bkhd->bhqk", q * scale, k), axis=-1)
        o = jnp.einsum("bhqk,bkhd->bqhd", att, v)
        h = h + jnp.einsum("bqhd,hdw->bqw", o, p[f"{i}_wo"]) + p[f"{i}_bo"]
        h = _layer_norm(h, p[f"{i}_ln1_g"], p[f"{i}_ln1_b"])
        ff = jax.nn.relu(h @ p[f"{i}_ff1_w"] + p[f"{i}_ff1_b"]) @ p[f"{i}_ff2_w"] + p[f"{i}_ff2_b"]
        h = _layer_norm(h + ff, p[f"{i}_ln2_g"], p[f"{i}_ln2_b"])
    return h.mean(axis=1) @ p["head_w"] + p["head_b"], {}


def _lstm_direction(p, key, xs, reverse):
    """One LSTM layer over ``xs`` (time, batch, features): every step's ``h``, in the input's time order."""
    import jax
    import jax.numpy as jnp

    units = p[f"{key}_recurrent"].shape[0]
    zx = xs @ p[f"{key}_kernel"] + p[f"{key}_bias"]
    u = p[f"{key}_recurrent"]

    def step(carry, z):
        h, c = carry
        z = z + h @ u
        i, f, g, o = jnp.split(z, 4, axis=-1)
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        return (h, c), h

    zero = jnp.zeros((xs.shape[1], units), xs.dtype)
    _, hs = jax.lax.scan(step, (zero, zero), zx, reverse=reverse)
    return hs


def _lstm_forward(p, xb, bidirectional):
    import jax.numpy as jnp

    xs = jnp.swapaxes(xb, 0, 1)  # time-major for the scan
    dirs = ("f", "b") if bidirectional else ("f",)
    for layer in range(2):
        outs = [_lstm_direction(p, f"{layer}{d}", xs, reverse=d == "b") for d in dirs]
        if layer == 0:
            xs = jnp.concatenate(outs, axis=-1)
        else:  # the last output: the forward direction's final step, the backward direction's first
            last = [outs[0][-1]] + ([outs[1][0]] if bidirectional else [])
            xs = jnp.concatenate(last, axis=-1)
    return xs @ p["head_w"] + p["head_b"], {}


def _resnet_forward(p, xb):
    import jax
    import jax.numpy as jnp

    stats = {}

    def conv_bn(h, name):
        _, _, _, _, stride = next(c for c in P.RESNET_CONVS if c[0] == name)
        h = jax.lax.conv_general_dilated(
            h, p[name], (stride, stride), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
        )
        bn = P.bn_name(name)
        mean = h.mean(axis=(0, 1, 2))
        var = jnp.square(h - mean).mean(axis=(0, 1, 2))
        stats[bn] = (mean, var)
        return (h - mean) * (p[f"{bn}_gamma"] * jax.lax.rsqrt(var + BN_EPS)) + p[f"{bn}_beta"]

    h = jax.nn.relu(conv_bn(xb, "stem"))
    h = jax.nn.relu(conv_bn(jax.nn.relu(conv_bn(h, "b1_conv1")), "b1_conv2") + h)
    h = jax.nn.relu(conv_bn(jax.nn.relu(conv_bn(h, "b2_conv1")), "b2_conv2") + conv_bn(h, "b2_proj"))
    return h.mean(axis=(1, 2)) @ p["head_w"] + p["head_b"], stats


def _make(forward, params, x, y, batch):
    import jax
    import jax.numpy as jnp

    def loss_fn(p, xb, yb):
        logits, stats = forward(p, xb)
        return _xent(logits, yb), stats

    @jax.jit
    def step(p, m, v, moving, t, xb, yb):
        (loss, stats), g = jax.value_and_grad(loss_fn, has_aux=True)(p, xb, yb)
        m = jax.tree.map(lambda mi, gi: mi + (gi - mi) * (1 - _B1), m, g)
        v = jax.tree.map(lambda vi, gi: vi + (gi * gi - vi) * (1 - _B2), v, g)
        lr = _LR * jnp.sqrt(1 - _B2**t) / (1 - _B1**t)
        p = jax.tree.map(lambda pi, mi, vi: pi - lr * mi / (jnp.sqrt(vi) + _EPS), p, m, v)
        moving = {
            k: tuple(BN_MOMENTUM * old + (1 - BN_MOMENTUM) * new for old, new in zip(moving[k], stats[k]))
            for k in moving
        }
        return p, m, v, moving, loss

    params = {k: jnp.asarray(a) for k, a in params.items()}
    _, stats = jax.eval_shape(forward, params, jnp.asarray(x[:batch]))
    zeros = jax.tree.map(jnp.zeros_like, params)
    moving = {k: (jnp.zeros(s[0].shape, s[0].dtype), jnp.ones(s[1].shape, s[1].dtype)) for k, s in stats.items()}
    state = {"p": params, "m": zeros, "v": zeros, "moving": moving, "t": 0}
    spans = [(i * batch, (i + 1) * batch) for i in range(len(x) // batch)]
    y32 = y.astype(np.int32)

    def epoch():
        p, m, v, moving, t = state["p"], state["m"], state["v"], state["moving"], state["t"]
        loss = None
        for a, b in spans:
            t += 1
            p, m, v, moving, loss = step(p, m, v, moving, jnp.float32(t), x[a:b], y32[a:b])
        state.update(p=p, m=m, v=v, moving=moving, t=t)
        return float(loss)

    return epoch


def make_transformer(x, y, batch):
    """B5: embedding, 2 post-norm encoder blocks (4-head self-attention, ReLU feed-forward), mean pool, dense."""
    return _make(_transformer_forward, P.transformer_params(), x.astype(np.int32), y, batch)


def make_lstm(x, y, batch, bidirectional=False):
    """B6: two stacked LSTM layers of 128 units (the second returns its last output), then a dense layer."""
    return _make(lambda p, xb: _lstm_forward(p, xb, bidirectional), P.lstm_params(bidirectional), x, y, batch)


def make_resnet(x, y, batch):
    """B7: conv stem, two residual blocks (the second strided, with a 1x1 projection), global pool, dense."""
    return _make(_resnet_forward, P.resnet_params(), x, y, batch)


MAKERS = {
    "transformer": make_transformer,
    "lstm": make_lstm,
    "bilstm": lambda x, y, batch: make_lstm(x, y, batch, bidirectional=True),
    "resnet": make_resnet,
}
