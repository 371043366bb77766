"""Wraps a Python function as a layer; its config names the function and never holds code.

Rebuilding a Lambda from a config means importing a module and looking a function up in it, which runs
code named by the file. So :meth:`Lambda.from_config` refuses that by default ("safe mode"), unless the
function belongs to highlevel itself (``hl.ops.*``, ``hl.activations.*``). Opt in when the config is
trusted, for the whole process or for a block:

>>> from highlevel.layers.core import lambda_layer
>>> with lambda_layer.safe_mode_scope(False):
...     pass  # deserialize trusted configs here
>>> lambda_layer.in_safe_mode()
True
"""

import contextlib
import importlib
import inspect
import threading

from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer


class _SafeMode(threading.local):
    def __init__(self):
        self.value = None  # None: the process-wide default below


_scope = _SafeMode()
_process_safe_mode = True


def in_safe_mode():
    """Whether Lambda configs that name a non-highlevel function are refused (the default: True)."""
    return _process_safe_mode if _scope.value is None else _scope.value


def enable_unsafe_deserialization():
    """Lets every later ``Lambda.from_config`` import the module its config names (``keras.config.
    enable_unsafe_deserialization``). Only do this for configs you trust."""
    global _process_safe_mode
    _process_safe_mode = False


def disable_unsafe_deserialization():
    """Restores the default: Lambda configs naming code outside highlevel are refused."""
    global _process_safe_mode
    _process_safe_mode = True


@contextlib.contextmanager
def safe_mode_scope(safe_mode):
    """Sets safe mode for the calling thread inside a ``with`` block (``safe_mode=False`` to allow)."""
    previous = _scope.value
    _scope.value = bool(safe_mode)
    try:
        yield
    finally:
        _scope.value = previous


def _function_info(fn, what):
    """A code-free description of ``fn``: its module and qualified name."""
    if not callable(fn):
        raise TypeError(f"Lambda `{what}` must be callable; received {fn!r} of type {type(fn).__name__}.")
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__
    module = getattr(fn, "__module__", None)
    if module and module.startswith("highlevel.ops."):
        from highlevel import ops

        if getattr(ops, name, None) is fn:
            module = "highlevel.ops"  # the op's public path (it is defined in one of the namespace modules)
    return {"class_name": "function", "module": module, "config": name}


def _is_function_info(value):
    return isinstance(value, dict) and value.get("class_name") == "function" and "config" in value


def _load_function(info, layer_name, what, safe_mode):
    module_name, qualname = info.get("module"), info["config"]
    if "<lambda>" in qualname or "<locals>" in qualname or not module_name:
        raise ValueError(
            f"Cannot rebuild Lambda layer '{layer_name}': its `{what}` was {qualname!r} in module "
            f"{module_name!r}, which has no importable name (a lambda or a nested function). Define the function "
            "at module level, or build the Lambda in code instead of from a config."
        )
    own = module_name == "highlevel" or module_name.startswith("highlevel.")
    if safe_mode and not own:
        raise ValueError(
            f"Refusing to rebuild Lambda layer '{layer_name}' from its config: that would import module "
            f"{module_name!r} and run its function {qualname!r}, i.e. execute code named by the config. If you "
            "trust its source, wrap the call in `with highlevel.layers.core.lambda_layer.safe_mode_scope(False):` "
            "or call `highlevel.layers.core.lambda_layer.enable_unsafe_deserialization()`."
        )
    obj = importlib.import_module(module_name)
    try:
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except AttributeError:
        raise ValueError(
            f"Cannot rebuild Lambda layer '{layer_name}': module {module_name!r} has no {qualname!r} (its `{what}`)."
        ) from None
    return obj


def _is_shape(value):
    return isinstance(value, (list, tuple)) and all(d is None or isinstance(d, int) for d in value)


class Lambda(Layer):
    """Wraps an arbitrary function as a layer (``keras.layers.Lambda``).

    Meant for simple stateless computations; a function that creates weights belongs in a subclassed
    layer. Its config records the function by module and qualified name only (no code), and
    :meth:`from_config` imports it only in the cases described in this module's docstring.

    Args:
        function: the function, called as ``function(inputs, **arguments)``; it also receives ``mask``
            and/or ``training`` when its signature names them.
        output_shape: the output shape without the batch axis (a tuple, or a list of tuples for several
            outputs), or a callable ``input_shape -> output_shape`` (with the batch axis); None infers the
            shape by running ``function`` symbolically.
        mask: None, or a callable ``(inputs, mask) -> output mask``.
        arguments: a dict of keyword arguments passed to ``function``.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Raises:
        TypeError: if ``function`` is not callable, ``mask`` is neither None nor callable, or ``arguments`` is not a
            dict.
        ValueError: if ``output_shape`` is not None, a shape tuple, a list of shape tuples or a callable.

    >>> import highlevel as hl
    >>> layer = hl.layers.Lambda(hl.ops.multiply, arguments={"x2": 2.0})
    >>> hl.ops.convert_to_numpy(layer(hl.ops.convert_to_tensor([1.0, 2.0]))).tolist()
    [2.0, 4.0]
    >>> layer.get_config()["function"]
    {'class_name': 'function', 'module': 'highlevel.ops', 'config': 'multiply'}
    """

    accepts_text = True  # the wrapped function may read strings itself

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        if not callable(function):
            raise TypeError(
                f"Lambda's `function` must be callable; received {function!r} of type {type(function).__name__}."
            )
        if (
            output_shape is not None
            and not callable(output_shape)
            and not _is_shape(output_shape)
            and not (isinstance(output_shape, (list, tuple)) and all(_is_shape(s) for s in output_shape))
        ):
            raise ValueError(
                "Lambda's `output_shape` must be None, a shape tuple without the batch axis, a list of such "
                f"tuples, or a callable; received output_shape={output_shape!r}."
            )
        if mask is not None and not callable(mask):
            raise TypeError(f"Lambda's `mask` must be None or a callable (inputs, mask) -> mask; received {mask!r}.")
        if arguments is not None and not isinstance(arguments, dict):
            raise TypeError(f"Lambda's `arguments` must be a dict of keyword arguments; received {arguments!r}.")
        self.function = function
        self.arguments = dict(arguments or {})
        self.mask = mask
        self.supports_masking = mask is not None
        self._output_shape = tuple(output_shape) if _is_shape(output_shape) else output_shape
        try:
            params = inspect.signature(function).parameters
        except (TypeError, ValueError):  # some builtins have no signature
            params = {}
        self._fn_expects_training = "training" in params
        self._fn_expects_mask = "mask" in params
        self.built = True

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if self._fn_expects_mask:
            kwargs["mask"] = mask
        if self._fn_expects_training:
            kwargs["training"] = training
        return self.function(inputs, **kwargs)

    def compute_output_shape(self, input_shape):
        if self._output_shape is None:
            return super().compute_output_shape(input_shape)
        if callable(self._output_shape):
            return self._output_shape(input_shape)
        first = input_shape[0] if isinstance(input_shape[0], (list, tuple)) else input_shape
        batch = first[0] if len(first) else None
        if _is_shape(self._output_shape):
            return (batch,) + tuple(self._output_shape)
        return [(batch,) + tuple(s) for s in self._output_shape]

    def compute_output_spec(self, inputs, mask=None, training=None):
        if self._output_shape is None:
            return super().compute_output_spec(inputs, mask=mask, training=training)
        shapes = self.compute_output_shape(
            [x.shape for x in inputs] if isinstance(inputs, (list, tuple)) else inputs.shape
        )
        if _is_shape(shapes):
            return KerasTensor(shapes, self.compute_dtype)
        return [KerasTensor(s, self.compute_dtype) for s in shapes]

    def compute_mask(self, inputs, mask=None):
        if callable(self.mask):
            return self.mask(inputs, mask)
        return None

    def get_config(self):
        config = super().get_config()
        config["function"] = _function_info(self.function, "function")
        if self._output_shape is not None:
            config["output_shape"] = (
                _function_info(self._output_shape, "output_shape")
                if callable(self._output_shape)
                else self._output_shape
            )
        if self.mask is not None:
            config["mask"] = _function_info(self.mask, "mask")
        config["arguments"] = dict(self.arguments)
        return config

    @classmethod
    def from_config(cls, config, safe_mode=None):
        """Rebuilds a Lambda; ``safe_mode=None`` follows the module's switch (see the module docstring)."""
        config = dict(config)
        safe_mode = in_safe_mode() if safe_mode is None else bool(safe_mode)
        name = config.get("name", "lambda")
        for key in ("function", "output_shape", "mask"):
            if _is_function_info(config.get(key)):
                config[key] = _load_function(config[key], name, key, safe_mode)
        if not callable(config.get("function")):
            raise ValueError(
                f"A Lambda config needs `function` as {{'class_name': 'function', 'module': ..., 'config': "
                f"name}}; received function={config.get('function')!r}."
            )
        if isinstance(config.get("output_shape"), list) and _is_shape(config["output_shape"]):
            config["output_shape"] = tuple(config["output_shape"])
        return cls(**config)
