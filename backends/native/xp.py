"""The array module of the native engine: numpy, or CuPy on a GPU.

``HIGHLEVEL_DEVICE=gpu`` selects CuPy; anything else (or unset) selects numpy. This is the only module
of highlevel that imports CuPy, and it does so only when asked to. Every other native module does
``from .xp import xp`` and writes array code once for both; the few places where CuPy needs other code
test ``on_gpu`` (no host reads of values inside a step, the fused kernels of gpu_kernels.py). CuPy's
default memory pool is the caching allocator: a step's buffers, freed as the engine drops them, are reused
by the next step without cudaMalloc. tests/backends/native/test_gpu_path.py runs the CuPy path on a fake
CuPy where no GPU is present.

>>> from highlevel.backends.native.xp import xp, on_gpu
>>> xp.__name__ if not on_gpu else "cupy"
'numpy'
"""

import os

import numpy as np


def _load_cupy():
    """Imports CuPy and checks that it sees a GPU; raises a clear error otherwise."""
    from highlevel._extras import install_command

    hint = (
        f"HIGHLEVEL_DEVICE=gpu needs CuPy and a CUDA GPU. Install CuPy with: {install_command('gpu')} "
        "(or unset HIGHLEVEL_DEVICE to run the native engine on numpy)."
    )
    try:
        import cupy
    except ImportError as e:
        raise ImportError(f"{hint} CuPy could not be imported: {e}") from e
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:  # CUDA driver missing or broken
        raise RuntimeError(f"{hint} CuPy found no usable GPU: {e}") from e
    if count < 1:
        raise RuntimeError(f"{hint} CuPy found no GPU (device count 0).")
    return cupy


def _select():
    wanted = os.environ.get("HIGHLEVEL_DEVICE", "cpu").strip().lower()
    if wanted == "gpu":
        return _load_cupy(), True
    if wanted not in ("", "cpu"):
        raise ValueError(f"HIGHLEVEL_DEVICE must be 'cpu' or 'gpu'; received {wanted!r}.")
    return np, False


xp, on_gpu = _select()
#: the array class of ``xp`` (numpy.ndarray or cupy.ndarray)
ndarray = xp.ndarray


def to_host(a):
    """A numpy array with the values of the ``xp`` array ``a`` (a copy from the device on a GPU)."""
    if on_gpu:
        return xp.asnumpy(a)
    return a


def scatter_add(target, index, values):
    """``target[index] += values`` with repeated indices accumulating (``np.add.at`` semantics)."""
    if on_gpu:
        xp.add.at(target, index, values)  # cupy implements add.at with atomics
    else:
        np.add.at(target, index, values)
    return target
