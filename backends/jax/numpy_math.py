"""The JAX engine's primitives of the elementwise/bitwise math family (``contract/numpy_math.py``).

``jnp``'s shifts already follow the contract for counts outside ``[0, bits)`` (XLA defines them: 0, or -1 for a
negative number shifted right), and ``jax.scipy.special`` has ``erfc`` and ``erfinv`` with their derivatives.

>>> from highlevel.backends.jax import JaxBackend
>>> b = JaxBackend()
>>> b.to_numpy(b.view(b.convert_to_tensor([1.0]), "int32")).tolist()
[1065353216]
"""

import jax.numpy as jnp
import jax.scipy.special as jsp
from jax import lax

from . import conversion as cv


class NumpyMathOps:
    """Bitwise ops, shifts, ``view``, ``erfc`` and ``erfinv`` with jax.numpy."""

    def bitwise_and(self, x, y):
        return jnp.bitwise_and(*cv.promote(x, y))

    def bitwise_or(self, x, y):
        return jnp.bitwise_or(*cv.promote(x, y))

    def bitwise_xor(self, x, y):
        return jnp.bitwise_xor(*cv.promote(x, y))

    def bitwise_invert(self, x):
        return jnp.invert(cv.convert(x))

    def bitwise_left_shift(self, x, y):
        return jnp.left_shift(*cv.promote(x, y))

    def bitwise_right_shift(self, x, y):
        return jnp.right_shift(*cv.promote(x, y))

    def view(self, x, dtype):
        x = lax.stop_gradient(cv.convert(x))
        if x.dtype == jnp.bool_:
            x = x.astype(jnp.uint8)
        out = x.view(cv.jdtype("uint8" if dtype == "bool" else dtype))
        return out != 0 if dtype == "bool" else out

    def erfc(self, x):
        return jsp.erfc(cv.to_float(x))

    def erfinv(self, x):
        return jsp.erfinv(cv.to_float(x))
