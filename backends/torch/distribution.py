"""Distribution on the PyTorch engine: one process per device with ``torch.distributed`` (gloo on CPU, nccl on GPU).

Launch with ``torchrun --nproc-per-node=N script.py``: every process runs the same script, sees the same global
batches (same seed, same shuffle) and trains on its contiguous share of each batch's rows (the split of
``DistributedSampler`` applied per batch, which keeps the single-device batch order). The gradients come from
``torch.nn.parallel.DistributedDataParallel``: the trainable variables' Parameters are registered on a small
``nn.Module`` whose forward runs the step's loss, DDP wraps it (broadcasting process 0's initial weights), and
its hooks all-reduce the gradients bucket by bucket during ``.backward()``. DDP averages over the processes;
each process's loss is weighted by its share of the global batch times the process count, so the average is
the whole batch's gradient even when the shares differ (an uneven last batch), and the weights stay equal to a
single-device run's. Metric updates are all-reduced (summed) with ``all_reduce`` on one flat bucket per dtype.

A distributed step runs eagerly: DDP does its work in autograd hooks and Python around the forward, which the
replay of ``jit_compile="auto"`` would not repeat.

A process that dies makes the collectives of the others fail (gloo notices the closed connection; a hung peer
is caught by the process group's timeout, ``HIGHLEVEL_DIST_TIMEOUT`` seconds, default 300): they stop with a
``RuntimeError`` that says so instead of hanging.
"""

import atexit
import datetime
import gc
import os
import weakref

import numpy as np
import torch
import torch.distributed as dist

from highlevel.backends.contract import DistributionContract, tree
from highlevel.backends.contract.variable import _scopes

_WITH_DDP = weakref.WeakSet()  # backends holding a DistributedDataParallel, released before the group at exit


class _LossModule(torch.nn.Module):
    """The ``nn.Module`` DDP wraps: the trainable variables' Parameters, and a forward that runs the step's loss."""

    def __init__(self, params):
        super().__init__()
        for i, p in enumerate(params):
            self.register_parameter(f"v{i}", p)

    def forward(self, fn):
        return fn()


class TorchDistributionMixin(DistributionContract):
    """The distribution part of the contract on PyTorch (``torch.distributed`` process groups)."""

    _dist_active = False
    _global_rows = None
    _ddp = None  # (ids of the Parameters, the DistributedDataParallel wrapping them), made by the first step

    def distribution_list_devices(self, device_type=None):
        _maybe_initialize()
        world = self.distribution_num_processes()
        if world == 1:
            return super().distribution_list_devices(device_type)
        kind = device_type.lower() if device_type else ("gpu" if torch.cuda.is_available() else "cpu")
        return [f"{kind}:{rank}" for rank in range(world)]  # one device per process, named by rank

    def distribution_initialize(self, job_addresses=None, num_processes=None, process_id=None):
        _initialize(job_addresses, num_processes, process_id)

    def distribution_num_processes(self):
        return dist.get_world_size() if dist.is_available() and dist.is_initialized() else 1

    def distribution_process_index(self):
        return dist.get_rank() if dist.is_available() and dist.is_initialized() else 0

    def distribution_activate(self, distribution):
        self._dist_active = False
        if distribution is None:
            return
        mesh = distribution.device_mesh
        if len(mesh.shape) != 1 and any(
            n > 1 for a, n in zip(mesh.axis_names, mesh.shape) if a != distribution.batch_dim_name
        ):
            raise ValueError(
                f"The torch backend distributes data-parallel only; received a mesh {mesh.shape} with "
                f"axes {mesh.axis_names} that splits the model. Use DataParallel, or the jax backend "
                "for ModelParallel."
            )
        _maybe_initialize()
        world = self.distribution_num_processes()
        if len(mesh.devices) != world:
            raise ValueError(
                f"On the torch backend a DataParallel runs one process per device: the mesh has "
                f"{len(mesh.devices)} devices but {world} process(es) run. Launch with "
                f"`torchrun --nproc-per-node={len(mesh.devices)} script.py` (or use DataParallel() without devices)."
            )
        self._dist_active = world > 1

    def distribution_broadcast(self, values):
        if self.distribution_num_processes() == 1:
            return values
        t = torch.from_numpy(np.array(values, dtype=np.int64))
        if dist.get_backend() == "nccl":  # nccl moves only GPU tensors
            t = t.to(f"cuda:{torch.cuda.current_device()}")
        _collective(dist.broadcast, t, src=0)
        return t.cpu().numpy()

    def distribute_variables(self, variables, layouts, distribution):
        if not self._dist_active:
            return
        with torch.no_grad():
            for v in variables:
                _collective(dist.broadcast, v.handle.data, src=0)

    def distribute_batch(self, batch, distribution):
        if not self._dist_active:
            return batch
        rank, world = dist.get_rank(), dist.get_world_size()
        leaves = [a for a in tree.flatten(batch)[0] if hasattr(a, "shape") and len(a.shape) > 0]
        if leaves:
            self._global_rows = int(leaves[0].shape[0])
            if self._global_rows < world:
                raise ValueError(
                    f"A batch of {self._global_rows} example(s) cannot be split across {world} processes: each "
                    f"process needs at least one. Use a batch_size of at least {world} (when this is the last, "
                    "partial batch of an epoch, choose a batch_size that leaves at least that many in it)."
                )

        def share(a):
            if a is None or not hasattr(a, "shape") or len(a.shape) == 0:
                return a
            n = int(a.shape[0])
            return a[rank * n // world : (rank + 1) * n // world]

        return tree.map_structure(share, batch)

    def distribution_step_replicas(self):
        return dist.get_world_size() if self._dist_active else 1

    def replica_value_and_grad(self, fn, variables, rows):
        if not self._dist_active or _scopes.stack:  # values substituted by a stateless scope: the generic path
            return super().replica_value_and_grad(fn, variables, rows)
        params = list({id(v.handle): v.handle for v in variables}.values())
        ddp = self._ddp_for([p for p in params if p.requires_grad])
        with torch.enable_grad():
            value, aux = ddp(fn)
        # DDP's all-reduce averages over the processes: weighting this process's loss by its share of the global
        # batch (times the process count) makes that average the whole batch's gradient.
        weight = rows * dist.get_world_size() / self._global_rows
        try:
            (value * weight).backward()
        except (RuntimeError, dist.DistBackendError) as e:
            raise _peer_error(e) from e
        grads = []
        for v in variables:
            p = v.handle
            g, p.grad = p.grad, None  # read and cleared: the next step's backward must not accumulate onto it
            grads.append(torch.zeros_like(p) if g is None else g)
        detach = lambda x: x.detach() if isinstance(x, torch.Tensor) else x  # noqa: E731
        return (value.detach(), tree.map_structure(detach, aux)), grads

    def _ddp_for(self, params):
        """The DistributedDataParallel over ``params``, made again when the trainable set changes."""
        key = tuple(id(p) for p in params)
        if self._ddp is None or self._ddp[0] != key:
            from torch.nn.parallel import DistributedDataParallel

            module = _LossModule(params)
            device_ids = [params[0].device.index] if params and params[0].device.type == "cuda" else None
            try:
                # find_unused_parameters: a trainable variable the loss does not reach (a head without a loss)
                # gets a zero gradient, as on one device, instead of DDP waiting for it forever.
                ddp = DistributedDataParallel(
                    module, device_ids=device_ids, find_unused_parameters=True, broadcast_buffers=False
                )
            except (RuntimeError, dist.DistBackendError) as e:
                raise _peer_error(e) from e
            self._ddp = (key, ddp)
            _WITH_DDP.add(self)
        return self._ddp[1]

    def replica_sum(self, tensors):
        tensors = [self.convert_to_tensor(t) for t in tensors]
        if not self._dist_active:
            return tensors
        out = [None] * len(tensors)
        by_dtype = {}
        for i, t in enumerate(tensors):
            by_dtype.setdefault(t.dtype, []).append(i)
        for indices in by_dtype.values():
            # One flat bucket per dtype: one collective instead of one per tensor (as DDP's buckets).
            bucket = torch.cat([tensors[i].detach().reshape(-1) for i in indices])
            _collective(dist.all_reduce, bucket, op=dist.ReduceOp.SUM)
            offset = 0
            for i in indices:
                n = tensors[i].numel()
                out[i] = bucket[offset : offset + n].view(tensors[i].shape)
                offset += n
        return out


def _initialize(job_addresses=None, num_processes=None, process_id=None):
    """Joins the process group (gloo on CPU, nccl on GPU), from the arguments or torchrun's environment."""
    if dist.is_available() and dist.is_initialized():
        return
    if job_addresses is not None:
        address = job_addresses[0] if isinstance(job_addresses, (list, tuple)) else job_addresses
        host, _, port = address.rpartition(":")
        os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = host, port
    if num_processes is not None:
        os.environ["WORLD_SIZE"] = str(num_processes)
    if process_id is not None:
        os.environ["RANK"] = str(process_id)
    if int(os.environ.get("WORLD_SIZE", "1")) <= 1:
        return  # a single process: no group to join
    missing = [k for k in ("MASTER_ADDR", "MASTER_PORT", "RANK") if k not in os.environ]
    if missing:
        raise ValueError(
            f"Joining a torch.distributed run needs {missing} (torchrun sets them; or pass "
            "job_addresses='host:port' and process_id to initialize())."
        )
    use_nccl = torch.cuda.is_available()
    if use_nccl:
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
    timeout = datetime.timedelta(seconds=float(os.environ.get("HIGHLEVEL_DIST_TIMEOUT", "300")))
    dist.init_process_group(backend="nccl" if use_nccl else "gloo", timeout=timeout)
    # A group left open at interpreter exit has its communication threads torn down mid-flight, and the
    # process aborts ("terminate called without an active exception") after a run that succeeded.
    atexit.register(_leave_process_group)


def _leave_process_group():
    """Releases the DDP wrappers, waits briefly for the peers and leaves the group, in that order."""
    if not (dist.is_available() and dist.is_initialized()):
        return
    for backend in list(_WITH_DDP):
        backend._ddp = None  # the reducer must go before the group it talks through
    gc.collect()
    try:
        # Leaving while a peer still talks to us closes its sockets under it; a short wait, because a peer that
        # already died must not hold this process's exit.
        if dist.get_backend() == "gloo":  # nccl has no monitored barrier
            dist.monitored_barrier(timeout=datetime.timedelta(seconds=10))
    except Exception:  # noqa: BLE001 - a peer already gone must not turn a finished run into a failure
        pass
    try:
        dist.destroy_process_group()
    except Exception:  # noqa: BLE001
        pass


def _maybe_initialize():
    """Joins the process group when launched by torchrun (WORLD_SIZE > 1) and not joined yet."""
    if int(os.environ.get("WORLD_SIZE", "1")) > 1:
        _initialize()


def _collective(fn, tensor, **kwargs):
    try:
        fn(tensor, **kwargs)
    except (RuntimeError, dist.DistBackendError) as e:
        raise _peer_error(e) from e


def _peer_error(e):
    return RuntimeError(
        f"A collective of the distributed run failed on process {dist.get_rank()} of {dist.get_world_size()}: "
        f"another process has probably died or stopped responding. Stopping this one too. ({e})"
    )
