"""Shared fixtures of the optimizer tests: initial weights and a fixed gradient sequence (numpy float32)."""

import numpy as np

#: name -> shape. A matrix (factored by Adafactor), a vector, and a rank-3 tensor.
SHAPES = {"kernel": (3, 4), "bias": (4,), "filters": (2, 3, 2)}


def initial_values(seed=0):
    rng = np.random.default_rng(seed)
    return {n: rng.uniform(-1.0, 1.0, size=s).astype("float32") for n, s in SHAPES.items()}


def gradient_sequence(steps=5, seed=1):
    """``steps`` lists of gradients, one per variable in SHAPES order (no entry near zero, so that signs are
    unambiguous for Lion)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        grads = []
        for s in SHAPES.values():
            g = rng.uniform(0.2, 1.5, size=s) * rng.choice([-1.0, 1.0], size=s)
            grads.append(g.astype("float32"))
        out.append(grads)
    return out
