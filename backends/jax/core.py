"""The core part of the JAX backend: tensors, creation, variables, devices, autodiff and random.

JAX arrays are immutable, so a variable's handle is a :class:`JaxVariableHandle`: a small mutable slot
holding the current array; assigning replaces the array.

Random draws use JAX's counter-based threefry generator. The contract's seed pair ``(seed, counter)``
(Python ints or an integer tensor of shape (2,)) *is* a raw threefry key once cast to uint32, which also
works when the seed is traced inside ``jax.jit``.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from highlevel.backends.contract import Variable, tree
from highlevel.backends.contract import dtypes as cdt
from highlevel.backends.contract.core import argnums_positions, standardize_argnums

from . import conversion as cv
from .control_flow import differentiation


class JaxVariableHandle:
    """The mutable state behind a JAX-backed :class:`~highlevel.backends.contract.Variable`.

    Attributes:
        value: the current ``jax.Array``.
        trainable: whether optimizers update it.

    >>> import jax.numpy as jnp
    >>> h = JaxVariableHandle(jnp.zeros((2,)), trainable=True)
    >>> h.shape
    (2,)
    """

    __slots__ = ("value", "trainable")

    def __init__(self, value, trainable):
        self.value = value
        self.trainable = bool(trainable)

    @property
    def shape(self):
        return tuple(self.value.shape)

    @property
    def dtype(self):
        return cv.dtype_name(self.value)

    def __repr__(self):
        return f"<JaxVariableHandle shape={self.shape} dtype={self.dtype}>"


def _parse_device(device):
    """A ``jax.Device`` from a name like ``"cpu:0"`` / ``"gpu:1"`` (or a ``jax.Device`` itself)."""
    if isinstance(device, jax.Device):
        return device
    if not isinstance(device, str):
        raise TypeError(f"device must be a name such as 'cpu:0' or 'gpu:0'; received {device!r}.")
    kind, _, index = device.lower().partition(":")
    kind = {"cuda": "gpu", "rocm": "gpu"}.get(kind, kind)
    try:
        candidates = jax.devices(kind)
    except RuntimeError:
        candidates = []
    i = int(index) if index else 0
    if not 0 <= i < len(candidates):
        raise ValueError(f"Unknown device {device!r}. Available devices: {_device_names()}.")
    return candidates[i]


def _device_name(d):
    kind = "gpu" if d.platform in ("gpu", "cuda", "rocm") else d.platform
    same_kind = [x for x in jax.devices(d.platform)]
    index = same_kind.index(d) if d in same_kind else d.id
    return f"{kind}:{index}"


def _device_names():
    return [_device_name(d) for d in jax.devices()]


def _key(seed):
    """The raw uint32 threefry key of shape (2,) for a contract seed (no Python int() on traced values)."""
    if isinstance(seed, Variable):
        seed = seed.value
    if seed is None:
        # a direct backend call without a seed: a fresh, non-reproducible draw
        seed = tuple(int(v) for v in np.random.SeedSequence().generate_state(2))
    elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        seed = (int(seed), 0)
    if cv.is_array(seed):
        key = seed.astype(jnp.uint32)
    elif isinstance(seed, (tuple, list)) and any(cv.is_array(s) for s in seed):
        key = jnp.stack(
            [s.astype(jnp.uint32) if cv.is_array(s) else jnp.asarray(int(s) % 2**32, jnp.uint32) for s in seed]
        )
    else:
        arr = np.asarray(seed)
        if arr.dtype.kind not in "iu":
            raise TypeError(f"seed must hold integers; received {seed!r}.")
        # Python ints may span the whole uint32 range (or be negative): wrap modulo 2**32
        key = jnp.asarray((arr.astype(np.int64) % 2**32).astype(np.uint32))
    if key.shape != (2,):
        raise ValueError(
            f"seed must be a pair (seed, counter) or an integer tensor of shape (2,); received shape "
            f"{tuple(key.shape)}."
        )
    return key


class CoreOps:
    """Implements :class:`~highlevel.backends.contract.CoreContract` with JAX."""

    # ----------------------------------------------------------------- tensors
    def convert_to_tensor(self, x, dtype=None):
        return cv.convert(x, dtype)

    def to_numpy(self, x):
        if isinstance(x, Variable):
            x = x.value
        if isinstance(x, jax.Array):
            return np.asarray(x)  # what device_get does for one array, without its tree and profiler wrappers
        return np.asarray(jax.device_get(x))

    def is_tensor(self, x):
        return cv.is_array(x)

    def cast(self, x, dtype):
        if isinstance(x, (bool, int, float, list, tuple, np.ndarray, np.generic)):
            return cv.convert(x, dtype)  # straight to dtype: cast(0.9, "float64") must not pass through float32
        return cv.convert(cv.convert(x), dtype)

    def shape(self, x):
        if isinstance(x, Variable):
            x = x.value
        if not hasattr(x, "shape"):
            x = cv.convert(x)
        # a symbolic size (a function traced by jax.export with a free batch) stays a symbol
        return tuple(int(d) if isinstance(d, (int, np.integer)) else d for d in x.shape)

    def jax_functions(self):
        from .jax_functions import JaxFunctions

        return JaxFunctions

    def dtype(self, x):
        if isinstance(x, Variable):
            x = x.value
        if not hasattr(x, "dtype"):
            x = cv.convert(x)
        return cv.dtype_name(x)

    @staticmethod
    def _shape_arg(shape):
        if isinstance(shape, (int, np.integer)):
            return (int(shape),)
        # A symbolic size (``jax.export``'s open batch, as a converter traces it) stays symbolic: int() would ask
        # for a number it does not have.
        return tuple(d if jax.export.is_symbolic_dim(d) else int(d) for d in shape)

    def zeros(self, shape, dtype=None):
        return jnp.zeros(self._shape_arg(shape), cv.jdtype(dtype or cdt.floatx()))

    def ones(self, shape, dtype=None):
        return jnp.ones(self._shape_arg(shape), cv.jdtype(dtype or cdt.floatx()))

    def full(self, shape, fill_value, dtype=None):
        dt = dtype or cv.default_dtype(fill_value)
        return jnp.full(self._shape_arg(shape), cv.convert(fill_value, dt), cv.jdtype(dt))

    def arange(self, start, stop=None, step=1, dtype=None):
        if dtype is None:
            parts = [v for v in (start, stop, step) if v is not None]
            dtype = cv.result_dtype(*parts)
        if stop is None:
            start, stop = 0, start
        unwrap = lambda v: v.value if isinstance(v, Variable) else v
        return jnp.arange(unwrap(start), unwrap(stop), unwrap(step), dtype=cv.jdtype(dtype))

    def eye(self, N, M=None, k=0, dtype=None):
        return jnp.eye(N, M, k, dtype=cv.jdtype(dtype or cdt.floatx()))

    def stop_gradient(self, x):
        return lax.stop_gradient(cv.convert(x))

    def copy(self, x):
        return jnp.array(cv.convert(x), copy=True)

    # --------------------------------------------------------------- variables
    def make_variable_handle(self, tensor, trainable):
        # A buffer of its own (a compiled step may donate it: the caller's array must survive), copied by the
        # runtime: jnp.array(copy=True) compiles XLA's copy op once per new shape, ~45 ms per weight shape of a
        # model built for the first time.
        return JaxVariableHandle(jax.device_put(cv.convert(tensor), may_alias=False), trainable)

    def set_variable_trainable(self, handle, trainable):
        if isinstance(handle, JaxVariableHandle):
            handle.trainable = bool(trainable)

    def read_variable(self, handle):
        return handle.value

    def assign_variable(self, handle, value):
        value = cv.convert(value, handle.dtype)
        if tuple(value.shape) != handle.shape:
            raise ValueError(
                f"Cannot assign a value of shape {tuple(value.shape)} to a variable of shape {handle.shape}. "
                "Pass a value with the variable's shape."
            )
        handle.value = value

    # ----------------------------------------------------------------- devices
    def devices(self):
        return _device_names()

    def default_device(self):
        configured = jax.config.jax_default_device
        if configured is None:
            return _device_name(jax.devices()[0])
        if isinstance(configured, str):
            return _device_name(_parse_device(configured))
        return _device_name(configured)

    def device_scope(self, device):
        return jax.default_device(_parse_device(device))

    def to_device(self, x, device):
        return jax.device_put(cv.convert(x), _parse_device(device))

    # ---------------------------------------------------------------- autodiff
    def value_and_grad(self, fn, argnums=0, has_aux=False):
        nums, single = standardize_argnums(argnums)

        def convert_leaf(v):
            if (
                isinstance(v, Variable)
                or cv.is_array(v)
                or isinstance(v, (np.ndarray, np.generic))
                or (isinstance(v, (bool, int, float)))
            ):
                return cv.convert(v)
            return v  # anything else (None, strings, ...) passes through and gets no gradient

        def vg(*args):
            args = list(args)
            positions = argnums_positions(nums, len(args), argnums)
            flat = []
            for n in positions:
                leaves, treedef = tree.flatten(args[n])
                leaves = [convert_leaf(v) for v in leaves]
                diff = [i for i, v in enumerate(leaves) if cv.is_array(v) and cv.is_float(v)]
                flat.append((leaves, treedef, diff))

            def inner(diff_values):
                new_args = list(args)
                for (leaves, treedef, diff), values, n in zip(flat, diff_values, positions):
                    leaves = list(leaves)
                    for i, v in zip(diff, values):
                        leaves[i] = v
                    new_args[n] = tree.unflatten(treedef, leaves)
                with differentiation():  # the loops pick their reverse-differentiable forms (control_flow.py)
                    return fn(*new_args)

            primals = [[leaves[i] for i in diff] for leaves, _, diff in flat]
            value, diff_grads = jax.value_and_grad(inner, has_aux=has_aux)(primals)
            grads = []
            for (leaves, treedef, diff), g in zip(flat, diff_grads):
                out = [None] * len(leaves)
                for i, gi in zip(diff, g):
                    out[i] = gi
                grads.append(tree.unflatten(treedef, out))
            return value, (grads[0] if single else tuple(grads))

        return vg

    # ------------------------------------------------------------------ random
    @staticmethod
    def _float_dtype(dtype):
        name = cdt.standardize_dtype(dtype) if dtype is not None else cdt.floatx()
        if name not in cdt.FLOAT_DTYPES:
            raise ValueError(f"Random float draws need a float dtype; received dtype={dtype!r}.")
        return name

    def random_normal(self, shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
        dt = self._float_dtype(dtype)
        draw = jax.random.normal(_key(seed), self._shape_arg(shape), cv.jdtype(dt))
        return draw * cv.convert(stddev, dt) + cv.convert(mean, dt)

    def random_uniform(self, shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
        dt = self._float_dtype(dtype)
        return jax.random.uniform(
            _key(seed),
            self._shape_arg(shape),
            cv.jdtype(dt),
            minval=cv.convert(minval, dt),
            maxval=cv.convert(maxval, dt),
        )

    def random_truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
        dt = self._float_dtype(dtype)
        jdt = cv.jdtype(dt)
        draw = jax.random.truncated_normal(
            _key(seed), jnp.asarray(-2.0, jdt), jnp.asarray(2.0, jdt), self._shape_arg(shape), jdt
        )
        return draw * cv.convert(stddev, dt) + cv.convert(mean, dt)

    def random_randint(self, shape, minval, maxval, dtype="int32", seed=None):
        dt = cdt.standardize_dtype(dtype)
        if dt not in cdt.INT_DTYPES:
            raise ValueError(f"random_randint needs an integer dtype; received dtype={dtype!r}.")
        return jax.random.randint(
            _key(seed), self._shape_arg(shape), cv.convert(minval, dt), cv.convert(maxval, dt), dtype=cv.jdtype(dt)
        )

    def random_shuffle(self, x, axis=0, seed=None):
        x = cv.convert(x)
        return jax.random.permutation(_key(seed), x, axis=axis, independent=False)
