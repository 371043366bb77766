"""The process-wide distribution and the questions about the run (devices, processes, which one is chief).

Set the distribution before building the model: engines that create variables for it (TensorFlow mirrors them
under its strategy) need it in place when the weights are made.

>>> import highlevel as hl
>>> hl.distribution.distribution() is None
True
>>> hl.distribution.process_index(), hl.distribution.num_processes()
(0, 1)
"""

import numpy as np

from highlevel.config import current_backend

_state = {"distribution": None}


def list_devices(device_type=None):
    """The devices a distribution can use: local devices (JAX, TensorFlow), or one per process (PyTorch).

    Args:
        device_type: ``"cpu"``, ``"gpu"`` or ``None`` for the engine's default kind.
    """
    return current_backend().distribution_list_devices(device_type)


def initialize(job_addresses=None, num_processes=None, process_id=None):
    """Joins a multi-process run; call it once per process before building anything.

    JAX: ``jax.distributed.initialize`` (``job_addresses`` = the coordinator's ``"host:port"``). PyTorch:
    ``torch.distributed.init_process_group`` (read from ``torchrun``'s environment when the arguments are
    omitted). TensorFlow reads its cluster from ``TF_CONFIG`` when a :class:`DataParallel` is set.
    """
    current_backend().distribution_initialize(job_addresses=job_addresses, num_processes=num_processes,
                                              process_id=process_id)


def set_distribution(value):
    """Makes ``value`` (a :class:`DataParallel` / :class:`ModelParallel`, or ``None``) the current distribution.

    Raises a clear error on an engine that cannot distribute (native runs on one device).
    """
    from .distributions import Distribution

    if value is not None and not isinstance(value, Distribution):
        raise ValueError(f"set_distribution takes a highlevel.distribution.Distribution or None; received {value!r}.")
    backend = current_backend()
    backend.distribution_activate(value)
    _state["distribution"] = value
    if value is not None and backend.distribution_num_processes() > 1:
        _share_host_stream(backend)


def _share_host_stream(backend):
    """Every process continues process 0's host random stream.

    Every process must draw the same global batches (each trains on its share of them) and the same unseeded
    initial values, and both come from the host stream. Processes that were seeded alike are unchanged; unseeded
    ones (fresh entropy each) would otherwise shuffle differently, and some examples would be trained twice per
    epoch and others never. ``DistributedSampler`` avoids the same trap with a shared default seed.
    """
    from highlevel.random import host

    state = host.host_rng().bit_generator.state
    if state.get("bit_generator") != "Philox":
        raise TypeError(f"The host random stream should be a Philox generator; found {state.get('bit_generator')}.")
    inner = state["state"]
    words = np.concatenate([inner["counter"], inner["key"], state["buffer"],
                            np.array([state["buffer_pos"], state["has_uint32"], state["uinteger"]], np.uint64)])
    got = np.asarray(backend.distribution_broadcast(words.astype(np.uint64).view(np.int64)), np.int64).view(np.uint64)
    rng = np.random.Generator(np.random.Philox())
    rng.bit_generator.state = {"bit_generator": "Philox",
                               "state": {"counter": got[0:4].copy(), "key": got[4:6].copy()},
                               "buffer": got[6:10].copy(), "buffer_pos": int(got[10]),
                               "has_uint32": int(got[11]), "uinteger": int(got[12])}
    host.set_host_generator(rng)


def distribution():
    """The current distribution, or ``None`` (one device)."""
    return _state["distribution"]


def num_processes():
    """How many processes take part in the run (1 unless launched by ``torchrun`` / multi-host)."""
    return current_backend().distribution_num_processes()


def process_index():
    """This process's index in the run; process 0 is the chief."""
    return current_backend().distribution_process_index()


def is_chief():
    """True in the process that writes checkpoints, logs and progress (process 0)."""
    return process_index() == 0
