"""The Layer base class: lazy building, weights, tracking, the training flag, losses and configs.

Layers in ``highlevel.layers`` subclass it and use only ``highlevel.ops``.

>>> import highlevel as hl
>>> class Scale(hl.layers.Layer):
...     def build(self, input_shape):
...         self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")
...     def call(self, x):
...         return x * self.w
>>> layer = Scale()
>>> y = layer(hl.ops.ones((2, 3)))
>>> [w.path for w in layer.weights], layer.built
(['scale/w'], True)
"""

import collections.abc
import contextlib
import functools
import inspect
import numbers
import threading
import weakref

from highlevel.backends.contract import StatelessScope, SymbolicScope, Variable, tree
from highlevel.backends.contract import dtypes as _dtypes
from highlevel.backends.contract.interop import front_class, new_instance
from highlevel.backends.contract.variable import _scopes as _variable_scopes
from highlevel.config import current_backend

from . import naming
from . import pipeline as _pipeline
from .host_text import is_text
from .input_spec import InputSpec, assert_input_compatibility
from .keras_tensor import KerasTensor, any_symbolic
from .masking import get_keras_mask, set_keras_mask
from .name_scoping import current_path as current_name_scope
from .node import Node
from .symbolic_exec import engine_output_spec as _engine_output_spec

# Attributes that hold bookkeeping, not sub-layers or weights of the layer itself.
# caches and graph records are not tracked children
_NOT_TRACKED = frozenset(
    {
        "_inbound_nodes",
        "_losses",
        "input_spec",
        "_build_shapes",
        "_layers_cache",
        "_trainable_cache",
        "_train_function_trainable",
        "_build_call",
    }
)
_FLOAT_DTYPES = frozenset(_dtypes.FLOAT_DTYPES)


#: The layers whose ``_losses`` are not empty: a call that starts a forward pass clears its tree's losses, and
#: skips the walk when no layer anywhere holds one (the common case: no activity regularizers).
_holding_losses = weakref.WeakSet()


class _WalkCache(threading.local):
    cache = None


_walks = _WalkCache()


@contextlib.contextmanager
def layer_walk_cache():
    """Memoises layer-tree walks (``losses``, ``weights``, clearing losses, ...) inside the block.

    A training step walks the model's layer tree several times and cannot change it, so the trainer runs each
    step inside this block; outside it every walk sees the current structure.
    """
    if _walks.cache is not None:
        yield
        return
    _walks.cache = {}
    try:
        yield
    finally:
        _walks.cache = None


def _unique_names(pairs):
    """``(name, item)`` pairs with names a framework module system accepts (no dots) and unique (``_1``, ... added)."""
    out, used = [], set()
    for name, item in pairs:
        name = str(name).replace(".", "_") or "item"
        candidate, i = name, 0
        while candidate in used:
            i += 1
            candidate = f"{name}_{i}"
        used.add(candidate)
        out.append((candidate, item))
    return out


def _is_shape(s):
    """Whether ``s`` is one shape (a tuple of ints and Nones), not a structure of shapes."""
    return isinstance(s, tuple) and all(d is None or isinstance(d, int) for d in s)


#: Per thread: the layers whose compute_output_shape override is being asked for their output spec.
_declaring = threading.local()


def _collect(obj, kind, found, seen):
    """Appends to ``found`` every ``kind`` instance in ``obj`` and the lists, tuples and dicts below it (each
    once when ``seen`` is a set of ids). Module-level recursion: a nested self-calling closure would leave a
    reference cycle behind on every call."""
    if isinstance(obj, kind):
        if seen is None:
            found.append(obj)
        elif id(obj) not in seen:
            seen.add(id(obj))
            found.append(obj)
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            _collect(o, kind, found, seen)
    elif isinstance(obj, dict):
        for o in obj.values():
            _collect(o, kind, found, seen)


class _CallContext(threading.local):
    def __init__(self):
        self.depth = 0
        self.training = None


_context = _CallContext()


def _shape_of(x):
    if isinstance(x, (KerasTensor, Variable)):
        return tuple(x.shape)
    if hasattr(x, "shape"):
        # a size that is not a plain integer is symbolic (traced for export with a free batch size): unknown here
        return tuple(int(d) if isinstance(d, numbers.Integral) else None for d in x.shape)
    return None


def _dtype_of(x):
    if isinstance(x, (KerasTensor, Variable)):
        return x.dtype
    try:
        return current_backend().dtype(x)
    except Exception:
        return None


def _masks_of(inputs):
    """The masks attached to a call's inputs: one, a list (None where an input has none), or None for none."""
    if isinstance(inputs, (list, tuple)):
        masks = [get_keras_mask(x) for x in inputs]
        return masks if any(m is not None for m in masks) else None
    return None if isinstance(inputs, dict) else get_keras_mask(inputs)


def _attach_masks(outputs, masks):
    """Attaches ``compute_mask``'s result to the outputs: a list of masks to the outputs in order, one mask to the
    first output (as Keras does)."""
    if masks is None:
        return
    masks = list(masks) if isinstance(masks, (list, tuple)) else [masks]
    for output, mask in zip(tree.flatten(outputs)[0], masks):
        if mask is not None:
            set_keras_mask(output, mask)


def _recording_build(build):
    """``build`` that also remembers the arguments of its first call, for :meth:`Layer.get_build_config`."""

    @functools.wraps(build)
    def recording_build(self, *args, **kwargs):
        if getattr(self, "_build_call", None) is None and (args or kwargs):
            self._build_call = (args, kwargs)
        return build(self, *args, **kwargs)

    recording_build._records_build_call = True
    return recording_build


def _shapes_from_json(value):
    """Shapes as a build method expects them after a JSON round trip: a list of ints (or None) becomes a tuple,
    lists and dicts of shapes keep their structure."""
    if isinstance(value, (list, tuple)):
        if all(d is None or (isinstance(d, int) and not isinstance(d, bool)) for d in value):
            return tuple(value)
        return [_shapes_from_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _shapes_from_json(v) for k, v in value.items()}
    return value


class Layer:
    """The base class of every layer: a callable that holds state (weights) and computes with ``highlevel.ops``.

    A layer is called on tensors (``layer(x)``) and returns tensors. Subclasses create their weights with
    :meth:`add_weight` in ``build(input_shape)`` (called once, on the first call, with the input's shape) or
    in ``__init__`` when the shapes are known, and compute in ``call(inputs, ...)``. Sub-layers and variables
    assigned as attributes are tracked: their weights appear in the outer layer's ``weights``,
    ``trainable_weights`` and ``non_trainable_weights``. A ``call`` that takes a ``training`` argument
    receives the value given to the outermost call (``model(x, training=True)``) unless it is passed
    explicitly; the value passes through layers whose ``call`` does not take the argument (a subclassed model's
    ``call(self, x)``). Called on the symbolic tensors of :func:`~highlevel.Input`, a layer records a node of
    a functional model instead of computing. :meth:`get_config` lists the constructor arguments, so that
    saving can rebuild the layer.

    Args:
        trainable: whether the layer's weights are updated by training.
        dtype: the layer's dtype policy: a dtype name (``"float32"``), a mixed policy name
            (``"mixed_float16"``, ``"mixed_bfloat16"``: float32 weights, half-precision computations) or a
            :class:`~highlevel.mixed_precision.DTypePolicy`; default the global policy
            (:func:`highlevel.mixed_precision.set_dtype_policy`, ``floatx`` unless changed).
        autocast: whether float inputs are cast to the compute dtype and, under a mixed policy, the layer's
            float weights are read in the compute dtype inside ``call``.
        name: a unique name; generated from the class name when omitted.
        activity_regularizer: a regularizer applied to the layer's output (added to ``losses``).
        input_shape: the input shape without the batch axis, for the first layer of a Sequential model.
        input_dim: shorthand for ``input_shape=(input_dim,)``.

    Raises:
        TypeError: an unknown keyword argument is given (a misspelt argument name).
        ValueError: ``name`` is not a non-empty string, or ``dtype`` is not a dtype or policy name.

    >>> import highlevel as hl
    >>> class Scale(hl.Layer):
    ...     def build(self, input_shape):
    ...         self.factor = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="factor")
    ...     def call(self, inputs):
    ...         return inputs * self.factor
    >>> layer = Scale(name="scale")
    >>> y = layer(hl.ops.convert_to_tensor([[1.0, 2.0]]))
    >>> hl.ops.convert_to_numpy(y).tolist(), [w.name for w in layer.weights], layer.built
    ([[1.0, 2.0]], ['factor'], True)
    >>> layer.get_config()["name"]
    'scale'
    """

    #: The training mode set through an engine's own module API (``torch.nn.Module.train()``/``eval()``), which calls
    #: follow when given no ``training``; None (never set): Keras's default, inference unless told otherwise.
    _framework_training = None
    #: Attributes holding sub-layers that another attribute holds already (a Sequential's functional graph of its
    #: stack): not named again as children for a framework's module system, so its state_dict lists each weight once.
    _not_framework_children = ()
    #: TensorFlow's AutoGraph calls an object with this attribute as it is, without rewriting its Python. A layer
    #: already works on graph tensors (it branches only on static facts); the TensorFlow backend's rule that leaves
    #: highlevel's code unconverted comes with that backend, which the first layer called in a ``tf.data`` map may be
    #: the one to load: without the marker that first call's code (the layer's and the ops' it reaches) was
    #: converted, seconds of work, once per process.
    autograph_info__ = None

    def __new__(cls, *args, **kwargs):
        # On an engine with its own module system (PyTorch), the layer is also one of its modules: see
        # highlevel.backends.contract.interop.
        return new_instance(cls, current_backend(), "layer")

    def __init__(self, *, activity_regularizer=None, trainable=True, dtype=None, autocast=True, name=None, **kwargs):
        input_shape = kwargs.pop("input_shape", None)
        input_dim = kwargs.pop("input_dim", None)
        batch_size = kwargs.pop("batch_size", None)
        if kwargs:
            raise TypeError(
                f"Unrecognized keyword arguments passed to {type(self).__name__}: {kwargs}. Check the spelling "
                "against the layer's documented arguments."
            )
        if name is not None and (not isinstance(name, str) or not name):
            raise ValueError(f"A layer name must be a non-empty string; received name={name!r}.")
        self.name = name or naming.unique_name(naming.to_snake_case(type(self).__name__))
        self._scope_path = current_name_scope()
        self._trainable = bool(trainable)
        self.dtype_policy = dtype
        self.autocast = autocast
        self._no_autocast = set()  # ids of weights created with add_weight(autocast=False)
        self.built = False
        self.input_spec = None
        self.supports_masking = False
        self._own_weights = []
        self._losses = []
        self._inbound_nodes = []
        self._build_shapes = None
        from highlevel import regularizers

        self.activity_regularizer = regularizers.get(activity_regularizer)
        if input_dim is not None and input_shape is None:
            input_shape = (input_dim,)
        self._input_shape_arg = tuple(input_shape) if input_shape is not None else None
        self._batch_size_arg = batch_size
        self._call_signature = inspect.signature(self.call)
        params = self._call_signature.parameters
        self._call_has_training = "training" in params
        self._call_has_mask = "mask" in params

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        build = cls.__dict__.get("build")
        if build is not None and callable(build) and not getattr(build, "_records_build_call", False):
            cls.build = _recording_build(build)

    # ------------------------------------------------------------------ dtypes
    @property
    def dtype_policy(self):
        """The layer's :class:`~highlevel.mixed_precision.DTypePolicy` (from ``dtype``, else the global one).

        A :class:`~highlevel.dtype_policies.DTypePolicyMap` given as ``dtype`` stays the layer's policy (its
        sub-layers can be given the same map); the entry for the layer's :attr:`path` decides its dtypes and
        quantization mode, and setting a policy on such a layer sets that entry, as in Keras. The path is the one
        the layer was created under (:class:`~highlevel.name_scope`); Keras takes the scope its build runs in, so a
        sub-layer built in its parent's call is ``"parent/child"`` there: create it under
        ``hl.name_scope("parent")`` for the same key here.
        """
        return self._dtype_policy

    @dtype_policy.setter
    def dtype_policy(self, value):
        from highlevel.mixed_precision import policy as policies

        policy = policies.get(value)
        current = self.__dict__.get("_dtype_policy")
        if isinstance(current, collections.abc.Mapping) and not isinstance(policy, collections.abc.Mapping):
            # a policy for this layer alone: its entry in the shared map
            key = self.path
            if key in current._policy_map:
                del current[key]
            current[key] = policy
        else:
            self._dtype_policy = policy
        own = self._path_policy()
        self._variable_dtype = own.variable_dtype
        self._compute_dtype = own.compute_dtype
        mode = getattr(own, "quantization_mode", None)
        if mode is not None and self.__dict__.get("built") and not getattr(self, "_is_quantized", False):
            # As in Keras: giving a built layer a quantized policy quantizes it.
            self.quantize(mode)

    def _path_policy(self):
        """The policy that applies to this layer: its own, or its path's entry in a DTypePolicyMap."""
        policy = self._dtype_policy
        if isinstance(policy, collections.abc.Mapping):
            return policy[self.path]
        return policy

    @property
    def quantization_mode(self):
        """The layer's quantization mode (``"int8"``, ``"int4"``, ``"float8"``...), None if it is not quantized.

        >>> import highlevel as hl
        >>> layer = hl.layers.Dense(2)
        >>> layer.build((None, 3))
        >>> layer.quantize("int8")
        >>> layer.quantization_mode
        'int8'
        """
        return getattr(self._path_policy(), "quantization_mode", None)

    @property
    def dtype(self):
        """The dtype of the layer's weights (alias of ``variable_dtype``, as in Keras)."""
        return self._variable_dtype

    @property
    def variable_dtype(self):
        """The dtype the layer's weights are created in (float32 under the mixed policies)."""
        return self._variable_dtype

    @property
    def compute_dtype(self):
        """The dtype of the layer's computations: float inputs and autocast weights are cast to it in ``call``."""
        return self._compute_dtype

    def _autocast_scope(self):
        """Under a mixed policy, the block in which the layer's own float weights read as the compute dtype
        (see :mod:`highlevel.mixed_precision.autocast`); otherwise a block that does nothing."""
        compute = self._compute_dtype
        if not self.autocast or compute == self._variable_dtype or compute not in _FLOAT_DTYPES:
            return contextlib.nullcontext()
        from highlevel.mixed_precision.autocast import autocast_variables

        skip = self._no_autocast
        own = [v for v in self._own_weights + self._attribute_variables() if id(v) not in skip]
        return autocast_variables(own, compute, current_backend())

    # ---------------------------------------------------------------- tracking
    def _sublayers(self):
        """The direct sub-layers, in the order they were assigned (attributes, lists, dicts)."""
        found, seen = [], {id(self)}
        for key, value in self.__dict__.items():
            if key not in _NOT_TRACKED:
                _collect(value, Layer, found, seen)
        return found

    def _attribute_variables(self):
        found = []
        for key, value in self.__dict__.items():
            if key not in _NOT_TRACKED and key != "_own_weights":
                _collect(value, Variable, found, None)
        return found

    def _named_sublayers(self):
        """The direct sub-layers with names unique in this layer, for a framework's module system (``torch.nn.Module``
        children): the attribute's name, or ``name_i`` for the i-th layer found in a list, tuple or dict it holds."""
        return _unique_names(self._named_items(Layer, {id(self)}, skip=self._not_framework_children))

    def _named_own_variables(self):
        """This layer's own variables (not its sub-layers') with names unique in this layer, for a framework's module
        system (``torch.nn.Module`` parameters): a weight's name, or the attribute's name for a variable kept in
        one."""
        own = [(v.name, v) for v in self._own_weights]
        seen = {id(v) for v in self._own_weights}
        return _unique_names(own + self._named_items(Variable, seen, skip=("_own_weights",)))

    def _named_items(self, kind, seen, skip=()):
        pairs = []
        for key, value in self.__dict__.items():
            if key in _NOT_TRACKED or key in skip:
                continue
            found = []
            _collect(value, kind, found, seen)
            if isinstance(value, kind):
                pairs.extend((key, item) for item in found)
            else:
                pairs.extend((f"{key}_{i}", item) for i, item in enumerate(found))
        return pairs

    def _wrap_framework_module(self, module):
        """A layer that runs ``module``, an engine's own module assigned to an attribute of this layer (a
        ``torch.nn.Module``, wrapped as Keras does)."""
        from highlevel.layers import TorchModuleWrapper

        return TorchModuleWrapper(module)

    def _framework_state_replaced(self):
        """Called after the engine's own module API replaced the tensors of a module this layer wraps (torch's
        ``model.to(...)`` replaces a module's buffers): a wrapping layer points its variables at the new ones."""

    def _flatten_layers(self, include_self=True):
        """This layer and every layer below it, depth first, each once (memoised inside
        :func:`layer_walk_cache`)."""
        cache = _walks.cache
        if cache is not None:
            hit = cache.get((id(self), include_self))
            if hit is None:
                hit = cache[(id(self), include_self)] = self._walk_layers(include_self)
            return list(hit)
        return self._walk_layers(include_self)

    def _walk_layers(self, include_self):
        out, seen, stack = [], set(), [self]
        while stack:
            layer = stack.pop()
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            if include_self or layer is not self:
                out.append(layer)
            stack.extend(reversed(layer._sublayers()))
        return out

    @property
    def weights(self):
        """Every variable of the layer and its sub-layers, each once, in creation order."""
        out, seen = [], set()
        for layer in self._flatten_layers():
            for v in layer._own_weights + layer._attribute_variables():
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        return out

    def _seed_generators(self):
        from highlevel.random.seed_generator import SeedGenerator

        found = []
        for layer in self._flatten_layers():
            for key, value in layer.__dict__.items():
                if isinstance(value, SeedGenerator) and key not in _NOT_TRACKED:
                    found.append(value)
        return found

    @property
    def variables(self):
        """Every variable: the weights plus the states of the layer's random seed generators (which are not
        weights: they are not saved with ``get_weights`` but are part of a training step's state)."""
        out = self.weights
        seen = {id(v) for v in out}
        for gen in self._seed_generators():
            if id(gen.state) not in seen:
                seen.add(id(gen.state))
                out.append(gen.state)
        return out

    @property
    def trainable_weights(self):
        """The weights that training updates (none when the layer is frozen)."""
        if not self.trainable:
            return []
        out, seen = [], set()
        for layer in self._flatten_layers():
            if not layer.trainable:
                continue
            for v in layer._own_weights + layer._attribute_variables():
                if v.trainable and id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        return out

    @property
    def trainable_variables(self):
        return self.trainable_weights

    @property
    def non_trainable_weights(self):
        trainable = {id(v) for v in self.trainable_weights}
        return [v for v in self.weights if id(v) not in trainable]

    @property
    def non_trainable_variables(self):
        trainable = {id(v) for v in self.trainable_weights}
        return [v for v in self.variables if id(v) not in trainable]

    @property
    def metrics(self):
        """The metrics this layer and its sub-layers hold as attributes (``self.mean = hl.metrics.Mean()``), each
        once: a layer may track a statistic of what flows through it, and a model's ``fit`` then resets and
        reports it (``keras.layers.Layer.metrics``)."""
        return self._held_metrics()

    def _held_metrics(self, exclude=(), skip_nested_models=False):
        """The metrics held as attributes by this layer and the layers below it, each once, leaving out the ids in
        ``exclude`` and, with ``skip_nested_models``, the layers that are models of their own (their metrics belong
        to their own ``fit``)."""
        from highlevel.metrics.metric import Metric
        from highlevel.trainers import Trainer

        found, seen = [], set(exclude)
        for layer in self._flatten_layers():
            if skip_nested_models and layer is not self and isinstance(layer, Trainer):
                continue
            for key, value in layer.__dict__.items():
                if key not in _NOT_TRACKED:
                    _collect(value, Metric, found, seen)
        return found

    @property
    def metrics_variables(self):
        """The state variables of :attr:`metrics` (the values a stateless step passes in and out)."""
        return [v for metric in self.metrics for v in metric.variables]

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        """Freezes (False) or unfreezes the layer and all its sub-layers.

        As in Keras 3, every weight a layer made trainable follows (``layer.kernel.trainable``); weights made
        non-trainable (a batch norm's moving statistics) stay so.
        """
        value = bool(value)
        for layer in self._flatten_layers():
            layer._trainable = value
            for v in layer._own_weights:
                if getattr(v, "_made_trainable", False) and v.trainable != value:
                    v.trainable = value

    # ----------------------------------------------------------------- weights
    def add_weight(
        self,
        shape=None,
        initializer=None,
        dtype=None,
        trainable=True,
        autocast=True,
        regularizer=None,
        constraint=None,
        aggregation="none",
        overwrite_with_gradient=False,
        name=None,
    ):
        """Creates a weight of this layer and tracks it.

        Args:
            shape: the weight's shape (default ``()``).
            initializer: a name (``"glorot_uniform"``), an initializer object or a callable
                ``(shape, dtype) -> array``; default ``"glorot_uniform"`` for floats, ``"zeros"`` otherwise.
            dtype: default the layer's variable dtype.
            trainable: whether training updates it.
            autocast: whether, under a mixed dtype policy, ``call`` reads the weight as the compute dtype
                (False for weights the layer uses in float32, such as normalization statistics).
            regularizer: a regularizer whose penalty is added to ``losses``.
            constraint: a projection applied by optimizers after each update.
            aggregation: how a distributed strategy combines the replicas' values (stored on the variable).
            overwrite_with_gradient: when True, an optimizer step sets the weight to its gradient instead of
                updating it (Keras's mechanism for float8 scaling factors computed in a custom gradient).
            name: the variable's name; its ``path`` is ``"<layer name>/<name>"``.

        Returns:
            The new :class:`~highlevel.Variable`, also listed in ``weights`` and in ``trainable_weights`` or
            ``non_trainable_weights``.

        >>> import highlevel as hl
        >>> layer = hl.layers.Layer()
        >>> scale = layer.add_weight(shape=(), initializer="ones", overwrite_with_gradient=True, name="scale")
        >>> scale.overwrite_with_gradient, scale.path
        (True, 'layer/scale')
        """
        from highlevel import constraints, initializers, regularizers

        shape = () if shape is None else tuple(shape)
        for d in shape:
            if not isinstance(d, int) or isinstance(d, bool) or d < 0:
                raise ValueError(
                    f"Layer '{self.name}': add_weight needs a fully known shape of non-negative ints; "
                    f"received shape={shape} for weight {name!r}. Build the layer from an input shape whose "
                    "feature dimensions are known."
                )
        dtype = _dtypes.standardize_dtype(dtype or self._variable_dtype)
        if initializer is None:
            initializer = "glorot_uniform" if _dtypes.is_float_dtype(dtype) else "zeros"
        init = initializers.get(initializer)
        name = name or f"variable_{len(self._own_weights)}"
        var = Variable(
            init,
            shape=shape,
            dtype=dtype,
            trainable=trainable,
            aggregation=aggregation,
            name=name,
            backend=current_backend(),
        )
        scope = current_name_scope() or getattr(self, "_scope_path", "")
        var.path = f"{scope}/{self.name}/{name}" if scope else f"{self.name}/{name}"
        var.regularizer = regularizers.get(regularizer)
        var.constraint = constraints.get(constraint)
        var.overwrite_with_gradient = overwrite_with_gradient
        if var.trainable and not getattr(self, "_trainable", True):
            var.trainable = False  # made in a frozen layer: follows it, and unfreezing the layer trains it (Keras)
        self._own_weights.append(var)
        if not autocast:
            self._no_autocast.add(id(var))
        return var

    def count_params(self):
        """Counts the scalars in all the layer's weights, trainable or not (sub-layers included).

        Returns:
            An int.

        Raises:
            ValueError: the layer is not built yet (it has no weights to count).

        >>> import highlevel as hl
        >>> layer = hl.layers.Dense(3)
        >>> layer.build((None, 4))
        >>> layer.count_params()
        15
        """
        if not self.built:
            raise ValueError(
                f"Layer '{self.name}' has not been built yet, so it has no weights to count. Build it first: "
                "call it on a batch of data, call build(input_shape), or start a model with hl.Input(shape)."
            )
        total = 0
        for v in self.weights:
            n = 1
            for d in v.shape:
                n *= int(d)
            total += n
        return total

    def get_weights(self):
        """Returns the values of the layer's weights, as numpy arrays.

        The order is that of :attr:`weights`: the layer's own weights in creation order, then its sub-layers'.

        Returns:
            A list of numpy arrays (copies: changing them does not change the layer).

        >>> import highlevel as hl
        >>> layer = hl.layers.Dense(2, kernel_initializer="ones")
        >>> layer.build((None, 3))
        >>> [w.shape for w in layer.get_weights()]
        [(3, 2), (2,)]
        """
        return [v.numpy() for v in self.weights]

    def set_weights(self, weights):
        """Sets the values of all the layer's weights from numpy arrays.

        Args:
            weights: a list of arrays, in the order and with the shapes of :meth:`get_weights`.

        Returns:
            None.

        Raises:
            ValueError: the list does not have one array per weight, or an array's shape differs from its weight's.

        >>> import highlevel as hl
        >>> import numpy as np
        >>> layer = hl.layers.Dense(1)
        >>> layer.build((None, 2))
        >>> layer.set_weights([np.full((2, 1), 3.0), np.zeros((1,))])
        >>> hl.ops.convert_to_numpy(layer(hl.ops.ones((1, 2)))).tolist()
        [[6.0]]
        """
        own = self.weights
        weights = list(weights)
        if len(weights) != len(own):
            raise ValueError(
                f"Layer '{self.name}' expects {len(own)} weight arrays ({[v.path for v in own]}), but "
                f"set_weights received {len(weights)}."
            )
        import numpy as np

        for v, w in zip(own, weights):
            w = np.asarray(w)
            if tuple(w.shape) != tuple(v.shape):
                raise ValueError(
                    f"Layer '{self.name}': weight '{v.path}' has shape {tuple(v.shape)}, but set_weights "
                    f"received an array of shape {tuple(w.shape)}."
                )
        for v, w in zip(own, weights):
            v.assign(w)

    def stateless_call(self, trainable_variables, non_trainable_variables, *args, return_losses=False, **kwargs):
        """Calls the layer with the given weight values in place of its own, changing no variable.

        Returns ``(outputs, non_trainable_values)`` — the second holds the updated values of the
        non-trainable weights (e.g. batch-norm statistics) — plus the losses with ``return_losses``. Gradients
        with respect to ``trainable_variables`` flow on every backend, which is how weight gradients and
        pure training steps are built.
        """
        if not self.built:
            raise ValueError(f"Layer '{self.name}' must be built before stateless_call(); call it once first.")
        tv, ntv = self.trainable_variables, self.non_trainable_variables
        if len(trainable_variables) != len(tv) or len(non_trainable_variables) != len(ntv):
            raise ValueError(
                f"Layer '{self.name}'.stateless_call expects {len(tv)} trainable and {len(ntv)} non-trainable values; "
                f"received {len(trainable_variables)} and {len(non_trainable_variables)}."
            )
        mapping = dict(zip(tv, trainable_variables))
        mapping.update(zip(ntv, non_trainable_variables))
        with StatelessScope(mapping) as scope:
            outputs = self(*args, **kwargs)
            losses = self.losses if return_losses else None
        new_ntv = [scope.values.get(id(v), val) for v, val in zip(ntv, non_trainable_variables)]
        return (outputs, new_ntv, losses) if return_losses else (outputs, new_ntv)

    # ------------------------------------------------------------------ losses
    def add_loss(self, loss):
        """Adds a loss tensor, computed during ``call``, to the layer's losses.

        Training adds every loss a call adds (a regularization term, an auxiliary objective) to the compiled loss.
        They are collected in ``layer.losses`` and ``model.losses`` (which are cleared before each call), and in the
        :attr:`~highlevel.StatelessScope.losses` of an enclosing ``StatelessScope(collect_losses=True)``.

        Args:
            loss: a scalar tensor.

        Returns:
            None.

        >>> import highlevel as hl
        >>> class Penalized(hl.layers.Layer):
        ...     def call(self, x):
        ...         self.add_loss(0.5 * hl.ops.sum(x))
        ...         return x
        >>> layer = Penalized()
        >>> _ = layer(hl.ops.ones((2, 2)))
        >>> [float(hl.ops.convert_to_numpy(v)) for v in layer.losses]
        [2.0]
        """
        self._losses.append(loss)
        _holding_losses.add(self)
        scope = _variable_scopes.stack[-1] if _variable_scopes.stack else None
        if scope is not None and scope.collect_losses and not scope.symbolic:
            scope.add_loss(loss)

    @property
    def losses(self):
        """Losses added during the last call plus weight-regularization penalties, of this layer and
        its sub-layers."""
        out = []
        for layer in self._flatten_layers():
            out.extend(layer._losses)
            for v in layer._own_weights:
                if v.regularizer is not None and v.trainable:
                    out.append(v.regularizer(v.value))
        return out

    def _clear_losses(self):
        if not _holding_losses:
            return  # nothing anywhere holds a loss: no walk over the layer tree
        for layer in self._flatten_layers():
            if layer._losses:
                layer._losses = []
                _holding_losses.discard(layer)

    # ------------------------------------------------------------------- build
    def build(self, input_shape):
        """Creates the layer's weights for inputs of a given shape.

        Called once, automatically, on the first call, with the shape of the inputs (a structure of shapes for several
        inputs); override it to create weights with :meth:`add_weight` whose sizes depend on the input. Calling it
        yourself builds the layer without data. The default creates no weights.

        Args:
            input_shape: the input's shape, a tuple whose first entry is the batch size (often None), or a structure
                of such tuples.

        Returns:
            None; the layer is then ``built``.

        >>> import highlevel as hl
        >>> layer = hl.layers.Dense(4)
        >>> layer.build((None, 3))
        >>> layer.built, tuple(layer.kernel.shape)
        (True, (3, 4))
        """
        self.built = True

    def _maybe_build(self, inputs):
        if self.built:
            return
        shapes = tree.map_structure(_shape_of, inputs)
        self._build_shapes = shapes
        self.build(shapes)
        self.built = True

    def _check_input_spec(self, inputs):
        if self.input_spec is None:
            return
        specs = self.input_spec if isinstance(self.input_spec, (list, tuple)) else [self.input_spec]
        leaves = tree.flatten(inputs)[0]
        assert_input_compatibility(
            specs,
            [_shape_of(x) for x in leaves],
            self.name,
            dtypes=[_dtype_of(x) for x in leaves] if any(s.dtype for s in specs) else None,
        )

    # -------------------------------------------------------------------- call
    def call(self, inputs, *args, **kwargs):
        """Computes the layer's output; subclasses override it.

        ``layer(inputs)`` builds the layer if needed, casts float inputs to the compute dtype, then calls this method.
        Write it with ``highlevel.ops`` so that it runs on every engine. Extra arguments may include ``training`` (the
        mode, passed down from the outermost call) and ``mask``.

        Args:
            inputs: the input tensor, or a structure of tensors.
            *args: further positional arguments of the subclass's signature.
            **kwargs: further keyword arguments, such as ``training`` or ``mask``.

        Returns:
            The output tensor(s). The default returns ``inputs`` unchanged.

        >>> import highlevel as hl
        >>> class Double(hl.layers.Layer):
        ...     def call(self, inputs):
        ...         return inputs * 2.0
        >>> hl.ops.convert_to_numpy(Double()(hl.ops.ones((1, 2)))).tolist()
        [[2.0, 2.0]]
        """
        return inputs

    def __call__(self, *args, **kwargs):
        if not args and "inputs" in kwargs:
            args = (kwargs.pop("inputs"),)
        if not args:
            raise ValueError(f"Layer '{self.name}' was called without inputs.")
        if any_symbolic(args, kwargs):
            return self._symbolic_call(args, kwargs)
        # Inside an engine's input pipeline (tf.data), the layer computes on that engine (highlevel.pipeline).
        routed = _pipeline.route(self, args, kwargs)
        if routed is not _pipeline.NOT_ROUTED:
            return routed
        # Masks travel with the tensors (highlevel.masking), as in Keras: an input's mask reaches a call() that takes
        # `mask`, and the output carries the mask compute_mask() gives (Embedding(mask_zero=True) -> LSTM in a
        # subclassed model). Sequential and Functional models also pass their layers' masks explicitly.
        in_mask = kwargs["mask"] if kwargs.get("mask") is not None else _masks_of(args[0])
        if in_mask is not None and self._call_has_mask and kwargs.get("mask") is None:
            kwargs = dict(kwargs, mask=in_mask)
        first = self._convert_inputs(args[0])
        args = (first,) + args[1:]
        self._maybe_build(first)
        self._check_input_spec(first)
        # An explicit `training` reaches the nested layers through the call context, also when this layer's call()
        # does not take the argument itself (a subclassed model's `call(self, x)`, called by fit with training=True).
        explicit_training = kwargs.get("training")
        if explicit_training is None and _context.training is None and self._framework_training is not None:
            # a mode set through the engine's own module API (torch's model.train() / model.eval())
            explicit_training = self._framework_training
            kwargs = dict(kwargs, training=explicit_training)
        kwargs = self._resolve_training(kwargs)
        ctx = _context
        outer_training, outer_depth = ctx.training, ctx.depth
        if outer_depth == 0:
            self._clear_losses()
        if explicit_training is not None:
            ctx.training = explicit_training
        ctx.depth = outer_depth + 1
        try:
            with self._autocast_scope():
                if self.quantization_mode is not None:
                    outputs = self.quantized_call(*args, **kwargs)
                else:
                    outputs = self.call(*args, **kwargs)
        finally:
            ctx.training, ctx.depth = outer_training, outer_depth
        if in_mask is not None or type(self).compute_mask is not Layer.compute_mask:
            _attach_masks(outputs, self.compute_mask(first, in_mask))
        if self.activity_regularizer is not None:
            # Keras 3 divides the penalty by the batch size, so it does not grow with the batch.
            from highlevel import ops

            for out in tree.flatten(outputs)[0]:
                penalty = self.activity_regularizer(out)
                batch = ops.shape(out)[0] if ops.ndim(out) else 1
                self.add_loss(penalty / float(batch or 1))
        return outputs

    def _convert_inputs(self, inputs):
        backend = current_backend()

        compute_dtype = self.compute_dtype

        def convert(x):
            if x is None or isinstance(x, Variable):
                return x
            if not backend.is_tensor(x):
                if is_text(x):
                    self._refuse_text(f"text ({type(x).__name__} of strings)")
                    return x  # text stays on the host for the string preprocessing layers
                if not (hasattr(x, "shape") or isinstance(x, (list, float, int))):
                    return x
                x = backend.convert_to_tensor(x)
            if self.autocast:
                try:
                    dtype = backend.dtype(x)
                except ValueError:  # the engine's own string tensor (TensorFlow's tf.string)
                    self._refuse_text(f"a string tensor ({type(x).__name__})")
                    return x
                if dtype != compute_dtype and dtype in _FLOAT_DTYPES:
                    x = backend.cast(x, compute_dtype)
            return x

        if isinstance(inputs, (list, tuple, dict)):
            return tree.map_structure(convert, inputs)
        return convert(inputs)

    def _resolve_training(self, kwargs):
        if self._call_has_training:
            if kwargs.get("training") is None and _context.training is not None:
                kwargs = dict(kwargs, training=_context.training)
        elif "training" in kwargs:
            kwargs = {k: v for k, v in kwargs.items() if k != "training"}
        if not self._call_has_mask and "mask" in kwargs:
            kwargs = {k: v for k, v in kwargs.items() if k != "mask"}
        return kwargs

    def _symbolic_call(self, args, kwargs):
        first = args[0]
        for kt in tree.flatten(first)[0]:
            if isinstance(kt, KerasTensor) and kt.dtype == "string":
                self._refuse_text(f"a string tensor ('{kt.name}', shape {kt.shape})")
        self._maybe_build(first)
        self._check_input_spec(first)
        kwargs = self._resolve_training(kwargs)
        # The spec is computed from the inputs as call() will see them: float inputs autocast (the graph
        # records the original inputs; the cast happens when the layer runs).
        spec_args = (self._autocast_symbolic(first),) + tuple(args[1:])
        # The symbolic inputs' masks reach call() while the graph is built, as in Keras (a custom layer may branch
        # on them); the node does not record them: a functional model passes the masks of real inputs when it runs.
        in_mask = kwargs["mask"] if kwargs.get("mask") is not None else _masks_of(first)
        spec_kwargs = kwargs
        if in_mask is not None and self._call_has_mask and kwargs.get("mask") is None:
            spec_kwargs = dict(kwargs, mask=in_mask)
        specs = self.compute_output_spec(*spec_args, **spec_kwargs)
        outputs = tree.map_structure(
            lambda s: (
                KerasTensor(s.shape, s.dtype, sparse=s.sparse, ragged=s.ragged, name=f"{self.name}_output")
                if isinstance(s, KerasTensor)
                else s
            ),
            specs,
        )
        Node(self, args, kwargs, outputs)
        if in_mask is not None or type(self).compute_mask is not Layer.compute_mask:
            try:
                out_masks = self.compute_mask(first, in_mask)
            except Exception:  # a compute_mask that needs real values: the symbolic outputs carry no mask
                out_masks = None
            _attach_masks(outputs, out_masks)
        return outputs

    def _autocast_symbolic(self, inputs):
        compute = self._compute_dtype
        if not self.autocast or compute not in _FLOAT_DTYPES:
            return inputs

        def convert(x):
            if isinstance(x, KerasTensor) and x.dtype in _FLOAT_DTYPES and x.dtype != compute:
                return KerasTensor(x.shape, compute, name=x.name)
            return x

        return tree.map_structure(convert, inputs)

    def compute_output_spec(self, *args, **kwargs):
        """KerasTensors describing the output for symbolic inputs.

        As in Keras, a layer class of the user's that overrides :meth:`compute_output_shape` is taken at its word
        (outputs of that shape, in the layer's compute dtype); otherwise ``call`` runs symbolically, and a ``call``
        that uses the framework's own functions is evaluated by the engine.
        """
        declared = self._declared_output_spec(args, kwargs)
        if declared is not None:
            return declared
        ctx = _context
        depth = ctx.depth
        ctx.depth = depth + 1
        try:
            # Assignments in a symbolic call are dropped (Keras does the same): shapes are all it computes.
            with self._autocast_scope(), SymbolicScope():
                try:
                    if self.quantization_mode is not None:
                        return self.quantized_call(*args, **kwargs)
                    return self.call(*args, **kwargs)
                except (TypeError, ValueError) as err:
                    # call() used the framework's own functions, which cannot take symbolic placeholders: the
                    # engine evaluates it abstractly instead (as Keras traces call() with the framework's values).
                    return _engine_output_spec(self.call, args, kwargs, err)
        finally:
            ctx.depth = depth

    def _declared_output_spec(self, args, kwargs):
        owner = next(c for c in type(self).__mro__ if "compute_output_shape" in c.__dict__)
        # The library's own layers compute their outputs by running call (exact, masks included); a user's
        # override of compute_output_shape is what Keras uses instead, and so do we.
        if owner.__module__.split(".")[0] == "highlevel" or len(args) != 1:
            return None
        if any(isinstance(v, KerasTensor) for v in tree.flatten(kwargs)[0]):
            return None
        asking = _declaring.__dict__.setdefault("ids", set())
        if id(self) in asking:  # an override that calls super().compute_output_shape: run call
            return None
        shapes = tree.map_structure(lambda x: x.shape if isinstance(x, KerasTensor) else x, args[0])
        asking.add(id(self))
        try:
            out = self.compute_output_shape(shapes)
        finally:
            asking.discard(id(self))
        if isinstance(out, list) and out and _is_shape(tuple(out)):
            out = tuple(out)
        if not isinstance(out, (tuple, list, dict)):
            raise ValueError(
                f"{type(self).__name__}.compute_output_shape() must return a shape (a tuple of ints or None), or a "
                f"list/dict of shapes; received {out!r}."
            )
        dtype = self.compute_dtype

        def convert(s):
            if _is_shape(s):
                return KerasTensor(s, dtype)
            if isinstance(s, (list, tuple)):
                return type(s)(convert(x) for x in s)
            if isinstance(s, dict):
                return {k: convert(v) for k, v in s.items()}
            raise ValueError(f"{type(self).__name__}.compute_output_shape() returned {out!r}, which holds {s!r}.")

        return convert(out)

    def compute_output_shape(self, input_shape):
        """The output shape for an input of ``input_shape`` (None for unknown sizes)."""

        def to_kt(s):
            return KerasTensor(s, self.compute_dtype)

        if _is_shape(tuple(input_shape)):
            inputs = to_kt(tuple(input_shape))
        else:
            inputs = tree.map_structure(to_kt, input_shape)
        if not self.built:
            self._maybe_build(inputs)
        out = self.compute_output_spec(inputs)
        return tree.map_structure(lambda t: t.shape, out)

    def compute_mask(self, inputs, previous_mask=None):
        """The mask of the output: ``previous_mask`` (the input's) passed through when ``supports_masking``,
        else None. Subclasses may name the second argument ``mask``; the framework passes it by position."""
        return previous_mask if self.supports_masking else None

    # ------------------------------------------------------- saving hooks
    def get_build_config(self):
        """What :meth:`build_from_config` needs to create this layer's weights again, or None when unbuilt.

        The default records the arguments of the first ``build`` call: ``{"input_shape": shape}`` or, for a
        ``build`` that takes several shapes, ``{"shapes_dict": {argument: shape}}``. Saving stores it with the
        layer's config; override both methods for a layer whose ``build`` needs more than shapes.
        """
        if not self.built:
            return None
        recorded = getattr(self, "_build_call", None)
        if recorded is not None:
            args, kwargs = recorded
            if len(args) == 1 and not kwargs:
                return {"input_shape": args[0]}
            try:
                bound = inspect.signature(self.build).bind(*args, **kwargs)
            except TypeError:
                return None
            return {"shapes_dict": dict(bound.arguments)}
        if self._build_shapes is not None:
            return {"input_shape": self._build_shapes}
        return None

    def build_from_config(self, config):
        """Creates the layer's weights from :meth:`get_build_config`'s output (loading calls it before the weights
        are assigned); does nothing for None or an already built layer."""
        if not config or self.built:
            return
        if "input_shape" in config:
            self.build(_shapes_from_json(config["input_shape"]))
        elif "shapes_dict" in config:
            self.build(**{k: _shapes_from_json(v) for k, v in config["shapes_dict"].items()})
        self.built = True

    def _own_variables(self):
        """The variables this layer itself holds (not those of its sub-layers), in a fixed order."""
        owned_below = {id(v) for layer in self._flatten_layers(include_self=False) for v in layer._own_weights}
        out, seen = [], set()
        for v in self._own_weights + self._attribute_variables():
            if id(v) not in seen and id(v) not in owned_below:
                seen.add(id(v))
                out.append(v)
        return out

    def save_own_variables(self, store):
        """Writes this layer's own variables (not its sub-layers') into ``store`` (a dict), as ``store["0"]``,
        ``store["1"]``, ...: what saving calls. Override it, with :meth:`load_own_variables`, to save a different
        state (extra arrays, another layout)."""
        for i, v in enumerate(self._own_variables()):
            store[str(i)] = v.numpy()

    def load_own_variables(self, store):
        """Assigns this layer's own variables from ``store``, the dict :meth:`save_own_variables` filled.

        Raises:
            ValueError: the store holds another number of arrays, or an array of another shape.
        """
        own = self._own_variables()
        if len(store) != len(own):
            raise ValueError(
                f"Layer '{self.name}' expects {len(own)} variables ({[v.path for v in own]}) but the saved state "
                f"holds {len(store)} ({sorted(store)}). Build the same layer (same configuration and input shape)."
            )
        for i, v in enumerate(own):
            value = store[str(i)]
            if tuple(value.shape) != tuple(v.shape):
                raise ValueError(
                    f"Layer '{self.name}': variable '{v.path}' has shape {tuple(v.shape)} but the saved "
                    f"value has shape {tuple(value.shape)}."
                )
            v.assign(value)

    # ------------------------------------------------------------ quantization
    def quantize(self, mode=None, type_check=True, config=None):
        """Replaces the layer's float weights by quantized ones (``"int8"``, ``"int4"``, ``"float8"``).

        The base layer cannot be quantized: Dense, EinsumDense, Embedding and ReversibleEmbedding implement it (a
        model's :meth:`~highlevel.Model.quantize` skips the layers that do not, with a warning).

        Args:
            mode: ``"int8"``, ``"int4"`` or ``"float8"``; optional when ``config`` names it.
            type_check: when True, a subclass of a quantizable layer is refused (its ``call`` may use the
                float weights in ways the quantized computation does not know).
            config: a :class:`highlevel.quantizers.QuantizationConfig`, or None for the mode's default.

        Returns:
            None.

        Raises:
            NotImplementedError: this layer class has no quantized form.

        >>> import highlevel as hl
        >>> layer = hl.layers.Dropout(0.5)
        >>> layer.quantize("int8")
        Traceback (most recent call last):
        ...
        NotImplementedError: Layer Dropout does not have a `quantize` method implemented...
        """
        raise self._not_implemented_error("quantize")

    def quantized_build(self, input_shape, mode):
        """Creates the layer's weights in their quantized form (what ``build`` calls under a quantized policy).

        Args:
            input_shape: the shape the layer is built for (a kernel shape for the layers that take one).
            mode: the quantization mode.

        Returns:
            None.

        Raises:
            NotImplementedError: this layer class has no quantized form.

        >>> import highlevel as hl
        >>> hl.layers.Dropout(0.5).quantized_build((None, 2), "int8")
        Traceback (most recent call last):
        ...
        NotImplementedError: Layer Dropout does not have a `quantized_build` method implemented...
        """
        raise self._not_implemented_error("quantized_build")

    def quantized_call(self, *args, **kwargs):
        """What calling a quantized layer runs instead of ``call``: the mode's own forward pass
        (``_int8_call``, ``_int4_call`` or ``_float8_call``).

        Args:
            *args: the arguments of ``call``.
            **kwargs: the keyword arguments of ``call``.

        Returns:
            The layer's outputs.

        Raises:
            NotImplementedError: the layer has no forward pass for its mode.

        >>> import highlevel as hl
        >>> layer = hl.layers.Dense(2, kernel_initializer="ones")
        >>> layer.build((None, 3))
        >>> layer.quantize("int8")
        >>> hl.ops.convert_to_numpy(layer.quantized_call(hl.ops.ones((1, 3)))).round(2).tolist()
        [[3.0, 3.0]]
        """
        mode = self.quantization_mode
        method = getattr(self, f"_{mode}_call", None) if isinstance(mode, str) else None
        if method is None:
            raise self._not_implemented_error(f"_{mode}_call")
        return method(*args, **kwargs)

    def _not_implemented_error(self, what):
        name = front_class(type(self)).__name__
        return NotImplementedError(
            f"Layer {name} does not have a `{what}` method implemented. Only the layers that define it (Dense, "
            "EinsumDense, Embedding, ReversibleEmbedding) can be quantized; pass `type_check=False` to quantize a "
            "subclass of one."
        )

    # ----------------------------------------------------------------- configs
    def get_config(self):
        """Returns the constructor arguments that rebuild this layer, as a JSON-friendly dict (no weights).

        The base layer's config holds ``name``, ``trainable`` and ``dtype`` (plus ``input_shape`` and
        ``activity_regularizer`` when given). A subclass whose constructor takes other arguments extends it
        (``config = super().get_config(); config.update(units=self.units)``), so that saving and
        :meth:`from_config` can rebuild it.

        Returns:
            A dict that ``type(layer).from_config(config)`` turns into an equivalent new layer (with fresh
            weights).

        >>> import highlevel as hl
        >>> config = hl.layers.Dense(3, name="d").get_config()
        >>> config["units"], config["name"], config["trainable"]
        (3, 'd', True)
        >>> hl.layers.Dense.from_config(config).units
        3
        """
        # A plain policy is saved as its dtype name, a mixed or quantized one as its policy name: each rebuilds it.
        # A map of policies per sub-layer path has no such name: it is saved whole.
        dtype = self._dtype_policy.name
        if isinstance(self._dtype_policy, collections.abc.Mapping):
            from highlevel.mixed_precision.policy import serialize as serialize_policy

            dtype = serialize_policy(self._dtype_policy)
        config = {"name": self.name, "trainable": self.trainable, "dtype": dtype}
        if self._input_shape_arg is not None:
            config["input_shape"] = self._input_shape_arg
        if self.activity_regularizer is not None:
            from highlevel import regularizers

            config["activity_regularizer"] = regularizers.serialize(self.activity_regularizer)
        return config

    @classmethod
    def from_config(cls, config):
        """Creates a layer from :meth:`get_config`'s output.

        The default calls ``cls(**config)``; override it when the constructor cannot take the config as it is (nested
        objects that need deserializing).

        Args:
            config: a dict from :meth:`get_config`.

        Returns:
            A new, unbuilt layer with the same settings (and fresh weights once built).

        >>> import highlevel as hl
        >>> layer = hl.layers.Dropout(0.3, name="drop")
        >>> clone = hl.layers.Dropout.from_config(layer.get_config())
        >>> clone.rate, clone.name, clone is layer
        (0.3, 'drop', False)
        """
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

    #: Whether the layer's computation can run inside a compiled step (jit); every highlevel layer can.
    supports_jit = True

    #: Whether call() reads text (host string arrays, or a string Input): the text layers and models do; a
    #: layer that computes on numbers refuses it with an error naming the layer to put in between.
    accepts_text = False

    def _refuse_text(self, what):
        if not self.accepts_text:
            raise TypeError(
                f"Layer '{self.name}' ({front_class(type(self)).__name__}) received {what}, but it computes on "
                "numbers. Only the text layers (TextVectorization, StringLookup, Hashing, HashedCrossing) read "
                "strings: put one between the string input and this layer (e.g. `x = TextVectorization(...)"
                "(inputs)`), or set `accepts_text = True` on a custom layer whose call() handles strings itself."
            )

    @property
    def input_dtype(self):
        """The dtype float inputs are cast to before ``call`` (the compute dtype)."""
        return self.compute_dtype

    @property
    def call_signature_parameters(self):
        """The names of ``call``'s parameters, in order."""
        return [p.name for p in inspect.signature(self.call).parameters.values()]

    def add_variable(
        self,
        shape,
        initializer,
        dtype=None,
        trainable=True,
        autocast=True,
        regularizer=None,
        constraint=None,
        name=None,
    ):
        """Keras's other name for :meth:`add_weight` (``shape`` and ``initializer`` required)."""
        return self.add_weight(
            shape=shape,
            initializer=initializer,
            dtype=dtype,
            trainable=trainable,
            autocast=autocast,
            regularizer=regularizer,
            constraint=constraint,
            name=name,
        )

    def add_metric(self, *args, **kwargs):
        """Not supported, as in Keras 3: it raises with the replacement."""
        raise NotImplementedError(
            f"Layer '{self.name}': add_metric() is not supported (Keras 3 removed it). Pass the metric to "
            "model.compile(metrics=[...]), or create a metric in __init__/build and call its update_state() in "
            "call()."
        )

    def symbolic_call(self, *args, **kwargs):
        """Calls the layer on symbolic tensors (``hl.Input``), recording the call as a graph node."""
        if not any_symbolic(args, kwargs):
            raise ValueError(
                f"Layer '{self.name}'.symbolic_call needs symbolic inputs (from hl.Input); received "
                f"{args!r}. Call the layer itself for real tensors."
            )
        return self(*args, **kwargs)

    @property
    def path(self):
        """The layer's name under the :class:`~highlevel.name_scope` blocks it was created in
        (``"block/dense"``); its name alone outside any."""
        scope = getattr(self, "_scope_path", "")
        return f"{scope}/{self.name}" if scope else self.name

    @property
    def input(self):
        """The symbolic input of the layer's first call in a functional graph."""
        if not self._inbound_nodes:
            raise AttributeError(f"Layer '{self.name}' has never been called on a symbolic input.")
        ins = self._inbound_nodes[0].input_tensors
        return ins[0] if len(ins) == 1 else ins

    @property
    def output(self):
        """The symbolic output of the layer's first call in a functional graph."""
        if not self._inbound_nodes:
            raise AttributeError(f"Layer '{self.name}' has never been called on a symbolic input.")
        return self._inbound_nodes[0].outputs


__all__ = ["InputSpec", "Layer"]
