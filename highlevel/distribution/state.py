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

    Returns:
        A list of device names such as ``"cpu:0"`` or ``"gpu:1"``.

    >>> import highlevel as hl
    >>> devices = hl.distribution.list_devices()
    >>> len(devices) >= 1, devices[0].split(":")[0] in ("cpu", "gpu")
    (True, True)
    """
    return current_backend().distribution_list_devices(device_type)


def get_device_count(device_type=None):
    """The number of devices :func:`list_devices` returns for ``device_type``.

    Args:
        device_type: ``"cpu"``, ``"gpu"`` or ``None`` for the engine's default kind.

    Returns:
        An int, at least 1.

    >>> import highlevel as hl
    >>> hl.distribution.get_device_count() == len(hl.distribution.list_devices())
    True
    """
    return len(list_devices(device_type))


def distribute_tensor(tensor, layout):
    """``tensor`` with the layout ``layout``: split over, or replicated on, the devices of a mesh.

    Eagerly, the tensor is placed on the mesh's devices; inside a compiled step, the layout becomes a constraint
    for the compiler. The values never change. Only the JAX engine places tensors itself; on the other engines
    (one device, or replicas that each hold the whole tensor) the tensor comes back as it is. A symbolic
    tensor (``hl.KerasTensor``, while a functional model is being built) also comes back unchanged.

    Args:
        tensor: a tensor (or an array, converted to one).
        layout: a :class:`TensorLayout`; one without a device mesh takes the current distribution's.

    Returns:
        The tensor with that layout.

    Raises:
        ValueError: ``layout`` is not a :class:`TensorLayout`, or it has no device mesh and no distribution is
            set.

    >>> import numpy as np, highlevel as hl
    >>> mesh = hl.distribution.DeviceMesh((1,), ("batch",), devices=hl.distribution.list_devices()[:1])
    >>> layout = hl.distribution.TensorLayout(("batch", None), mesh)
    >>> x = hl.distribution.distribute_tensor(np.ones((2, 3), "float32"), layout)
    >>> float(hl.ops.convert_to_numpy(x).sum())
    6.0
    """
    from highlevel.keras_tensor import KerasTensor

    from .layouts import TensorLayout

    if isinstance(tensor, KerasTensor):
        return tensor
    if not isinstance(layout, TensorLayout):
        raise ValueError(
            f"distribute_tensor takes a highlevel.distribution.TensorLayout as layout; received "
            f"{layout!r}. Make one with TensorLayout(axes, device_mesh)."
        )
    mesh = layout.device_mesh
    if mesh is None:
        current = distribution()
        if current is None:
            raise ValueError(
                f"The TensorLayout {layout.axes} has no device mesh and no distribution is set: pass "
                "TensorLayout(axes, device_mesh) or call set_distribution first."
            )
        mesh = current.device_mesh
        layout = TensorLayout(layout.axes, mesh)  # checks that the mesh has those axes
    backend = current_backend()
    tensor = backend.convert_to_tensor(tensor)
    return backend.distribute_tensor(tensor, layout.axes, mesh)


def initialize(job_addresses=None, num_processes=None, process_id=None):
    """Joins a multi-process run; call it once per process before building anything.

    JAX: ``jax.distributed.initialize`` (``job_addresses`` is the coordinator's ``"host:port"``). PyTorch:
    ``torch.distributed.init_process_group`` (read from ``torchrun``'s environment when the arguments are
    omitted). TensorFlow reads its cluster from ``TF_CONFIG`` when a :class:`DataParallel` is set.

    Args:
        job_addresses: the coordinator's address ``"host:port"`` (or a comma-separated list of the processes'
            addresses); default None: read from the launcher's environment.
        num_processes: the number of processes in the run; default None: from the environment.
        process_id: this process's index, from 0; default None: from the environment.

    Returns:
        None.

    >>> import highlevel as hl
    >>> callable(hl.distribution.initialize), hl.distribution.num_processes()
    (True, 1)
    """
    current_backend().distribution_initialize(
        job_addresses=job_addresses, num_processes=num_processes, process_id=process_id
    )


def set_distribution(value):
    """Makes a distribution the current one: models built and trained afterwards use it.

    Args:
        value: a :class:`DataParallel` or :class:`ModelParallel`, or None to go back to one device.

    Returns:
        None.

    Raises:
        ValueError: ``value`` is neither a :class:`Distribution` nor None, or the current engine cannot distribute
            over its devices.

    >>> import highlevel as hl
    >>> hl.distribution.set_distribution(hl.distribution.DataParallel(devices=["cpu:0"]))
    >>> hl.distribution.distribution().batch_dim_name
    'batch'
    >>> hl.distribution.set_distribution(None)
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
    words = np.concatenate(
        [
            inner["counter"],
            inner["key"],
            state["buffer"],
            np.array([state["buffer_pos"], state["has_uint32"], state["uinteger"]], np.uint64),
        ]
    )
    got = np.asarray(backend.distribution_broadcast(words.astype(np.uint64).view(np.int64)), np.int64).view(np.uint64)
    rng = np.random.Generator(np.random.Philox())
    rng.bit_generator.state = {
        "bit_generator": "Philox",
        "state": {"counter": got[0:4].copy(), "key": got[4:6].copy()},
        "buffer": got[6:10].copy(),
        "buffer_pos": int(got[10]),
        "has_uint32": int(got[11]),
        "uinteger": int(got[12]),
    }
    host.set_host_generator(rng)


def distribution():
    """Returns the current distribution, set with :func:`set_distribution`.

    Returns:
        The current :class:`Distribution` (a :class:`DataParallel` or :class:`ModelParallel`), or None when
        everything runs on one device (the default).

    >>> import highlevel as hl
    >>> print(hl.distribution.distribution())
    None
    """
    return _state["distribution"]


def num_processes():
    """Returns how many processes take part in the run.

    Returns:
        An int: 1 unless the run was launched by ``torchrun`` or across several hosts.

    >>> import highlevel as hl
    >>> hl.distribution.num_processes()
    1
    """
    return current_backend().distribution_num_processes()


def process_index():
    """Returns this process's index in the run; process 0 is the chief.

    Returns:
        An int in ``[0, num_processes())``.

    >>> import highlevel as hl
    >>> hl.distribution.process_index()
    0
    """
    return current_backend().distribution_process_index()


def is_chief():
    """Tells whether this process is the chief: the one that writes checkpoints, logs and progress.

    Returns:
        True in process 0 (and in a single-process run), False in the others.

    >>> import highlevel as hl
    >>> hl.distribution.is_chief()
    True
    """
    return process_index() == 0
