"""Reading a layer's float32 variables as its compute dtype inside its ``call`` (Keras's autocasting).

Under a mixed policy a ``Dense`` layer stores a float32 kernel but multiplies float16 inputs: the kernel must
reach the math as float16, or type promotion would turn the output back into float32. The layer's call runs
inside a :class:`~highlevel.backends.contract.StatelessScope` whose value table casts each of the layer's
autocast variables on first read (lazily: a weight the call does not read costs nothing). The cast is an
ordinary op on the variable's current value, so gradients flow to the float32 variable, and it works the same
traced (the outer scope of a compiled step supplies the traced value).

Assignments made inside the call (batch statistics, ...) are recorded by the scope and then re-applied to
the variables once the call returns, so they take effect exactly as without the scope.
"""

import contextlib

from highlevel.backends.contract import StatelessScope
from highlevel.backends.contract import dtypes as _dtypes


class _CastOnRead(dict):
    """The scope's value table: ``get`` casts a mapped variable's outer value on first read."""

    def __init__(self, variables, dtype, backend):
        super().__init__()
        self._pending = {id(v): v for v in variables}
        self._dtype = dtype
        self._backend = backend
        self._reading = False

    def get(self, key, default=None):
        hit = dict.get(self, key)
        if hit is not None:
            return hit
        variable = self._pending.get(key)
        if variable is None or self._reading:
            return default  # while reading the outer value, this table answers nothing
        self._reading = True
        try:
            value = variable.value
        finally:
            self._reading = False
        value = self._backend.cast(value, self._dtype)
        self[key] = value
        return value


@contextlib.contextmanager
def autocast_variables(variables, dtype, backend):
    """Within the block, reading one of ``variables`` gives its value cast to ``dtype``.

    Only float variables whose dtype differs from ``dtype`` are cast. Assignments made in the block are applied
    to the variables when it ends (to the enclosing stateless scope, if any).
    """
    # A variable made with autocast=False (Keras's argument) is read in its own dtype.
    variables = [
        v for v in variables if v.dtype != dtype and _dtypes.is_float_dtype(v.dtype) and getattr(v, "autocast", True)
    ]
    if not variables:
        yield
        return
    scope = StatelessScope()
    scope.values = _CastOnRead(variables, dtype, backend)
    with scope:
        yield
    for variable, value in scope.assigned.values():
        variable.assign(value)
