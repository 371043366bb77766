"""The backend contract, part 7: running one model on several devices or processes.

``highlevel.distribution`` (the front end: ``DataParallel``, ``ModelParallel``, ``set_distribution``) describes
*what* to distribute; an engine says *how*, through the methods below, with its own distributed runtime:
JAX shards arrays over a device mesh (``jax.sharding``) and lets ``jax.jit`` insert the collectives; TensorFlow
runs the step under ``tf.distribute.MirroredStrategy`` (``MultiWorkerMirroredStrategy`` across hosts); PyTorch
runs one process per device (``torch.distributed``, launched by ``torchrun``) and takes the gradients through
``DistributedDataParallel``.

The defaults here are the single-device behaviour: one process, one replica, nothing to place or reduce. An
engine that cannot distribute keeps them, and :meth:`distribution_activate` refuses a multi-device request.

A distribution object handed to these methods is front-end data; an engine reads only these attributes of it:
``device_mesh.shape`` / ``.axis_names`` / ``.devices`` (device names such as ``"cpu:0"``) and
``batch_dim_name``. Layouts arrive resolved, as a tuple of mesh-axis names or ``None`` per tensor dimension.

>>> from highlevel.backends.contract import Backend
>>> Backend.distribution_num_processes.__qualname__
'DistributionContract.distribution_num_processes'
"""


class DistributionContract:
    """How an engine spreads variables, batches and the step over devices; defaults: one device."""

    def distribution_list_devices(self, device_type=None):
        """The device names this process can use for a distribution (``"cpu:0"``, ``"gpu:1"``, ...).

        Args:
            device_type: ``"cpu"``, ``"gpu"`` or ``None`` (the engine's default kind).
        """
        names = list(self.devices())
        if device_type is not None:
            names = [n for n in names if n.split(":")[0] == device_type.lower()] or names
        return names

    def distribution_initialize(self, job_addresses=None, num_processes=None, process_id=None):
        """Joins a multi-process run (all processes call it with the same addresses and count).

        The default accepts only a single-process "run". Engines with a multi-process runtime override it.
        """
        if num_processes not in (None, 1):
            raise ValueError(
                f"The {self.name!r} backend runs in one process; received num_processes={num_processes}. "
                "Use the jax, torch or tensorflow backend to train across processes."
            )

    def distribution_num_processes(self):
        """How many processes take part in the run (1 without a multi-process runtime)."""
        return 1

    def distribution_process_index(self):
        """This process's index in ``[0, distribution_num_processes())``; 0 writes checkpoints and logs."""
        return 0

    def distribution_activate(self, distribution):
        """Makes ``distribution`` (or ``None``: back to one device) the engine's current one.

        Called by ``set_distribution`` before any model is built, so an engine may create variables for it
        (TensorFlow creates them under its strategy). The default refuses anything that spans several devices.
        """
        if distribution is not None and _device_count(distribution) > 1:
            raise ValueError(
                f"The {self.name!r} backend runs on one device; received a distribution over "
                f"{_device_count(distribution)} devices. Use jax, torch or tensorflow to distribute "
                "(set HIGHLEVEL_BACKEND)."
            )

    def distribution_broadcast(self, values):
        """Process 0's ``values`` (a 1-D int64 numpy array, the same length everywhere), returned in every process.

        Called by every process at the same point, outside steps (``set_distribution`` shares process 0's host
        random stream this way). The default, one process, returns ``values``.
        """
        return values

    def distribute_tensor(self, tensor, axes, device_mesh):
        """``tensor`` laid out over ``device_mesh`` as ``axes`` says (a mesh-axis name or ``None`` per dimension).

        Works eagerly and inside a compiled step (where it constrains the layout). The values never change; an
        engine that places tensors itself (JAX) moves or reshards the tensor, the default returns it as it is:
        its replicas (TensorFlow, PyTorch) or its one device (native) already hold the whole tensor.
        """
        return tensor

    def distribute_variables(self, variables, layouts, distribution):
        """Places ``variables`` for ``distribution`` before a step runs (replicated or sharded).

        Args:
            variables: :class:`Variable` objects (model weights, optimizer slots, metric state).
            layouts: one layout per variable: a tuple with a mesh-axis name or ``None`` per dimension.
            distribution: the active distribution.

        JAX places each array with its sharding; PyTorch broadcasts the values of process 0 (so every replica
        starts from the same weights); TensorFlow has mirrored them already. The default does nothing.
        """

    def distribute_batch(self, batch, distribution):
        """Returns the batch (a structure of numpy arrays / tensors, the *global* batch) as the step takes it.

        JAX shards it over the mesh's batch axis; TensorFlow makes per-replica values; PyTorch keeps this
        process's contiguous share of the rows. The default returns it unchanged.
        """
        return batch

    def distribute_step(self, step, distribution):
        """Wraps the Python step (before :meth:`compile_step`) so that it runs on every replica.

        TensorFlow runs it with ``strategy.run``; the default (and JAX, whose compiler sees the global batch,
        and PyTorch, one replica per process) returns it unchanged.
        """
        return step

    def distribution_step_replicas(self):
        """How many replicas a step must combine itself with :meth:`replica_sum` (1: nothing to combine).

        JAX returns 1: its compiler computes on the global batch and inserts the collectives.
        """
        return 1

    def replica_value_and_grad(self, fn, variables, rows):
        """Inside a step with several replicas: :meth:`variables_value_and_grad` whose gradients are the global batch's.

        Args:
            fn: as for ``variables_value_and_grad``: no arguments, returns ``(loss, aux)``, where ``loss`` is a
                mean over this replica's examples.
            variables: the trainable variables.
            rows: this replica's number of examples in the batch.

        Returns:
            ``((loss, aux), grads)``: this replica's loss and aux, and the gradients averaged over the replicas
            with weights = their shares of the global batch, the same on every replica. That is the gradient of
            the whole batch's mean loss, so that a distributed step equals one device's on the global batch even
            when the shares differ (an uneven last batch).

        The default takes this replica's gradients and combines them with one :meth:`replica_sum`. PyTorch
        overrides it with ``DistributedDataParallel``, whose hooks all-reduce during the backward pass.
        """
        (value, aux), grads = self.variables_value_and_grad(fn, variables)
        n = float(rows)
        sums = self.replica_sum([self.multiply(g, n) for g in grads] + [self.convert_to_tensor(n, dtype="float32")])
        total = sums[-1]
        return (value, aux), [self.divide(s, self.cast(total, self.dtype(s))) for s in sums[:-1]]

    def replica_sum(self, tensors):
        """Inside a step: the element-wise sum of each tensor of the list ``tensors`` over all replicas.

        Every replica calls it with tensors of the same shapes; every replica receives the same sums.
        """
        return list(tensors)


def _device_count(distribution):
    mesh = getattr(distribution, "device_mesh", None)
    devices = getattr(mesh, "devices", None) or ()
    return max(len(devices), getattr(distribution, "num_processes", 1) or 1)
