"""The JAX distribution scenarios, in a fresh interpreter with two host devices.

Usage: ``jax_job.py OUT_DIR``. XLA reads ``--xla_force_host_platform_device_count`` when JAX starts, so it is set
here before anything imports jax. Writes ``single.json``, ``data_parallel.json``, ``model_parallel.json`` (runs of
the test MLP) and ``checks.json`` (shardings seen, checkpoint round trip).
"""

import os
import sys

# First: XLA stops reading its flags at a word without dashes, so a flag appended after one in an inherited
# XLA_FLAGS would be ignored.
os.environ["XLA_FLAGS"] = ("--xla_force_host_platform_device_count=2 " + os.environ.get("XLA_FLAGS", "")).strip()
os.environ["HIGHLEVEL_BACKEND"] = "jax"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jobs  # noqa: E402
import numpy as np  # noqa: E402

import highlevel as hl  # noqa: E402


def spec(variable):
    """The partition spec, one entry per dimension (JAX may drop trailing Nones)."""
    axes = [None if a is None else str(a) for a in variable.handle.value.sharding.spec]
    return axes + [None] * (len(variable.shape) - len(axes))


def main(out):
    dist = hl.distribution
    checks = {"devices": dist.list_devices()}
    jobs.run_and_write(hl, out, "single", None)

    data_parallel = dist.DataParallel()
    checks["mesh"] = list(data_parallel.device_mesh.shape)
    ckpt = os.path.join(out, "dp.keras")
    model = jobs.run_and_write(
        hl, out, "data_parallel", data_parallel, callbacks=[hl.callbacks.ModelCheckpoint(ckpt, monitor="loss")]
    )
    x, y = jobs.data()
    batch = hl.config.current_backend().distribute_batch((x[:16], y[:16]), data_parallel)
    checks["batch_shards"] = [[int(s.data.shape[0]) for s in a.addressable_shards] for a in batch]
    checks["dp_kernel_spec"] = spec(model.layers[0].kernel)
    checks["dp_kernel_devices"] = len(model.layers[0].kernel.handle.value.sharding.device_set)

    mesh = dist.DeviceMesh((1, 2), ("batch", "model"))
    layout_map = dist.LayoutMap(mesh)
    layout_map["dense/kernel"] = (None, "model")
    layout_map["out.*kernel"] = ("model", None)
    model = jobs.run_and_write(
        hl, out, "model_parallel", dist.ModelParallel(layout_map=layout_map, batch_dim_name="batch")
    )
    kernel = model.layers[0].kernel.handle.value
    checks["mp_specs"] = {v.path: spec(v) for v in model.trainable_variables}
    checks["mp_kernel_shards"] = [list(s.data.shape) for s in kernel.addressable_shards]

    # A checkpoint written by the data-parallel run loads without any distribution.
    dist.set_distribution(None)
    restored = hl.saving.load_model(ckpt)
    checks["restored"] = [np.asarray(w).tolist() for w in restored.get_weights()]
    jobs.write_json(os.path.join(out, "checks.json"), checks)


if __name__ == "__main__":
    main(sys.argv[1])
