"""ScheduleFreeAdamW against Keras 3 run on its JAX backend (in a subprocess).

Keras's TensorFlow and PyTorch backends read the updated ``z`` where the algorithm needs the previous one
(the variable's ``.value`` aliases its storage there), so only its JAX backend computes the published update;
highlevel computes that update on every engine.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import highlevel as hl

from ._problem import SHAPES, gradient_sequence, initial_values

pytest.importorskip("keras")

STEPS = 5
CASES = {
    "default": {"learning_rate": 0.05},
    "warmup": {"learning_rate": 0.05, "warmup_steps": 3, "beta_1": 0.8},
    "weight-decay": {"learning_rate": 0.05, "weight_decay": 0.1, "epsilon": 1e-6},
}

_SCRIPT = r"""
import json, sys
import numpy as np
import keras
init, grads, cases = json.loads(sys.stdin.read())
out = {}
for case, kwargs in cases.items():
    variables = [keras.Variable(np.array(v, "float32"), name=n) for n, v in init]
    opt = keras.optimizers.ScheduleFreeAdamW(**kwargs)
    for step in grads:
        opt.apply([keras.ops.convert_to_tensor(np.array(g, "float32")) for g in step], variables)
    out[case] = [np.asarray(v.numpy()).tolist() for v in variables]
print("@@" + json.dumps(out))
"""

_cache = {}


def _keras_on_jax(case):
    """Every case's final weights from one Keras subprocess (started once per test session)."""
    if not _cache:
        init = [(n, v.tolist()) for n, v in initial_values().items()]
        grads = [[g.tolist() for g in step] for step in gradient_sequence(STEPS)]
        env = dict(os.environ, KERAS_BACKEND="jax", JAX_PLATFORMS="cpu")
        out = subprocess.run(
            [sys.executable, "-c", _SCRIPT],
            input=json.dumps([init, grads, CASES]),
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            check=True,
        ).stdout
        for name, weights in json.loads(out.split("@@")[-1]).items():
            _cache[name] = [np.array(w, "float32") for w in weights]
    return _cache[case]


@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_keras_jax(backend, case):
    init = initial_values()
    variables = [hl.Variable(init[n], name=n) for n in SHAPES]
    opt = hl.optimizers.ScheduleFreeAdamW(**CASES[case])
    for grads in gradient_sequence(STEPS):
        opt.apply([hl.ops.convert_to_tensor(g) for g in grads], variables)
    for name, v, want in zip(SHAPES, variables, _keras_on_jax(case)):
        np.testing.assert_allclose(v.numpy(), want, rtol=1e-6, atol=1e-7, err_msg=f"{case}: {name}")


def test_second_step_recovers_the_average_from_the_previous_z(backend):
    """By hand: w=1, g=0.5 then -0.3... the second weight is (1-b1) z2 + b1 ((1/2) x1 + (1/2) z2) with x1 = z1."""
    v = hl.Variable([1.0])
    opt = hl.optimizers.ScheduleFreeAdamW(learning_rate=0.1, epsilon=0.0, beta_2=0.5)
    opt.apply([hl.ops.convert_to_tensor([0.5])], [v])
    opt.apply([hl.ops.convert_to_tensor([0.5])], [v])
    z1, z2 = 0.9, 0.8  # Adam's normalized step is exactly lr while the gradient is constant
    x2 = 0.5 * z1 + 0.5 * z2
    np.testing.assert_allclose(v.numpy(), [0.1 * z2 + 0.9 * x2], rtol=1e-6)
