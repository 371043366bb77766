"""Micro-benchmark: one forward + backward pass of a small CNN, native engine vs PyTorch eager (CPU).

The model is the MNIST-sized convnet of the Keras examples: 28x28x1 input, conv 3x3 (32) + relu,
conv 3x3 (64) + relu, 2x2 max pool, flatten, dense (10), softmax cross-entropy; batch 64. Both engines run on
one thread (``torch.set_num_threads(1)`` and the OMP / OpenBLAS / MKL thread variables, set before numpy is
imported), runs are interleaved so that machine noise hits both alike, and the median of each is printed.
Both compute the same function from the same weights; the losses are checked to agree first.

Run: ``python benchmarks/native_conv.py [--repeats 15]``. Not a test: numbers depend on the machine.
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import highlevel as hl  # noqa: E402

BATCH, CLASSES = 64, 10


def make_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((BATCH, 28, 28, 1)).astype(np.float32)
    y = rng.integers(0, CLASSES, BATCH)
    params = [
        (rng.standard_normal((3, 3, 1, 32)) * 0.3).astype(np.float32),
        np.zeros(32, np.float32),
        (rng.standard_normal((3, 3, 32, 64)) * 0.06).astype(np.float32),
        np.zeros(64, np.float32),
        (rng.standard_normal((12 * 12 * 64, CLASSES)) * 0.01).astype(np.float32),
        np.zeros(CLASSES, np.float32),
    ]
    return x, y, params


def native_step_fn(x, y):
    ops = hl.ops
    x_t = ops.convert_to_tensor(x)
    onehot = ops.convert_to_tensor(np.eye(CLASSES, dtype=np.float32)[y])

    def loss(params):
        w1, b1, w2, b2, w3, b3 = params
        h = ops.relu(ops.add(ops.conv(x_t, w1), b1))
        h = ops.relu(ops.add(ops.conv(h, w2), b2))
        h = ops.max_pool(h, 2)
        h = ops.reshape(h, (BATCH, -1))
        logits = ops.add(ops.matmul(h, w3), b3)
        return ops.negative(ops.mean(ops.sum(ops.multiply(ops.log_softmax(logits), onehot), axis=-1)))

    vg = ops.value_and_grad(loss)

    def step(params):
        value, grads = vg(params)
        return float(ops.convert_to_numpy(value)), grads

    return step


def torch_step_fn(x, y):
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    x_t = torch.tensor(np.ascontiguousarray(np.moveaxis(x, -1, 1)))
    y_t = torch.tensor(y)

    def to_torch(params):
        w1, b1, w2, b2, w3, b3 = params
        conv_w = [np.ascontiguousarray(np.transpose(w, (3, 2, 0, 1))) for w in (w1, w2)]
        # torch flattens channels_first; reorder the dense rows so that both compute the same function
        w3_cf = w3.reshape(12, 12, 64, CLASSES).transpose(2, 0, 1, 3).reshape(-1, CLASSES)
        ps = [conv_w[0], b1, conv_w[1], b2, np.ascontiguousarray(w3_cf.T), b3]
        return [torch.tensor(p, requires_grad=True) for p in ps]

    def step(tparams):
        w1, b1, w2, b2, w3, b3 = tparams
        h = F.relu(F.conv2d(x_t, w1, b1))
        h = F.relu(F.conv2d(h, w2, b2))
        h = F.max_pool2d(h, 2)
        logits = F.linear(h.flatten(1), w3, b3)
        loss = F.cross_entropy(logits, y_t)
        grads = torch.autograd.grad(loss, tparams)
        return float(loss.detach()), grads

    return step, to_torch


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()

    x, y, params = make_data()
    t_step, to_torch = torch_step_fn(x, y)
    tparams = to_torch(params)
    with hl.config.backend_scope("native"):
        n_step = native_step_fn(x, y)
        nparams = [hl.ops.convert_to_tensor(p) for p in params]
        n_loss, _ = n_step(nparams)  # warm-up
        t_loss, _ = t_step(tparams)
        if not np.isclose(n_loss, t_loss, rtol=1e-4):
            raise RuntimeError(f"native and torch disagree: loss {n_loss} vs {t_loss}")
        native_t, torch_t = [], []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            n_step(nparams)
            native_t.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            t_step(tparams)
            torch_t.append(time.perf_counter() - t0)
    n_med, t_med = np.median(native_t) * 1e3, np.median(torch_t) * 1e3
    print(f"small CNN forward+backward, batch {BATCH}, 1 thread, median of {args.repeats} interleaved runs")
    print(f"  native: {n_med:8.1f} ms")
    print(f"  torch : {t_med:8.1f} ms")
    print(f"  ratio native / torch: {n_med / t_med:.2f}x")


if __name__ == "__main__":
    main()
