"""Symbolic tensors: a shape and a dtype with no values, from which functional models are built.

``hl.Input`` returns a :class:`KerasTensor`. Calling a layer or an ``hl.ops`` function on KerasTensors does
no computation: it records a :class:`Node` in a graph and returns new KerasTensors whose shape and dtype are
inferred. ``hl.Model(inputs, outputs)`` then replays that graph on real tensors.

>>> import highlevel as hl
>>> x = hl.KerasTensor((None, 3))
>>> y = hl.ops.matmul(x, hl.ops.ones((3, 5)))
>>> y.shape, y.dtype
((None, 5), 'float32')
"""

import itertools

from highlevel.backends.contract import dtypes as _dtypes

from .host_text import is_string_dtype

_names = itertools.count()


class FrameworkConversion(TypeError):
    """A framework tried to turn a symbolic KerasTensor into one of its own arrays.

    Inside a layer's ``call()`` this is a signal: the layer is then evaluated through the engine's own abstract
    evaluation. Anywhere else it reaches the user as a TypeError that says what to do.
    """

    def __init__(self, framework):
        self.framework = framework
        super().__init__(
            f"A symbolic KerasTensor (from hl.Input) was passed to a {framework} function, which needs a real "
            f"array; a symbolic tensor has only a shape and a dtype. Inside a layer's call() this works when the "
            f"framework is the current backend's; outside a layer, use hl.ops functions on symbolic tensors, or "
            f"call the {framework} function on real data (model.predict(...), model(x))."
        )


class KerasTensor:
    """A symbolic tensor: a shape and a dtype without values (``keras.KerasTensor``).

    :func:`~highlevel.Input` returns one, and layers and ops called on one return new ones, recording the graph
    of a functional model. Shape entries may be None for sizes known only at run time.

    Args:
        shape: a tuple of ints or None.
        dtype: a dtype name; default floatx.
        sparse: whether it stands for a sparse tensor (only on an engine with sparse tensors).
        ragged: whether it stands for a ragged tensor (only on an engine with ragged tensors).
        record_history: whether ops called on it record graph nodes (default True).
        name: a readable name.

    Raises:
        TypeError: an unknown keyword argument.
        ValueError: ``shape`` is not a tuple of ints or None, or ``sparse``/``ragged`` is set on an engine without
            such tensors.

    >>> import highlevel as hl
    >>> t = hl.KerasTensor((None, 3), dtype="float32")
    >>> y = hl.ops.matmul(t, hl.ops.ones((3, 5)))
    >>> y.shape, y.dtype
    ((None, 5), 'float32')
    """

    __array_priority__ = 200  # numpy defers binary operators to ours

    def __init__(self, shape, dtype=None, sparse=False, ragged=False, record_history=True, name=None, **kwargs):
        if (sparse and not _engine_has("sparse")) or (ragged and not _engine_has("ragged")):
            raise ValueError(
                f"KerasTensor(sparse={sparse!r}, ragged={ragged!r}): this engine has dense tensors only "
                "(sparse and ragged tensors exist on the TensorFlow backend); leave both False."
            )
        if kwargs:
            raise TypeError(f"KerasTensor() got unexpected keyword arguments {sorted(kwargs)}.")
        self.sparse, self.ragged, self.record_history = bool(sparse), bool(ragged), bool(record_history)
        try:
            self.shape = tuple(None if d is None else int(d) for d in shape)
        except (TypeError, ValueError):
            raise ValueError(
                f"A KerasTensor shape must be a tuple of ints or None; received shape={shape!r}."
            ) from None
        # "string": text that stays on the host for the text layers (see highlevel.host_text)
        self.dtype = "string" if is_string_dtype(dtype) else _dtypes.standardize_dtype(dtype)
        self.name = name or f"keras_tensor_{next(_names)}"
        self._history = None  # (node, index) once an operation produced it

    @property
    def ndim(self):
        return len(self.shape)

    def __repr__(self):
        return f"<KerasTensor shape={self.shape}, dtype={self.dtype}, name={self.name}>"

    def __bool__(self):
        raise TypeError(
            "A symbolic KerasTensor has no value, so it cannot be used as a Python bool (in `if`, `while`, "
            "`and`/`or`). In a layer's call(), use hl.ops.where / hl.ops.cond-style ops, or write a "
            "subclassed model, which runs on real tensors."
        )

    def __len__(self):
        if not self.shape or self.shape[0] is None:
            raise TypeError(f"len() of a KerasTensor with unknown leading dimension; shape={self.shape}.")
        return self.shape[0]

    def __iter__(self):
        raise TypeError("A symbolic KerasTensor cannot be iterated over; index it or use hl.ops.split.")

    def numpy(self):
        raise TypeError(
            "A symbolic KerasTensor has no value. Build a model with hl.Model(inputs, outputs) and call "
            "model.predict(...) or model(...) on real data to get numbers."
        )

    # A framework that converts a KerasTensor (a raw tf/numpy call in a layer's call() while a model is
    # built) meets this signal; the layer then evaluates its call() through the engine (Layer.compute_output_spec).
    def __array__(self, *args, **kwargs):
        raise FrameworkConversion("numpy")

    def __tf_tensor__(self, dtype=None, name=None):
        raise FrameworkConversion("TensorFlow")

    # No __jax_array__ nor __torch_function__: with them, `jax_array * kt` and `torch_tensor * kt` would convert
    # instead of deferring to our reflected operators. jnp and torch functions refuse a KerasTensor with a
    # TypeError that names it, which Layer.compute_output_spec takes as the same signal.

    # Operators go through hl.ops so that they record graph nodes.
    def _op(name):
        def method(self, *args):
            from highlevel import ops

            return getattr(ops, name)(self, *args)

        method.__name__ = name
        return method

    def _rop(name):
        def method(self, other):
            from highlevel import ops

            return getattr(ops, name)(other, self)

        return method

    __add__, __radd__ = _op("add"), _rop("add")
    __sub__, __rsub__ = _op("subtract"), _rop("subtract")
    __mul__, __rmul__ = _op("multiply"), _rop("multiply")
    __truediv__, __rtruediv__ = _op("divide"), _rop("divide")
    __floordiv__, __rfloordiv__ = _op("floor_divide"), _rop("floor_divide")
    __mod__, __rmod__ = _op("mod"), _rop("mod")
    __pow__, __rpow__ = _op("power"), _rop("power")
    __matmul__, __rmatmul__ = _op("matmul"), _rop("matmul")
    __neg__, __abs__ = _op("negative"), _op("abs")
    __lt__, __le__, __gt__, __ge__ = _op("less"), _op("less_equal"), _op("greater"), _op("greater_equal")
    __and__, __or__, __xor__, __invert__ = (
        _op("logical_and"),
        _op("logical_or"),
        _op("logical_xor"),
        _op("logical_not"),
    )
    __getitem__ = _op("getitem")
    del _op, _rop

    @property
    def T(self):
        from highlevel import ops

        return ops.transpose(self)

    __hash__ = object.__hash__


def is_symbolic(x):
    return isinstance(x, KerasTensor)


def any_symbolic(args, kwargs=None):
    """True when an argument (or an element of a list/tuple argument) is a KerasTensor."""
    for a in args:
        if isinstance(a, KerasTensor):
            return True
        if isinstance(a, (list, tuple)):
            for b in a:
                if isinstance(b, KerasTensor):
                    return True
    if kwargs:
        return any_symbolic(tuple(kwargs.values()))
    return False


def _engine_has(kind):
    from .sparse_outputs import supports

    return supports(kind)
