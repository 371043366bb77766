"""The backend contract, part 1: tensors, variables, devices, capabilities, autodiff and random.

Every method here is abstract unless it has a body; a backend that leaves one out cannot be
instantiated. Front-end code (``highlevel/``) talks to engines only through these methods.
"""

import abc
import dataclasses
import numbers

from .variable import Variable


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def standardize_argnums(argnums, op="value_and_grad"):
    """``argnums`` as ``(nums, single)``: the one check of its type, for the front door and every engine.

    ``nums`` is a tuple of distinct Python ints (a negative one counts from the end of the call's positional
    arguments, as in JAX); ``single`` says whether ``argnums`` was one int, in which case the gradient is returned
    as it is rather than in a tuple.

    >>> standardize_argnums(0), standardize_argnums([0, 2])
    (((0,), True), ((0, 2), False))

    Raises:
        TypeError: for anything but an int or a tuple (or list) of ints.
        ValueError: for an argument named twice.
    """
    if _is_int(argnums):
        return (int(argnums),), True
    if isinstance(argnums, (tuple, list)) and all(_is_int(a) for a in argnums):
        nums = tuple(int(a) for a in argnums)
        if len(set(nums)) != len(nums):
            raise ValueError(f"{op}: `argnums` names an argument twice; received argnums={argnums!r}.")
        return nums, False
    raise TypeError(f"{op}: `argnums` must be an int or a tuple of ints; received argnums={argnums!r}.")


def argnums_positions(nums, nargs, argnums, op="value_and_grad"):
    """The positions ``nums`` (from :func:`standardize_argnums`) as non-negative ints for a call of ``nargs``
    positional arguments: the one check of ``argnums`` against the call, for every engine's ``value_and_grad``.

    >>> argnums_positions((0, -1), 3, (0, -1))
    (0, 2)

    Raises:
        ValueError: for a position out of range, or two naming the same argument (``(1, -1)`` with two arguments).
    """
    out = []
    for i in nums:
        if not -nargs <= i < nargs:
            raise ValueError(
                f"{op}: argnums={argnums!r} refers to argument {i}, but the function was called with "
                f"{nargs} positional argument(s)."
            )
        out.append(i % nargs)
    if len(set(out)) != len(out):
        raise ValueError(
            f"{op}: argnums={argnums!r} names an argument twice for a call with {nargs} positional argument(s)."
        )
    return tuple(out)


@dataclasses.dataclass(frozen=True)
class Capabilities:
    """What an engine can do; the front end reads these flags instead of asking for a backend's name.

    Attributes:
        supports_float64: float64 computation is exact float64 (not silently downcast).
        supports_bfloat16: bfloat16 tensors are available.
        supports_jit: ``jit_compile=True`` compiles the training step.
        stateless_step: the step must be a pure function of explicit state (JAX).
        supports_gpu: the engine can place tensors on a GPU when one is present.
        distributed: the engine has a distributed runtime highlevel can drive.
        compiled_step_takes_host_arrays: a compiled step (``compile_step``) accepts numpy arrays and moves
            them to the device itself, faster than converting each batch first (JAX's jitted call does).
        supports_sparse_outputs: the engine has a sparse tensor type that the ``sparse=True`` outputs of the
            preprocessing layers return (:meth:`CoreContract.sparse_from_dense`), as Keras does on TensorFlow.
        supports_ragged_outputs: the engine has a ragged tensor type for ``ragged=True`` outputs
            (:meth:`CoreContract.ragged_from_rows`).
        host_reads_sync: reading a tensor's values on the host waits for the device (the native engine on
            CuPy). The front end then skips the optional reads it makes in eager steps (Adam's step count read
            to compute its powers on the host, ...), so that an eager step never waits for the device for a
            shortcut; the range checks of labels and indices still read in eager code (a wait per checked
            tensor), and inside compiled steps only with ``hl.config.enable_index_checks()``.
        fused_recurrence: the engine's :meth:`FusedContract.lstm_sequence` is a faster kernel than the op-by-op
            loop (an eager engine whose steps no compiler fuses: native's hand-written kernel, aten's LSTM on
            PyTorch; on JAX one scan with the input product hoisted out and a hand-written backward scan): the
            ``LSTM`` layer then runs its time loop through it where the cell is the standard one.
        fused_attention: the engine's ``dot_product_attention`` is a fused kernel (PyTorch's
            ``scaled_dot_product_attention``), faster than the explicit scores, softmax and products:
            ``MultiHeadAttention`` then uses it where the scores are not returned and no dropout applies.
        layouts_set_on_first_use: the engine may choose a variable's memory layout when an op first uses it
            (PyTorch stores a dense kernel column-major on its first ``dense``). What is made to match a variable's
            layout (an optimizer's slots, a data-parallel wrapper's gradient buckets) must then be made after a
            first forward pass: the first ``fit`` of a built model runs one before it builds the optimizer, where
            another engine builds the loss and metrics from stand-ins of the outputs without any.
    """

    supports_float64: bool = True
    supports_bfloat16: bool = True
    supports_jit: bool = False
    stateless_step: bool = False
    supports_gpu: bool = False
    distributed: bool = False
    compiled_step_takes_host_arrays: bool = False
    host_reads_sync: bool = False
    fused_recurrence: bool = False
    fused_attention: bool = False
    layouts_set_on_first_use: bool = False
    supports_sparse_outputs: bool = False
    supports_ragged_outputs: bool = False


class CoreContract(abc.ABC):
    """Tensors, variables, devices, autodiff and seeded random of one engine."""

    #: registry name, e.g. ``"native"``
    name = None
    #: the pip extra that installs this engine's framework, e.g. ``"jax"`` (``None``: nothing needed)
    pip_extra = None
    capabilities = Capabilities()

    # ----------------------------------------------------------------- tensors
    @abc.abstractmethod
    def convert_to_tensor(self, x, dtype=None):
        """Returns ``x`` (tensor, Variable, numpy array, Python scalar or nested list) as a tensor.

        Without ``dtype``: floats become :func:`floatx`, Python ints ``int32``, bools ``bool``;
        numpy arrays keep their dtype, except float64 arrays which stay float64.
        """

    def borrow_host_array(self, x):
        """``x`` (a numpy array) as a tensor that may share its buffer, for data nothing changes while in use.

        The trainer's ``evaluate`` and ``predict`` pass slices of the user's in-memory arrays this way. The
        default is :meth:`convert_to_tensor`; the native engine, whose conversion copies, shares the buffer
        read-only instead.
        """
        return self.convert_to_tensor(x)

    def sparse_from_dense(self, x):
        """The engine's sparse tensor holding the nonzero entries of ``x`` (a dense tensor or numpy array), in
        row-major order; only where ``capabilities.supports_sparse_outputs``."""
        raise NotImplementedError(f"The {self.name} backend has no sparse tensor type.")

    def ragged_from_rows(self, values, row_lengths):
        """The engine's ragged tensor whose row ``i`` holds the next ``row_lengths[i]`` entries of the flat
        ``values`` (numpy arrays); only where ``capabilities.supports_ragged_outputs``."""
        raise NotImplementedError(f"The {self.name} backend has no ragged tensor type.")

    @abc.abstractmethod
    def to_numpy(self, x):
        """Returns a numpy array holding ``x`` (a host copy where the tensor lives on a device)."""

    @abc.abstractmethod
    def is_tensor(self, x):
        """True for this engine's tensor type (not for numpy arrays or Variables)."""

    @abc.abstractmethod
    def cast(self, x, dtype):
        """Returns ``x`` converted to ``dtype`` (a dtype name); differentiable between float dtypes."""

    @abc.abstractmethod
    def shape(self, x):
        """The static shape as a tuple of Python ints."""

    @abc.abstractmethod
    def dtype(self, x):
        """The dtype as a canonical string (``"float32"``, ``"int64"``, ...)."""

    def ndim(self, x):
        return len(self.shape(x))

    def size(self, x):
        n = 1
        for d in self.shape(x):
            n *= d
        return n

    def zeros(self, shape, dtype=None):
        """A tensor of zeros; ``dtype`` defaults to floatx."""
        from . import dtypes

        return self.full(shape, 0, dtype if dtype is not None else dtypes.floatx())

    def ones(self, shape, dtype=None):
        """A tensor of ones; ``dtype`` defaults to floatx."""
        from . import dtypes

        return self.full(shape, 1, dtype if dtype is not None else dtypes.floatx())

    @abc.abstractmethod
    def full(self, shape, fill_value, dtype=None):
        """A tensor filled with ``fill_value``; ``dtype`` defaults to the promotion of the fill value."""

    def zeros_like(self, x, dtype=None):
        return self.zeros(self.shape(x), dtype or self.dtype(x))

    def ones_like(self, x, dtype=None):
        return self.ones(self.shape(x), dtype or self.dtype(x))

    def full_like(self, x, fill_value, dtype=None):
        return self.full(self.shape(x), fill_value, dtype or self.dtype(x))

    @abc.abstractmethod
    def arange(self, start, stop=None, step=1, dtype=None):
        """Like ``numpy.arange``; ``dtype`` defaults to int32 for integer arguments, floatx otherwise."""

    def eye(self, N, M=None, k=0, dtype=None):
        """A 2-D tensor with ones on the ``k``-th diagonal."""
        from . import dtypes

        M = N if M is None else M
        rows = self.expand_dims(self.arange(N, dtype="int32"), 1)
        cols = self.expand_dims(self.arange(M, dtype="int32"), 0)
        return self.cast(self.equal(self.subtract(cols, rows), k), dtype if dtype is not None else dtypes.floatx())

    def linspace(self, start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
        """``num`` evenly spaced values from ``start`` to ``stop``, as ``numpy.linspace``.

        ``start`` and ``stop`` are numbers or tensors (broadcast together); the samples lie along a new axis
        ``axis`` (a non-negative int) of the result. Computed in float64 (where supported) as ``start + i * step``,
        the last sample ``stop`` exactly when ``endpoint``; integer dtypes round down. ``dtype`` defaults to the
        promotion of ``start``, ``stop`` and a Python float. With ``retstep``, returns ``(samples, step)``, the step
        in the float dtype of the samples (NaN when there is no interval: ``num`` of 1 with the endpoint, or 0).
        """
        import numpy as np

        from . import dtypes

        def node(v):
            if isinstance(v, (bool, int, float)) and not isinstance(v, np.generic):
                return type(v)
            return dtypes.standardize_dtype(
                np.asarray(v).dtype if isinstance(v, (list, tuple, np.ndarray, np.generic)) else self.dtype(v)
            )

        if dtype is None:
            dtype = dtypes.result_type(node(start), node(stop), float)
        work = "float64" if self.capabilities.supports_float64 else "float32"
        ends = [
            self.convert_to_tensor(v, work)
            if isinstance(v, (bool, int, float)) and not isinstance(v, np.generic)
            else self.cast(self.convert_to_tensor(v), work)
            for v in (start, stop)
        ]
        shape = tuple(np.broadcast_shapes(self.shape(ends[0]), self.shape(ends[1])))
        start_t, stop_t = (self.broadcast_to(v, shape) for v in ends)
        div = (num - 1) if endpoint else num
        steps = self.reshape(self.cast(self.arange(num, dtype="int32"), work), (num,) + (1,) * len(shape))
        delta = self.subtract(stop_t, start_t)
        step = self.divide(delta, div) if div > 0 else self.full(shape, float("nan"), work)
        values = self.add(start_t, self.multiply(steps, step if div > 0 else delta))
        if endpoint and num > 1:  # the last value is ``stop`` exactly, as numpy's
            values = self.where(self.equal(steps, num - 1), stop_t, values)
        if dtype not in dtypes.FLOAT_DTYPES:
            values = self.floor(values)
        values = self.cast(values, dtype)
        if axis != 0:
            values = self.moveaxis(values, 0, axis)
        if retstep:
            return values, self.cast(step, dtype if dtype in dtypes.FLOAT_DTYPES else dtypes.floatx())
        return values

    @abc.abstractmethod
    def stop_gradient(self, x):
        """``x`` as a constant for differentiation."""

    @abc.abstractmethod
    def copy(self, x):
        """A new tensor with the same values."""

    # --------------------------------------------------------------- variables
    def create_variable(self, value, dtype=None, trainable=True, name=None):
        """Returns a :class:`Variable` initialised from ``value`` (cast to ``dtype`` if given)."""
        return Variable(value, dtype=dtype, trainable=trainable, name=name, backend=self)

    def interop_base_class(self, kind):
        """The class of this engine's own object system that a highlevel ``kind`` of object also becomes, or None.

        ``kind`` is ``"layer"`` (every :class:`~highlevel.layers.Layer` and model) or ``"variable"``
        (:class:`Variable`). An engine that returns a class here makes each new object of that kind an instance of
        a subclass of both the user's class and this one (same name, module and methods; saving names the user's
        class), so that the framework's own tools accept it: PyTorch's ``torch.nn.Module`` (``parameters()``,
        ``state_dict()``, ``torch.optim``), TensorFlow's trackable objects (``tf.GradientTape``,
        ``tf.train.Checkpoint``). If the class has a ``_hl_prepare_instance(obj)`` classmethod, it runs on each new
        object before ``__init__`` (``torch.nn.Module.__init__``, for instance). The default: None, no base.
        """
        return None

    def door_op(self, name):
        """The callable that the front door runs for op ``name`` (a method of this contract) on concrete tensors.

        An engine may return a compiled version of the method here (JAX: one XLA program per op and signature,
        instead of one per primitive); it must compute the same values. The default: the method itself.

        >>> from highlevel.backends.native import NativeBackend
        >>> b = NativeBackend()
        >>> b.door_op("add") == b.add
        True
        """
        return getattr(self, name)

    def door_composite(self, name, fn):
        """The callable that runs ``fn``, a public op written from other ops (``highlevel.ops._door.composite``).

        ``name`` keys the engine's compiled forms of it. An engine may compile the whole function (JAX: one
        program per signature), or look ``name`` up in a table of its own kernels for the same op and run one of
        them where it computes what ``fn`` computes (TensorFlow: ``ImageProjectiveTransformV3`` for
        ``"image.affine_transform"``), falling back to ``fn`` for the arguments it does not cover, so that
        argument errors stay ``fn``'s own; the default runs ``fn`` itself, op by op.

        >>> from highlevel.backends.native import NativeBackend
        >>> f = lambda x: x
        >>> NativeBackend().door_composite("identity", f) is f
        True
        """
        return fn

    def jax_functions(self):
        """Tools to run functions written for JAX inside a layer (``JaxLayer``), or None on an engine that cannot.

        An engine that runs JAX code returns an object with ``tree_map(fn, tree)``, ``tree_leaves(tree)`` (JAX's
        pytrees), ``prng_key(seed)`` (a JAX key from a ``[seed, counter]`` tensor of a ``SeedGenerator``) and
        ``output_spec(fn, shapes, dtypes)`` (the output shapes and dtypes of ``fn`` for inputs of those shapes,
        ``None`` for an unknown size, without running it). The default: None.
        """
        return None

    def load_saved_model(self, filepath, endpoints):
        """Loads a TensorFlow SavedModel for :class:`~highlevel.layers.TFSMLayer`.

        Returns an object with ``functions`` (one callable per name in ``endpoints``, an attribute of the loaded
        object or one of its signatures), ``variables`` (the highlevel variables that share the SavedModel's own
        variables) and ``output_spec(fn, inputs)`` (for symbolic ``inputs``: a structure of objects with ``shape``
        and ``dtype``). Only an engine that runs TensorFlow graphs has it; the default refuses clearly.
        """
        raise ValueError(
            f"Loading a TensorFlow SavedModel as a layer (TFSMLayer) needs the tensorflow backend; the current "
            f"backend is {getattr(self, 'name', type(self).__name__)!r}. Run it with HIGHLEVEL_BACKEND=tensorflow or "
            "inside highlevel.config.backend_scope('tensorflow')."
        )

    def framework_module_class(self):
        """The class of this engine's own modules that a highlevel layer can wrap (``TorchModuleWrapper``:
        ``torch.nn.Module``), or None when the engine has none. The default: None."""
        return None

    def framework_module_variables(self, module):
        """Variables around ``module``'s own state (the same objects, not copies): its trainable parameters and its
        other state (buffers, frozen parameters) as non-trainable ones, each named as the module names it."""
        raise NotImplementedError(f"The {self.name} engine has no modules of its own to wrap.")

    def rebind_framework_module_variables(self, module, variables):
        """Points the :meth:`framework_module_variables` of ``module`` at its current state again, after the engine
        replaced some of its tensors (a move to another device or dtype)."""
        raise NotImplementedError(f"The {self.name} engine has no modules of its own.")

    def call_framework_module(self, module, args, kwargs, training):
        """Runs ``module(*args, **kwargs)`` in training mode when ``training`` is true, in inference mode else."""
        raise NotImplementedError(f"The {self.name} engine has no modules of its own to run.")

    def framework_module_to_text(self, module):
        """``module`` (architecture and state) as text for a saved configuration: the engine's own serialization,
        which runs code when read back (so reading it needs the caller's consent)."""
        raise NotImplementedError(f"The {self.name} engine has no modules of its own to save.")

    def framework_module_from_text(self, text):
        """The module :meth:`framework_module_to_text` wrote."""
        raise NotImplementedError(f"The {self.name} engine has no modules of its own to load.")

    def set_variable_trainable(self, handle, trainable):
        """Called when a variable's ``trainable`` changes (a layer frozen or unfrozen): an engine whose autodiff
        keeps a per-object flag (PyTorch's ``requires_grad``, the native tape's) stops or resumes computing that
        weight's gradient. Engines that differentiate only what a step asks for need nothing: the default."""

    @abc.abstractmethod
    def make_variable_handle(self, tensor, trainable):
        """The engine's mutable object holding a copy of ``tensor``."""

    @abc.abstractmethod
    def read_variable(self, handle):
        """The handle's current value as a tensor (differentiable where the engine tracks variables)."""

    @abc.abstractmethod
    def assign_variable(self, handle, value):
        """Writes ``value`` into the handle in place; raises ValueError on a shape mismatch."""

    def assign_add_variable(self, handle, delta):
        """Adds ``delta`` to the handle's value in place: ``assign_variable(handle, add(value, delta))``, the sum
        promoted as ``add`` promotes, then cast to the variable's dtype. An engine with an in-place add
        overrides it for the common case (a ``delta`` of the variable's dtype), one call instead of two."""
        self.assign_variable(handle, self.add(self.read_variable(handle), delta))

    # ----------------------------------------------------------------- devices
    @abc.abstractmethod
    def devices(self):
        """The device names this engine can place tensors on, e.g. ``["cpu:0"]``."""

    @abc.abstractmethod
    def default_device(self):
        """The device new tensors go to."""

    @abc.abstractmethod
    def device_scope(self, device):
        """A context manager placing new tensors on ``device`` (a name from :meth:`devices`)."""

    @abc.abstractmethod
    def to_device(self, x, device):
        """``x`` moved to ``device``."""

    # ---------------------------------------------------------------- autodiff
    @abc.abstractmethod
    def value_and_grad(self, fn, argnums=0, has_aux=False):
        """Returns a function computing ``fn``'s value and its gradient.

        ``fn`` takes tensors (or nested lists/tuples/dicts of tensors) and returns a scalar tensor (or
        ``(scalar, aux)`` with ``has_aux``). The returned function gives ``(value, grads)`` or
        ``((value, aux), grads)``; ``grads`` mirrors the structure of the argument(s) at ``argnums``
        (an int or a tuple of ints). Integer inputs get no gradient (``None``).

        ``argnums``: an int or a tuple of distinct ints, as the front door passes it (checked there with
        :func:`standardize_argnums`). An engine reads it with :func:`standardize_argnums` and, at each call, checks
        it against the call's arguments with :func:`argnums_positions`: the errors are worded there, once."""

    def grad(self, fn, argnums=0, has_aux=False):
        """Like :meth:`value_and_grad`, returning only the gradient (and aux)."""
        vg = self.value_and_grad(fn, argnums=argnums, has_aux=has_aux)

        def g(*args):
            value, grads = vg(*args)
            return (grads, value[1]) if has_aux else grads

        return g

    # ------------------------------------------------------------------ random
    # ``seed`` is a pair of uint32 values: a tuple of two Python ints or an integer tensor of shape
    # (2,). The same seed gives the same draw within one engine; engines use their own generators.
    @abc.abstractmethod
    def random_normal(self, shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
        """Normal draws."""

    @abc.abstractmethod
    def random_uniform(self, shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
        """Uniform draws in ``[minval, maxval)``."""

    @abc.abstractmethod
    def random_truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
        """Normal draws, redrawn until within two standard deviations of the mean."""

    @abc.abstractmethod
    def random_randint(self, shape, minval, maxval, dtype="int32", seed=None):
        """Integers in ``[minval, maxval)``."""

    @abc.abstractmethod
    def random_shuffle(self, x, axis=0, seed=None):
        """``x`` permuted along ``axis``."""

    def random_dropout(self, inputs, rate, noise_shape=None, seed=None):
        """Zeros each element with probability ``rate`` and scales the rest by ``1 / (1 - rate)``."""
        if not 0 <= rate < 1:
            raise ValueError(f"dropout rate must be in [0, 1); received rate={rate}.")
        inputs = self.convert_to_tensor(inputs)
        if rate == 0:
            return inputs
        shape = noise_shape if noise_shape is not None else self.shape(inputs)
        shape = tuple(s if s is not None else d for s, d in zip(shape, self.shape(inputs)))
        keep = self.greater_equal(self.random_uniform(shape, dtype=self.dtype(inputs), seed=seed), rate)
        scaled = self.divide(inputs, self.convert_to_tensor(1.0 - rate, self.dtype(inputs)))
        return self.where(keep, scaled, self.zeros_like(inputs))


__all__ = ["Capabilities", "CoreContract", "Variable"]
