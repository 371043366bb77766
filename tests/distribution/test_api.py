"""The distribution API in one process: layouts, validation, the native engine's refusal, and single-device runs
through the distribution hooks on every backend."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import distribution as dist

from . import jobs


@pytest.fixture(autouse=True)
def no_distribution_after():
    yield
    dist.set_distribution(None)


def test_layout_map_matches_paths_by_pattern():
    mesh = dist.DeviceMesh((1, 2), ("batch", "model"), devices=["cpu:0", "cpu:1"])
    layout_map = dist.LayoutMap(mesh)
    layout_map["dense.*kernel"] = (None, "model")
    layout_map["dense_2/bias"] = dist.TensorLayout(("model",))
    assert layout_map["dense_1/kernel"].axes == (None, "model")
    assert layout_map["dense_1/kernel"].device_mesh is mesh
    assert layout_map["dense_2/bias"].axes == ("model",)
    assert layout_map["out/bias"] is None
    layout_map["kernel"] = (None, None)
    with pytest.raises(ValueError, match="matches several LayoutMap keys"):
        layout_map["dense_1/kernel"]
    with pytest.raises(ValueError, match="already has a layout"):
        layout_map["kernel"] = (None, None)
    with pytest.raises(ValueError, match="TensorLayout or a tuple"):
        layout_map["x"] = "model"
    with pytest.raises(ValueError, match="does not have"):
        layout_map["y"] = ("data", None)
    assert len(layout_map) == 3 and "kernel" in list(layout_map)


def test_mesh_and_distributions_validate_their_arguments():
    with pytest.raises(ValueError, match="needs 4 devices; received 2"):
        dist.DeviceMesh((2, 2), ("batch", "model"), devices=["cpu:0", "cpu:1"])
    with pytest.raises(ValueError, match="one axis name per dimension"):
        dist.DeviceMesh((2,), ("batch", "model"), devices=["cpu:0", "cpu:1"])
    mesh = dist.DeviceMesh((1, 2), ("batch", "model"), devices=["cpu:0", "cpu:1"])
    with pytest.raises(ValueError, match="one-dimensional"):
        dist.DataParallel(device_mesh=mesh)
    with pytest.raises(ValueError, match="LayoutMap"):
        dist.ModelParallel(layout_map={"dense": (None, "model")})
    dp = dist.DataParallel(devices=["cpu:0", "cpu:1"])
    assert (dp.device_mesh.shape, dp.batch_dim_name, dp.num_replicas) == ((2,), "batch", 2)
    assert dp.get_data_layout((16, 8)).axes == ("batch", None)
    with pytest.raises(ValueError, match="takes a highlevel.distribution.Distribution"):
        dist.set_distribution("data_parallel")


def test_model_parallel_layouts_follow_the_layout_map():
    mesh = dist.DeviceMesh((1, 2), ("batch", "model"), devices=["cpu:0", "cpu:1"])
    layout_map = dist.LayoutMap(mesh)
    layout_map["dense/kernel"] = (None, "model")
    mp = dist.ModelParallel(layout_map=layout_map, batch_dim_name="batch")
    with hl.config.backend_scope("native"):
        kernel = hl.Variable(np.zeros((4, 2), "float32"), name="kernel")
        kernel.path = "dense/kernel"
        bias = hl.Variable(np.zeros((2,), "float32"), name="bias")
        bias.path = "dense/bias"
        assert mp.get_variable_layout(kernel).axes == (None, "model")
        assert mp.get_variable_layout(bias).axes == (None,)
        bias.path = "dense/bias_x"
        layout_map["bias_x"] = (None, "model")
        with pytest.raises(ValueError, match="has 2 axes, but the variable has shape"):
            mp.get_variable_layout(bias)


def test_native_refuses_several_devices_and_names_the_backends_that_distribute():
    with hl.config.backend_scope("native"):
        with pytest.raises(ValueError, match="native.*one device.*jax, torch or tensorflow"):
            dist.set_distribution(dist.DataParallel(devices=["cpu:0", "cpu:1"]))
        assert dist.distribution() is None
        with pytest.raises(ValueError, match="one process"):
            dist.initialize(num_processes=2)


def test_a_single_device_distribution_trains_like_no_distribution(backend):
    # The distribution hooks (variable placement, batch split, replica sums) run with one device on every
    # engine and change nothing.
    assert (dist.num_processes(), dist.process_index(), dist.is_chief()) == (1, 0, True)
    model, history, logs = jobs.train(hl, validation=False)
    expected = jobs.summary(model, history, logs)
    dist.set_distribution(dist.DataParallel(devices=dist.list_devices()[:1]))
    assert dist.distribution().num_replicas == 1
    model, history, logs = jobs.train(hl, validation=False)
    jobs.assert_same_run(expected, jobs.summary(model, history, logs), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("engine", ["torch", "tensorflow"])
def test_data_parallel_engines_refuse_model_parallel(engine):
    if engine not in hl.backends.installed():
        pytest.skip(f"{engine} is not installed")
    mesh = dist.DeviceMesh((1, 2), ("batch", "model"), devices=["cpu:0", "cpu:1"])
    layout_map = dist.LayoutMap(mesh)
    layout_map["dense/kernel"] = (None, "model")
    with hl.config.backend_scope(engine):
        with pytest.raises(ValueError, match="data-parallel only.*jax backend for ModelParallel"):
            dist.set_distribution(dist.ModelParallel(layout_map=layout_map))


def test_torch_data_parallel_needs_one_process_per_device():
    if "torch" not in hl.backends.installed():
        pytest.skip("torch is not installed")
    with hl.config.backend_scope("torch"):
        with pytest.raises(ValueError, match="one process per device.*torchrun --nproc-per-node=2"):
            dist.set_distribution(dist.DataParallel(devices=["cpu:0", "cpu:1"]))
