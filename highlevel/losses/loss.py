"""The loss base class and the wrapper that turns a function ``fn(y_true, y_pred)`` into a loss
(``keras.losses.Loss``, ``keras.losses.LossFunctionWrapper``).

>>> import highlevel as hl
>>> class MyMSE(Loss):
...     def call(self, y_true, y_pred):
...         return hl.ops.mean(hl.ops.square(y_pred - y_true), axis=-1)
>>> float(MyMSE()([[0.0, 1.0]], [[1.0, 1.0]]))
0.5
>>> float(LossFunctionWrapper(lambda t, p: hl.ops.abs(t - p), reduction="sum")([1.0, 2.0], [0.0, 0.0]))
3.0
"""

from highlevel import ops
from highlevel.config import floatx
from highlevel.masking import get_keras_mask
from highlevel.naming import to_snake_case, unique_name

from .reduction import reduce_weighted_values, squeeze_or_expand_to_same_rank, standardize_reduction


class Loss:
    """Base class of losses: ``loss(y_true, y_pred, sample_weight=None)`` gives the reduced loss.

    Subclasses implement :meth:`call`, returning one value per sample (the last axis reduced, usually).

    Args:
        name: the loss's name; defaults to the snake_case class name, made unique.
        reduction: ``"sum_over_batch_size"`` (default), ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``,
            ``"none"`` or ``None`` (see :mod:`highlevel.losses.reduction`).
        dtype: the computation dtype; ``None`` means floatx. ``y_true`` and ``y_pred`` are cast to it.

    >>> import highlevel as hl
    >>> class AbsoluteError(hl.losses.Loss):
    ...     def call(self, y_true, y_pred):
    ...         return hl.ops.mean(hl.ops.abs(y_true - y_pred), axis=-1)
    >>> loss = AbsoluteError()
    >>> float(hl.ops.convert_to_numpy(loss([[0.0, 1.0]], [[1.0, 1.0]])))
    0.5
    >>> float(hl.ops.convert_to_numpy(AbsoluteError(reduction="sum")([[0.0], [0.0]], [[1.0], [2.0]])))
    3.0
    """

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        self.name = name or unique_name(to_snake_case(type(self).__name__))
        self.reduction = standardize_reduction(reduction)
        self._dtype = dtype

    #: True for losses whose ``y_true`` holds class indices (sparse cross-entropy): integer labels are kept as
    #: they are instead of being converted to the computation dtype first (as Keras does).
    _integer_labels = False

    @property
    def dtype(self):
        """The computation dtype (floatx unless given)."""
        return self._dtype or floatx()

    def __call__(self, y_true, y_pred, sample_weight=None):
        """The loss of a batch, weighted by ``sample_weight`` and reduced by ``self.reduction``.

        Entries that the mask attached to ``y_pred`` leaves out (a model's output mask, see
        :mod:`highlevel.masking`) do not count, as in Keras."""
        output_mask = get_keras_mask(y_pred)
        y_pred = ops.convert_to_tensor(y_pred, dtype=self.dtype)
        if self._integer_labels and _is_integer(y_true):
            # Class indices stay integers: a round trip through floats would cost two conversions per batch
            # and change nothing for any realistic class count.
            y_true = ops.convert_to_tensor(y_true)
        else:
            y_true = ops.convert_to_tensor(y_true, dtype=self.dtype)
        values, mask = self.call_with_mask(y_true, y_pred)
        if output_mask is not None:
            mask = (
                output_mask if mask is None else ops.logical_and(ops.cast(mask, "bool"), ops.cast(output_mask, "bool"))
            )
        return reduce_weighted_values(
            values, sample_weight=sample_weight, mask=mask, reduction=self.reduction, dtype=self.dtype
        )

    def call(self, y_true, y_pred):
        """The per-sample loss values (no weighting, no reduction). Subclasses define it."""
        raise TypeError(
            f"{type(self).__name__} subclasses Loss but does not define call(y_true, y_pred); define it to "
            "return one loss value per sample."
        )

    def call_with_mask(self, y_true, y_pred):
        """``(values, mask)``: :meth:`call`'s values and a boolean tensor of the entries that count (or
        ``None`` when all do). A masked-out entry is left out of the average, as Keras does with the mask a
        loss attaches to its values (``SparseCategoricalCrossentropy(ignore_class=...)``)."""
        return self.call(y_true, y_pred), None

    def get_config(self):
        """The constructor arguments as a JSON-serializable dict."""
        return {"name": self.name, "reduction": self.reduction, "dtype": self._dtype}

    @classmethod
    def from_config(cls, config):
        """Builds a loss from the output of :meth:`get_config`."""
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name!r}>"


class LossFunctionWrapper(Loss):
    """A :class:`Loss` computed by ``fn(y_true, y_pred, **kwargs)``.

    Before calling ``fn``, the ranks of ``y_true`` and ``y_pred`` are aligned when they differ by a
    trailing axis of size 1 (``(batch,)`` labels against ``(batch, 1)`` predictions).

    Args:
        fn: a function returning per-sample loss values.
        reduction: see :class:`Loss`.
        name: see :class:`Loss`; defaults to ``fn``'s name.
        dtype: see :class:`Loss`.
        **kwargs: passed to ``fn`` on every call.

    Raises:
        TypeError: if ``fn`` is not callable.

    >>> import highlevel as hl
    >>> loss = hl.losses.LossFunctionWrapper(lambda t, p: hl.ops.mean(hl.ops.abs(t - p), axis=-1), reduction="sum")
    >>> float(loss([[1.0, 2.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 1.0]]))
    2.0
    """

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **kwargs):
        if not callable(fn):
            raise TypeError(f"LossFunctionWrapper expects a callable fn(y_true, y_pred); received {fn!r}.")
        if name is None and type(self) is LossFunctionWrapper:
            name = getattr(fn, "__name__", None)
            name = None if name == "<lambda>" else name
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs
        if getattr(fn, "_integer_labels", False):  # a loss function of class indices (sparse cross-entropy)
            self._integer_labels = True

    def _aligned(self, y_true, y_pred):
        if ops.is_tensor(y_true) and ops.is_tensor(y_pred):
            return squeeze_or_expand_to_same_rank(y_true, y_pred)
        return y_true, y_pred

    def call(self, y_true, y_pred):
        y_true, y_pred = self._aligned(y_true, y_pred)
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def call_with_mask(self, y_true, y_pred):
        # A function that can mark entries as not counting exposes a ``with_mask`` twin returning
        # ``(values, mask)`` (see sparse_categorical_crossentropy).
        with_mask = getattr(self.fn, "with_mask", None)
        if with_mask is None:
            return self.call(y_true, y_pred), None
        y_true, y_pred = self._aligned(y_true, y_pred)
        return with_mask(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        config = super().get_config()
        if type(self) is LossFunctionWrapper:
            config["fn"] = getattr(self.fn, "__name__", repr(self.fn))
            config.update(self._fn_kwargs)
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if cls is LossFunctionWrapper and isinstance(config.get("fn"), str):
            from .serialization import function_by_name

            config["fn"] = function_by_name(config["fn"])
        return cls(**config)

    def __repr__(self):
        if type(self) is LossFunctionWrapper:
            return f"<LossFunctionWrapper({getattr(self.fn, '__name__', self.fn)}, kwargs={self._fn_kwargs})>"
        return super().__repr__()


def _is_integer(x):
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        return False
    try:
        return ops.dtype(x).startswith(("int", "uint"))
    except Exception:  # a foreign array type: convert as before
        return False
