"""Metrics that reduce values over all batches: :class:`Sum`, :class:`Mean`, and :class:`MeanMetricWrapper`
(the mean of a per-sample function such as a loss).

Weighting follows Keras: values are first reduced to one per sample (over the axes the weights do not
have), multiplied by the weights, and a mean divides by the sum of the weights (the number of samples
without weights).

>>> m = Mean()
>>> float(m([1.0, 3.0, 5.0, 7.0]))
4.0
>>> m.reset_state(); float(m([1.0, 3.0, 5.0, 7.0], sample_weight=[1, 1, 0, 0]))
2.0
>>> float(Sum()([1.0, 3.0, 5.0, 7.0]))
16.0
"""

from highlevel import ops
from highlevel.losses.reduction import apply_mask, divide_no_nan, squeeze_or_expand_to_same_rank
from highlevel.masking import get_keras_mask

from .metric import Metric


def reduce_to_samplewise_values(values, sample_weight, reduce_fn, dtype, mask=None):
    """``(values, sample_weight)`` reduced to one value (and one weight) per sample, values weighted.

    Args:
        values: any-rank values; axis 0 is the sample axis.
        sample_weight: None, or weights that broadcast against ``values`` after rank alignment.
        reduce_fn: ``ops.mean`` or ``ops.sum``, for the extra axes.
        dtype: the computation dtype.
        mask: optional boolean tensor of counted entries; merged into the weights when there are weights
            (as Keras does).
    """
    values = ops.cast(ops.convert_to_tensor(values), dtype)
    if sample_weight is not None:
        sample_weight = ops.convert_to_tensor(sample_weight, dtype=dtype)
        if mask is not None:
            sample_weight = apply_mask(sample_weight, mask, dtype=dtype, reduction="sum")
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        weight_ndim, values_ndim = len(ops.shape(sample_weight)), len(ops.shape(values))
        if values_ndim > weight_ndim:
            values = reduce_fn(values, axis=tuple(range(weight_ndim, values_ndim)))
        sample_weight = ops.broadcast_to(sample_weight, ops.shape(values))
        values = values * sample_weight
        if weight_ndim > 1:
            sample_weight = reduce_fn(sample_weight, axis=tuple(range(1, weight_ndim)))
    values_ndim = len(ops.shape(values))
    if values_ndim > 1:
        values = reduce_fn(values, axis=tuple(range(1, values_ndim)))
    return values, sample_weight


class Sum(Metric):
    """The (weighted) sum of all values seen.

    Args:
        name: default ``"sum"``.
        dtype: the state dtype (default floatx).

    >>> import highlevel as hl
    >>> metric = hl.metrics.Sum()
    >>> metric.update_state([1, 3, 5, 7])
    >>> float(metric.result())
    16.0
    """

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable((), "zeros", dtype=self.dtype, name="total")

    def update_state(self, values, sample_weight=None):
        values, _ = reduce_to_samplewise_values(values, sample_weight, ops.sum, self.dtype)
        self.total.assign_add(ops.sum(values))

    def result(self):
        return ops.cast(self.total.value, self.dtype)


class Mean(Metric):
    """The (weighted) mean of all values seen: ``total / count`` (0 before any update).

    Args:
        name: default ``"mean"``.
        dtype: the state dtype (default floatx).

    >>> m = Mean(name="loss")
    >>> m.update_state(2.0, sample_weight=32); m.update_state(5.0, sample_weight=16)
    >>> float(m.result())
    3.0
    """

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable((), "zeros", dtype=self.dtype, name="total")
        self.count = self.add_variable((), "zeros", dtype=self.dtype, name="count")

    def update_state(self, values, sample_weight=None):
        self._update(values, sample_weight, None)

    def _update(self, values, sample_weight, mask):
        if (
            mask is None
            and isinstance(sample_weight, (int, float))
            and not isinstance(sample_weight, bool)
            and ops.ndim(values) == 0
        ):
            # A scalar with a Python weight (the trainer's loss tracker: the batch loss, weighted by the batch
            # size): two ops instead of the general per-sample alignment.
            self.total.assign_add(ops.cast(values, self.dtype) * float(sample_weight))
            self.count.assign_add(float(sample_weight))
            return
        values, sample_weight = reduce_to_samplewise_values(values, sample_weight, ops.mean, self.dtype, mask=mask)
        self.total.assign_add(ops.sum(values))
        if sample_weight is not None:
            num_samples = ops.sum(sample_weight)
        elif len(ops.shape(values)) >= 1:
            num_samples = float(ops.shape(values)[0])
        else:
            num_samples = 1.0
        self.count.assign_add(ops.cast(num_samples, self.dtype))

    def result(self):
        return divide_no_nan(self.total.value, ops.cast(self.count.value, self.dtype))


class MeanMetricWrapper(Mean):
    """The mean over all samples of ``fn(y_true, y_pred, **kwargs)`` (one value per sample).

    Args:
        fn: a function ``fn(y_true, y_pred, **kwargs)`` returning per-sample values (e.g. a loss function).
        name: the metric's name (defaults to ``fn``'s name).
        dtype: the state dtype (default floatx).
        **kwargs: passed to ``fn``.

    Raises:
        TypeError: if ``fn`` is not callable.

    >>> from highlevel import losses
    >>> m = MeanMetricWrapper(losses.mean_squared_error)
    >>> m.name, float(m([[0.0, 1.0]], [[1.0, 1.0]]))
    ('mean_squared_error', 0.5)
    """

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        if not callable(fn):
            raise TypeError(f"MeanMetricWrapper expects a callable fn(y_true, y_pred); received {fn!r}.")
        if name is None and type(self) is MeanMetricWrapper:
            name = getattr(fn, "__name__", None)
            name = None if name == "<lambda>" else name
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        # Entries the mask attached to y_pred leaves out (a model's output mask) count with weight 0, as in Keras.
        output_mask = get_keras_mask(y_pred)
        with_mask = getattr(self._fn, "with_mask", None)
        if with_mask is not None:
            values, mask = with_mask(y_true, y_pred, **self._fn_kwargs)
        else:
            values, mask = self._fn(y_true, y_pred, **self._fn_kwargs), None
        if output_mask is not None:
            sample_weight = apply_mask(sample_weight, output_mask, dtype=self.dtype, reduction="sum")
        self._update(values, sample_weight, mask)

    def get_config(self):
        config = super().get_config()
        if type(self) is MeanMetricWrapper:
            config["fn"] = getattr(self._fn, "__name__", repr(self._fn))
            config.update(self._fn_kwargs)
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if cls is MeanMetricWrapper and isinstance(config.get("fn"), str):
            from .serialization import function_by_name

            config["fn"] = function_by_name(config["fn"])
        return cls(**config)
