"""Distribution on the TensorFlow engine: ``tf.distribute.MirroredStrategy`` (``MultiWorkerMirroredStrategy``).

When a data-parallel distribution is set, variables are created under the strategy's scope as mirrored variables
(one copy per device). Each global batch becomes per-replica values (contiguous rows per replica), and the step
runs on every replica with ``strategy.run`` inside the ``tf.function``. The front end combines the replicas
through :meth:`replica_sum` (gradients averaged by batch share, metric updates summed), after which every replica
computes the same update; variables therefore use ``ONLY_FIRST_REPLICA`` aggregation: the first replica's
(identical) value is written to every copy.

Several hosts: set ``TF_CONFIG`` (``{"cluster": {"worker": [...]}, "task": {"type": "worker", "index": i}}``) on
every worker; a cluster of more than one worker makes the strategy a ``MultiWorkerMirroredStrategy``.
"""

import json
import os

import tensorflow as tf

from highlevel.backends.contract import DistributionContract, tree


class TensorFlowDistributionMixin(DistributionContract):
    """The distribution part of the contract on TensorFlow (mirrored strategies)."""

    _strategy = None

    def distribution_list_devices(self, device_type=None):
        if len(_tf_config_workers()) > 1:
            # Multi-worker: the strategy must exist before TensorFlow initialises (listing devices would), and
            # the run's devices are every worker's replicas.
            strategy = _multi_worker_strategy()
            kind = device_type.lower() if device_type else strategy.extended.worker_devices[0].split(":")[-2].lower()
            return [f"{kind}:{i}" for i in range(strategy.num_replicas_in_sync)]
        kind = device_type.lower() if device_type else ("gpu" if tf.config.list_logical_devices("GPU") else "cpu")
        return [d for d in self.devices() if d.split(":")[0] == kind]

    def distribution_initialize(self, job_addresses=None, num_processes=None, process_id=None):
        # TensorFlow joins a cluster through TF_CONFIG when the strategy is made; build it from the arguments.
        if job_addresses is None:
            return
        workers = job_addresses.split(",") if isinstance(job_addresses, str) else list(job_addresses)
        if num_processes is not None and num_processes != len(workers):
            raise ValueError(
                f"num_processes={num_processes} but {len(workers)} job addresses were given: "
                f"{workers}. Give one address per worker."
            )
        if process_id is None:
            raise ValueError("initialize(job_addresses=...) on tensorflow needs process_id (this worker's index).")
        os.environ["TF_CONFIG"] = json.dumps(
            {"cluster": {"worker": workers}, "task": {"type": "worker", "index": int(process_id)}}
        )

    def distribution_num_processes(self):
        return len(_tf_config_workers()) or 1

    def distribution_process_index(self):
        if not _tf_config_workers():
            return 0
        return int(json.loads(os.environ["TF_CONFIG"]).get("task", {}).get("index", 0))

    def distribution_activate(self, distribution):
        self._strategy = None
        if distribution is None:
            return
        mesh = distribution.device_mesh
        batch_axis = mesh.axis_names.index(distribution.batch_dim_name)
        others = [n for i, n in enumerate(mesh.shape) if i != batch_axis]
        if any(n > 1 for n in others):
            raise ValueError(
                f"The tensorflow backend distributes data-parallel only; received a mesh {mesh.shape} with axes "
                f"{mesh.axis_names} that splits the model. Use DataParallel, or the jax backend for ModelParallel."
            )
        if len(_tf_config_workers()) > 1:
            self._strategy = _multi_worker_strategy()
            if len(mesh.devices) != self._strategy.num_replicas_in_sync:
                raise ValueError(
                    f"The TF_CONFIG cluster runs {self._strategy.num_replicas_in_sync} replicas, but the "
                    f"distribution's mesh has {len(mesh.devices)} devices. Use DataParallel() without devices in a "
                    "multi-worker run."
                )
        elif len(mesh.devices) > 1:
            self._strategy = tf.distribute.MirroredStrategy(devices=[f"/{d.upper()}" for d in mesh.devices])

    def distribution_broadcast(self, values):
        strategy = self._strategy
        if strategy is None or self.distribution_num_processes() == 1:
            return values
        local = tf.constant(values, dtype=tf.int64)

        def first_replicas_value():
            # An all-reduce in which only replica 0 (on worker 0) contributes: a broadcast, exact in int64.
            ctx = tf.distribute.get_replica_context()
            first = tf.equal(ctx.replica_id_in_sync_group, 0)
            return ctx.all_reduce(tf.distribute.ReduceOp.SUM, tf.where(first, local, tf.zeros_like(local)))

        out = strategy.run(first_replicas_value)
        return strategy.experimental_local_results(out)[0].numpy()

    def make_variable_handle(self, tensor, trainable):
        strategy = self._strategy
        if strategy is None:
            return super().make_variable_handle(tensor, trainable)

        def only_first_replica(next_creator, **kwargs):
            kwargs["aggregation"] = tf.VariableAggregation.ONLY_FIRST_REPLICA
            return next_creator(**kwargs)

        with strategy.scope(), tf.variable_creator_scope(only_first_replica):
            return super().make_variable_handle(tensor, trainable)

    def distribute_batch(self, batch, distribution):
        strategy = self._strategy
        if strategy is None:
            return batch
        replicas = strategy.num_replicas_in_sync
        leaves, treedef = tree.flatten(batch)

        def share(ctx):
            i = ctx.replica_id_in_sync_group
            out = []
            for a in leaves:
                if a is None or not hasattr(a, "shape") or len(a.shape) == 0:
                    out.append(a)
                else:
                    n = int(a.shape[0])
                    out.append(a[i * n // replicas : (i + 1) * n // replicas])
            return tree.unflatten(treedef, out)

        return strategy.experimental_distribute_values_from_function(share)

    def distribute_step(self, step, distribution):
        strategy = self._strategy
        if strategy is None:
            return step

        key_order = []

        def replica_step(data):
            out = step(data)
            if isinstance(out, dict):
                key_order[:] = list(out)
            return out

        def run_on_replicas(data):
            outputs = strategy.run(replica_step, args=(data,))
            # After the front end's replica_sum every replica holds the same results: keep the first's.
            outputs = tree.map_structure(lambda v: strategy.experimental_local_results(v)[0], outputs)
            if isinstance(outputs, dict) and set(outputs) == set(key_order):
                outputs = {k: outputs[k] for k in key_order}  # tf.nest sorted the keys; restore the step's order
            return outputs

        return run_on_replicas

    def distribution_step_replicas(self):
        return 1 if self._strategy is None else self._strategy.num_replicas_in_sync

    def replica_sum(self, tensors):
        ctx = tf.distribute.get_replica_context()
        if ctx is None or ctx.num_replicas_in_sync == 1:
            return list(tensors)
        return list(ctx.all_reduce(tf.distribute.ReduceOp.SUM, list(tensors)))


_multi_worker = []


def _multi_worker_strategy():
    """The process's one ``MultiWorkerMirroredStrategy`` (TensorFlow allows one, made before it initialises)."""
    if not _multi_worker:
        try:
            _multi_worker.append(tf.distribute.MultiWorkerMirroredStrategy())
        except RuntimeError as e:
            raise RuntimeError(
                "A multi-worker TensorFlow run must set its distribution before TensorFlow starts: call "
                "hl.distribution.set_distribution(hl.distribution.DataParallel()) at the top of the script, before "
                f"building models or running ops. ({e})"
            ) from e
    return _multi_worker[0]


def _tf_config_workers():
    config = os.environ.get("TF_CONFIG")
    if not config:
        return []
    try:
        return list(json.loads(config).get("cluster", {}).get("worker", []))
    except ValueError as e:
        raise ValueError(f"TF_CONFIG is not valid JSON: {config!r} ({e}).") from None
