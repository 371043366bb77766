"""PyTorch data parallelism: two processes on localhost (gloo), launched as ``torchrun`` would launch them."""

import os
import subprocess
import sys
import time

import numpy as np
import pytest

import highlevel as hl

from . import jobs

pytestmark = pytest.mark.skipif("torch" not in hl.backends.installed(), reason="torch is not installed")


def _launch(out, mode, timeout_s=30):
    port = jobs.free_port()
    return [
        subprocess.Popen(
            [sys.executable, os.path.join(jobs.HERE, "torch_job.py"), out, mode],
            env=jobs.child_env(
                RANK=rank,
                LOCAL_RANK=rank,
                WORLD_SIZE=2,
                MASTER_ADDR="127.0.0.1",
                MASTER_PORT=port,
                HIGHLEVEL_DIST_TIMEOUT=timeout_s,
            ),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for rank in range(2)
    ]


def _finish(proc, timeout):
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"a torch worker did not finish within {timeout} s:\n{err[-4000:]}")
    return proc.returncode, out, err


def test_two_process_fit_matches_one_device_and_only_rank0_writes(tmp_path):
    procs = _launch(str(tmp_path), "fit")
    for rank, proc in enumerate(procs):
        rc, out, err = _finish(proc, 240)
        assert rc == 0, f"rank {rank} failed:\n{out}\n{err[-6000:]}"
    with hl.config.backend_scope("torch"):
        model, history, logs = jobs.train(hl)
        single = jobs.summary(model, history, logs)
        # Both ranks end with the single-device weights; histories and evaluation agree (metrics all-reduced).
        results = [jobs.read_json(tmp_path / f"result{rank}.json") for rank in range(2)]
        for result in results:
            jobs.assert_same_run(single, result)
        jobs.assert_shared_host_stream(results)
        # Only rank 0 wrote the checkpoint and the CSV log.
        assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("result")) == [
            "ckpt0.keras",
            "log0.csv",
        ]
        assert len((tmp_path / "log0.csv").read_text().splitlines()) == 1 + jobs.EPOCHS
        # The distributed run's checkpoint loads into a single-device model.
        restored = hl.saving.load_model(tmp_path / "ckpt0.keras")
        for a, b in zip(restored.get_weights(), single["weights"]):
            np.testing.assert_allclose(a, np.asarray(b), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", ["die", "hang"])
def test_a_dead_or_hung_worker_stops_the_other_with_a_clear_error(tmp_path, mode):
    # "die": rank 1 is killed (gloo sees its sockets close); "hang": rank 1 is stopped and stays silent, and the
    # process group's timeout (HIGHLEVEL_DIST_TIMEOUT, 10 s here) ends rank 0's wait.
    start = time.monotonic()
    procs = _launch(str(tmp_path), mode, timeout_s=10)
    try:
        rc0, _, err0 = _finish(procs[0], 120)
        elapsed = time.monotonic() - start
    finally:
        procs[1].kill()
        procs[1].communicate()
    assert rc0 != 0, "rank 0 should stop with an error when its peer dies or hangs"
    assert "another process has probably died or stopped responding" in err0, err0[-4000:]
    assert elapsed < 120
    assert not (tmp_path / "result0.json").exists()
