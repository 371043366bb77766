"""Fits y = sin(3x) with a small tanh network, written with ``highlevel.ops`` and gradients only.

This is the README's main job until ``model.fit`` lands. It runs on any backend:

    HIGHLEVEL_BACKEND=jax python examples/fit_function.py

Initial weights come from the host random stream, so every backend starts from the same numbers and the
printed losses agree across backends to float32 precision.
"""

import time

import numpy as np

import highlevel as hl
from highlevel import ops


def init_params(rng, sizes):
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        limit = np.sqrt(6.0 / (fan_in + fan_out))  # Glorot uniform
        params.append(ops.convert_to_tensor(rng.uniform(-limit, limit, (fan_in, fan_out)).astype("float32")))
        params.append(ops.zeros((fan_out,)))
    return params


def forward(params, x):
    h = x
    for i in range(0, len(params) - 2, 2):
        h = ops.tanh(ops.matmul(h, params[i]) + params[i + 1])
    return ops.matmul(h, params[-2]) + params[-1]


def mse(params, x, y):
    return ops.mean(ops.square(forward(params, x) - y))


def main(steps=1500, lr=0.01):
    hl.utils.set_random_seed(0)
    rng = hl.random.host_rng()
    x_np = np.linspace(-1, 1, 256, dtype="float32")[:, None]
    x, y = ops.convert_to_tensor(x_np), ops.convert_to_tensor(np.sin(3 * x_np))
    params = init_params(rng, [1, 32, 32, 1])
    m = [ops.zeros_like(p) for p in params]
    v = [ops.zeros_like(p) for p in params]
    step_fn = ops.value_and_grad(mse)
    b1, b2, eps = 0.9, 0.999, 1e-7
    start = time.perf_counter()
    for t in range(1, steps + 1):
        loss, grads = step_fn(params, x, y)
        # Adam, written with ops so it runs on every backend.
        scale = float(lr * np.sqrt(1 - b2**t) / (1 - b1**t))  # a Python float is weak; np.float64 is not
        for i, g in enumerate(grads):
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * ops.square(g)
            params[i] = ops.stop_gradient(params[i] - scale * m[i] / (ops.sqrt(v[i]) + eps))
        if t % 300 == 0 or t == 1:
            print(f"step {t:5d}  mse {float(ops.convert_to_numpy(loss)):.6f}")
    final = float(ops.convert_to_numpy(mse(params, x, y)))
    print(
        f"backend {hl.config.backend()}: final mse {final:.6f} after {steps} steps "
        f"in {time.perf_counter() - start:.1f} s"
    )
    return final


if __name__ == "__main__":
    main()
