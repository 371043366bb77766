"""Ctrl-C and KeyboardInterrupt at random points of ``fit``, ``evaluate`` and ``predict`` lose nothing: the model
keeps the weights of its last completed step (on JAX the donated weights are never lost), predicts with them,
and trains on. Each backend runs the rounds of :mod:`tests.reliability.interrupt_harness` in a subprocess
(signals go to a whole process), bounded in time."""

import json
import os
import random
import subprocess
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _harness(backend_name, rounds, seed):
    env = dict(os.environ, HIGHLEVEL_BACKEND=backend_name)
    proc = subprocess.run(
        [sys.executable, "-m", "tests.reliability.interrupt_harness", str(rounds), str(seed)],
        cwd=_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=400,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_interrupts_at_random_points_lose_nothing(backend):
    seed = random.randrange(2**31)
    result = _harness(backend.name, 16, seed)
    rounds = result["rounds"]
    context = f"(seed {seed}) {rounds}"
    assert len(rounds) == 16
    assert all(r["interrupted"] for r in rounds), context  # each round was interrupted
    assert not [r for r in rounds if r["lost"]], context
    assert all(r["finite"] and r["step"] is not None for r in rounds), context  # the weights of a whole step
    assert all(r["unchanged"] for r in rounds if r["call"] != "fit"), context  # evaluate/predict change nothing
    assert all(r["predicts"] and r["trains"] and r["error"] is None for r in rounds), context
    # the interrupts fell at varied points of fit, not only at its start or its end
    steps = {r["step"] for r in rounds if r["call"] == "fit"}
    assert len(steps) >= 2, context
