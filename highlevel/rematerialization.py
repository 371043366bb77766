"""``hl.remat`` and ``hl.RematScope``: Keras's rematerialization API.

Rematerialization trades compute for memory: a function's intermediate results are dropped after the forward
pass and recomputed during the backward pass. highlevel accepts Keras's API so that programs using it run
unchanged, but it does not yet rematerialize on any engine: :func:`remat` returns a function that computes the
same values and gradients, and a :class:`RematScope` records its settings without changing how layers run. Peak
memory is what it would be without them.

>>> import numpy as np, highlevel as hl
>>> square = hl.remat(lambda x: x * x)
>>> float(hl.ops.convert_to_numpy(square(np.float32(3.0))))
9.0
>>> with hl.RematScope(mode="full") as scope:
...     scope.mode
'full'
"""

import functools
import threading

_MODES = (None, "full", "activations", "larger_than", "list_of_layers")


class _Stack(threading.local):
    def __init__(self):
        self.scopes = []


_stack = _Stack()


def remat(f):
    """Marks a function for rematerialization (``keras.remat``): recomputing its intermediate results in the backward
    pass instead of keeping them, to save memory.

    The values and gradients are those of ``f``. On every engine it currently keeps ``f``'s intermediate results as
    usual, so no memory is saved yet; code written with it runs unchanged.

    Args:
        f: a function of tensors.

    Returns:
        A function with ``f``'s arguments and results.

    Raises:
        TypeError: ``f`` is not callable.

    >>> import highlevel as hl
    >>> double = hl.remat(lambda x: 2.0 * x)
    >>> hl.ops.convert_to_numpy(double(hl.ops.convert_to_tensor([1.0, 3.0]))).tolist()
    [2.0, 6.0]
    """
    if not callable(f):
        raise TypeError(f"remat expects a function; received {type(f).__name__}: {f!r}.")

    @functools.wraps(f)
    def rematerialized(*args, **kwargs):
        return f(*args, **kwargs)

    return rematerialized


class RematScope:
    """A ``with`` block naming which layers Keras would rematerialize (``keras.RematScope``).

    The settings are checked and kept (:func:`get_current_remat_mode` returns the innermost scope), but layers run
    as usual: highlevel does not rematerialize yet (see the module docstring).

    Args:
        mode: None, ``"full"``, ``"activations"``, ``"larger_than"`` or ``"list_of_layers"``.
        output_size_threshold: for ``"larger_than"``: the output size above which a layer would be recomputed.
        layer_names: for ``"list_of_layers"``: the names of the layers to recompute.

    Raises:
        ValueError: an unknown mode.

    >>> import highlevel as hl
    >>> from highlevel.rematerialization import get_current_remat_mode
    >>> with hl.RematScope(mode="larger_than", output_size_threshold=4096):
    ...     get_current_remat_mode().mode
    'larger_than'
    >>> get_current_remat_mode() is None
    True
    """

    def __init__(self, mode="full", output_size_threshold=1024, layer_names=None):
        if mode not in _MODES:
            raise ValueError(f"RematScope(mode=...) must be one of {list(_MODES)}; received {mode!r}.")
        if mode == "list_of_layers" and not layer_names:
            raise ValueError("RematScope(mode='list_of_layers') needs layer_names=[...], the layers to recompute.")
        self.mode = mode
        self.output_size_threshold = output_size_threshold
        self.layer_names = list(layer_names or [])

    def __enter__(self):
        _stack.scopes.append(self)
        return self

    def __exit__(self, *exc):
        _stack.scopes.pop()
        return False


def get_current_remat_mode():
    """The innermost enclosing :class:`RematScope`, or None (also None for a scope with ``mode=None``)."""
    if not _stack.scopes or _stack.scopes[-1].mode is None:
        return None
    return _stack.scopes[-1]
