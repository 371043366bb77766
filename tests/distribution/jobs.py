"""The small training job every distribution test runs, on one device and distributed, plus subprocess helpers.

Imported by the tests and, by path, by the job scripts that run in subprocesses (``*_job.py``): the frameworks
must be configured (host device count, logical devices, process group) before they are imported, so every
distributed scenario runs in its own fresh interpreter.
"""

import json
import os
import socket
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
GLOBAL_BATCH = 16
EPOCHS = 2


def data():
    """63 examples of 8 features and 3 classes (the same on every process). With batches of 16 the last batch has
    15 rows: two replicas get 7 and 8 of them, which checks the weighting of uneven shares."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(63, 8)).astype("float32")
    y = rng.integers(0, 3, size=(63,)).astype("int32")
    return x, y


def build(hl):
    """A seeded two-layer MLP, compiled (same initial weights on every backend and process)."""
    hl.utils.set_random_seed(1)
    model = hl.Sequential(
        [hl.Input((8,)), hl.layers.Dense(16, activation="relu", name="dense"), hl.layers.Dense(3, name="out")]
    )
    model.compile(
        optimizer=hl.optimizers.Adam(0.01),
        loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    return model


def train(hl, callbacks=None, validation=True):
    """Builds and fits the MLP with global batch ``GLOBAL_BATCH``; returns (model, history, evaluate logs)."""
    x, y = data()
    model = build(hl)
    history = model.fit(
        x,
        y,
        batch_size=GLOBAL_BATCH,
        epochs=EPOCHS,
        verbose=0,
        shuffle=True,
        validation_data=(x[:32], y[:32]) if validation else None,
        callbacks=callbacks,
    )
    logs = model.evaluate(x, y, batch_size=GLOBAL_BATCH, verbose=0, return_dict=True)
    return model, history.history, logs


def run_and_write(hl, out, name, distribution, callbacks=None):
    """Sets ``distribution``, trains the MLP, and writes its summary plus predictions to ``out/<name>.json``."""
    hl.distribution.set_distribution(distribution)
    model, history, logs = train(hl, callbacks=callbacks)
    result = summary(model, history, logs)
    x, _ = data()
    result["predict"] = model.predict(x, batch_size=GLOBAL_BATCH, verbose=0).tolist()
    write_json(os.path.join(out, f"{name}.json"), result)
    return model


def summary(model, history, logs):
    """What a job reports back: weights (lists), fit history and evaluate logs."""
    return {"weights": [np.asarray(w).tolist() for w in model.get_weights()], "history": history, "evaluate": logs}


def assert_same_run(expected, got, rtol=1e-5, atol=1e-6):
    """Same final weights (``rtol``), same histories and evaluation (metrics aggregated over replicas)."""
    assert len(expected["weights"]) == len(got["weights"])
    for a, b in zip(expected["weights"], got["weights"]):
        np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=rtol, atol=atol)
    assert list(got["history"]) == list(expected["history"])
    for key, values in expected["history"].items():
        np.testing.assert_allclose(got["history"][key], values, rtol=rtol, atol=atol, err_msg=key)
    assert list(got["evaluate"]) == list(expected["evaluate"])
    for key, value in expected["evaluate"].items():
        np.testing.assert_allclose(got["evaluate"][key], value, rtol=rtol, atol=atol, err_msg=key)


def desync_host_stream(hl, rank):
    """Starts this process's host random stream from its own seed, as unseeded processes (fresh entropy) would."""
    from highlevel.random import host

    host.set_host_seed(100 + rank)


def host_draw(hl):
    """One draw from the host random stream (data order, unseeded initial weights come from it)."""
    from highlevel.random import host

    return int(host.host_rng().integers(1 << 62))


def assert_shared_host_stream(results):
    """After set_distribution every process continues process 0's host stream (see ``desync_host_stream``)."""
    from highlevel.random import host

    draws = [r["host_draw"] for r in results]
    assert draws[0] == draws[1] == int(host.make_rng(100).integers(1 << 62)), draws


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f)


def read_json(path):
    with open(path) as f:
        return json.load(f)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def child_env(**extra):
    """The environment of a job subprocess: this one's, with the repository importable and CPU-only."""
    env = dict(os.environ)
    env.update(
        {
            "PYTHONPATH": os.pathsep.join([os.path.dirname(os.path.dirname(HERE)), env.get("PYTHONPATH", "")]),
            "CUDA_VISIBLE_DEVICES": "",
            "TF_CPP_MIN_LOG_LEVEL": "2",
            "OMP_NUM_THREADS": "1",
        }
    )
    env.pop("HIGHLEVEL_BACKEND", None)
    env.update({k: str(v) for k, v in extra.items()})
    return env


def run_job(script, *args, timeout=300, **env):
    """Runs ``script`` (a ``*_job.py`` here) in a fresh interpreter; fails the test with its output on error."""
    proc = subprocess.run(
        [sys.executable, os.path.join(HERE, script), *map(str, args)],
        env=child_env(**env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, f"{script} failed (rc={proc.returncode}):\n{proc.stdout}\n{proc.stderr[-6000:]}"
    return proc
