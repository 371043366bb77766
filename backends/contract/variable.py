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
import threading

_uid = itertools.count()


class _Scopes(threading.local):
    def __init__(self):
        self.stack = []


#: Active stateless scopes (innermost last). While one is active, reading a variable it maps returns the
#: mapped value and assigning records the new value in the scope instead of changing the variable: this is
#: how pure functions of the weights (JAX steps, gradients w.r.t. weights) are built from stateful layers.
_scopes = _Scopes()


class StatelessScope:
    """Substitutes variable values for a block, and collects the block's assignments instead of making them.

    ``keras.StatelessScope``'s counterpart: reading a mapped variable inside the block gives the mapped value,
    assigning any variable records the new value in the scope (:meth:`get_current_value` reads it back, and
    :attr:`assigned` maps ``id(variable)`` to ``(variable, value)``) and leaves the variable itself untouched.

    Args:
        state_mapping: a dict ``{variable: value}`` or a list of ``(variable, value)`` pairs. A value may be a
            tensor, an array, a number or another variable (whose current value is used); anything but a tensor
            is converted to the variable's dtype and must have its shape.
        collect_losses: kept for Keras's signature; losses added in the block stay on their layers here.
        initialize_variables: kept for Keras's signature; variables are created with their values here.

    Raises:
        ValueError: ``state_mapping`` is not a dict or a list of ``(variable, value)`` pairs.

    >>> import highlevel as hl
    >>> v = hl.Variable([1.0, 2.0])
    >>> with hl.StatelessScope([(v, [10.0, 20.0])]) as scope:
    ...     _ = v.assign(v * 2.0)
    >>> hl.ops.convert_to_numpy(scope.get_current_value(v)).tolist(), v.numpy().tolist()
    ([20.0, 40.0], [1.0, 2.0])
    """

    #: True in a :class:`SymbolicScope`: assignments are dropped (their values may be symbolic).
    symbolic = False

    def __init__(self, state_mapping=None, collect_losses=False, initialize_variables=True):
        pairs = state_mapping.items() if isinstance(state_mapping, dict) else (state_mapping or ())
        self.values = {}
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2 or not isinstance(pair[0], Variable):
                raise ValueError(
                    f"StatelessScope(state_mapping=...) takes a dict {{variable: value}} or a list of "
                    f"(variable, value) pairs; received the item {pair!r}."
                )
            self.values[id(pair[0])] = _scope_value(pair[0], pair[1])
        self.assigned = {}
        self.collect_losses = bool(collect_losses)
        self.initialize_variables = bool(initialize_variables)
        #: Losses given to :meth:`add_loss` (Keras's attribute).
        self.losses = []

    def add_loss(self, loss):
        """Records ``loss`` in :attr:`losses`."""
        self.losses.append(loss)

    def add_update(self, update):
        """Records ``update = (variable, value)`` as the variable's value in this scope (as an assignment would)."""
        variable, value = update
        self.values[id(variable)] = value
        self.assigned[id(variable)] = (variable, value)

    def get_current_value(self, variable):
        """The value ``variable`` has in this scope (mapped or assigned inside it), or None when it has none."""
        return self.values.get(id(variable))

    def __enter__(self):
        _scopes.stack.append(self)
        return self

    def __exit__(self, *exc):
        _scopes.stack.pop()
        return False


def _scope_value(variable, value):
    """``value`` as ``variable``'s value in a scope: a tensor as it is (the hot path: traced step values), anything
    else (a variable, an array, a nested list) converted to the variable's dtype and checked against its shape."""
    backend = variable._backend
    if isinstance(value, Variable):
        value = value.value
    elif backend.is_tensor(value):
        return value
    value = backend.cast(backend.convert_to_tensor(value), variable.dtype)
    if tuple(backend.shape(value)) != tuple(variable.shape):
        raise ValueError(
            f"StatelessScope: the value given for variable '{variable.path}' has shape "
            f"{tuple(backend.shape(value))}, but the variable's shape is {tuple(variable.shape)}; pass one value of "
            "the variable's shape per variable."
        )
    return value


class SymbolicScope(StatelessScope):
    """A block that computes shapes and dtypes only, as when a layer is called on symbolic inputs.

    Reads see the variables' current values and assignments are dropped, whatever they assign, as in Keras 3, so
    that a layer that updates its state in ``call`` can be part of a model built from ``Input``.

    Args:
        state_mapping: optional ``{variable: value}`` substitutions, as for :class:`StatelessScope`.
        collect_losses: kept for Keras's signature.
        initialize_variables: kept for Keras's signature.

    Raises:
        ValueError: ``state_mapping`` is not a dict or a list of ``(variable, value)`` pairs.

    >>> import highlevel as hl
    >>> v = hl.Variable([1.0, 2.0])
    >>> with hl.SymbolicScope():
    ...     _ = v.assign([5.0, 5.0])
    >>> v.numpy().tolist()
    [1.0, 2.0]
    """

    symbolic = True


_AGGREGATIONS = frozenset({"none", "mean", "sum", "only_first_replica"})
_SYNCHRONIZATIONS = frozenset({"none", "on_write", "on_read", "auto"})


class Variable:
    """A named, mutable tensor owned by one engine (``keras.Variable``'s counterpart): a weight or a state.

    Layers create theirs with ``add_weight``; optimizers update trainable ones with ``assign``/``assign_sub``. A
    variable can be used wherever a tensor is (arithmetic, ops); ``numpy()`` copies its value to the host and
    ``handle`` is the engine's own object (a ``torch.nn.Parameter`` on PyTorch, a resource tensor on TensorFlow).

    Args:
        initializer: the initial value (tensor, array, scalar, nested list) or a callable
            ``initializer(shape, dtype)`` returning it (an initializer object or name's instance).
        shape: the shape to pass to a callable initializer (required then); otherwise, if given, it must match the
            value's shape.
        dtype: the dtype; default that of the value (floatx for Python floats).
        trainable: whether optimizers update it (default True).
        autocast: if False, it is read in its own dtype inside a mixed-precision layer (Keras's meaning).
        aggregation: how replicas would combine its updates: ``"none"`` (default), ``"mean"``, ``"sum"`` or
            ``"only_first_replica"``; checked and kept (the distribution decides here).
        synchronization: ``"auto"`` (default), ``"none"``, ``"on_write"`` or ``"on_read"``; checked and kept.
        name: a readable name (default ``"variable"``); its ``path`` adds the enclosing name scopes.
        layout: Keras's argument, accepted; layouts come from the distribution's ``LayoutMap`` here.
        backend: the engine that holds it; default the current backend.

    Raises:
        ValueError: an unknown ``aggregation`` or ``synchronization``; a callable initializer without ``shape``;
            or a value whose shape differs from ``shape``.

    >>> import highlevel as hl
    >>> v = hl.Variable([1.0, 2.0], name="w")
    >>> v.name, v.shape, v.dtype, v.trainable
    ('w', (2,), 'float32', True)
    >>> _ = v.assign_sub([0.5, 0.5])
    >>> v.numpy().tolist()
    [0.5, 1.5]
    >>> hl.Variable(hl.initializers.Ones(), shape=(2, 2), dtype="int32").numpy().tolist()
    [[1, 1], [1, 1]]
    """

    __slots__ = (
        "_backend",
        "_handle",
        "_trainable",
        "_made_trainable",
        "name",
        "path",
        "constraint",
        "regularizer",
        "_uid",
        "autocast",
        "aggregation",
        "synchronization",
        "_overwrite_with_gradient",
        "__weakref__",
    )
    __array_priority__ = 100  # numpy defers binary operators to ours
    #: set by the front end: returns the current backend (the contract does not know the config)
    _default_backend = None
    #: set by the front end: returns the path of a variable called ``name`` (its enclosing name scopes in front)
    _path_of = None

    def __new__(cls, *args, backend=None, **kwargs):
        from .interop import new_instance

        # On an engine whose tools need variables of their own kind (TensorFlow's tape), the variable is also one.
        return new_instance(cls, backend if backend is not None else cls._default_backend(), "variable")

    def __init__(
        self,
        initializer,
        shape=None,
        dtype=None,
        trainable=True,
        autocast=True,
        aggregation="none",
        synchronization="auto",
        name=None,
        layout=None,
        backend=None,
    ):
        # Keras's distribution arguments: kept for the code that reads them back. How a variable is combined
        # across replicas is decided by the distribution here, not per variable.
        if aggregation not in _AGGREGATIONS:
            raise ValueError(
                f"Variable {name!r}: aggregation must be one of {sorted(_AGGREGATIONS)}; received {aggregation!r}."
            )
        if synchronization not in _SYNCHRONIZATIONS:
            raise ValueError(
                f"Variable {name!r}: synchronization must be one of {sorted(_SYNCHRONIZATIONS)}; "
                f"received {synchronization!r}."
            )
        self.autocast, self.aggregation, self.synchronization = bool(autocast), aggregation, synchronization
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
        self._trainable = self._made_trainable = bool(trainable)
        self._uid = next(_uid)
        self.name = name if name is not None else f"variable_{self._uid}"
        path_of = type(self)._path_of
        self.path = path_of(self.name) if path_of is not None else self.name  # a layer sets "layer/variable"
        self.constraint = None  # applied by optimizers after each update
        self.regularizer = None

    @classmethod
    def _around_handle(cls, handle, *, backend, trainable, name):
        """A variable whose handle is ``handle``, an object of the engine that exists already (a parameter of an
        engine's own module): reads and assignments go to that very object, no copy is made."""
        self = object.__new__(cls)
        self._backend = backend
        self._handle = handle
        self._trainable = self._made_trainable = bool(trainable)
        self.autocast, self.aggregation, self.synchronization = True, "none", "auto"
        self._uid = next(_uid)
        self.name = name
        path_of = cls._path_of
        self.path = path_of(name) if path_of is not None else name
        self.constraint = None
        self.regularizer = None
        return self

    @property
    def trainable(self):
        """Whether training updates this variable.

        Setting it also tells the engine's own object (PyTorch's ``requires_grad``, the native engine's tape), so
        that no gradient is computed for a frozen weight; a layer's ``trainable = False`` sets it on every
        weight the layer made trainable, as in Keras 3.
        """
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)
        self._backend.set_variable_trainable(self._handle, self._trainable)

    @property
    def backend(self):
        return self._backend

    @property
    def overwrite_with_gradient(self):
        """Whether an optimizer step replaces this variable's value with its gradient instead of applying an
        update rule (no learning rate, clipping or weight decay), as Keras does for float8 scaling factors
        whose new values are computed as their "gradients". Default False."""
        return getattr(self, "_overwrite_with_gradient", False)

    @overwrite_with_gradient.setter
    def overwrite_with_gradient(self, value):
        if not isinstance(value, bool):
            raise TypeError(
                f"`overwrite_with_gradient` must be a bool; received {value!r} of type {type(value).__name__}. "
                "Pass True or False."
            )
        self._overwrite_with_gradient = value

    @property
    def handle(self):
        """The backend's own mutable object (leaf Tensor, Parameter, ...). On TensorFlow, where a variable acts as a
        resource variable for the tape, it is the resource tensor of the ``tf.Variable`` (backend code reads the
        ``tf.Variable`` itself from ``_handle``)."""
        return self._handle

    @property
    def value(self):
        """The current value as a backend tensor (differentiable where the backend tracks it)."""
        stack = _scopes.stack
        if stack:
            key = id(self)
            for scope in reversed(stack):  # innermost scope that maps this variable wins
                v = scope.values.get(key)
                if v is not None:
                    return v
        return self._backend.read_variable(self._handle)

    def assign(self, value):
        """Writes ``value`` (same shape; cast to this variable's dtype) and returns ``self``."""
        if _scopes.stack:
            scope = _scopes.stack[-1]
            if scope.symbolic:
                return self
            value = self._backend.cast(self._backend.convert_to_tensor(value), self.dtype)
            if tuple(self._backend.shape(value)) != tuple(self.shape):
                raise ValueError(
                    f"Cannot assign a value of shape {tuple(self._backend.shape(value))} to variable "
                    f"'{self.path}' of shape {tuple(self.shape)}."
                )
            scope.values[id(self)] = value
            scope.assigned[id(self)] = (self, value)
            return self
        self._backend.assign_variable(self._handle, value)
        return self

    def assign_add(self, delta):
        """Adds ``delta`` (the sum cast to this variable's dtype) and returns ``self``; in place where the engine
        has an in-place add (one engine call instead of an add and an assign)."""
        if _scopes.stack:
            if _scopes.stack[-1].symbolic:
                return self
            return self.assign(self._backend.add(self.value, delta))
        self._backend.assign_add_variable(self._handle, delta)
        return self

    def assign_sub(self, delta):
        if _scopes.stack and _scopes.stack[-1].symbolic:
            return self
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

    def __jax_array__(self):
        # `jax_array * variable` converts the variable through this protocol: its (possibly traced) value, so
        # gradients and jit tracing see it, instead of a numpy copy through __array__.
        return self.value

    def __repr__(self):
        return f"<Variable {self.name!r} shape={self.shape} dtype={self.dtype} backend={self._backend.name}>"

    def __len__(self):
        return self.shape[0]

    def __getitem__(self, idx):
        return self.value[idx]

    # Arithmetic goes through the owning backend's ops, so it follows the promotion table.
    def __add__(self, o):
        return self._backend.add(self, o)

    def __radd__(self, o):
        return self._backend.add(o, self)

    def __sub__(self, o):
        return self._backend.subtract(self, o)

    def __rsub__(self, o):
        return self._backend.subtract(o, self)

    def __mul__(self, o):
        return self._backend.multiply(self, o)

    def __rmul__(self, o):
        return self._backend.multiply(o, self)

    def __truediv__(self, o):
        return self._backend.divide(self, o)

    def __rtruediv__(self, o):
        return self._backend.divide(o, self)

    def __matmul__(self, o):
        return self._backend.matmul(self, o)

    def __rmatmul__(self, o):
        return self._backend.matmul(o, self)

    def __pow__(self, o):
        return self._backend.power(self, o)

    def __neg__(self):
        return self._backend.negative(self)

    def __lt__(self, o):
        return self._backend.less(self, o)

    def __le__(self, o):
        return self._backend.less_equal(self, o)

    def __gt__(self, o):
        return self._backend.greater(self, o)

    def __ge__(self, o):
        return self._backend.greater_equal(self, o)
