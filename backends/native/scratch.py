"""Reusable scratch buffers for the native engine's largest temporaries (im2col buffers).

A convolution's im2col buffer is many times its input (9x for a 3x3 kernel) and lives from the forward pass
to the kernel gradient; a fresh buffer of that size comes from the operating system each time (glibc serves
blocks over 32 MiB with ``mmap``), so filling it pays a page fault per page, about 40% of the copy. A buffer
handed back with :func:`give` once its last reader is done is handed out again by :func:`take` for the next
request of the same shape and dtype (the input gradient's im2col, the next step's forward pass), already
mapped.

Only buffers nobody else references may be given back: the caller owns that promise. The pool keeps at most
:data:`MAX_BYTES` in all (buffers beyond it are simply dropped) and :func:`clear` empties it. On a GPU it is
bypassed: CuPy's memory pool already recycles device buffers.

>>> import numpy as np
>>> a = take((1024, 512), np.float32)
>>> give(a)
>>> take((1024, 512), np.float32) is a
True
>>> clear()
"""

import threading

from .xp import on_gpu, xp

#: the most bytes the pool holds between uses
MAX_BYTES = 512 * 2**20
#: buffers smaller than this come from ``xp.empty`` (the allocator recycles them well)
MIN_BYTES = 2**20

_pool = {}
_held = [0]
_lock = threading.Lock()


def _key(shape, dtype):
    return tuple(int(s) for s in shape), xp.dtype(dtype)


def take(shape, dtype):
    """An uninitialised C-contiguous ``xp`` array of ``shape`` and ``dtype``, recycled when one is free."""
    key = _key(shape, dtype)
    if not on_gpu:
        with _lock:
            free = _pool.get(key)
            if free:
                buf = free.pop()
                _held[0] -= buf.nbytes
                return buf
    return xp.empty(key[0], dtype=key[1])


def give(buf):
    """Hands ``buf`` (from :func:`take`, or any C-contiguous array nobody else reads) back for reuse."""
    if on_gpu or buf is None or buf.nbytes < MIN_BYTES or not buf.flags.c_contiguous or buf.base is not None:
        return
    with _lock:
        if _held[0] + buf.nbytes > MAX_BYTES:
            return
        _pool.setdefault(_key(buf.shape, buf.dtype), []).append(buf)
        _held[0] += buf.nbytes


def clear():
    """Drops every pooled buffer."""
    with _lock:
        _pool.clear()
        _held[0] = 0
