"""``JaxLayer`` and ``FlaxLayer``: a function written for JAX (and its parameters) as a layer of a highlevel model.

The function's parameters become the layer's trainable weights and its state its non-trainable weights, so
``fit``, the optimizers and ``stateless_call`` train them like any others. They run on the JAX engine only (the
function is JAX code); on another engine the constructor says so. The engine supplies the JAX tools
(:meth:`CoreContract.jax_functions`): this file imports no framework.

>>> import numpy as np, highlevel as hl
>>> with hl.config.backend_scope("jax"):
...     def call_fn(params, inputs):
...         return inputs @ params["w"] + params["b"]
...     layer = JaxLayer(call_fn, params={"w": np.ones((3, 2), "float32"), "b": np.zeros(2, "float32")})
...     hl.ops.convert_to_numpy(layer(np.ones((1, 3), "float32"))).tolist()
[[3.0, 3.0]]
"""

import inspect

from highlevel import ops
from highlevel.backends.contract import tree
from highlevel.config import current_backend
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer
from highlevel.random.seed_generator import SeedGenerator

_CALL_ARGUMENTS = ("params", "state", "rng", "inputs", "training")
_INIT_ARGUMENTS = ("rng", "inputs", "training")


def _tools(layer_name):
    tools = current_backend().jax_functions()
    if tools is None:
        raise ValueError(
            f"{layer_name} runs functions written for JAX, so it needs the jax backend; the current backend is "
            f"{current_backend().name!r}. Set HIGHLEVEL_BACKEND=jax (or build the layer inside "
            "hl.config.backend_scope('jax'))."
        )
    return tools


def _arguments(fn, fn_name, allowed, layer_name):
    """The names of ``fn``'s parameters, checked: each one of ``allowed``, and ``inputs`` among them."""
    if not callable(fn):
        raise TypeError(f"{layer_name}: `{fn_name}` must be a function; received {fn!r}.")
    names = list(inspect.signature(fn).parameters)
    unknown = [n for n in names if n not in allowed]
    if unknown:
        raise ValueError(
            f"{layer_name}: `{fn_name}` takes the argument(s) {unknown}; its arguments must be named among "
            f"{list(allowed)} (in any order); rename them."
        )
    if "inputs" not in names:
        raise ValueError(f"{layer_name}: `{fn_name}` must take an argument named `inputs`; its arguments are {names}.")
    return names


def _same(value):
    return value


_PLATFORMS = ("cpu", "cuda", "rocm", "tpu")


def _check_platforms(platforms, who):
    """``platforms`` as a tuple of platform names (or None); anything else is refused with the accepted names."""
    if platforms is None:
        return None
    given = platforms
    if isinstance(platforms, str):
        platforms = (platforms,)
    try:
        platforms = tuple(platforms)
    except TypeError:
        platforms = ()
    if not platforms or not all(isinstance(p, str) and p in _PLATFORMS for p in platforms):
        raise ValueError(
            f"{who}: `native_serialization_platforms` must be None or a non-empty list of platform names among "
            f"{list(_PLATFORMS)}. Received: native_serialization_platforms={given!r}"
        )
    return platforms


class JaxLayer(Layer):
    """A layer that calls a JAX function (``keras.layers.JaxLayer``).

    Args:
        call_fn: ``call_fn(params, state, rng, inputs, training)``, taking any of those arguments by name (``inputs``
            is required). With ``state`` it returns ``(outputs, new_state)``; ``rng`` is a JAX key when training,
            else None.
        init_fn: ``init_fn(rng, inputs, training)`` returning the initial ``params`` (or ``(params, state)`` when
            ``call_fn`` takes ``state``); called once, on inputs of ones shaped like the first inputs.
        params: the initial parameters (a nested dict/list of arrays) instead of ``init_fn``.
        state: the initial state, likewise.
        seed: the seed of the keys given as ``rng``.
        native_serialization_platforms: None, or the platforms (``"cpu"``, ``"cuda"``, ``"rocm"``, ``"tpu"``) that a
            TensorFlow SavedModel written from JAX (``jax2tf``) compiles the layer for; None means the platform
            the export runs on. ``model.export(..., format="tf_saved_model")`` passes it to ``jax2tf`` unless its
            ``jax2tf_kwargs`` name platforms themselves.
        **kwargs: the arguments of :class:`~highlevel.layers.Layer` (``name``, ``dtype``, ...).

    Raises:
        ValueError: if ``call_fn`` takes ``params`` or ``state`` but none of ``init_fn``, ``params`` and ``state`` is
            given.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> def init_fn(rng, inputs):
    ...     return {"w": np.ones((inputs.shape[-1], 2), "float32")}
    >>> def call_fn(params, inputs):
    ...     return inputs @ params["w"]
    >>> with hl.config.backend_scope("jax"):  # JAX functions run on the JAX engine
    ...     layer = hl.layers.JaxLayer(call_fn, init_fn=init_fn)
    ...     hl.ops.convert_to_numpy(layer(np.ones((1, 3), "float32"))).tolist()
    [[3.0, 3.0]]
    """

    def __init__(
        self, call_fn, init_fn=None, params=None, state=None, seed=None, native_serialization_platforms=None, **kwargs
    ):
        name = type(self).__name__
        self._jax = _tools(name)
        self.jax2tf_native_serialization_platforms = _check_platforms(native_serialization_platforms, name)
        super().__init__(**kwargs)
        self.call_fn, self.init_fn, self.seed = call_fn, init_fn, seed
        self.call_fn_arguments = _arguments(call_fn, "call_fn", _CALL_ARGUMENTS, name)
        self.call_fn_has_params = "params" in self.call_fn_arguments
        self.call_fn_has_state = "state" in self.call_fn_arguments
        self.call_fn_has_rng = "rng" in self.call_fn_arguments
        if init_fn is None and params is None and state is None and (self.call_fn_has_params or self.call_fn_has_state):
            raise ValueError(
                f"{name}: `call_fn` takes `params` or `state`, so give `init_fn` to make them, or their initial values "
                "as `params=` / `state=`; all three are None."
            )
        self.init_fn_arguments = _arguments(init_fn, "init_fn", _INIT_ARGUMENTS, name) if init_fn else None
        self.seed_generator = SeedGenerator(seed) if self.call_fn_has_rng or init_fn is not None else None
        self.params = self._variables_of(params, trainable=True)
        self.state = self._variables_of(state, trainable=False)
        if params is not None or state is not None:
            self.built = True

    def _variables_of(self, values, trainable):
        """``values`` with each array (or number) replaced by a weight of this layer holding it."""
        made = []
        if trainable:
            self._param_variables = made
        else:
            self._state_variables = made
        if values is None:
            return None

        def make(value):
            tensor = ops.convert_to_tensor(value)
            dtype = ops.dtype(tensor)
            made.append(
                self.add_weight(
                    tuple(ops.shape(tensor)),
                    initializer=lambda shape, dtype=None, t=tensor: t,
                    dtype=None if dtype.startswith("float") else dtype,
                    trainable=trainable,
                    name=f"{'param' if trainable else 'state'}_{len(made)}",
                )
            )
            return made[-1]

        # A variable is a JAX pytree of its value: the tree of variables flattens to the current values, in the
        # order of ``made``.
        return self._jax.tree_map(make, values)

    def build(self, input_shape):
        if self.params is None and self.state is None and (self.call_fn_has_params or self.call_fn_has_state):
            self._initialize(input_shape)
        self.built = True

    def _initialize(self, input_shape):
        def ones(shape):
            return ops.ones(tuple(1 if d is None else d for d in shape))

        is_shape = isinstance(input_shape, (tuple, list)) and all(d is None or isinstance(d, int) for d in input_shape)
        if is_shape:
            inputs = ones(input_shape)
        elif isinstance(input_shape, dict):
            inputs = {k: ones(s) for k, s in input_shape.items()}
        else:
            inputs = [ones(s) for s in input_shape]
        given = {
            "rng": self._jax.prng_key(self.seed_generator.next()) if self.seed_generator is not None else None,
            "inputs": inputs,
            "training": True,
        }
        result = self.init_fn(*[given[n] for n in self.init_fn_arguments])
        params, state = result if self.call_fn_has_state else (result, None)
        self.params = self._variables_of(params, trainable=True)
        self.state = self._variables_of(state, trainable=False)

    def _run(self, inputs, training):
        given = {
            "params": None if self.params is None else self._jax.tree_map(_same, self.params),
            "state": None if self.state is None else self._jax.tree_map(_same, self.state),
            "rng": self._jax.prng_key(self.seed_generator.next()) if training and self.call_fn_has_rng else None,
            "inputs": inputs,
            "training": bool(training),
        }
        return self.call_fn(*[given[n] for n in self.call_fn_arguments])

    def call(self, inputs, training=False):
        if not self.call_fn_has_state:
            return self._run(inputs, training)
        outputs, new_state = self._run(inputs, training)
        old, new = self._state_variables, self._jax.tree_leaves(new_state)
        if len(old) != len(new):
            raise ValueError(
                f"{type(self).__name__} '{self.name}': `call_fn` returned a state of {len(new)} arrays, but the "
                f"layer's state has {len(old)}; return the new state in the structure of the initial one."
            )
        for variable, value in zip(old, new):
            variable.assign(value)
        return outputs

    def compute_output_spec(self, inputs, training=False):
        flat, treedef = tree.flatten(inputs)
        shapes, dtypes = [tuple(t.shape) for t in flat], [t.dtype for t in flat]

        def run(*arrays):
            return self._run(tree.unflatten(treedef, list(arrays)), False)

        def outputs_only(*arrays):
            out = run(*arrays)
            return out[0] if self.call_fn_has_state else out

        specs = self._jax.output_spec(outputs_only, shapes, dtypes)
        outputs = [KerasTensor(shape, dtype) for shape, dtype in specs]
        return outputs[0] if len(outputs) == 1 else outputs

    def get_config(self):
        """The layer's config: ``call_fn`` and ``init_fn`` by their registered names, ``seed`` and
        ``native_serialization_platforms``. Initial ``params``/``state`` given as values are not part of it (as in
        Keras): the saved weights carry them.

        Raises:
            NotImplementedError: a function is not registered with ``hl.saving.register_keras_serializable``, so
                a saved model could not name it.
        """
        from highlevel import saving

        for arg, fn in (("call_fn", self.call_fn), ("init_fn", self.init_fn)):
            if fn is not None and saving.get_registered_object(saving.get_registered_name(fn)) is not fn:
                raise NotImplementedError(
                    f"{type(self).__name__} '{self.name}': its `{arg}` {fn!r} is not registered, so a saved model "
                    "cannot name it. Decorate the function with @hl.saving.register_keras_serializable(), or save "
                    "the weights with model.save_weights(...) and build the model again in code to load them."
                )
        config = super().get_config()
        platforms = self.jax2tf_native_serialization_platforms
        config.update(
            {
                "call_fn": saving.serialize_keras_object(self.call_fn),
                "init_fn": None if self.init_fn is None else saving.serialize_keras_object(self.init_fn),
                "seed": self.seed,
                "native_serialization_platforms": None if platforms is None else list(platforms),
            }
        )
        return config

    @classmethod
    def from_config(cls, config):
        from highlevel import saving

        config = dict(config)
        for arg in ("call_fn", "init_fn"):
            if isinstance(config.get(arg), dict):
                config[arg] = saving.deserialize_keras_object(config[arg])
        return cls(**config)


class FlaxLayer(JaxLayer):
    """A Flax ``linen.Module`` as a layer (``keras.layers.FlaxLayer``); needs the jax backend and the flax package.

    The module's ``params`` collection becomes the layer's trainable weights and its other collections (such as
    ``batch_stats``) its non-trainable weights, which each call writes back. When the called method takes a
    ``training`` argument, the layer passes its own; while training the module gets a ``dropout`` key.

    Args:
        module: the Flax module.
        method: the module's method to call, or its name (default ``__call__``).
        variables: the module's initial variables (default: ``module.init`` on inputs of ones shaped like the
            first inputs).
        **kwargs: :class:`JaxLayer`'s ``seed`` and ``native_serialization_platforms``, and the arguments of
            :class:`~highlevel.layers.Layer`.

    Raises:
        ImportError: if flax is not installed.

    >>> import numpy as np
    >>> import flax.linen as nn
    >>> import highlevel as hl
    >>> class Linear(nn.Module):
    ...     @nn.compact
    ...     def __call__(self, x):
    ...         return nn.Dense(2)(x)
    >>> with hl.config.backend_scope("jax"):  # Flax modules run on the JAX engine
    ...     layer = hl.layers.FlaxLayer(Linear())
    ...     hl.ops.shape(layer(np.ones((1, 3), "float32"))), sorted(w.shape for w in layer.trainable_weights)
    ((1, 2), [(2,), (3, 2)])
    """

    def __init__(self, module, method=None, variables=None, **kwargs):
        import importlib

        try:
            importlib.import_module("flax")
        except ImportError:
            from highlevel._extras import install_command

            raise ImportError(
                f"FlaxLayer needs the flax package, which is not installed: {install_command('flax')} (or "
                "`pip install flax`)."
            ) from None
        self.module, self.method = module, method
        target = getattr(module, method) if isinstance(method, str) else (method or module.__call__)
        takes_training = "training" in inspect.signature(target).parameters
        extra = {"training": None} if takes_training else {}

        def call_fn(params, state, rng, inputs, training):
            if takes_training:
                extra["training"] = training
            collections = list(state or {})
            out = module.apply(
                self._to_variables(params, state),
                inputs,
                method=method,
                mutable=collections,
                rngs={"dropout": rng} if rng is not None else {},
                **extra,
            )
            outputs, updates = out
            return outputs, {k: updates[k] for k in collections} if state is not None else None

        def init_fn(rng, inputs, training):
            if takes_training:
                extra["training"] = training
            dropout_key = self._jax.prng_key(self.seed_generator.next())
            variables = module.init({"params": rng, "dropout": dropout_key}, inputs, method=method, **extra)
            return self._from_variables(variables)

        params, state = self._from_variables(variables) if variables is not None else (None, None)
        super().__init__(call_fn, init_fn=init_fn, params=params, state=state, **kwargs)

    def get_config(self):
        raise NotImplementedError(
            f"{type(self).__name__} '{self.name}' holds a Flax module, which a saved model cannot name: save its "
            "weights with model.save_weights(...) and build the model again in code to load them."
        )

    @staticmethod
    def _to_variables(params, state):
        variables = dict(state or {})
        if params is not None:
            variables["params"] = params
        return variables

    @staticmethod
    def _from_variables(variables):
        """``(params, state)``: the module's ``params`` collection and a dict of its other collections."""
        variables = dict(variables)
        return variables.pop("params", None), variables
