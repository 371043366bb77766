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
    """Runs the block on backend ``name`` and restores the previous one afterwards."""
    token = _scoped.set(registry.get(name))
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
