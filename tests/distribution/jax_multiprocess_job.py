"""One process of a two-process JAX data-parallel run (``jax.distributed.initialize`` on localhost).

Usage: ``jax_multiprocess_job.py OUT_DIR PROCESS_ID PORT``. Each process has one CPU device, so the mesh of
``DataParallel()`` spans two devices on two processes and every step runs cross-process collectives (gloo).
Trains the test MLP with a checkpoint and a CSV log (only process 0 may write them), predicts, checks where the
arrays live, and writes ``result<process_id>.json``.
"""

import os
import sys
import traceback

# One CPU device per process: drop a forced host device count inherited from the environment (the other flags,
# such as the test processes' thread settings, stay).
os.environ["XLA_FLAGS"] = " ".join(
    f for f in os.environ.get("XLA_FLAGS", "").split() if "xla_force_host_platform_device_count" not in f
)
os.environ["HIGHLEVEL_BACKEND"] = "jax"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jax  # noqa: E402
import jobs  # noqa: E402
import numpy as np  # noqa: E402

import highlevel as hl  # noqa: E402


def placement_checks(model, process_id):
    """Where the arrays live: replicated weights over both processes' devices, batches split by process."""
    backend = hl.config.current_backend()
    kernel = model.layers[0].kernel.handle.value
    x, y = jobs.data()
    even = backend.distribute_batch((x[:16], y[:16]), hl.distribution.distribution())
    uneven = backend.distribute_batch((x[:15], y[:15]), hl.distribution.distribution())
    local = np.asarray(even[0].addressable_shards[0].data)
    return {
        "devices": [jax.device_count(), jax.local_device_count()],
        "kernel": [len(kernel.sharding.device_set), kernel.is_fully_addressable, kernel.is_fully_replicated],
        # The even batch: this process holds its 8 rows (process 0 the first 8); the uneven one runs replicated.
        "even_shards": [list(s.data.shape) for a in even for s in a.addressable_shards],
        "even_rows_are_mine": bool(np.array_equal(local, x[8 * process_id : 8 * process_id + 8])),
        "uneven_shards": [list(s.data.shape) for a in uneven for s in a.addressable_shards],
        "uneven_replicated": [a.is_fully_replicated for a in uneven],
        # A replicated global array reads back to numpy (from the local shard).
        "kernel_numpy": hl.ops.convert_to_numpy(model.layers[0].kernel).tolist(),
    }


def unseeded_start(process_id):
    """A model whose initial weights differ between the processes (different seeds) starts from process 0's."""
    hl.utils.set_random_seed(100 + process_id)
    model = hl.Sequential([hl.Input((8,)), hl.layers.Dense(4, name="dense")])
    before = [w.tolist() for w in model.get_weights()]
    x, _ = jobs.data()
    model.predict(x[:16], batch_size=16, verbose=0)  # places the variables for the distribution
    return {"before": before, "after": [w.tolist() for w in model.get_weights()]}


def main(out, process_id, port):
    hl.distribution.initialize(f"127.0.0.1:{port}", num_processes=2, process_id=process_id)
    jobs.desync_host_stream(hl, process_id)
    hl.distribution.set_distribution(hl.distribution.DataParallel())
    draw = jobs.host_draw(hl)  # the same in both processes: process 0's stream is shared
    index, count = hl.distribution.process_index(), hl.distribution.num_processes()
    devices = hl.distribution.list_devices()
    assert (index, count) == (process_id, 2) and devices == ["cpu:0", "cpu:1"], (index, count, devices)
    callbacks = [
        hl.callbacks.ModelCheckpoint(os.path.join(out, f"ckpt{index}.keras"), monitor="loss"),
        hl.callbacks.CSVLogger(os.path.join(out, f"log{index}.csv")),
    ]
    model, history, logs = jobs.train(hl, callbacks=callbacks)
    result = jobs.summary(model, history, logs)
    x, _ = jobs.data()
    result["predict"] = model.predict(x, batch_size=jobs.GLOBAL_BATCH, verbose=0).tolist()
    result["checks"] = placement_checks(model, process_id)
    result["unseeded"] = unseeded_start(process_id)
    result["host_draw"] = draw
    jobs.write_json(os.path.join(out, f"result{index}.json"), result)


if __name__ == "__main__":
    try:
        main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
    except BaseException:
        # Exit at once: a normal exit runs jax.distributed's shutdown, which waits for the peer at a barrier
        # (the peer meanwhile waits in a collective for this process), so the failure would show only later.
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)
