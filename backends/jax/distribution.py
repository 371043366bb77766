"""Distribution on the JAX engine: a ``jax.sharding.Mesh`` over the devices, arrays placed with ``NamedSharding``.

Variables are ``device_put`` with their layouts (replicated, or split over a mesh axis for model parallelism) and
each global batch is split over the mesh's batch axis. The jitted step then sees global arrays: XLA's sharding
propagation partitions the computation and inserts the all-reduces, so the step's code (and its loss, gradients
and metrics, computed on the global batch) is the single-device code unchanged.

Across hosts, every process calls ``jax.distributed.initialize`` first (:meth:`distribution_initialize`); the mesh
then spans the devices of all processes, and each process holds only the shards on its own devices. Every
process sees the same global batches (same seed, same shuffle) and builds its shards from them, so the step, its
collectives (gloo between CPU processes) and its results are those of one device. Variables start from process
0's values (as PyTorch's ``DistributedDataParallel`` does), so unseeded initial weights cannot diverge. Replicated
results (weights, metrics, losses, predictions, which run replicated) are read back from the local shard.
"""

import os

import jax
import numpy as np
from jax.experimental import multihost_utils
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from highlevel.backends.contract import DistributionContract, tree

from .core import _device_name, _parse_device


class JaxDistributionMixin(DistributionContract):
    """The distribution part of the contract on JAX (sharding over a device mesh)."""

    _mesh_cache = None  # (distribution id, jax Mesh)

    def distribution_list_devices(self, device_type=None):
        devices = jax.devices(device_type.lower()) if device_type else jax.devices()
        return [_device_name(d) for d in devices]

    def distribution_initialize(self, job_addresses=None, num_processes=None, process_id=None):
        if job_addresses is None and num_processes in (None, 1):
            return  # one process: nothing to join
        if isinstance(job_addresses, str) and "," in job_addresses:
            job_addresses = [a.strip() for a in job_addresses.split(",")]
        if isinstance(job_addresses, (list, tuple)):
            if num_processes is not None and len(job_addresses) not in (1, num_processes):
                raise ValueError(
                    f"job_addresses lists {len(job_addresses)} addresses ({list(job_addresses)}) but "
                    f"num_processes={num_processes}. Pass one address per process, or only the "
                    "coordinator's (process 0) 'host:port'."
                )
            job_addresses = job_addresses[0]  # JAX needs only the coordinator (process 0)
        if jax.config.jax_cpu_collectives_implementation is None:
            # Without a CPU collectives implementation a step spanning CPU devices of several processes fails
            # ("Multiprocess computations aren't implemented on the CPU backend"). It must be chosen before the
            # CPU client exists, i.e. here; gloo (over TCP, through the coordinator) needs nothing installed.
            jax.config.update("jax_cpu_collectives_implementation", "gloo")
        timeouts = {}
        if os.environ.get("HIGHLEVEL_DIST_TIMEOUT"):
            # The same knob as the torch backend's: how long to wait for the other processes to join and, at
            # exit, to finish; after how long without a heartbeat a process counts as dead (JAX's defaults: 300 s,
            # 300 s and 100 s).
            seconds = max(1, int(float(os.environ["HIGHLEVEL_DIST_TIMEOUT"])))
            timeouts = {
                "initialization_timeout": seconds,
                "shutdown_timeout_seconds": seconds,
                "heartbeat_timeout_seconds": seconds,
            }
        jax.distributed.initialize(
            coordinator_address=job_addresses, num_processes=num_processes, process_id=process_id, **timeouts
        )

    def distribution_num_processes(self):
        return jax.process_count()

    def distribution_process_index(self):
        return jax.process_index()

    def distribution_activate(self, distribution):
        self._mesh_cache = None
        if distribution is not None:
            self._jax_mesh(distribution)  # fails now, not at the first step, on an unknown device

    def _jax_mesh(self, distribution):
        cached = self._mesh_cache
        if cached is not None and cached[0] is distribution:
            return cached[1]
        spec = distribution.device_mesh
        devices = np.array([_parse_device(name) for name in spec.devices], dtype=object).reshape(spec.shape)
        mesh = Mesh(devices, spec.axis_names)
        self._mesh_cache = (distribution, mesh)
        return mesh

    def distribute_tensor(self, tensor, axes, device_mesh):
        if len(axes) != len(tensor.shape):
            raise ValueError(
                f"The layout {tuple(axes)} has {len(axes)} axes, but the tensor has shape "
                f"{tuple(tensor.shape)}: give one mesh-axis name or None per dimension."
            )
        devices = np.array([_parse_device(name) for name in device_mesh.devices], dtype=object)
        sharding = NamedSharding(Mesh(devices.reshape(device_mesh.shape), device_mesh.axis_names), PartitionSpec(*axes))
        if isinstance(tensor, jax.core.Tracer):  # inside a jitted function: a constraint for the compiler
            return jax.lax.with_sharding_constraint(tensor, sharding)
        return jax.device_put(tensor, sharding)

    def distribution_broadcast(self, values):
        if jax.process_count() == 1:
            return values
        return np.asarray(multihost_utils.broadcast_one_to_all(np.asarray(values, dtype=np.int64)), dtype=np.int64)

    def distribute_variables(self, variables, layouts, distribution):
        mesh = self._jax_mesh(distribution)
        shardings = [NamedSharding(mesh, PartitionSpec(*axes)) for axes in layouts]
        if jax.process_count() == 1:
            for variable, sharding in zip(variables, shardings):
                handle = variable.handle
                handle.value = jax.device_put(handle.value, sharding)
            return
        # Several processes. A value still local to this process (a new variable, or one set from host data) starts
        # from process 0's value: the processes' values may differ (unseeded initializers), and a "replicated"
        # array whose copies differ would silently give each process its own model. One broadcast for them all.
        local = [i for i, v in enumerate(variables) if _is_local(v.handle.value)]  # the same in every process
        if local:
            values = [np.asarray(variables[i].handle.value) for i in local]
            received = multihost_utils.broadcast_one_to_all(
                [v.astype(np.uint8) if v.dtype == np.bool_ else v for v in values]
            )  # psum-based: no bools
            for i, value, got in zip(local, values, received):
                variables[i].handle.value = _global_array(np.asarray(got).astype(value.dtype), shardings[i])
        placed = set(local)
        for i, (variable, sharding) in enumerate(zip(variables, shardings)):
            if i not in placed:
                handle = variable.handle
                handle.value = jax.device_put(handle.value, sharding)  # global already: reshard if needed

    def distribute_batch(self, batch, distribution):
        mesh = self._jax_mesh(distribution)
        axis = distribution.batch_dim_name
        parts = mesh.shape[axis]
        processes = jax.process_count()

        def place(a):
            if (
                a is None
                or not hasattr(a, "shape")
                or getattr(a, "dtype", None) is not None
                and np.dtype(a.dtype).kind in "USO"
            ):
                return a
            if len(a.shape) == 0 or a.shape[0] % parts:
                # A batch that does not split evenly (the last, partial one) runs replicated: same numbers.
                sharding = NamedSharding(mesh, PartitionSpec())
            else:
                sharding = NamedSharding(mesh, PartitionSpec(axis, *(None,) * (len(a.shape) - 1)))
            if processes == 1:
                return jax.device_put(a, sharding)
            # Several processes: every process holds the same global batch; it builds the shards of its own
            # devices from it (whatever the mesh's device order, however many devices each process has).
            if isinstance(a, jax.Array) and not a.is_fully_addressable:
                return jax.device_put(a, sharding)
            return _global_array(np.asarray(a), sharding)

        return tree.map_structure(place, batch)


def _is_local(value):
    """True for a value this process holds entirely (a host array, or a jax.Array on its own devices only)."""
    return not isinstance(value, jax.Array) or value.is_fully_addressable


def _global_array(host, sharding):
    """The global jax.Array with ``sharding`` whose value is ``host`` (the same numpy array in every process)."""
    return jax.make_array_from_callback(host.shape, sharding, lambda index: host[index])
