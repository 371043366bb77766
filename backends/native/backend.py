"""``NativeBackend``: the contract implemented by our own autodiff on numpy (CuPy on a GPU).

The op methods are the module functions of ``ops_*.py`` bound as static methods, so ``hl.ops.add``
costs one Python call more than calling numpy would; the class itself holds the tensor, variable,
device and autodiff parts of the contract.

>>> import highlevel as hl
>>> with hl.config.backend_scope("native") as b:
...     b.to_numpy(hl.ops.add(1.0, 2.0)).item()
3.0
"""

import contextlib

import numpy as np

from highlevel.backends.contract import Backend, Capabilities, Variable, dtypes, tree
from highlevel.backends.contract.core import argnums_positions, standardize_argnums
from highlevel.backends.contract.variable import _scopes

from . import autograd, ops_batch_norm, ops_fused, ops_linalg, ops_math, ops_nn, ops_recurrent, ops_reduce, ops_shape
from . import random as _random
from .control_flow import ControlFlowOps
from .convert import std_dtype, to_array, to_tensor
from .linalg import NativeLinalgMixin
from .numpy_array import NumpyArrayOps
from .numpy_math import NumpyMathOps
from .scatter_segment import ScatterSegmentOps
from .spatial import SpatialOpsMixin
from .spectral import NativeSpectralMixin
from .tensor import _BFLOAT16, FLOAT_DTYPES, Tensor, dtype_name, xp_dtype
from .tensor import DTYPE_NAMES as _NAMES
from .training import TrainingOps
from .xp import on_gpu, to_host, xp

_DEVICE = "gpu:0" if on_gpu else "cpu:0"


def _static(module, *names):
    return {n: staticmethod(getattr(module, n)) for n in names}


def _shape_arg(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(d) for d in shape)


class NativeBackend(
    SpatialOpsMixin,
    NumpyArrayOps,
    NumpyMathOps,
    ControlFlowOps,
    ScatterSegmentOps,
    TrainingOps,
    NativeLinalgMixin,
    NativeSpectralMixin,
    Backend,
):
    """The native engine: define-by-run reverse-mode autodiff on numpy (CuPy with ``HIGHLEVEL_DEVICE=gpu``).

    >>> b = NativeBackend()
    >>> value, grad = b.value_and_grad(lambda x: b.sum(b.square(x)))(b.convert_to_tensor([1.0, 2.0]))
    >>> b.to_numpy(grad).tolist()
    [2.0, 4.0]
    """

    name = "native"
    pip_extra = None
    capabilities = Capabilities(
        supports_float64=True,
        supports_bfloat16=_BFLOAT16 is not None,
        supports_jit=False,
        stateless_step=False,
        supports_gpu=True,
        distributed=False,
        host_reads_sync=on_gpu,
        fused_recurrence=True,
    )

    # the op set: module functions as static methods (no extra call layer)
    locals().update(
        _static(
            ops_math,
            "negative",
            "abs",
            "sign",
            "sqrt",
            "square",
            "exp",
            "expm1",
            "log",
            "log1p",
            "log2",
            "log10",
            "sin",
            "cos",
            "tan",
            "arcsin",
            "arccos",
            "arctan",
            "sinh",
            "cosh",
            "tanh",
            "arcsinh",
            "arccosh",
            "arctanh",
            "floor",
            "ceil",
            "reciprocal",
            "rsqrt",
            "erf",
            "isnan",
            "isinf",
            "isfinite",
            "logical_not",
            "round",
            "clip",
            "nan_to_num",
            "add",
            "subtract",
            "multiply",
            "divide",
            "divide_no_nan",
            "floor_divide",
            "mod",
            "power",
            "arctan2",
            "maximum",
            "minimum",
            "logaddexp",
            "equal",
            "not_equal",
            "less",
            "less_equal",
            "greater",
            "greater_equal",
            "logical_and",
            "logical_or",
            "logical_xor",
            "where",
            "cast",
        )
    )
    locals().update(
        _static(
            ops_reduce, "sum", "mean", "var", "std", "any", "all", "logsumexp", "argmax", "argmin", "cumsum", "cumprod"
        )
    )

    def max(self, x, axis=None, keepdims=False, initial=None):
        if initial is not None:
            return self._reduce_with_initial("max", x, axis, keepdims, initial)
        return ops_reduce.max(x, axis, keepdims)

    def min(self, x, axis=None, keepdims=False, initial=None):
        if initial is not None:
            return self._reduce_with_initial("min", x, axis, keepdims, initial)
        return ops_reduce.min(x, axis, keepdims)

    def prod(self, x, axis=None, keepdims=False, dtype=None):
        return ops_reduce.prod(x if dtype is None else ops_math.cast(x, dtype), axis, keepdims)

    locals().update(_static(ops_linalg, "matmul", "einsum", "tensordot", "outer"))
    locals().update(
        _static(
            ops_shape,
            "reshape",
            "transpose",
            "swapaxes",
            "moveaxis",
            "concatenate",
            "stack",
            "split",
            "expand_dims",
            "squeeze",
            "take",
            "take_along_axis",
            "pad",
            "tile",
            "repeat",
            "broadcast_to",
            "flip",
            "getitem",
            "slice",
            "slice_update",
            "sort",
            "argsort",
            "top_k",
            "one_hot",
        )
    )
    locals().update(
        _static(
            ops_nn,
            "relu",
            "relu6",
            "sigmoid",
            "softplus",
            "softsign",
            "silu",
            "gelu",
            "elu",
            "selu",
            "leaky_relu",
            "hard_sigmoid",
            "softmax",
            "log_softmax",
            "moments",
        )
    )
    # fused primitives (one graph node each; see ops_fused.py): the contract's sparse cross-entropy kernel
    locals().update(_static(ops_fused, "sparse_softmax_cross_entropy"))

    def dense(self, inputs, kernel, bias=None, activation=None):
        # matmul, bias and ReLU as one node (ops_fused.dense); sigmoid and tanh follow as their own op
        if activation in ("sigmoid", "tanh"):
            return getattr(self, activation)(ops_fused.dense(inputs, kernel, bias))
        if activation not in (None, "linear", "relu"):
            return super().dense(inputs, kernel, bias, activation)  # its clear error
        return ops_fused.dense(inputs, kernel, bias, activation)

    def int8_matmul(self, x, kernel):
        # numpy has no integer BLAS: an int8 product through float32 BLAS is exact up to 1,024 inputs (every
        # partial sum an integer below 128 * 128 * 1024 = 2**24), through float64 far beyond (ops_linalg)
        a, b = to_tensor(x), to_tensor(kernel)
        if a.dtype != "int8" or b.dtype != "int8":
            return super().int8_matmul(x, kernel)
        exact = "float32" if b.data.shape[0] <= 1024 else "float64"
        out = xp.matmul(a.data.astype(exact), b.data.astype(exact))
        return Tensor(out.astype(xp.int32))

    def fused_batch_norm(self, x, scale=None, offset=None, axis=-1, epsilon=1e-3):
        # one node with the closed-form backward (ops_batch_norm.py) for float32/float64 of one dtype with more
        # than one value per channel; otherwise the generic formula (half floats compute their moments in float32)
        t = to_tensor(x)
        dt = t.data.dtype
        parts = [None if v is None else to_tensor(v) for v in (scale, offset)]
        if (
            t.dtype not in ("float32", "float64")
            or t.data.ndim < 2
            or any(p is not None and p.data.dtype != dt for p in parts)
            or t.data.size // max(t.data.shape[axis % t.data.ndim], 1) < 2
        ):
            return super().fused_batch_norm(x, scale, offset, axis, epsilon)
        return ops_batch_norm.batch_norm(t, *parts, axis, epsilon)

    def lstm_sequence(self, inputs, h, c, kernel, recurrent_kernel, bias=None):
        # the whole time loop as one node with a hand-written backward (ops_recurrent.py)
        if self.shape(inputs)[1] == 0:
            return super().lstm_sequence(inputs, h, c, kernel, recurrent_kernel, bias)
        return ops_recurrent.lstm_sequence(inputs, h, c, kernel, recurrent_kernel, bias)

    def adam_update(self, variables, grads, momentums, velocities, alpha, beta_1, beta_2, epsilon, velocity_hats=None):
        # Three fresh buffers per variable, each written in place as it is computed (ops_fused.adam_arrays),
        # instead of a dozen graph-free temporaries; they replace the variables' buffers directly (what
        # assign_variable does, without its checks: shapes and dtypes match by construction). AMSGrad and
        # stateless scopes (values substituted, assignments recorded) keep the generic definition.
        if velocity_hats is not None or _scopes.stack:
            return super().adam_update(
                variables, grads, momentums, velocities, alpha, beta_1, beta_2, epsilon, velocity_hats
            )
        c1, c2, eps = 1.0 - float(beta_1), 1.0 - float(beta_2), float(epsilon)
        alphas = {}
        for w, g, m, v in zip(variables, grads, momentums, velocities):
            hw, hm, hv = w.handle, m.handle, v.handle
            dt = hw.data.dtype
            a = alphas.get(dt)
            if a is None:
                a = alphas[dt] = to_tensor(alpha, _NAMES[dt]).data
            gd = to_tensor(g).data
            if gd.dtype != dt:
                gd = gd.astype(dt)
            p_new, m_new, v_new = ops_fused.adam_arrays(hw.data, hm.data, hv.data, gd, a, c1, c2, eps)
            for h, new in ((hm, m_new), (hv, v_new), (hw, p_new)):
                h.data = new
                h._version += 1

    def adam_learning_rate(self, learning_rate, beta_1, beta_2, step):
        # The formula on 0-d arrays, in the rate's dtype (the generic definition's rounding): seven scalar
        # numpy calls instead of seven engine ops.
        lr = to_tensor(learning_rate).data
        dt = lr.dtype
        t = to_tensor(step).data.astype(dt, copy=False)
        one = xp.asarray(1.0, dt)
        b1_power = xp.power(xp.asarray(beta_1, dt), t)
        b2_power = xp.power(xp.asarray(beta_2, dt), t)
        return Tensor(
            xp.asarray(xp.divide(xp.multiply(lr, xp.sqrt(xp.subtract(one, b2_power))), xp.subtract(one, b1_power)), dt)
        )

    #: the tensor type and autodiff entry points, for code that works with this engine directly
    Tensor = Tensor
    no_grad = autograd.no_grad

    def inference_scope(self):
        return autograd.no_grad()

    enable_grad = autograd.enable_grad

    # ------------------------------------------------------------------ tensors
    def convert_to_tensor(self, x, dtype=None):
        if dtype is not None:
            dtype = std_dtype(dtype)
        if isinstance(x, (Tensor, Variable)):
            return to_tensor(x, dtype)
        a = to_array(x, dtype)
        if isinstance(x, (np.ndarray, xp.ndarray)) and a is x:
            a = a.copy()  # the caller may change its array later; the tensor must not change with it
        return Tensor(a)

    def borrow_host_array(self, x):
        """A numpy array as a tensor sharing its buffer, read-only, instead of convert_to_tensor's copy.

        For arrays the caller leaves unchanged while the tensor is in use: the trainer's evaluate and predict
        batches, slices of the user's arrays (copying one costs about 2% of a B4 batch). On a GPU the array is
        transferred as by convert_to_tensor.
        """
        a = to_array(x)
        if a is x:
            a = a.view()
            a.flags.writeable = False  # the engine never writes its inputs; a slip would raise, not corrupt
        return Tensor(a)

    def to_numpy(self, x):
        if isinstance(x, Tensor):
            return x.numpy()
        return np.array(to_host(to_array(x)))

    def is_tensor(self, x):
        return isinstance(x, Tensor)

    def shape(self, x):
        if isinstance(x, Tensor):
            return tuple(x.data.shape)
        return tuple(int(d) for d in to_array(x).shape)

    def dtype(self, x):
        if isinstance(x, Tensor):
            return x.dtype
        return dtype_name(to_array(x).dtype)

    def zeros(self, shape, dtype=None):
        return Tensor(xp.zeros(_shape_arg(shape), xp_dtype(std_dtype(dtype))))

    def ones(self, shape, dtype=None):
        return Tensor(xp.ones(_shape_arg(shape), xp_dtype(std_dtype(dtype))))

    def full(self, shape, fill_value, dtype=None):
        name = dtypes.standardize_dtype(dtype) if dtype is not None else None
        fill = to_array(fill_value, name)
        return Tensor(xp.array(xp.broadcast_to(fill, _shape_arg(shape))))

    def arange(self, start, stop=None, step=1, dtype=None):
        if dtype is None:
            ints = all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                for v in (start, stop, step)
                if v is not None
            )
            dtype = "int32" if ints else dtypes.floatx()
        dt = xp_dtype(std_dtype(dtype))
        if stop is None:
            start, stop = 0, start
        return Tensor(xp.arange(_py(start), _py(stop), _py(step)).astype(dt))

    def eye(self, N, M=None, k=0, dtype=None):  # noqa: N803 - the contract's names
        return Tensor(xp.eye(int(N), None if M is None else int(M), int(k), dtype=xp_dtype(std_dtype(dtype))))

    def stop_gradient(self, x):
        return Tensor(to_tensor(x).data)

    def copy(self, x):
        x = to_tensor(x)

        def backward(g, out=None):
            return (g,)

        return autograd.record(x.data.copy(), (x,), backward, (), "copy")

    # ---------------------------------------------------------------- variables
    def make_variable_handle(self, tensor, trainable):
        data = to_array(tensor).copy()
        return Tensor(data, requires_grad=bool(trainable) and data.dtype in FLOAT_DTYPES)

    def set_variable_trainable(self, handle, trainable):
        # the tape then computes no gradient for a frozen weight (a convolution skips its kernel gradient)
        handle.requires_grad = bool(trainable) and handle.data.dtype in FLOAT_DTYPES

    def read_variable(self, handle):
        return handle

    def assign_variable(self, handle, value):
        if isinstance(value, Tensor) and value.data.dtype == handle.data.dtype:
            new = value.data  # buffers are never written in place here, so sharing one is safe
        else:
            new = to_array(value)
            if new.dtype != handle.data.dtype:
                new = new.astype(handle.data.dtype)
            elif isinstance(value, (np.ndarray, xp.ndarray)):
                new = new.copy()
        if new.shape != handle.data.shape:
            raise ValueError(
                f"Cannot assign a value of shape {tuple(new.shape)} to a variable of shape "
                f"{tuple(handle.data.shape)}; the shapes must match."
            )
        handle.data = new
        handle._version += 1
        return handle

    def assign_add_variable(self, handle, delta):
        # One array add into a new buffer (buffers are never written in place: tensors handed out earlier and a
        # replay's snapshot keep the old one) when the sum needs no promotion: a tensor of the variable's dtype
        # (its shape, or a scalar), or a Python number added to a float variable. Otherwise the contract's add
        # (which promotes) and assign.
        if isinstance(delta, Variable):
            delta = delta.value
        old = handle.data
        if isinstance(delta, Tensor):
            d = delta.data
            fast = d.dtype == old.dtype and (d.shape == old.shape or d.ndim == 0)
        else:
            d = delta
            fast = type(delta) in (float, int) and old.dtype.kind == "f"
        if not fast:
            return super().assign_add_variable(handle, delta)
        new = old + d
        if not isinstance(new, xp.ndarray):  # numpy gives a scalar for 0-d operands
            new = xp.asarray(new)
        handle.data = new
        handle._version += 1
        return handle

    # ------------------------------------------------------------------ devices
    def devices(self):
        return [_DEVICE]

    def default_device(self):
        return _DEVICE

    def _check_device(self, device):
        name = str(device).lower()
        if name in ("cpu", "gpu"):
            name += ":0"
        if name != _DEVICE:
            raise ValueError(
                f"The native engine runs on {_DEVICE} in this process; received device={device!r}. "
                "Set HIGHLEVEL_DEVICE=gpu (or cpu) before importing highlevel to switch."
            )
        return name

    def device_scope(self, device):
        self._check_device(device)
        return contextlib.nullcontext()

    def to_device(self, x, device):
        self._check_device(device)
        return to_tensor(x)

    # ----------------------------------------------------------------- autodiff
    def value_and_grad(self, fn, argnums=0, has_aux=False):
        nums, single = standardize_argnums(argnums)

        def wrapped(*args):
            args = list(args)
            positions = argnums_positions(nums, len(args), argnums)
            # Inside an enclosing differentiation (a value_and_grad function running on this thread) the
            # gradient is built as a graph, from leaves linked to the arguments, so that the enclosing one
            # differentiates through it: grad of grad, Hessian-vector products, mixed partials.
            nested = autograd.in_differentiation()
            targets = []
            for i in positions:
                leaves, treedef = tree.flatten(args[i])
                marked = [_grad_leaf(v, nested) for v in leaves]
                args[i] = tree.unflatten(treedef, marked)
                targets.append((treedef, marked))
            with autograd.enable_grad(), autograd.differentiation():
                out = fn(*args)
            loss, aux = (out[0], out[1]) if has_aux else (out, None)
            loss = to_tensor(loss)
            if loss.data.size != 1:
                raise ValueError(
                    f"value_and_grad needs fn to return a scalar; it returned shape {loss.shape}. "
                    "Reduce the output (e.g. with ops.sum or ops.mean) first."
                )
            wanted = [t for _, marked in targets for t in marked if isinstance(t, Tensor) and t.requires_grad]
            seed = xp.ones(loss.data.shape, loss.data.dtype)
            found = autograd.grad(loss, wanted, seed, create_graph=nested) if wanted else []
            by_leaf = dict(zip(wanted, found))
            grads = []
            for treedef, marked in targets:
                gl = []
                for t in marked:
                    if isinstance(t, Tensor) and t.requires_grad:
                        g = by_leaf[t]
                        if g is None:
                            g = Tensor(xp.zeros_like(t.data))
                        elif nested:
                            g = g if _is_owned(g.data) else self.copy(g)
                        else:
                            g = Tensor(_owned(g))
                        gl.append(g)
                    else:
                        gl.append(None)
                grads.append(tree.unflatten(treedef, gl))
            if nested:  # the value and aux stay in the enclosing differentiation's graph (as under jax.grad)
                value = loss
            else:
                value = Tensor(loss.data)
                aux = tree.map_structure(_detach, aux) if has_aux else aux
            if has_aux:
                value = (value, aux)
            return value, (grads[0] if single else tuple(grads))

        return wrapped

    # ------------------------------------------------------------------- random
    def random_normal(self, shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
        return _random.normal(shape, mean, stddev, dtype, seed)

    def random_uniform(self, shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
        return _random.uniform(shape, minval, maxval, dtype, seed)

    def random_truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
        return _random.truncated_normal(shape, mean, stddev, dtype, seed)

    def random_randint(self, shape, minval, maxval, dtype="int32", seed=None):
        return _random.randint(shape, minval, maxval, dtype, seed)

    def random_shuffle(self, x, axis=0, seed=None):
        return _random.shuffle(x, axis, seed)

    def random_gamma(self, shape, alpha, dtype, seed=None):
        return _random.gamma(shape, alpha, dtype, seed)

    def random_binomial(self, shape, counts, probabilities, dtype, seed=None):
        return _random.binomial(shape, counts, probabilities, dtype, seed)


def _py(v):
    """A Python number from a number, 0-d tensor or array."""
    if isinstance(v, (Tensor, Variable)) or hasattr(v, "__array__"):
        return to_tensor(v).data.item()
    return v


def _grad_leaf(v, nested=False):
    """The tensor value_and_grad differentiates with respect to, for one argument leaf: float leaves require
    grad, others are constants. A fresh leaf, except inside an enclosing differentiation for an argument that
    is in its graph: then a recorded identity of it, so the enclosing gradient flows through."""
    if v is None:
        return None
    t = to_tensor(v)
    if t.data.dtype in FLOAT_DTYPES:
        if nested and t.requires_grad:
            return autograd.identity(t, "value_and_grad_argument")
        return Tensor(t.data, requires_grad=True)
    return t


def _is_owned(a):
    return a.flags.c_contiguous and (on_gpu or a.flags.writeable)


def _owned(a):
    """``a`` as a C-contiguous, writeable array of its own (gradients can be broadcast views)."""
    return a if _is_owned(a) else a.copy()


def _detach(v):
    return Tensor(v.data) if isinstance(v, Tensor) and v.requires_grad else v
