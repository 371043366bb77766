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


def test_get_device_count_counts_the_listed_devices(backend):
    assert dist.get_device_count() == len(dist.list_devices()) >= 1
    assert dist.get_device_count("cpu") == len(dist.list_devices("cpu")) >= 1


def test_distribute_tensor_keeps_the_values_and_places_them(backend):
    devices = dist.list_devices()[:1]
    mesh = dist.DeviceMesh((1, 1), ("batch", "model"), devices=devices)
    x = np.arange(6, dtype="float32").reshape(2, 3)
    out = dist.distribute_tensor(x, dist.TensorLayout(("batch", "model"), mesh))
    assert hl.ops.is_tensor(out)
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(out), x)
    sharding = getattr(out, "sharding", None)  # an engine that places tensors records where they went
    if sharding is not None and hasattr(sharding, "spec"):
        assert tuple(sharding.spec) == ("batch", "model")
    # A layout without a mesh takes the current distribution's.
    dist.set_distribution(dist.DataParallel(devices=devices))
    out = dist.distribute_tensor(hl.ops.ones((4, 2)), dist.TensorLayout(("batch", None)))
    assert float(hl.ops.sum(out)) == 8.0
    symbolic = hl.Input((3,))
    assert dist.distribute_tensor(symbolic, dist.TensorLayout((None, None))) is symbolic


def test_distribute_tensor_inside_a_jitted_function():
    jax = pytest.importorskip("jax")
    with hl.config.backend_scope("jax"):
        mesh = dist.DeviceMesh((1,), ("batch",), devices=dist.list_devices()[:1])
        layout = dist.TensorLayout(("batch", None), mesh)
        f = jax.jit(lambda a: dist.distribute_tensor(a * 2.0, layout) + 1.0)
        np.testing.assert_array_equal(np.asarray(f(np.ones((2, 2), "float32"))), np.full((2, 2), 3.0))


def test_distribute_tensor_errors_name_the_fix():
    with pytest.raises(ValueError, match="TensorLayout as layout"):
        dist.distribute_tensor(np.ones(2), ("batch",))
    with pytest.raises(ValueError, match="no device mesh and no distribution is set"):
        dist.distribute_tensor(np.ones(2), dist.TensorLayout(("batch",)))


def test_auto_shard_dataset_and_device_mesh_arguments(monkeypatch):
    devices = dist.list_devices()[:1]
    assert dist.DataParallel(devices=devices).auto_shard_dataset is True
    assert dist.DataParallel(devices=devices, auto_shard_dataset=False).auto_shard_dataset is False  # one process
    mesh = dist.DeviceMesh((1, 1), ("batch", "model"), devices=devices)
    layout_map = dist.LayoutMap(mesh)
    mp = dist.ModelParallel(layout_map=layout_map, device_mesh=mesh, auto_shard_dataset=False)
    assert mp.device_mesh is mesh and mp.auto_shard_dataset is False
    with pytest.raises(ValueError, match="not the layout map's mesh"):
        dist.ModelParallel(layout_map=layout_map, device_mesh=dist.DeviceMesh((1,), ("batch",), devices=devices))
    with pytest.raises(ValueError, match="auto_shard_dataset must be True or False"):
        dist.DataParallel(devices=devices, auto_shard_dataset="yes")
    monkeypatch.setattr(dist.state, "num_processes", lambda: 2)
    with pytest.raises(ValueError, match="not supported in a run of 2 processes"):
        dist.DataParallel(devices=devices, auto_shard_dataset=False)
    assert dist.DataParallel(devices=devices).auto_shard_dataset  # the default still works there
