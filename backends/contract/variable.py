"""The one Variable type that user code sees, whatever the backend.

A backend makes variables through :meth:`Backend.create_variable`; the handle inside is the backend's
own mutable state (a leaf Tensor on native, a ``torch.nn.Parameter``, a ``tf.Variable``, a slot holding
a JAX array). Ops accept a Variable anywhere they accept a tensor: every backend unwraps it with
:attr:`Variable.value` when it converts its inputs.

>>> import highlevel as hl
>>> v = hl.Variable([1.0, 2.0], name="v")
>>> v.assign([3.0, 4.0]).numpy().tolist()
[3.0, 4.0]
"""

import itertools

_uid = itertools.count()


class Variable:
    """A named, mutable tensor owned by one backend (``keras.Variable``'s counterpart).

    Args:
        initializer: the initial value (tensor, array, scalar, nested list) or a callable
            ``initializer(shape, dtype)`` returning it.
        shape: the shape to pass to a callable initializer.
        dtype: the dtype; defaults to that of the value (floatx for Python floats).
        trainable: whether optimizers update it.
        name: a readable name.
        backend: the engine that holds it; defaults to the current backend.
    """

    __slots__ = ("_backend", "_handle", "trainable", "name", "_uid", "__weakref__")
    __array_priority__ = 100  # numpy defers binary operators to ours
    #: set by the front end: returns the current backend (the contract does not know the config)
    _default_backend = None

    def __init__(self, initializer, shape=None, dtype=None, trainable=True, name=None, backend=None):
        backend = backend if backend is not None else type(self)._default_backend()
        if callable(initializer):
            if shape is None:
                raise ValueError(
                    f"A callable initializer needs a shape; received shape=None for Variable {name!r}. "
                    "Pass shape=(...) or an initial value instead."
                )
            initializer = initializer(tuple(shape), dtype)
        tensor = backend.convert_to_tensor(initializer, dtype=dtype)
        if shape is not None and tuple(backend.shape(tensor)) != tuple(shape):
            raise ValueError(
                f"Variable {name!r}: the initial value has shape {tuple(backend.shape(tensor))}, "
                f"expected shape {tuple(shape)}."
            )
        self._backend = backend
        self._handle = backend.make_variable_handle(tensor, trainable)
        self.trainable = bool(trainable)
        self._uid = next(_uid)
        self.name = name if name is not None else f"variable_{self._uid}"

    @property
    def backend(self):
        return self._backend

    @property
    def handle(self):
        """The backend's own mutable object (leaf Tensor, Parameter, tf.Variable, ...)."""
        return self._handle

    @property
    def value(self):
        """The current value as a backend tensor (differentiable where the backend tracks it)."""
        return self._backend.read_variable(self._handle)

    def assign(self, value):
        """Writes ``value`` (same shape; cast to this variable's dtype) and returns ``self``."""
        self._backend.assign_variable(self._handle, value)
        return self

    def assign_add(self, delta):
        return self.assign(self._backend.add(self.value, delta))

    def assign_sub(self, delta):
        return self.assign(self._backend.subtract(self.value, delta))

    def numpy(self):
        return self._backend.to_numpy(self.value)

    @property
    def shape(self):
        return self._backend.shape(self.value)

    @property
    def dtype(self):
        return self._backend.dtype(self.value)

    @property
    def ndim(self):
        return len(self.shape)

    def __array__(self, dtype=None, copy=None):
        a = self.numpy()
        return a.astype(dtype) if dtype is not None else a

    def __repr__(self):
        return f"<Variable {self.name!r} shape={self.shape} dtype={self.dtype} backend={self._backend.name}>"

    def __len__(self):
        return self.shape[0]

    def __getitem__(self, idx):
        return self.value[idx]

    # Arithmetic goes through the owning backend's ops, so it follows the promotion table.
    def __add__(self, o): return self._backend.add(self, o)
    def __radd__(self, o): return self._backend.add(o, self)
    def __sub__(self, o): return self._backend.subtract(self, o)
    def __rsub__(self, o): return self._backend.subtract(o, self)
    def __mul__(self, o): return self._backend.multiply(self, o)
    def __rmul__(self, o): return self._backend.multiply(o, self)
    def __truediv__(self, o): return self._backend.divide(self, o)
    def __rtruediv__(self, o): return self._backend.divide(o, self)
    def __matmul__(self, o): return self._backend.matmul(self, o)
    def __rmatmul__(self, o): return self._backend.matmul(o, self)
    def __pow__(self, o): return self._backend.power(self, o)
    def __neg__(self): return self._backend.negative(self)
    def __lt__(self, o): return self._backend.less(self, o)
    def __le__(self, o): return self._backend.less_equal(self, o)
    def __gt__(self, o): return self._backend.greater(self, o)
    def __ge__(self, o): return self._backend.greater_equal(self, o)
