"""Device meshes, tensor layouts and layout maps: how devices are arranged and how a tensor is split over them.

These are plain descriptions (names and shapes): the engine turns them into its own objects (a
``jax.sharding.Mesh`` and ``NamedSharding``, a ``tf.distribute`` strategy, a ``torch.distributed`` group) when a
distribution is set.

>>> from highlevel.distribution import DeviceMesh, LayoutMap, TensorLayout
>>> mesh = DeviceMesh((1, 2), ("batch", "model"), devices=["cpu:0", "cpu:1"])
>>> layout_map = LayoutMap(mesh)
>>> layout_map["dense.*kernel"] = (None, "model")
>>> layout_map["dense_1/kernel"].axes
(None, 'model')
"""

import collections.abc
import math
import re


class DeviceMesh:
    """A named grid of devices (Keras's ``keras.distribution.DeviceMesh``).

    Args:
        shape: the grid's shape, e.g. ``(2,)`` or ``(2, 4)``; its product is the number of devices.
        axis_names: one name per grid axis, e.g. ``("batch", "model")``.
        devices: the device names in row-major grid order (``"cpu:0"``, ``"gpu:1"``, ...); defaults to
            :func:`~highlevel.distribution.list_devices`.

    Raises:
        ValueError: ``shape`` is empty or has a size below 1; ``axis_names`` does not name each axis once; or the
            number of devices is not the product of ``shape``.

    >>> import highlevel as hl
    >>> mesh = hl.distribution.DeviceMesh((1,), ("batch",), devices=["cpu:0"])
    >>> mesh.shape, mesh.axis_names
    ((1,), ('batch',))
    """

    def __init__(self, shape, axis_names, devices=None):
        shape = tuple(int(s) for s in shape)
        axis_names = tuple(str(a) for a in axis_names)
        if not shape or any(s < 1 for s in shape):
            raise ValueError(f"A DeviceMesh needs a non-empty shape of positive sizes; received shape={shape}.")
        if len(axis_names) != len(shape):
            raise ValueError(
                f"A DeviceMesh needs one axis name per dimension of its shape; received "
                f"shape={shape} and axis_names={axis_names}."
            )
        if len(set(axis_names)) != len(axis_names):
            raise ValueError(f"DeviceMesh axis names must be distinct; received {axis_names}.")
        if devices is None:
            from .state import list_devices

            devices = list_devices()
        devices = tuple(str(d) for d in _flatten(devices))
        if len(devices) != math.prod(shape):
            raise ValueError(
                f"A DeviceMesh of shape {shape} needs {math.prod(shape)} devices; received "
                f"{len(devices)}: {list(devices)}."
            )
        self._shape, self._axis_names, self._devices = shape, axis_names, devices

    @property
    def shape(self):
        return self._shape

    @property
    def axis_names(self):
        return self._axis_names

    @property
    def devices(self):
        """The device names, flattened in row-major order."""
        return self._devices

    def axis_size(self, name):
        """The number of devices along the mesh axis ``name``."""
        return self._shape[self._axis_names.index(name)]

    def __repr__(self):
        return f"<DeviceMesh shape={self._shape} axis_names={self._axis_names} devices={list(self._devices)}>"


class TensorLayout:
    """How one tensor is split over a mesh: per tensor dimension, a mesh-axis name or ``None`` (not split).

    Args:
        axes: e.g. ``(None, "model")``: the second dimension is split over the mesh axis ``"model"``.
        device_mesh: the mesh; a :class:`LayoutMap` fills it in when the layout is stored in it.

    >>> import highlevel as hl
    >>> mesh = hl.distribution.DeviceMesh((1,), ("model",), devices=["cpu:0"])
    >>> layout = hl.distribution.TensorLayout((None, "model"), mesh)
    >>> layout.axes, layout.device_mesh is mesh
    ((None, 'model'), True)
    """

    def __init__(self, axes, device_mesh=None):
        self._axes = tuple(axes)
        self._device_mesh = None
        if device_mesh is not None:
            self.device_mesh = device_mesh

    @property
    def axes(self):
        return self._axes

    @property
    def device_mesh(self):
        return self._device_mesh

    @device_mesh.setter
    def device_mesh(self, mesh):
        if self._device_mesh is not None and mesh is not self._device_mesh:
            raise ValueError("This TensorLayout already has a device mesh; create a new TensorLayout instead.")
        unknown = [a for a in self._axes if a is not None and a not in mesh.axis_names]
        if unknown:
            raise ValueError(
                f"TensorLayout axes {self._axes} name mesh axes {unknown} that the mesh does not have; "
                f"its axes are {mesh.axis_names}."
            )
        self._device_mesh = mesh

    def __repr__(self):
        return f"<TensorLayout axes={self._axes}>"


class LayoutMap(collections.abc.MutableMapping):
    """Maps variable paths to layouts; keys are regular expressions matched against ``variable.path``.

    A key equal to the path wins; otherwise the one key whose pattern is found in the path (``re.search``).
    Two matching keys are an error, so that a layout is never chosen by accident.

    Args:
        device_mesh: the mesh every stored layout refers to.

    >>> import highlevel as hl
    >>> mesh = hl.distribution.DeviceMesh((1, 1), ("batch", "model"), devices=["cpu:0"])
    >>> layout_map = hl.distribution.LayoutMap(mesh)
    >>> layout_map["dense.*kernel"] = (None, "model")
    >>> layout_map["dense_1/kernel"].axes
    (None, 'model')
    """

    def __init__(self, device_mesh):
        self._mesh = device_mesh
        self._layouts = {}

    @property
    def device_mesh(self):
        return self._mesh

    def __getitem__(self, path):
        if path in self._layouts:
            return self._layouts[path]
        matches = [k for k in self._layouts if re.search(k, path)]
        if len(matches) > 1:
            raise ValueError(
                f"Variable path {path!r} matches several LayoutMap keys: {matches}. Make the keys "
                "more specific so that each variable matches at most one."
            )
        return self._layouts[matches[0]] if matches else None

    def __setitem__(self, key, layout):
        if key in self._layouts:
            raise ValueError(f"LayoutMap already has a layout for {key!r}; delete it first to replace it.")
        if not isinstance(layout, TensorLayout):
            if not isinstance(layout, (tuple, list)):
                raise ValueError(
                    f"A LayoutMap value must be a TensorLayout or a tuple of mesh-axis names / None; "
                    f"received {layout!r} for key {key!r}."
                )
            layout = TensorLayout(layout)
        if layout.device_mesh is None:
            layout.device_mesh = self._mesh
        self._layouts[key] = layout

    def __delitem__(self, key):
        del self._layouts[key]

    def __len__(self):
        return len(self._layouts)

    def __iter__(self):
        return iter(self._layouts)


def _flatten(devices):
    out = []
    for d in devices:
        if isinstance(d, (list, tuple)) or (hasattr(d, "tolist") and not isinstance(d, str)):
            out.extend(_flatten(d.tolist() if hasattr(d, "tolist") else d))
        else:
            out.append(d)
    return out
