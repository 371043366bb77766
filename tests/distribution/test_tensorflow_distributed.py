"""TensorFlow distribution: MirroredStrategy over two logical CPU devices (one subprocess for the scenario)."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import highlevel as hl

from . import jobs

pytestmark = pytest.mark.skipif("tensorflow" not in hl.backends.installed(), reason="tensorflow is not installed")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("tf_dist")
    jobs.run_job("tf_job.py", out)
    return {name: jobs.read_json(out / f"{name}.json") for name in ("single", "data_parallel", "checks")}


def test_mirrored_fit_equals_one_device_fit(results):
    checks = results["checks"]
    assert checks["devices"] == ["cpu:0", "cpu:1"]
    jobs.assert_same_run(results["single"], results["data_parallel"])
    np.testing.assert_allclose(results["data_parallel"]["predict"], results["single"]["predict"], rtol=1e-5, atol=1e-6)
    # Every variable (weights, optimizer slots) is mirrored on both devices, and the copies agree.
    assert set(checks["mirrored"]) == {"MirroredVariable"} and set(checks["replicas"]) == {2}
    assert checks["copies_equal"]


def test_model_parallel_is_refused_with_a_clear_error(results):
    message = results["checks"]["model_parallel_error"]
    assert message is not None and "data-parallel only" in message and "jax" in message


def test_a_replica_without_examples_adds_nothing(results):
    tiny = results["checks"]["tiny_last_batch"]
    np.testing.assert_allclose(tiny["data_parallel"]["history"]["loss"], tiny["single"]["history"]["loss"], rtol=1e-6)
    for a, b in zip(tiny["data_parallel"]["weights"], tiny["single"]["weights"]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_checkpoint_of_a_mirrored_run_loads_on_one_device(results):
    for a, b in zip(results["checks"]["restored"], results["data_parallel"]["weights"]):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_tf_config_names_the_workers(monkeypatch):
    # A multi-worker run reads its cluster from TF_CONFIG (MultiWorkerMirroredStrategy); the process index and
    # count come from there, and initialize() writes it from addresses.
    with hl.config.backend_scope("tensorflow") as backend:
        monkeypatch.setenv(
            "TF_CONFIG", json.dumps({"cluster": {"worker": ["a:1", "b:2"]}, "task": {"type": "worker", "index": 1}})
        )
        assert (backend.distribution_num_processes(), backend.distribution_process_index()) == (2, 1)
        assert not hl.distribution.is_chief()
        backend.distribution_initialize(job_addresses="h0:10,h1:11", num_processes=2, process_id=0)
        config = json.loads(os.environ["TF_CONFIG"])
        assert config == {"cluster": {"worker": ["h0:10", "h1:11"]}, "task": {"type": "worker", "index": 0}}
        with pytest.raises(ValueError, match="one address per worker"):
            backend.distribution_initialize(job_addresses=["h0:10"], num_processes=2, process_id=0)


def test_two_workers_with_multi_worker_mirrored_strategy(tmp_path):
    # Two processes on localhost, each one worker of the TF_CONFIG cluster: the run equals one device's, and
    # only worker 0 writes the checkpoint and the log.
    ports = [jobs.free_port(), jobs.free_port()]
    procs = []
    for index in range(2):
        config = {"cluster": {"worker": [f"localhost:{p}" for p in ports]}, "task": {"type": "worker", "index": index}}
        procs.append(
            subprocess.Popen(
                [sys.executable, os.path.join(jobs.HERE, "tf_multiworker_job.py"), str(tmp_path)],
                env=jobs.child_env(TF_CONFIG=json.dumps(config)),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    for index, proc in enumerate(procs):
        try:
            out, err = proc.communicate(timeout=400)
        except subprocess.TimeoutExpired:
            for p in procs:
                p.kill()
            pytest.fail(f"worker {index} did not finish in time")
        assert proc.returncode == 0, f"worker {index} failed:\n{out}\n{err[-6000:]}"
    with hl.config.backend_scope("tensorflow"):
        model, history, logs = jobs.train(hl, validation=False)
    single = jobs.summary(model, history, logs)
    results = [jobs.read_json(tmp_path / f"result{index}.json") for index in range(2)]
    for result in results:
        jobs.assert_same_run(single, result)
    jobs.assert_shared_host_stream(results)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("result")) == ["ckpt0.keras", "log0.csv"]
