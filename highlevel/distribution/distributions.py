"""What to distribute: data parallelism (a replica of the model per device) and model parallelism (sharded weights).

>>> import highlevel as hl
>>> dp = hl.distribution.DataParallel(devices=["cpu:0"])
>>> dp.device_mesh.shape, dp.batch_dim_name
((1,), 'batch')
"""

from .layouts import DeviceMesh, LayoutMap, TensorLayout


class Distribution:
    """The base of the distributions: a device mesh and the name of the mesh axis the batch is split over.

    Args:
        device_mesh: a :class:`DeviceMesh`.
        batch_dim_name: the mesh axis that splits the batch (its size is the number of data replicas).
        auto_shard_dataset: every process reads the same, global, dataset and keeps its own share of each
            batch (the default). ``False`` (each process reads its own part of the data, Keras's way to turn
            sharding off) is refused in a run of several processes, where it would train on the wrong rows;
            in one process both mean the same.

    Raises:
        ValueError: ``device_mesh`` is not a :class:`DeviceMesh`, ``batch_dim_name`` is not one of its axes,
            ``auto_shard_dataset`` is not a bool, or it is False in a run of several processes.

    >>> import highlevel as hl
    >>> mesh = hl.distribution.DeviceMesh((1,), ("data",), devices=["cpu:0"])
    >>> hl.distribution.Distribution(mesh, "data").batch_dim_name
    'data'
    """

    def __init__(self, device_mesh, batch_dim_name, auto_shard_dataset=True):
        if not isinstance(device_mesh, DeviceMesh):
            raise ValueError(f"device_mesh must be a highlevel.distribution.DeviceMesh; received {device_mesh!r}.")
        if batch_dim_name not in device_mesh.axis_names:
            raise ValueError(f"batch_dim_name {batch_dim_name!r} is not an axis of the mesh {device_mesh.axis_names}.")
        if not isinstance(auto_shard_dataset, bool):
            raise ValueError(f"auto_shard_dataset must be True or False; received {auto_shard_dataset!r}.")
        if not auto_shard_dataset:
            from .state import num_processes

            if num_processes() > 1:
                raise ValueError(
                    f"auto_shard_dataset=False (a dataset already split per process) is not supported in a run of "
                    f"{num_processes()} processes: give every process the same global dataset and keep the "
                    "default auto_shard_dataset=True; each process then trains on its own share of every batch."
                )
        self._mesh = device_mesh
        self._batch_dim_name = batch_dim_name
        self._auto_shard_dataset = auto_shard_dataset

    @property
    def device_mesh(self):
        return self._mesh

    @property
    def batch_dim_name(self):
        return self._batch_dim_name

    @property
    def auto_shard_dataset(self):
        """Whether every process reads the global dataset and keeps its share of each batch."""
        return self._auto_shard_dataset

    @property
    def num_replicas(self):
        """How many parts the global batch is split into."""
        return self._mesh.axis_size(self._batch_dim_name)

    def get_data_layout(self, data_shape):
        """The layout of a batch of shape ``data_shape``: split along its first dimension."""
        return TensorLayout((self._batch_dim_name,) + (None,) * (len(data_shape) - 1), self._mesh)

    def get_variable_layout(self, variable):
        """The layout of ``variable`` (replicated by default)."""
        return TensorLayout((None,) * len(variable.shape), self._mesh)

    def __repr__(self):
        return f"<{type(self).__name__} mesh={self._mesh.shape} axes={self._mesh.axis_names}>"


class DataParallel(Distribution):
    """Data parallelism: every device holds all the weights and trains on its share of each batch.

    The gradients of the shares are averaged (weighted by their sizes) before the update, so a run with global
    batch size ``B`` computes the same weights as one device with batch size ``B``.

    Args:
        device_mesh: a one-dimensional :class:`DeviceMesh`; built from ``devices`` when omitted.
        devices: device names (defaults to :func:`~highlevel.distribution.list_devices`: all local devices, or
            one device per process in a PyTorch run).
        auto_shard_dataset: see :class:`Distribution`.

    Raises:
        ValueError: ``device_mesh`` is not one-dimensional, or an argument of :class:`Distribution` is invalid.

    >>> import highlevel as hl
    >>> dp = hl.distribution.DataParallel(devices=["cpu:0"])
    >>> dp.device_mesh.shape, dp.batch_dim_name
    ((1,), 'batch')
    """

    def __init__(self, device_mesh=None, devices=None, auto_shard_dataset=True):
        if device_mesh is None:
            from .state import list_devices

            devices = list(devices) if devices is not None else list_devices()
            device_mesh = DeviceMesh((len(devices),), ("batch",), devices=devices)
        elif len(device_mesh.shape) != 1:
            raise ValueError(
                f"DataParallel needs a one-dimensional DeviceMesh; received shape {device_mesh.shape}. "
                "Use ModelParallel for meshes with a model axis."
            )
        super().__init__(device_mesh, device_mesh.axis_names[0], auto_shard_dataset=auto_shard_dataset)


class ModelParallel(Distribution):
    """Model parallelism: weights split over a mesh axis according to a :class:`LayoutMap` (JAX).

    Variables whose path matches no key of the layout map are replicated. The batch is split over
    ``batch_dim_name`` (give that axis size 1 for pure model parallelism).

    Args:
        layout_map: a :class:`LayoutMap` from variable-path patterns to layouts.
        batch_dim_name: the mesh axis that splits the batch; defaults to the mesh's first axis.
        auto_shard_dataset: see :class:`Distribution`.
        device_mesh: optional; the mesh is the layout map's. Given, it must be that mesh (Keras 3 ignores it).

    Raises:
        ValueError: ``layout_map`` is not a :class:`LayoutMap`, or ``device_mesh`` is given and is not the layout
            map's mesh.

    >>> import highlevel as hl
    >>> mesh = hl.distribution.DeviceMesh((1, 1), ("batch", "model"), devices=["cpu:0"])
    >>> layout_map = hl.distribution.LayoutMap(mesh)
    >>> layout_map["dense.*kernel"] = (None, "model")
    >>> hl.distribution.ModelParallel(layout_map=layout_map, batch_dim_name="batch").batch_dim_name
    'batch'
    """

    def __init__(self, *, layout_map=None, batch_dim_name=None, auto_shard_dataset=True, device_mesh=None):
        if not isinstance(layout_map, LayoutMap):
            raise ValueError(
                f"ModelParallel needs layout_map=a highlevel.distribution.LayoutMap; received {layout_map!r}."
            )
        mesh = layout_map.device_mesh
        if device_mesh is not None and device_mesh is not mesh:
            raise ValueError(
                f"ModelParallel takes its device mesh from the layout map; received device_mesh="
                f"{device_mesh!r}, which is not the layout map's mesh {mesh!r}. Omit device_mesh."
            )
        super().__init__(mesh, batch_dim_name or mesh.axis_names[0], auto_shard_dataset=auto_shard_dataset)
        self._layout_map = layout_map

    @property
    def layout_map(self):
        return self._layout_map

    def get_variable_layout(self, variable):
        layout = self._layout_map[variable.path]
        if layout is None:
            return super().get_variable_layout(variable)
        if len(layout.axes) != len(variable.shape):
            raise ValueError(
                f"The layout {layout.axes} for variable {variable.path!r} has {len(layout.axes)} axes, "
                f"but the variable has shape {tuple(variable.shape)}."
            )
        return layout
