"""The TensorFlow distribution scenario, in a fresh interpreter with two logical CPU devices.

Usage: ``tf_job.py OUT_DIR``. Logical devices must be configured before TensorFlow initialises, hence the
subprocess. Writes ``single.json`` and ``data_parallel.json`` (runs of the test MLP) and ``checks.json``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ["HIGHLEVEL_BACKEND"] = "tensorflow"

import tensorflow as tf  # noqa: E402

_cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(_cpu, [tf.config.LogicalDeviceConfiguration()] * 2)

import jobs  # noqa: E402
import numpy as np  # noqa: E402

import highlevel as hl  # noqa: E402


def main(out):
    dist = hl.distribution
    checks = {"devices": dist.list_devices()}
    jobs.run_and_write(hl, out, "single", None)
    ckpt = os.path.join(out, "dp.keras")
    model = jobs.run_and_write(
        hl, out, "data_parallel", dist.DataParallel(), callbacks=[hl.callbacks.ModelCheckpoint(ckpt, monitor="loss")]
    )
    handles = [
        v._handle for v in model.variables + model.optimizer.variables
    ]  # the tf.Variable (handle is its resource)
    checks["mirrored"] = [type(h).__name__ for h in handles]
    checks["replicas"] = [len(h.values) for h in handles]
    # The copies on the two devices agree after training.
    checks["copies_equal"] = all(np.array_equal(h.values[0].numpy(), h.values[1].numpy()) for h in handles)
    # A last batch of one example on two replicas: one replica gets none, and adds nothing (not NaN) to the
    # metrics; weights and logs as on one device.
    x, y = jobs.data()
    tiny = {}
    for name, distribution in (("single", None), ("data_parallel", dist.DataParallel())):
        dist.set_distribution(distribution)
        small = jobs.build(hl)
        history = small.fit(x[:17], y[:17], batch_size=16, epochs=1, verbose=0, shuffle=False)
        tiny[name] = {"history": history.history, "weights": [w.tolist() for w in small.get_weights()]}
    checks["tiny_last_batch"] = tiny
    mesh = dist.DeviceMesh((1, 2), ("batch", "model"))
    layout_map = dist.LayoutMap(mesh)
    layout_map["dense/kernel"] = (None, "model")
    try:
        dist.set_distribution(dist.ModelParallel(layout_map=layout_map))
        checks["model_parallel_error"] = None
    except ValueError as e:
        checks["model_parallel_error"] = str(e)
    dist.set_distribution(None)
    checks["restored"] = [np.asarray(w).tolist() for w in hl.saving.load_model(ckpt).get_weights()]
    jobs.write_json(os.path.join(out, "checks.json"), checks)


if __name__ == "__main__":
    main(sys.argv[1])
