"""Distribution on the JAX engine: a ``jax.sharding.Mesh`` over the devices, arrays placed with ``NamedSharding``.

Variables are ``device_put`` with their layouts (replicated, or split over a mesh axis for model parallelism) and
each global batch is split over the mesh's batch axis. The jitted step then sees global arrays: XLA's sharding
propagation partitions the computation and inserts the all-reduces, so the step's code (and its loss, gradients
and metrics, computed on the global batch) is the single-device code unchanged. Across hosts, every process calls
``jax.distributed.initialize`` first (:meth:`distribution_initialize`) and feeds its share of the batch rows.
"""

import jax
import numpy as np
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
        if isinstance(job_addresses, (list, tuple)):
            job_addresses = job_addresses[0]  # JAX needs only the coordinator (process 0)
        jax.distributed.initialize(coordinator_address=job_addresses, num_processes=num_processes,
                                   process_id=process_id)

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

    def distribute_variables(self, variables, layouts, distribution):
        mesh = self._jax_mesh(distribution)
        for variable, axes in zip(variables, layouts):
            handle = variable.handle
            handle.value = jax.device_put(handle.value, NamedSharding(mesh, PartitionSpec(*axes)))

    def distribute_batch(self, batch, distribution):
        mesh = self._jax_mesh(distribution)
        axis = distribution.batch_dim_name
        parts = mesh.shape[axis]
        processes = jax.process_count()

        def place(a):
            if a is None or not hasattr(a, "shape") or getattr(a, "dtype", None) is not None \
                    and np.dtype(a.dtype).kind in "USO":
                return a
            if len(a.shape) == 0 or a.shape[0] % parts:
                # A batch that does not split evenly (the last, partial one) runs replicated: same numbers.
                return jax.device_put(a, NamedSharding(mesh, PartitionSpec()))
            sharding = NamedSharding(mesh, PartitionSpec(axis, *(None,) * (len(a.shape) - 1)))
            if processes == 1:
                return jax.device_put(a, sharding)
            # Several hosts: every process holds the global batch; it contributes its contiguous rows.
            rows = a.shape[0] // processes
            start = jax.process_index() * rows
            local = np.asarray(a)[start:start + rows]
            return jax.make_array_from_process_local_data(sharding, local, tuple(a.shape))

        return tree.map_structure(place, batch)
