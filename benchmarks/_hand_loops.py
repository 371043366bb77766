"""Hand-written training loops of an MLP, one per framework: the floor each engine's ``fit`` is compared with.

Each ``make_*`` returns ``epoch()``, which runs one pass over the data — ``x`` sliced in consecutive batches,
the forward pass, softmax cross-entropy on integer labels, the backward pass and an Adam update (Keras'
formula, epsilon 1e-7) — and returns the last loss as a Python float, so that asynchronous engines finish
their work inside the timed region. The loops are what a practitioner would write in each framework:
numpy with a hand-derived backward pass, raw PyTorch modules and ``torch.optim.Adam``, a ``jax.jit`` step
over a parameter pytree, and a ``tf.function`` step with a ``GradientTape``.

They import their framework lazily: a benchmark worker process loads only the one it measures.

>>> import numpy as np
>>> x = np.ones((8, 4), np.float32); y = np.zeros(8, np.int64)
>>> epoch = make_numpy(x, y, [4, 3, 2], batch=4)
>>> loss = epoch(); 0.0 < loss < 5.0
True
"""

import numpy as np

_B1, _B2, _EPS = 0.9, 0.999, 1e-7


def _he(rng, fan_in, fan_out):
    return (rng.standard_normal((fan_in, fan_out)) * (2.0 / fan_in) ** 0.5).astype(np.float32)


def _batches(n, batch):
    return [(i * batch, (i + 1) * batch) for i in range(n // batch)]


def _epoch(step, x, y, batch):
    """``epoch()``: ``step(xb, yb)`` over the full batches in order; returns the last loss as a float."""
    spans = _batches(len(x), batch)

    def epoch():
        loss = 0.0
        for a, b in spans:
            loss = step(x[a:b], y[a:b])
        return float(loss)

    return epoch


def make_numpy(x, y, widths, batch):
    """Numpy with the backward pass written by hand: the floor for any numpy-based engine."""
    rng = np.random.default_rng(0)
    params = [[_he(rng, i, o), np.zeros(o, np.float32)] for i, o in zip(widths[:-1], widths[1:])]
    flat = [p for pair in params for p in pair]
    ms = [np.zeros_like(p) for p in flat]
    vs = [np.zeros_like(p) for p in flat]
    state = {"t": 0}
    last = len(params) - 1

    def step(xb, yb):
        hs, h = [xb], xb
        for j, (w, b) in enumerate(params):
            h = h @ w
            h += b
            if j < last:
                np.maximum(h, 0, out=h)
            hs.append(h)
        z = h - h.max(axis=1, keepdims=True)
        e = np.exp(z)
        s = e.sum(axis=1, keepdims=True)
        rows = np.arange(len(yb))
        loss = float(np.mean(np.log(s[:, 0]) - z[rows, yb]))
        d = e / s
        d[rows, yb] -= 1.0
        d /= np.float32(len(yb))
        grads = []
        for j in range(last, -1, -1):
            w, _ = params[j]
            grads.append(d.sum(axis=0))
            grads.append(hs[j].T @ d)
            if j:
                d = d @ w.T
                d *= hs[j] > 0
        grads.reverse()  # [w0, b0, w1, b1, ...]
        state["t"] += 1
        t = state["t"]
        lr = np.float32(1e-3 * (1 - _B2**t) ** 0.5 / (1 - _B1**t))
        for p, m, v, g in zip(flat, ms, vs, grads):
            m *= _B1
            m += (1 - _B1) * g
            v *= _B2
            v += (1 - _B2) * (g * g)
            p -= lr * m / (np.sqrt(v) + _EPS)
        return loss

    return _epoch(step, x, y, batch)


def make_torch(x, y, widths, batch):
    """Raw PyTorch: ``nn.Sequential`` of Linear/ReLU, ``CrossEntropyLoss``, ``torch.optim.Adam``."""
    import torch

    layers = []
    for k, (i, o) in enumerate(zip(widths[:-1], widths[1:])):
        layers.append(torch.nn.Linear(i, o))
        if k < len(widths) - 2:
            layers.append(torch.nn.ReLU())
    model = torch.nn.Sequential(*layers)
    opt = torch.optim.Adam(model.parameters(), 1e-3, eps=_EPS)
    lossf = torch.nn.CrossEntropyLoss()
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
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


def make_jax(x, y, widths, batch):
    """A ``jax.jit`` step over a parameter pytree (Adam written out), batches fed from numpy."""
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(0)
    params = [(jnp.asarray(_he(rng, i, o)), jnp.zeros(o)) for i, o in zip(widths[:-1], widths[1:])]
    last = len(params) - 1

    def loss_fn(params, xb, yb):
        h = xb
        for j, (w, b) in enumerate(params):
            h = h @ w + b
            if j < last:
                h = jax.nn.relu(h)
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(h), yb[:, None], axis=1))

    @jax.jit
    def step(params, m, v, t, xb, yb):
        loss, g = jax.value_and_grad(loss_fn)(params, xb, yb)
        m = jax.tree_util.tree_map(lambda m, g: _B1 * m + (1 - _B1) * g, m, g)
        v = jax.tree_util.tree_map(lambda v, g: _B2 * v + (1 - _B2) * g * g, v, g)
        lr = 1e-3 * jnp.sqrt(1 - _B2**t) / (1 - _B1**t)
        params = jax.tree_util.tree_map(lambda p, m, v: p - lr * m / (jnp.sqrt(v) + _EPS), params, m, v)
        return params, m, v, loss

    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    state = {"p": params, "m": zeros, "v": zeros, "t": 0}
    spans = _batches(len(x), batch)
    y32 = y.astype(np.int32)

    def epoch():
        p, m, v, t = state["p"], state["m"], state["v"], state["t"]
        loss = None
        for a, b in spans:
            t += 1
            p, m, v, loss = step(p, m, v, jnp.float32(t), x[a:b], y32[a:b])
        state.update(p=p, m=m, v=v, t=t)
        return float(loss)

    return epoch


def make_tensorflow(x, y, widths, batch):
    """A ``tf.function`` step with a ``GradientTape`` and Adam written with ``tf.Variable.assign``."""
    import tensorflow as tf

    rng = np.random.default_rng(0)
    shapes = list(zip(widths[:-1], widths[1:]))
    ws = [tf.Variable(_he(rng, i, o)) for i, o in shapes]
    bs = [tf.Variable(tf.zeros(o)) for _, o in shapes]
    variables = [v for pair in zip(ws, bs) for v in pair]
    ms = [tf.Variable(tf.zeros_like(v)) for v in variables]
    vs = [tf.Variable(tf.zeros_like(v)) for v in variables]
    it = tf.Variable(0.0)
    last = len(ws) - 1

    @tf.function(jit_compile=False)
    def step(xb, yb):
        with tf.GradientTape() as tape:
            h = xb
            for j in range(len(ws)):
                h = h @ ws[j] + bs[j]
                if j < last:
                    h = tf.nn.relu(h)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(yb, h))
        grads = tape.gradient(loss, variables)
        it.assign_add(1.0)
        lr = 1e-3 * tf.sqrt(1 - _B2**it) / (1 - _B1**it)
        for var, g, m, s in zip(variables, grads, ms, vs):
            m.assign(_B1 * m + (1 - _B1) * g)
            s.assign(_B2 * s + (1 - _B2) * g * g)
            var.assign_sub(lr * m / (tf.sqrt(s) + _EPS))
        return loss

    return _epoch(step, x, y, batch)


MAKERS = {"native": make_numpy, "torch": make_torch, "jax": make_jax, "tensorflow": make_tensorflow}
