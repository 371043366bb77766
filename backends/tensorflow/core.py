"""The core part of the TensorFlow backend: tensors, variables, devices, autodiff and seeded random.

Variables are ``tf.Variable`` objects. :meth:`CoreOps.read_variable` returns a *snapshot* (``v.value()``):
the read is a ``ReadVariableOp`` that ``tf.GradientTape`` records for trainable variables, so gradients with
respect to the variable keep working, while a value read earlier does not change when the variable is
assigned later (the same semantics as the other engines).
"""

import re

import numpy as np
import tensorflow as tf

from highlevel.backends.contract import Variable, dtypes, tree
from highlevel.backends.contract.axes import canonical_axis
from highlevel.backends.contract.core import argnums_positions, standardize_argnums

from .convert import convert, dtype_name, is_py_scalar, np_dtype, static_shape, tf_dtype


def _shape_arg(shape):
    """A shape argument (int, tuple, list or 1-D tensor) as something tf.zeros/tf.fill accept."""
    if isinstance(shape, (int, np.integer)):
        return [int(shape)]
    if isinstance(shape, (tf.Tensor, tf.Variable)):
        return shape
    return [int(s) if isinstance(s, (int, np.integer)) else s for s in shape]


def _device_name(device):
    """Maps ``"cpu"``, ``"cpu:0"``, ``"gpu:1"``, ``"cuda:0"`` or a TF name to TF's ``/device:GPU:1`` form."""
    if not isinstance(device, str):
        raise TypeError(f"device must be a string such as 'cpu:0' or 'gpu:0'; received {device!r}.")
    m = re.fullmatch(
        r"(?:/(?:job:[^/]+/)?(?:replica:\d+/)?(?:task:\d+/)?device:)?([a-zA-Z]+)(?::(\d+))?", device.strip()
    )
    if m is None:
        raise ValueError(f"Cannot parse device name {device!r}; expected e.g. 'cpu:0' or 'gpu:0'.")
    kind = m.group(1).upper()
    kind = "GPU" if kind == "CUDA" else kind
    return f"/device:{kind}:{m.group(2) or 0}"


def _seed_tensor(seed):
    """The ``(2,)`` integer seed tensor that TensorFlow's stateless random ops take."""
    if seed is None:
        seed = tuple(int(s) for s in np.random.randint(0, 2**31 - 1, size=2))
    if isinstance(seed, Variable):
        seed = seed.value
    if isinstance(seed, (tf.Tensor, tf.Variable)):
        seed = tf.convert_to_tensor(seed)
        if seed.dtype not in (tf.int32, tf.int64):
            seed = tf.cast(seed, tf.int64)
        if seed.shape.rank is not None and seed.shape.as_list() != [2]:
            raise ValueError(f"A seed tensor must have shape (2,); received shape {seed.shape}.")
        return seed
    if isinstance(seed, (int, np.integer)):
        seed = (int(seed), 0)
    arr = np.asarray(seed)
    if arr.shape != (2,) or arr.dtype.kind not in "iu":
        raise ValueError(
            f"seed must be a pair of ints (seed, counter) or an int tensor of shape (2,); received {seed!r}."
        )
    return tf.constant(arr.astype(np.int64))


class CoreOps:
    """Tensors, creation, variables, devices, autodiff and random on TensorFlow."""

    # ----------------------------------------------------------------- tensors
    def convert_to_tensor(self, x, dtype=None):
        return convert(x, dtype)

    def to_numpy(self, x):
        if isinstance(x, Variable):
            x = x.value
        if isinstance(x, (tf.Tensor, tf.Variable)):
            return np.asarray(x.numpy())  # a 0-d tensor's .numpy() is a numpy scalar, not an array
        return np.asarray(x)

    def is_tensor(self, x):
        return isinstance(x, (tf.Tensor, tf.Variable))

    def cast(self, x, dtype):
        if isinstance(x, (bool, int, float, list, tuple, np.ndarray, np.generic)):
            return convert(x, dtype)  # straight to dtype: cast(0.9, "float64") must not pass through float32
        x = convert(x)
        d = tf_dtype(dtype)
        return x if x.dtype == d else tf.cast(x, d)

    def shape(self, x):
        if not isinstance(x, (tf.Tensor, tf.Variable)):
            x = convert(x)
        if x.shape.rank is None:
            raise ValueError("The tensor has unknown rank; give tf.function an input_signature.")
        static = x.shape.as_list()
        if None not in static:
            return tuple(static)
        # A size unknown while tracing (a tf.data batch): a scalar tensor holding it, as Keras's TensorFlow backend.
        dynamic = tf.shape(x)
        return tuple(dynamic[i] if s is None else s for i, s in enumerate(static))

    def dtype(self, x):
        if isinstance(x, (tf.Tensor, tf.Variable)):
            return dtype_name(x)
        return dtype_name(convert(x))

    def zeros(self, shape, dtype=None):
        return tf.zeros(_shape_arg(shape), dtype=tf_dtype(dtype or dtypes.floatx()))

    def ones(self, shape, dtype=None):
        return tf.ones(_shape_arg(shape), dtype=tf_dtype(dtype or dtypes.floatx()))

    def full(self, shape, fill_value, dtype=None):
        if dtype is None:
            dtype = dtypes.result_type(fill_value) if is_py_scalar(fill_value) else self.dtype(fill_value)
        value = convert(fill_value, dtype)
        shape = _shape_arg(shape)
        if value.shape.rank == 0:
            return tf.fill(shape, value)
        return tf.broadcast_to(value, shape)

    def zeros_like(self, x, dtype=None):
        x = convert(x)
        return tf.zeros_like(x, dtype=tf_dtype(dtype) if dtype is not None else None)

    def ones_like(self, x, dtype=None):
        x = convert(x)
        return tf.ones_like(x, dtype=tf_dtype(dtype) if dtype is not None else None)

    def full_like(self, x, fill_value, dtype=None):
        x = convert(x)
        dtype = dtype or dtype_name(x)
        return tf.broadcast_to(convert(fill_value, dtype), tf.shape(x))

    def arange(self, start, stop=None, step=1, dtype=None):
        args = (start, stop, step)
        if dtype is None:
            is_float = any(
                isinstance(a, float) or (hasattr(a, "dtype") and dtypes.is_float_dtype(self.dtype(a)))
                for a in args
                if a is not None
            )
            dtype = dtypes.floatx() if is_float else "int32"
        if all(a is None or is_py_scalar(a) or isinstance(a, np.generic) for a in args):
            # Static arguments: numpy gives exactly numpy's length and values.
            return tf.constant(np.arange(start, stop, step).astype(np_dtype(dtype)))
        if stop is None:
            start, stop = 0, start
        calc = "float64" if dtypes.is_float_dtype(dtype) else "int64"
        out = tf.range(convert(start, calc), convert(stop, calc), convert(step, calc))
        return tf.cast(out, tf_dtype(dtype))

    def eye(self, N, M=None, k=0, dtype=None):
        return tf.constant(
            np.eye(int(N), None if M is None else int(M), int(k), dtype=np_dtype(dtype or dtypes.floatx()))
        )

    def stop_gradient(self, x):
        return tf.stop_gradient(convert(x))

    def copy(self, x):
        return tf.identity(convert(x))

    # --------------------------------------------------------------- variables
    def interop_base_class(self, kind):
        # Variables act as resource variables (the tape watches them) and layers are trackable (checkpoints).
        from .interop import TrackableLayer, TrackableVariable

        return {"variable": TrackableVariable, "layer": TrackableLayer}.get(kind)

    def make_variable_handle(self, tensor, trainable):
        return tf.Variable(convert(tensor), trainable=bool(trainable))

    def read_variable(self, handle):
        return handle.value()

    def assign_variable(self, handle, value):
        value = convert(value, dtype_name(handle))
        if value.shape.rank is not None and value.shape.is_fully_defined() and handle.shape != value.shape:
            raise ValueError(
                f"Cannot assign a value of shape {tuple(value.shape.as_list())} to a variable of "
                f"shape {tuple(handle.shape.as_list())}; the shapes must be equal."
            )
        handle.assign(value)
        return handle

    def assign_add_variable(self, handle, delta):
        if isinstance(delta, Variable):
            delta = delta.value
        # In place (one op) when the sum needs no promotion or broadcast: a tensor of the variable's dtype and
        # shape. Anything else goes through the contract's add and assign.
        if (
            isinstance(delta, tf.Tensor)
            and delta.dtype == handle.dtype
            and delta.shape.is_fully_defined()
            and handle.shape == delta.shape
        ):
            handle.assign_add(delta)
            return handle
        return super().assign_add_variable(handle, delta)

    # ----------------------------------------------------------------- devices
    def devices(self):
        out = []
        for d in tf.config.list_logical_devices():
            kind, _, index = d.name.rsplit("/", 1)[-1].replace("device:", "").rpartition(":")
            out.append(f"{kind.lower()}:{index}")
        return out

    def default_device(self):
        devs = self.devices()
        gpus = [d for d in devs if d.startswith("gpu")]
        return gpus[0] if gpus else "cpu:0"

    def device_scope(self, device):
        name = _device_name(device)
        short = name.replace("/device:", "").lower()
        if short not in self.devices():
            raise ValueError(f"Unknown device {device!r}; available devices: {self.devices()}.")
        return tf.device(name)

    def to_device(self, x, device):
        with self.device_scope(device):
            return tf.identity(convert(x))

    # ---------------------------------------------------------------- autodiff
    def value_and_grad(self, fn, argnums=0, has_aux=False):
        nums, single = standardize_argnums(argnums)

        def wrapped(*args):
            args = list(args)
            structures = []
            for i in argnums_positions(nums, len(args), argnums):
                leaves, treedef = tree.flatten(args[i])
                leaves = [convert(x) for x in leaves]
                structures.append((leaves, treedef))
                args[i] = tree.unflatten(treedef, leaves)
            # The tape watches only the float leaves we differentiate, not every variable fn reads.
            with tf.GradientTape(watch_accessed_variables=False) as tape:
                for leaves, _ in structures:
                    for x in leaves:
                        if x.dtype.is_floating:
                            tape.watch(x)
                out = fn(*args)
                value = out[0] if has_aux else out
            sources = [x for leaves, _ in structures for x in leaves if x.dtype.is_floating]
            g = tape.gradient(value, sources, unconnected_gradients=tf.UnconnectedGradients.ZERO)
            # tf.gather's gradient is IndexedSlices: densify so every gradient is a plain tensor.
            g = iter(tf.convert_to_tensor(x) if isinstance(x, tf.IndexedSlices) else x for x in g)
            grads = []
            for leaves, treedef in structures:
                grads.append(tree.unflatten(treedef, [next(g) if x.dtype.is_floating else None for x in leaves]))
            grads = grads[0] if single else tuple(grads)
            return (tuple(out) if has_aux else out), grads

        return wrapped

    # ------------------------------------------------------------------ random
    def _float_dtype(self, dtype):
        dtype = dtypes.standardize_dtype(dtype or dtypes.floatx())
        if not dtypes.is_float_dtype(dtype):
            raise ValueError(f"This random op draws floats; received dtype={dtype!r}. Use a float dtype.")
        return dtype

    def random_normal(self, shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
        dtype = self._float_dtype(dtype)
        out = tf.random.stateless_normal(_shape_arg(shape), _seed_tensor(seed), dtype=tf_dtype(dtype))
        return out * convert(stddev, dtype) + convert(mean, dtype)

    def random_uniform(self, shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
        dtype = self._float_dtype(dtype)
        out = tf.random.stateless_uniform(_shape_arg(shape), _seed_tensor(seed), dtype=tf_dtype(dtype))
        lo, hi = convert(minval, dtype), convert(maxval, dtype)
        return out * (hi - lo) + lo

    def random_truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
        dtype = self._float_dtype(dtype)
        out = tf.random.stateless_truncated_normal(_shape_arg(shape), _seed_tensor(seed), dtype=tf_dtype(dtype))
        return out * convert(stddev, dtype) + convert(mean, dtype)

    def random_randint(self, shape, minval, maxval, dtype="int32", seed=None):
        dtype = dtypes.standardize_dtype(dtype)
        if not dtypes.is_int_dtype(dtype):
            raise ValueError(f"randint draws integers; received dtype={dtype!r}.")
        draw = "int32" if dtype in ("int8", "int16", "int32", "uint8", "uint16") else "int64"
        out = tf.random.stateless_uniform(
            _shape_arg(shape),
            _seed_tensor(seed),
            minval=convert(minval, draw),
            maxval=convert(maxval, draw),
            dtype=tf_dtype(draw),
        )
        return out if draw == dtype else tf.cast(out, tf_dtype(dtype))

    def random_shuffle(self, x, axis=0, seed=None):
        x = convert(x)
        axis = canonical_axis(axis, x.shape.rank)
        n = static_shape(x)[axis]
        keys = tf.random.stateless_uniform([n], _seed_tensor(seed), dtype=tf.float32)
        return tf.gather(x, tf.argsort(keys, stable=True), axis=axis)
