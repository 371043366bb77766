"""``highlevel.distribution``: training on several devices or processes, with the engines' own runtimes.

Names follow ``keras.distribution``. Set a distribution before building the model; ``fit``, ``evaluate`` and
``predict`` then run distributed:

* :class:`DataParallel` — every device holds the weights and trains on its share of each batch; the gradients are
  averaged, so the run computes what one device would with the same global batch. JAX shards the batch over a
  device mesh, TensorFlow runs ``MirroredStrategy`` (``MultiWorkerMirroredStrategy`` with ``TF_CONFIG``),
  PyTorch runs one process per device (``torchrun``) and all-reduces the gradients.
* :class:`ModelParallel` (JAX) — weights split over a mesh axis by a :class:`LayoutMap` of path patterns.

The native engine runs on one device and says so when asked to distribute.

>>> import highlevel as hl
>>> hl.distribution.list_devices()
['cpu:0']
"""

from .distributions import DataParallel, Distribution, ModelParallel
from .layouts import DeviceMesh, LayoutMap, TensorLayout
from .state import (
    distribute_tensor,
    distribution,
    get_device_count,
    initialize,
    is_chief,
    list_devices,
    num_processes,
    process_index,
    set_distribution,
)

__all__ = [
    "DataParallel",
    "DeviceMesh",
    "Distribution",
    "LayoutMap",
    "ModelParallel",
    "TensorLayout",
    "distribute_tensor",
    "distribution",
    "get_device_count",
    "initialize",
    "is_chief",
    "list_devices",
    "num_processes",
    "process_index",
    "set_distribution",
]
