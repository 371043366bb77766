"""The process-wide distribution and the questions about the run (devices, processes, which one is chief).

Set the distribution before building the model: engines that create variables for it (TensorFlow mirrors them
under its strategy) need it in place when the weights are made.

>>> import highlevel as hl
>>> hl.distribution.distribution() is None
True
>>> hl.distribution.process_index(), hl.distribution.num_processes()
(0, 1)
"""

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
    current_backend().distribution_activate(value)
    _state["distribution"] = value


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
