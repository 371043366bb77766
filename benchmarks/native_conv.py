"""Benchmark: a small CNN training step through highlevel's layers on the native engine vs PyTorch eager (CPU).

The model is the MNIST-sized convnet of the Keras examples: 28x28x1 input, ``Conv2D(32, 3, relu)``,
``Conv2D(64, 3, relu)``, ``MaxPooling2D(2)``, ``Flatten``, ``Dense(10)``; sparse softmax cross-entropy from
logits, Adam(1e-3); batch 64, float32.

* **Training step** (the issue's target: native at most 3x PyTorch eager). Ours is ``hl.Sequential`` of
  those layers, compiled and stepped with ``model.train_on_batch`` (the step ``fit`` runs: forward, loss,
  backward, one optimizer update, metric update). PyTorch's is the loop a practitioner writes:
  ``torch.nn.Sequential`` (channels_first) with the same initial weights copied over, ``F.cross_entropy``,
  ``zero_grad``/``backward``/``step`` of ``torch.optim.Adam`` with Keras's epsilon (1e-7). Before timing,
  three steps on each must give the same losses (rtol 1e-3), so both do the same work.
* **Ops level** (``--no-ops`` skips it): one forward + backward pass of the same network written with
  ``hl.ops`` directly and ``value_and_grad``, vs ``torch.autograd.grad``: what the engine itself costs,
  without layers, trainer or optimizer.

Both engines run on one thread (the OMP / OpenBLAS / MKL variables are set before numpy is imported, and
``torch.set_num_threads(1)``); the contestants alternate step by step so that machine noise hits both alike,
and the median of each is printed. ``--clock cpu`` times CPU time instead of elapsed time (steadier on a
shared machine; with one compute thread per library, it is the work each side does).

Run: ``python benchmarks/native_conv.py [--repeats 15] [--clock wall|cpu] [--no-ops]`` (about a minute).
Not a test: numbers depend on the machine.
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import highlevel as hl  # noqa: E402

BATCH, CLASSES, LR, EPS = 64, 10, 1e-3, 1e-7
TARGET = 3.0  # the target for the training step: native / torch <= 3x


def make_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((BATCH, 28, 28, 1)).astype(np.float32)
    y = rng.integers(0, CLASSES, BATCH).astype(np.int32)
    return x, y


# ------------------------------------------------------------------------------------------ training step
def native_model():
    """Our model, compiled; built by a first call so that its weights exist."""
    hl.utils.set_random_seed(0)
    model = hl.Sequential(
        [
            hl.Input((28, 28, 1)),
            hl.layers.Conv2D(32, 3, activation="relu"),
            hl.layers.Conv2D(64, 3, activation="relu"),
            hl.layers.MaxPooling2D(2),
            hl.layers.Flatten(),
            hl.layers.Dense(CLASSES),
        ]
    )
    model.compile(
        optimizer=hl.optimizers.Adam(LR, epsilon=EPS), loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True)
    )
    return model


def to_torch_layout(weights):
    """Keras-layout weights [k1, b1, k2, b2, dense_k, dense_b] -> the torch model's state, in order."""
    k1, b1, k2, b2, kd, bd = weights
    conv = [np.ascontiguousarray(np.transpose(k, (3, 2, 0, 1))) for k in (k1, k2)]
    # torch flattens (C, H, W); Keras (H, W, C): reorder the dense rows so that both compute the same function
    kd_cf = kd.reshape(12, 12, 64, CLASSES).transpose(2, 0, 1, 3).reshape(-1, CLASSES)
    return [conv[0], b1, conv[1], b2, np.ascontiguousarray(kd_cf.T), bd]


def torch_train_step_fn(x, y, weights):
    """A hand-written PyTorch eager training step on the model with ``weights`` (Keras layout)."""
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    net = torch.nn.Sequential(
        torch.nn.Conv2d(1, 32, 3),
        torch.nn.ReLU(),
        torch.nn.Conv2d(32, 64, 3),
        torch.nn.ReLU(),
        torch.nn.MaxPool2d(2),
        torch.nn.Flatten(),
        torch.nn.Linear(12 * 12 * 64, CLASSES),
    )
    with torch.no_grad():
        for p, w in zip(net.parameters(), to_torch_layout(weights)):
            p.copy_(torch.from_numpy(w))
    opt = torch.optim.Adam(net.parameters(), lr=LR, eps=EPS)
    x_t = torch.from_numpy(np.ascontiguousarray(np.moveaxis(x, -1, 1)))
    y_t = torch.from_numpy(y.astype(np.int64))

    def step():
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(net(x_t), y_t)
        loss.backward()
        opt.step()
        return float(loss.detach())

    return step


# ---------------------------------------------------------------------------------------------- ops level
def ops_params(seed=0):
    rng = np.random.default_rng(seed)
    return [
        (rng.standard_normal((3, 3, 1, 32)) * 0.3).astype(np.float32),
        np.zeros(32, np.float32),
        (rng.standard_normal((3, 3, 32, 64)) * 0.06).astype(np.float32),
        np.zeros(64, np.float32),
        (rng.standard_normal((12 * 12 * 64, CLASSES)) * 0.01).astype(np.float32),
        np.zeros(CLASSES, np.float32),
    ]


def native_grad_fn(x, y):
    """Forward + backward of the network written with ``hl.ops`` (no layers, no optimizer)."""
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


def torch_grad_fn(x, y):
    """The same forward + backward with ``torch.nn.functional`` and ``torch.autograd.grad``."""
    import torch
    import torch.nn.functional as F

    x_t = torch.from_numpy(np.ascontiguousarray(np.moveaxis(x, -1, 1)))
    y_t = torch.from_numpy(y.astype(np.int64))

    def to_torch(params):
        return [torch.tensor(p, requires_grad=True) for p in to_torch_layout(params)]

    def step(tparams):
        w1, b1, w2, b2, w3, b3 = tparams
        h = F.relu(F.conv2d(x_t, w1, b1))
        h = F.relu(F.conv2d(h, w2, b2))
        h = F.max_pool2d(h, 2)
        loss = F.cross_entropy(F.linear(h.flatten(1), w3, b3), y_t)
        grads = torch.autograd.grad(loss, tparams)
        return float(loss.detach()), grads

    return step, to_torch


# ------------------------------------------------------------------------------------------------ timing
def interleaved(fn_a, fn_b, repeats, clock):
    """Times ``fn_a`` and ``fn_b`` alternately ``repeats`` times each; returns their medians in ms."""
    times_a, times_b = [], []
    for _ in range(repeats):
        for fn, times in ((fn_a, times_a), (fn_b, times_b)):
            t0 = clock()
            fn()
            times.append(clock() - t0)
    return float(np.median(times_a)) * 1e3, float(np.median(times_b)) * 1e3


def check_close(name, ours, theirs, rtol):
    if not np.allclose(ours, theirs, rtol=rtol):
        raise RuntimeError(f"{name}: native and torch disagree: losses {ours} vs {theirs}")


def bench_train_step(x, y, repeats, clock):
    model = native_model()
    model(x[:1])  # build, so that the weights exist to copy
    t_step = torch_train_step_fn(x, y, [w.numpy() for w in model.weights])
    n_losses, t_losses = [], []
    for _ in range(3):  # warm-up, and the check that both train the same model the same way
        model.reset_metrics()  # train_on_batch reports the running mean since the last reset
        n_losses.append(model.train_on_batch(x, y))
        t_losses.append(t_step())
    check_close("training step", n_losses, t_losses, rtol=1e-3)
    return interleaved(lambda: model.train_on_batch(x, y), t_step, repeats, clock)


def bench_ops(x, y, repeats, clock):
    params = ops_params()
    n_step = native_grad_fn(x, y)
    t_step, to_torch = torch_grad_fn(x, y)
    nparams = [hl.ops.convert_to_tensor(p) for p in params]
    tparams = to_torch(params)
    check_close("ops level", n_step(nparams)[0], t_step(tparams)[0], rtol=1e-4)
    return interleaved(lambda: n_step(nparams), lambda: t_step(tparams), repeats, clock)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="elapsed time (default) or this process's CPU time"
    )
    parser.add_argument("--no-ops", action="store_true", help="skip the ops-level forward+backward numbers")
    args = parser.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.process_time

    import torch

    torch.set_num_threads(1)
    x, y = make_data()
    print(
        f"small CNN (28x28x1, conv 32, conv 64, pool, dense 10), batch {BATCH}, 1 thread, "
        f"median of {args.repeats} interleaved runs, {args.clock} clock"
    )
    with hl.config.backend_scope("native"):
        n_med, t_med = bench_train_step(x, y, args.repeats, clock)
        ratio = n_med / t_med
        verdict = "met" if ratio <= TARGET else "NOT met"
        print("training step (model.train_on_batch vs torch.nn + torch.optim.Adam):")
        print(f"  native: {n_med:8.1f} ms")
        print(f"  torch : {t_med:8.1f} ms")
        print(f"  ratio native / torch: {ratio:.2f}x (target <= {TARGET:g}x: {verdict})")
        if not args.no_ops:
            n_med, t_med = bench_ops(x, y, args.repeats, clock)
            print("ops level, forward + backward only (hl.ops + value_and_grad vs torch.autograd.grad):")
            print(f"  native: {n_med:8.1f} ms")
            print(f"  torch : {t_med:8.1f} ms")
            print(f"  ratio native / torch: {n_med / t_med:.2f}x")


if __name__ == "__main__":
    main()
