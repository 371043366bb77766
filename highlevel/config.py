"""Which engine runs ``highlevel.ops``: the environment variable, a setter and a scoped switch.

The backend is chosen by ``HIGHLEVEL_BACKEND`` (``native`` when unset) the first time it is needed;
:func:`set_backend` changes it for the process and :func:`backend_scope` for a block, so one process can
run the same computation on several engines side by side.

>>> import highlevel as hl
>>> with hl.config.backend_scope("native"):
...     hl.config.backend()
'native'
"""

import contextlib
import contextvars
import os

from highlevel.backends import registry
from highlevel.backends.contract import dtypes as _dtypes

_scoped = contextvars.ContextVar("highlevel_backend", default=None)
_global = None


def _from_environment():
    name = os.environ.get("HIGHLEVEL_BACKEND", "native").strip().lower() or "native"
    return registry.get(name)


def current_backend():
    """The :class:`~highlevel.backends.Backend` instance that ops run on now."""
    b = _scoped.get()
    if b is not None:
        return b
    global _global
    if _global is None:
        _global = _from_environment()
    return _global


def backend():
    """The name of the current backend, e.g. ``"native"``."""
    return current_backend().name


def set_backend(name):
    """Makes ``name`` the backend of this process (outside any :func:`backend_scope`).

    Raises:
        ValueError: for an unknown backend or one whose framework is not installed; the message lists
            the installed backends and the pip extra that adds the missing one.
    """
    global _global
    _global = registry.get(name)


@contextlib.contextmanager
def backend_scope(name):
    """Runs the block on backend ``name`` (or on a backend instance) and restores the previous one afterwards."""
    token = _scoped.set(registry.get(name) if isinstance(name, str) else name)
    try:
        yield current_backend()
    finally:
        _scoped.reset(token)


def floatx():
    """The default float dtype (``"float32"``)."""
    return _dtypes.floatx()


def set_floatx(dtype):
    """Sets the default float dtype for every backend."""
    _dtypes.set_floatx(dtype)


def available_backends():
    """The backends whose framework is installed."""
    return registry.installed()


_IMAGE_DATA_FORMATS = ("channels_last", "channels_first")
_image_data_format = "channels_last"
_epsilon = 1e-7


def image_data_format():
    """The default layout of image tensors: ``"channels_last"`` (``(batch, height, width, channels)``, the
    default) or ``"channels_first"``; used wherever a ``data_format`` argument is None."""
    return _image_data_format


def set_image_data_format(data_format):
    """Sets the default image layout (``"channels_last"`` or ``"channels_first"``) for the process."""
    global _image_data_format
    value = str(data_format).lower() if isinstance(data_format, str) else data_format
    if value not in _IMAGE_DATA_FORMATS:
        raise ValueError(f"set_image_data_format: expected one of {list(_IMAGE_DATA_FORMATS)}; received "
                         f"data_format={data_format!r}.")
    _image_data_format = value


def epsilon():
    """The fuzz factor added to denominators by losses, metrics and layers that ask for it (``1e-7``)."""
    return _epsilon


def set_epsilon(value):
    """Sets the fuzz factor :func:`epsilon` returns."""
    global _epsilon
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ValueError(f"set_epsilon: expected a non-negative float; received {value!r}.")
    _epsilon = float(value)
