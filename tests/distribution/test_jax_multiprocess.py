"""JAX multi-process data parallelism: two processes on localhost joined by ``jax.distributed.initialize``.

Each process has one CPU device, so the mesh spans two processes and every step runs cross-process collectives
(gloo). This is the multi-host launch, on one machine.
"""

import os
import subprocess
import sys
import time

import numpy as np
import pytest

import highlevel as hl

from . import jobs

pytestmark = pytest.mark.skipif("jax" not in hl.backends.installed(), reason="jax is not installed")

TIMEOUT_S = 240  # both processes together; they usually take well under a minute


def _run_two_processes(out, logs):
    """Starts both processes and waits for them; on a timeout or a failure both are stopped and the test fails
    with their stderr."""
    port = jobs.free_port()
    procs, files = [], []
    for i in range(2):
        stdout, stderr = open(logs / f"out{i}.txt", "w"), open(logs / f"err{i}.txt", "w")
        files += [stdout, stderr]
        # Output goes to files, not pipes: a process blocked on a full pipe would block its peer's collectives.
        procs.append(
            subprocess.Popen(
                [sys.executable, os.path.join(jobs.HERE, "jax_multiprocess_job.py"), out, str(i), str(port)],
                env=jobs.child_env(HIGHLEVEL_DIST_TIMEOUT=60),
                stdout=stdout,
                stderr=stderr,
            )
        )
    deadline = time.monotonic() + TIMEOUT_S
    failed = False
    try:
        while any(p.poll() is None for p in procs) and time.monotonic() < deadline:
            failed = any(p.poll() not in (None, 0) for p in procs)
            if failed:
                break  # its peer would only wait for it in a collective
            time.sleep(0.2)
    finally:
        running = [p for p in procs if p.poll() is None]
        for p in running:
            p.kill()
        for p in procs:
            p.wait()
        for f in files:
            f.close()
    stderr = "\n".join(
        f"--- process {i} (rc={p.returncode}) stderr:\n{(logs / f'err{i}.txt').read_text()[-4000:]}"
        for i, p in enumerate(procs)
    )
    if running and not failed:
        pytest.fail(f"the JAX processes did not finish within {TIMEOUT_S} s; killed {len(running)} of them.\n{stderr}")
    assert not failed and all(p.returncode == 0 for p in procs), f"a JAX process failed:\n{stderr}"


def test_two_process_fit_matches_one_device_and_only_process0_writes(tmp_path):
    out, logs = tmp_path / "out", tmp_path / "logs"
    out.mkdir()
    logs.mkdir()
    _run_two_processes(str(out), logs)
    results = [jobs.read_json(out / f"result{i}.json") for i in range(2)]
    with hl.config.backend_scope("jax"):
        model, history, evaluate = jobs.train(hl)
        single = jobs.summary(model, history, evaluate)
        x, _ = jobs.data()
        predict = model.predict(x, batch_size=jobs.GLOBAL_BATCH, verbose=0)
        # Both processes end with the single-device weights, history, evaluation and predictions.
        for result in results:
            jobs.assert_same_run(single, result)
            np.testing.assert_allclose(result["predict"], predict, rtol=1e-5, atol=1e-6)
        # Only process 0 wrote the checkpoint and the CSV log; the checkpoint loads on one device.
        assert sorted(p.name for p in out.iterdir() if not p.name.startswith("result")) == ["ckpt0.keras", "log0.csv"]
        assert len((out / "log0.csv").read_text().splitlines()) == 1 + jobs.EPOCHS
        restored = hl.saving.load_model(out / "ckpt0.keras")
        for a, b in zip(restored.get_weights(), single["weights"]):
            np.testing.assert_allclose(a, np.asarray(b), rtol=1e-5, atol=1e-6)
    for i, result in enumerate(results):
        checks = result["checks"]
        assert checks["devices"] == [2, 1]  # two devices in the run, one per process
        assert checks["kernel"] == [2, False, True]  # on both processes' devices, replicated
        # An even batch of 16: this process holds its own 8 rows; the uneven last batch (15) runs replicated.
        assert checks["even_shards"] == [[8, 8], [8]] and checks["even_rows_are_mine"]
        assert checks["uneven_shards"] == [[15, 8], [15]] and checks["uneven_replicated"] == [True, True]
        np.testing.assert_allclose(checks["kernel_numpy"], result["weights"][0])
    # Initial weights that differ between the processes (different seeds) start from process 0's everywhere.
    jobs.assert_shared_host_stream(results)
    unseeded = [r["unseeded"] for r in results]
    assert not np.allclose(unseeded[0]["before"][0], unseeded[1]["before"][0])
    for u in unseeded:
        for a, b in zip(u["after"], unseeded[0]["before"]):
            np.testing.assert_array_equal(a, b)
