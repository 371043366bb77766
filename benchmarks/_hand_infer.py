"""Hand-written inference loops of an MLP (workload B4), one per framework: what ``predict``/``evaluate`` cost.

Each ``make_*(x, y, widths, batch, task)`` returns ``run()``: a loop of the framework's forward pass over
``x`` in batches of ``batch`` (the last one partial). For ``task="predict"`` it gathers the logits into one
numpy array (what ``Model.predict`` returns) and returns a float from it; for ``task="evaluate"`` it also
computes the mean softmax cross-entropy and the accuracy over all samples and returns the loss.
The forward passes are what a practitioner writes: numpy matmuls, ``torch.nn`` under ``torch.inference_mode``,
a ``jax.jit`` forward and a ``tf.function`` forward.

>>> import numpy as np
>>> x = np.ones((10, 4), np.float32); y = np.zeros(10, np.int64)
>>> run = make_numpy(x, y, [4, 3, 2], batch=4, task="evaluate")
>>> 0.0 < run() < 5.0
True
"""

import numpy as np
from _hand_loops import _he


def _spans(n, batch):
    return [(a, min(a + batch, n)) for a in range(0, n, batch)]


def _params(widths):
    rng = np.random.default_rng(0)
    return [(_he(rng, i, o), np.zeros(o, np.float32)) for i, o in zip(widths[:-1], widths[1:])]


def _finish(task, outs, y):
    """Concatenates per-batch results: logits (predict) or (loss sum, correct count) pairs (evaluate)."""
    if task == "predict":
        return float(np.concatenate(outs)[-1, 0])
    loss = sum(float(o[0]) for o in outs) / len(y)
    _accuracy = sum(int(o[1]) for o in outs) / len(y)
    return loss


def make_numpy(x, y, widths, batch, task):
    """Numpy forward pass; evaluate adds a log-softmax cross-entropy and an argmax accuracy."""
    params = _params(widths)
    last = len(params) - 1
    spans = _spans(len(x), batch)

    def forward(h):
        for j, (w, b) in enumerate(params):
            h = h @ w
            h += b
            if j < last:
                np.maximum(h, 0, out=h)
        return h

    def run():
        outs = []
        for a, b in spans:
            logits = forward(x[a:b])
            if task == "predict":
                outs.append(logits)
                continue
            z = logits - logits.max(axis=1, keepdims=True)
            lse = np.log(np.exp(z).sum(axis=1))
            rows = np.arange(b - a)
            outs.append(((lse - z[rows, y[a:b]]).sum(), (logits.argmax(axis=1) == y[a:b]).sum()))
        return _finish(task, outs, y)

    return run


def make_torch(x, y, widths, batch, task):
    """``torch.nn.Sequential`` of Linear/ReLU under ``torch.inference_mode``."""
    import torch

    layers = []
    for k, (w, b) in enumerate(_params(widths)):
        lin = torch.nn.Linear(*w.shape)
        with torch.no_grad():
            lin.weight.copy_(torch.from_numpy(w.T.copy()))
            lin.bias.copy_(torch.from_numpy(b))
        layers.append(lin)
        if k < len(widths) - 2:
            layers.append(torch.nn.ReLU())
    model = torch.nn.Sequential(*layers).eval()
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    spans = _spans(len(x), batch)

    def run():
        outs = []
        with torch.inference_mode():
            for a, b in spans:
                logits = model(xt[a:b])
                if task == "predict":
                    outs.append(logits.numpy())
                else:
                    loss = torch.nn.functional.cross_entropy(logits, yt[a:b], reduction="sum")
                    outs.append((loss, (logits.argmax(1) == yt[a:b]).sum()))
        return _finish(task, outs, y)

    return run


def make_jax(x, y, widths, batch, task):
    """A ``jax.jit`` forward (and loss/accuracy sums for evaluate), batches fed from numpy.

    ``run.py`` builds and runs it under ``jax.enable_x64(False)`` (``_workloads.make_contestant``): it shares a
    process with highlevel's JAX engine, which turns ``jax_enable_x64`` on process-wide.
    """
    import jax
    import jax.numpy as jnp

    params = [(jnp.asarray(w), jnp.asarray(b)) for w, b in _params(widths)]
    last = len(params) - 1

    def forward(params, xb):
        h = xb
        for j, (w, b) in enumerate(params):
            h = h @ w + b
            if j < last:
                h = jax.nn.relu(h)
        return h

    @jax.jit
    def evaluate(params, xb, yb):
        logits = forward(params, xb)
        nll = -jnp.take_along_axis(jax.nn.log_softmax(logits), yb[:, None], axis=1)
        return nll.sum(), (jnp.argmax(logits, axis=1) == yb).sum()

    predict = jax.jit(forward)
    spans = _spans(len(x), batch)
    y32 = y.astype(np.int32)

    def run():
        if task == "predict":
            outs = [np.asarray(predict(params, x[a:b])) for a, b in spans]
        else:
            outs = [evaluate(params, x[a:b], y32[a:b]) for a, b in spans]
        return _finish(task, outs, y)

    return run


def make_tensorflow(x, y, widths, batch, task):
    """A ``tf.function`` forward (and loss/accuracy sums for evaluate) over ``tf.Variable`` weights."""
    import tensorflow as tf

    params = [(tf.Variable(w), tf.Variable(b)) for w, b in _params(widths)]
    last = len(params) - 1

    def forward(xb):
        h = xb
        for j, (w, b) in enumerate(params):
            h = h @ w + b
            if j < last:
                h = tf.nn.relu(h)
        return h

    @tf.function(jit_compile=False)
    def evaluate(xb, yb):
        logits = forward(xb)
        loss = tf.reduce_sum(tf.nn.sparse_softmax_cross_entropy_with_logits(yb, logits))
        return loss, tf.reduce_sum(tf.cast(tf.argmax(logits, axis=1) == yb, tf.int32))

    predict = tf.function(forward, jit_compile=False)
    spans = _spans(len(x), batch)

    def run():
        if task == "predict":
            outs = [predict(x[a:b]).numpy() for a, b in spans]
        else:
            outs = [evaluate(x[a:b], y[a:b]) for a, b in spans]
        return _finish(task, outs, y)

    return run


MAKERS = {"native": make_numpy, "torch": make_torch, "jax": make_jax, "tensorflow": make_tensorflow}
