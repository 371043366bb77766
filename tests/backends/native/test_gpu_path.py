"""The native engine's CuPy path (``HIGHLEVEL_DEVICE=gpu``) without a GPU: run on fake_cupy.py, a stand-in that
computes with numpy but keeps CuPy's rules (no implicit conversion to numpy, no numpy arrays mixed into device
calls, 0-d results) and counts every device-to-host read.

The model runs happen in child processes (gpu_path_child.py), once on numpy and once on the fake CuPy: the
engine picks its array module at import time.
"""

import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

HERE = pathlib.Path(__file__).resolve().parent
CHILD = HERE / "gpu_path_child.py"


def _load_fake():
    spec = importlib.util.spec_from_file_location("fake_cupy_for_tests", HERE / "fake_cupy.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (not as "cupy": this process keeps the numpy engine)
    spec.loader.exec_module(module)
    return module


fake = _load_fake()


def _run_child(out, gpu):
    env = {k: v for k, v in os.environ.items() if k not in ("HIGHLEVEL_DEVICE", "FAKE_CUPY", "HIGHLEVEL_BACKEND")}
    if gpu:
        env.update(HIGHLEVEL_DEVICE="gpu", FAKE_CUPY="1")
    proc = subprocess.run([sys.executable, str(CHILD), str(out)], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    cpu_dir, gpu_dir = tmp_path_factory.mktemp("cpu"), tmp_path_factory.mktemp("gpu")
    return {"cpu": (_run_child(cpu_dir, gpu=False), cpu_dir), "gpu": (_run_child(gpu_dir, gpu=True), gpu_dir)}


# ------------------------------------------------------------------------------------------------ the fake
def test_fake_refuses_what_cupy_refuses_and_counts_host_reads():
    a = fake.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.asarray(a)
    with pytest.raises(TypeError, match="Unsupported type"):
        a + np.ones(3)
    with pytest.raises(TypeError, match="Unsupported type"):
        fake.add(a, np.ones(3))
    with pytest.raises(TypeError, match="Unsupported type"):
        fake.add(a, [1.0, 2.0, 3.0])
    with pytest.raises(TypeError):
        np.add(np.ones(3), a)
    assert not hasattr(a.flags, "writeable")
    fake.reset_host_reads()
    total = a.sum()
    assert isinstance(total, fake.ndarray) and total.shape == () and fake.host_reads() == 0
    assert isinstance(np.exp(a), fake.ndarray) and fake.host_reads() == 0  # numpy dispatches to the device
    assert isinstance(np.concatenate([a, a]), fake.ndarray) and np.moveaxis(a, 0, 1).shape == (3, 2)
    assert float(total) == 15.0 and int(a[0, 1]) == 1 and bool(a[1, 1] > 0)
    assert fake.asnumpy(a).shape == a.get().shape == (2, 3) and a.tolist()[1] == [3.0, 4.0, 5.0]
    assert fake.host_reads() == 6
    fake.nonzero(a > 2)  # the output size depends on the values: CuPy reads a count on the host
    a[a > 2]
    assert fake.host_reads() == 8


def test_fake_elementwise_kernel_reads_its_source():
    k = fake.ElementwiseKernel("T x, T y", "T z, T w", "z = x * y + T(1); w = max(x, y) - z;", "demo")
    x = fake.asarray(np.array([1.0, 4.0], np.float32))
    z, w = k(x, 2.0)
    assert z.dtype == np.float32 and fake.asnumpy(z).tolist() == [3.0, 9.0] and fake.asnumpy(w).tolist() == [-1.0, -5.0]
    with pytest.raises(TypeError, match="mismatched"):
        k(x, fake.asarray(np.ones(2, np.float64)))
    with pytest.raises(ValueError, match="undeclared"):
        fake.ElementwiseKernel("T x", "T z", "z = x * q;", "bad")


def test_gpu_kernels_compute_the_numpy_path_bitwise():
    """The CUDA source of gpu_kernels.py, interpreted by the fake, against ops_fused's numpy code."""
    from highlevel.backends.native import gpu_kernels, ops_fused

    rng = np.random.default_rng(0)
    p, m, g = (rng.normal(size=(7, 5)).astype(np.float32) for _ in range(3))
    v = rng.random((7, 5)).astype(np.float32)
    alpha = np.asarray(0.0123, np.float32)
    want = ops_fused.adam_arrays(p, m, v, g, alpha, 0.1, 0.001, 1e-7)
    got = fake.ElementwiseKernel(*gpu_kernels._ADAM)(*(fake.asarray(a) for a in (p, m, v, g, alpha)), 0.1, 0.001, 1e-7)
    for w, o in zip(want, got):
        np.testing.assert_array_equal(fake.asnumpy(o), w)
    y = np.array([-1.0, 0.0, 2.0, np.nan], np.float32)
    gr = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    out = fake.ElementwiseKernel(*gpu_kernels._RELU_GRAD)(fake.asarray(gr), fake.asarray(y))
    np.testing.assert_array_equal(fake.asnumpy(out), gr * (y > 0))
    with pytest.raises(RuntimeError, match="CuPy"):
        gpu_kernels.relu_grad(gr, y)  # this process runs on numpy


# ------------------------------------------------------------------------------------ the engine on the fake
def test_the_engine_runs_on_the_fake_device(runs):
    assert runs["gpu"][0]["device"] == "gpu:0" and runs["cpu"][0]["device"] == "cpu:0"


@pytest.mark.parametrize("case", ["mlp", "mlp_eager", "mlp_loaded", "cnn", "heavy"])
def test_fit_on_the_fake_gpu_matches_numpy(runs, case):
    (_, cpu_dir), (_, gpu_dir) = runs["cpu"], runs["gpu"]
    want, got = np.load(cpu_dir / f"{case}.npz"), np.load(gpu_dir / f"{case}.npz")
    assert want.files == got.files and want.files
    for k in want.files:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-6, atol=1e-7)


def test_evaluate_predict_and_reload_on_the_fake_gpu(runs):
    cpu, gpu = runs["cpu"][0], runs["gpu"][0]
    assert gpu["mlp_loss"] == pytest.approx(cpu["mlp_loss"], rel=1e-6)
    assert gpu["mlp_evaluate"] == pytest.approx(cpu["mlp_evaluate"], rel=1e-6)
    np.testing.assert_allclose(
        np.load(runs["gpu"][1] / "mlp_predict.npy"), np.load(runs["cpu"][1] / "mlp_predict.npy"), rtol=1e-6, atol=1e-7
    )
    assert gpu["load_predict_equal"] and cpu["load_predict_equal"]


def test_no_host_read_inside_a_training_step(runs):
    gpu = runs["gpu"][0]
    assert gpu["mlp_step_reads"] == [0] * 7  # 8 steps: the reads between consecutive batch begins
    assert gpu["cnn_step_reads"] == [0] * 3
    assert gpu["heavy_step_reads"] == [0] * 3  # the fused LSTM, einsum and batch-norm kernels read nothing
    # eager steps skip the optional host reads (Adam's step count...) but check the sparse labels: one read per
    # step, the price of a clear error instead of NaN in eager and debug code (compiled steps read nothing)
    assert gpu["eager_step_reads"] == [1] * 7
    assert gpu["mlp_fit_reads"] == 1  # the epoch's loss, read once for the History at the epoch's end
    assert gpu["evaluate_reads"] == 1  # the loss, once at the end (8 batches)
    assert gpu["predict_reads"] == 8  # each batch's outputs come to the host: predict returns numpy


def test_out_of_range_labels_nan_on_gpu_error_on_cpu(runs):
    cpu, gpu = runs["cpu"][0], runs["gpu"][0]
    assert "labels must be in [0, 4)" in cpu["bad_labels"]["error"]
    loss = gpu["bad_labels"]["loss"]
    assert loss[0] == pytest.approx(np.log(4.0)) and loss[1] is None and loss[2] is None  # None: NaN
    assert gpu["bad_labels"]["grad_nan_rows"] == [False, True, True]
    assert gpu["bad_labels"]["grad_row0"] == [-0.75, 0.25, 0.25, 0.25]
    # fit's labels come as numpy: fit checks them on the host, where reading is free, before any step on either
    # device (on the GPU the op alone gives NaN, above)
    for run in (cpu, gpu):
        assert "hold class 7" in run["bad_labels_fit"]["error"]
        assert "class indices in [0, 5)" in run["bad_labels_fit"]["error"]


def test_gathers_and_int_powers_read_nothing_on_the_gpu(runs):
    cpu, gpu = runs["cpu"][0], runs["gpu"][0]
    assert "indices must be in [-3, 3)" in cpu["bad_take"]["error"]
    assert gpu["bad_take"]["nan_rows"] == [False, True, True, False] and gpu["bad_take"]["row0"] == [4.0, 5.0]
    assert gpu["bad_take"]["grad"] == [[0.0, 0.0], [0.0, 0.0], [2.0, 2.0]]  # out-of-range picks get no gradient
    assert gpu["int_power"] == cpu["int_power"] == [0, 1, -1, 9]
    assert gpu["op_reads"] == 3  # the three to_numpy calls


@pytest.mark.parametrize("device", ["cpu", "gpu"])
def test_tensor_seeded_draws(runs, device):
    """On the GPU a tensor seed is not read on the host: the draws come from a device hash of (seed, index)."""
    run = runs[device][0]
    d = run["draws"]
    n = 10000
    assert d["uniform"]["dtype"] == "float32" and -2.0 <= d["uniform"]["min"] and d["uniform"]["max"] < 3.0
    assert abs(d["uniform"]["mean"] - 0.5) < 6 * 5 / np.sqrt(12 * n)
    assert abs(d["uniform"]["std"] - 5 / np.sqrt(12)) < 0.05
    assert abs(d["normal"]["mean"] - 2.0) < 6 * 3 / np.sqrt(n) and abs(d["normal"]["std"] - 3.0) < 0.1
    assert d["normal64"]["dtype"] == "float64" and abs(d["normal64"]["std"] - 1.0) < 0.05
    assert d["randint"]["dtype"] == "int32" and d["randint"]["min"] == 3 and d["randint"]["max"] == 8
    assert abs(d["randint"]["mean"] - 5.5) < 6 * np.sqrt(35 / 12 / n)
    assert d["shuffle"]["sorted_is_range"] and d["same_seed_same_draw"] and d["new_counter_new_draw"]
    if device == "gpu":
        assert run["draw_reads"] == 0


def test_dropout_and_embedding_steps_read_nothing_on_the_gpu(runs):
    gpu = runs["gpu"][0]
    assert gpu["dropout_step_reads"] == [0, 0, 0] and gpu["dropout_loss_finite"]
