"""Hand-written training loops of the small CNN of workload B3, one per framework.

The network: 28x28x1 input, a 3x3 convolution to 8 channels ("same" padding, no bias), batch normalization
(training mode: batch statistics, moving averages with momentum 0.99, epsilon 1e-3, as Keras), ReLU, 2x2 max
pooling, flatten, a dense layer to 10 logits; sparse softmax cross-entropy, Adam (1e-3, epsilon 1e-7).
Each ``make_*(x, y, batch)`` returns ``epoch()`` (one pass over ``x`` in consecutive batches; returns the last
loss as a float). The loops are what a practitioner writes: numpy with an im2col convolution and the backward
pass derived by hand, ``torch.nn`` modules (channels-first, the layout PyTorch is tuned for), a ``jax.jit``
step and a ``tf.function`` step.

>>> import numpy as np
>>> x = np.random.default_rng(0).standard_normal((8, 28, 28, 1)).astype(np.float32)
>>> epoch = make_numpy(x, np.zeros(8, np.int64), batch=4)
>>> 0.0 < epoch() < 10.0
True
"""

import numpy as np
from _hand_loops import _B1, _B2, _EPS, _batches, _epoch

FILTERS, CLASSES, BN_EPS, BN_MOMENTUM = 8, 10, 1e-3, 0.99
FLAT = 14 * 14 * FILTERS


def _init(rng):
    """Kernel (3, 3, 1, 8), BN gamma/beta, dense kernel (1568, 10) and bias: He-normal weights."""
    k = (rng.standard_normal((3, 3, 1, FILTERS)) * (2.0 / 9) ** 0.5).astype(np.float32)
    wd = (rng.standard_normal((FLAT, CLASSES)) * (2.0 / FLAT) ** 0.5).astype(np.float32)
    return [k, np.ones(FILTERS, np.float32), np.zeros(FILTERS, np.float32), wd, np.zeros(CLASSES, np.float32)]


def _adam_lr(t):
    return 1e-3 * (1 - _B2**t) ** 0.5 / (1 - _B1**t)


def make_numpy(x, y, batch):
    """Numpy: im2col convolution (one matmul), batch norm, pooling and their backward passes by hand."""
    params = _init(np.random.default_rng(0))
    ms = [np.zeros_like(p) for p in params]
    vs = [np.zeros_like(p) for p in params]
    moving = [np.zeros(FILTERS, np.float32), np.ones(FILTERS, np.float32)]
    state = {"t": 0}

    def step(xb, yb):
        k, gamma, beta, wd, bd = params
        n = len(xb)
        xp = np.pad(xb[..., 0], ((0, 0), (1, 1), (1, 1)))
        cols = np.stack([xp[:, i : i + 28, j : j + 28] for i in range(3) for j in range(3)], axis=-1).reshape(-1, 9)
        conv = cols @ k.reshape(9, FILTERS)  # (n * 784, 8)
        mean, var = conv.mean(axis=0), conv.var(axis=0)
        inv_std = 1.0 / np.sqrt(var + np.float32(BN_EPS))
        xhat = (conv - mean) * inv_std
        bn = xhat * gamma + beta
        relu = np.maximum(bn, 0).reshape(n, 14, 2, 14, 2, FILTERS)
        pooled = relu.max(axis=(2, 4))
        flat = pooled.reshape(n, FLAT)
        logits = flat @ wd + bd
        z = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(z)
        s = e.sum(axis=1, keepdims=True)
        rows = np.arange(n)
        loss = float(np.mean(np.log(s[:, 0]) - z[rows, yb]))
        d = e / s
        d[rows, yb] -= 1.0
        d /= np.float32(n)
        g_wd, g_bd = flat.T @ d, d.sum(axis=0)
        d_pooled = (d @ wd.T).reshape(n, 14, 1, 14, 1, FILTERS)
        d_relu = (relu == pooled.reshape(n, 14, 1, 14, 1, FILTERS)) * d_pooled
        d_bn = d_relu.reshape(-1, FILTERS) * (bn > 0)
        g_gamma, g_beta = (d_bn * xhat).sum(axis=0), d_bn.sum(axis=0)
        d_xhat = d_bn * gamma
        rows_bn = conv.shape[0]
        d_conv = (inv_std / rows_bn) * (rows_bn * d_xhat - d_xhat.sum(axis=0) - xhat * (d_xhat * xhat).sum(axis=0))
        g_k = (cols.T @ d_conv).reshape(3, 3, 1, FILTERS)
        moving[0] = BN_MOMENTUM * moving[0] + (1 - BN_MOMENTUM) * mean
        moving[1] = BN_MOMENTUM * moving[1] + (1 - BN_MOMENTUM) * var
        state["t"] += 1
        lr = np.float32(_adam_lr(state["t"]))
        for p, m, v, g in zip(params, ms, vs, (g_k, g_gamma, g_beta, g_wd, g_bd)):
            m *= _B1
            m += (1 - _B1) * g
            v *= _B2
            v += (1 - _B2) * (g * g)
            p -= lr * m / (np.sqrt(v) + _EPS)
        return loss

    return _epoch(step, x, y, batch)


def make_torch(x, y, batch):
    """``torch.nn`` Conv2d / BatchNorm2d / ReLU / MaxPool2d / Linear on NCHW data, ``torch.optim.Adam``."""
    import torch

    model = torch.nn.Sequential(
        torch.nn.Conv2d(1, FILTERS, 3, padding=1, bias=False),
        torch.nn.BatchNorm2d(FILTERS, eps=BN_EPS, momentum=1 - BN_MOMENTUM),
        torch.nn.ReLU(),
        torch.nn.MaxPool2d(2),
        torch.nn.Flatten(),
        torch.nn.Linear(FLAT, CLASSES),
    )
    opt = torch.optim.Adam(model.parameters(), 1e-3, eps=_EPS)
    lossf = torch.nn.CrossEntropyLoss()
    xt = torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2)))
    yt = torch.from_numpy(y)
    spans = _batches(len(x), batch)

    def epoch():
        loss = None
        for a, b in spans:
            opt.zero_grad()
            loss = lossf(model(xt[a:b]), yt[a:b])
            loss.backward()
            opt.step()
        return float(loss)

    return epoch


def make_jax(x, y, batch):
    """A ``jax.jit`` step: ``lax.conv_general_dilated`` (NHWC), batch statistics, ``reduce_window`` pooling."""
    import jax
    import jax.numpy as jnp

    params = [jnp.asarray(p) for p in _init(np.random.default_rng(0))]

    def forward(params, xb):
        k, gamma, beta, wd, bd = params
        h = jax.lax.conv_general_dilated(xb, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        mean, var = h.mean(axis=(0, 1, 2)), h.var(axis=(0, 1, 2))
        h = jax.nn.relu((h - mean) * jax.lax.rsqrt(var + BN_EPS) * gamma + beta)
        h = jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        return h.reshape(h.shape[0], -1) @ wd + bd, (mean, var)

    def loss_fn(params, xb, yb):
        logits, stats = forward(params, xb)
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), yb[:, None], axis=1)), stats

    @jax.jit
    def step(params, m, v, moving, t, xb, yb):
        (loss, (mean, var)), g = jax.value_and_grad(loss_fn, has_aux=True)(params, xb, yb)
        m = [_B1 * mi + (1 - _B1) * gi for mi, gi in zip(m, g)]
        v = [_B2 * vi + (1 - _B2) * gi * gi for vi, gi in zip(v, g)]
        lr = 1e-3 * jnp.sqrt(1 - _B2**t) / (1 - _B1**t)
        params = [p - lr * mi / (jnp.sqrt(vi) + _EPS) for p, mi, vi in zip(params, m, v)]
        moving = [BN_MOMENTUM * moving[0] + (1 - BN_MOMENTUM) * mean, BN_MOMENTUM * moving[1] + (1 - BN_MOMENTUM) * var]
        return params, m, v, moving, loss

    zeros = [jnp.zeros_like(p) for p in params]
    state = {"p": params, "m": zeros, "v": zeros, "moving": [jnp.zeros(FILTERS), jnp.ones(FILTERS)], "t": 0}
    spans = _batches(len(x), batch)
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


def make_tensorflow(x, y, batch):
    """A ``tf.function`` step: ``tf.nn.conv2d``, ``tf.nn.moments``, ``tf.nn.max_pool2d``, Adam by assign."""
    import tensorflow as tf

    variables = [tf.Variable(p) for p in _init(np.random.default_rng(0))]
    ms = [tf.Variable(tf.zeros_like(v)) for v in variables]
    vs = [tf.Variable(tf.zeros_like(v)) for v in variables]
    moving_mean, moving_var = tf.Variable(tf.zeros(FILTERS)), tf.Variable(tf.ones(FILTERS))
    it = tf.Variable(0.0)

    @tf.function(jit_compile=False)
    def step(xb, yb):
        k, gamma, beta, wd, bd = variables
        with tf.GradientTape() as tape:
            h = tf.nn.conv2d(xb, k, 1, "SAME")
            mean, var = tf.nn.moments(h, axes=[0, 1, 2])
            h = tf.nn.relu(tf.nn.batch_normalization(h, mean, var, beta, gamma, BN_EPS))
            h = tf.nn.max_pool2d(h, 2, 2, "VALID")
            logits = tf.reshape(h, (-1, FLAT)) @ wd + bd
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(yb, logits))
        grads = tape.gradient(loss, variables)
        moving_mean.assign(BN_MOMENTUM * moving_mean + (1 - BN_MOMENTUM) * mean)
        moving_var.assign(BN_MOMENTUM * moving_var + (1 - BN_MOMENTUM) * var)
        it.assign_add(1.0)
        lr = 1e-3 * tf.sqrt(1 - _B2**it) / (1 - _B1**it)
        for var_, g, m, s in zip(variables, grads, ms, vs):
            m.assign(_B1 * m + (1 - _B1) * g)
            s.assign(_B2 * s + (1 - _B2) * g * g)
            var_.assign_sub(lr * m / (tf.sqrt(s) + _EPS))
        return loss

    return _epoch(step, x, y, batch)


MAKERS = {"native": make_numpy, "torch": make_torch, "jax": make_jax, "tensorflow": make_tensorflow}
