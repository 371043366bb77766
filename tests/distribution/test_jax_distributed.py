"""JAX distribution: data and model parallelism over two host devices (one subprocess checks every scenario)."""

import numpy as np
import pytest

import highlevel as hl

from . import jobs

pytestmark = pytest.mark.skipif("jax" not in hl.backends.installed(), reason="jax is not installed")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("jax_dist")
    jobs.run_job("jax_job.py", out)
    names = ("single", "data_parallel", "model_parallel", "checks")
    return {name: jobs.read_json(out / f"{name}.json") for name in names}


def test_data_parallel_fit_equals_one_device_fit(results):
    checks = results["checks"]
    assert checks["devices"] == ["cpu:0", "cpu:1"] and checks["mesh"] == [2]
    jobs.assert_same_run(results["single"], results["data_parallel"])
    np.testing.assert_allclose(results["data_parallel"]["predict"], results["single"]["predict"], rtol=1e-5, atol=1e-6)
    # The batch is split over the two devices; the weights are replicated on both.
    assert checks["batch_shards"] == [[8, 8], [8, 8]]
    assert checks["dp_kernel_spec"] == [None, None]
    assert checks["dp_kernel_devices"] == 2


def test_model_parallel_shards_kernels_and_trains_the_same(results):
    checks = results["checks"]
    specs = checks["mp_specs"]
    assert specs["dense/kernel"] == [None, "model"]  # split along its output units...
    assert specs["out/kernel"] == ["model", None]  # ...and the next kernel along its inputs
    assert specs["dense/bias"] == [None]  # unmatched: replicated
    assert checks["mp_kernel_shards"] == [[8, 8], [8, 8]]  # (8, 16) in two halves
    jobs.assert_same_run(results["single"], results["model_parallel"])


def test_checkpoint_of_a_distributed_run_loads_on_one_device(results):
    for a, b in zip(results["checks"]["restored"], results["data_parallel"]["weights"]):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
