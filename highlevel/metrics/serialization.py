"""Finding metrics by name, and turning them into configs and back (``keras.metrics.get``, ``serialize``,
``deserialize``).

Names are the class names (``"BinaryAccuracy"``), their snake_case (``"binary_accuracy"``, ``"auc"``,
``"f1_score"``) and Keras' short aliases (``"mse"``, ``"mae"``, ``"mape"``, ``"msle"``, ``"bce"`` and
upper-case spellings), plus ``"acc"`` for :class:`Accuracy`. A name always gives a new :class:`Metric`
instance. Which accuracy or cross-entropy *variant* a bare ``"accuracy"`` means for a model is the
trainer's decision; here ``get("accuracy")`` is :class:`Accuracy`, as in Keras.

Unlike ``keras.metrics.get``, a plain function comes back wrapped in a :class:`MeanMetricWrapper` named
after it, so that every result has ``update_state`` / ``result`` / ``reset_state``.

>>> get("acc")
<Accuracy name=accuracy>
>>> get("mse").name
'mean_squared_error'
>>> serialize(get({"class_name": "BinaryAccuracy", "config": {"threshold": 0.7}}))["config"]["threshold"]
0.7
"""

import inspect

from highlevel.naming import to_snake_case

from . import accuracy_metrics as acc
from . import auc as auc_module
from . import confusion_metrics as conf
from . import constrained_metrics as constrained
from . import correlation_metrics as corr
from . import f_score_metrics as fscore
from . import iou_metrics as iou
from . import loss_metrics as lossm
from . import reduction_metrics as red
from . import regression_metrics as reg
from .metric import Metric

_CLASSES = (
    Metric,
    red.Mean,
    red.Sum,
    red.MeanMetricWrapper,
    reg.MeanSquaredError,
    reg.RootMeanSquaredError,
    reg.MeanAbsoluteError,
    reg.MeanAbsolutePercentageError,
    reg.MeanSquaredLogarithmicError,
    reg.CosineSimilarity,
    reg.LogCoshError,
    reg.R2Score,
    auc_module.AUC,
    conf.FalseNegatives,
    conf.FalsePositives,
    conf.TrueNegatives,
    conf.TruePositives,
    conf.Precision,
    conf.Recall,
    lossm.Hinge,
    lossm.SquaredHinge,
    lossm.CategoricalHinge,
    lossm.KLDivergence,
    lossm.Poisson,
    lossm.BinaryCrossentropy,
    lossm.CategoricalCrossentropy,
    lossm.SparseCategoricalCrossentropy,
    acc.Accuracy,
    acc.BinaryAccuracy,
    acc.CategoricalAccuracy,
    acc.SparseCategoricalAccuracy,
    acc.TopKCategoricalAccuracy,
    acc.SparseTopKCategoricalAccuracy,
    fscore.F1Score,
    fscore.FBetaScore,
    constrained.SensitivityAtSpecificity,
    constrained.SpecificityAtSensitivity,
    constrained.PrecisionAtRecall,
    constrained.RecallAtPrecision,
    corr.PearsonCorrelation,
    corr.ConcordanceCorrelation,
    iou.IoU,
    iou.BinaryIoU,
    iou.MeanIoU,
    iou.OneHotIoU,
    iou.OneHotMeanIoU,
)

#: Every name :func:`get` and :func:`deserialize` accept.
ALL_OBJECTS = {cls.__name__: cls for cls in _CLASSES}
ALL_OBJECTS.update({to_snake_case(cls.__name__): cls for cls in _CLASSES})
for _alias, _cls in {
    "mse": reg.MeanSquaredError,
    "mae": reg.MeanAbsoluteError,
    "mape": reg.MeanAbsolutePercentageError,
    "msle": reg.MeanSquaredLogarithmicError,
    "bce": lossm.BinaryCrossentropy,
}.items():
    ALL_OBJECTS[_alias] = _cls
    ALL_OBJECTS[_alias.upper()] = _cls
ALL_OBJECTS["acc"] = acc.Accuracy
ALL_OBJECTS["rmse"] = reg.RootMeanSquaredError
ALL_OBJECTS["logcosh"] = reg.LogCoshError
ALL_OBJECTS["fbeta_score"] = fscore.FBetaScore

# Per-sample metric functions, for MeanMetricWrapper configs.
_FUNCTIONS = {
    fn.__name__: fn
    for fn in (
        acc.accuracy,
        acc.binary_accuracy,
        acc.categorical_accuracy,
        acc.sparse_categorical_accuracy,
        acc.top_k_categorical_accuracy,
        acc.sparse_top_k_categorical_accuracy,
        reg.cosine_similarity,
        corr.pearson_correlation,
        corr.concordance_correlation,
    )
}


def function_by_name(name, custom_objects=None):
    """The per-sample function called ``name``: a metric function or a loss function."""
    from highlevel.saving.object_registry import find

    found = find(name, custom_objects, _FUNCTIONS)
    if found is not None:
        return found
    from highlevel import losses

    return losses.serialization.function_by_name(name)


def _lookup(name, custom_objects):
    from highlevel.saving.object_registry import find

    found = find(name, custom_objects, ALL_OBJECTS)
    if found is not None:
        return found
    raise ValueError(
        f"Unknown metric {name!r}. Valid names: {', '.join(sorted(ALL_OBJECTS))}. For your own metric, pass the "
        "object itself or custom_objects={name: cls}."
    )


def serialize(metric):
    """``{"class_name": ..., "config": ...}`` describing ``metric`` (None stays None); a named function
    gives ``{"class_name": "function", "config": <its name>}``.

    Args:
        metric: a :class:`Metric` instance, a named metric function, or None.

    Returns:
        A dict of plain Python values (None for None).

    Raises:
        TypeError: for something that is neither a Metric nor a named function.

    >>> import highlevel as hl
    >>> hl.metrics.serialize(hl.metrics.BinaryAccuracy(threshold=0.7))["config"]["threshold"]
    0.7
    """
    if metric is None:
        return None
    from highlevel.saving.object_registry import describe, function_name

    if isinstance(metric, Metric):
        return describe(metric, {"class_name": type(metric).__name__, "config": metric.get_config()})
    if callable(metric) and getattr(metric, "__name__", "<lambda>") != "<lambda>":
        return {"class_name": "function", "config": function_name(metric)}
    raise TypeError(
        f"Cannot serialize {metric!r} of type {type(metric).__name__}: pass a Metric instance or a named function."
    )


def deserialize(config, custom_objects=None):
    """The metric described by ``config`` (a :func:`serialize` output, or a name).

    Args:
        config: a name, or ``{"class_name": ..., "config": ...}`` (other keys are ignored).
        custom_objects: an optional ``{name: class or function}`` dict for your own metrics.

    Returns:
        A :class:`Metric` instance (a function for ``"class_name": "function"`` configs).

    Raises:
        ValueError: if ``config`` is neither a string nor a dict with a ``"class_name"`` key, or names no known metric.

    >>> import highlevel as hl
    >>> hl.metrics.deserialize({"class_name": "BinaryAccuracy", "config": {"threshold": 0.7}}).threshold
    0.7
    """
    if isinstance(config, str):
        obj = _lookup(config, custom_objects)
        return obj() if inspect.isclass(obj) else obj
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(
            f"metrics.deserialize expects a name or a dict {{'class_name': ..., 'config': ...}}; received {config!r}."
        )
    if config["class_name"] == "function":
        return function_by_name(config["config"], custom_objects)
    from highlevel.saving.object_registry import find_class

    cls = find_class(config, custom_objects, ALL_OBJECTS) or _lookup(config["class_name"], custom_objects)
    if not inspect.isclass(cls):
        return cls
    return cls.from_config(dict(config.get("config") or {}))


def get(identifier):
    """A :class:`Metric` from None (returns None), a name, a config dict, an instance, a Metric class or a
    function ``fn(y_true, y_pred) -> per-sample values`` (wrapped in a :class:`MeanMetricWrapper`).

    Args:
        identifier: None, a metric name (``"accuracy"``, ``"mse"``, ``"AUC"``...), a config dict, a :class:`Metric`
            instance or class, or a function ``fn(y_true, y_pred)``.

    Returns:
        A :class:`Metric` instance (the one given, a new instance, or a :class:`MeanMetricWrapper` around a function),
        or None for None.

    Raises:
        ValueError: for an unknown name (the message lists the valid ones) or an unusable identifier.

    >>> import highlevel as hl
    >>> hl.metrics.get("mse")
    <MeanSquaredError name=mean_squared_error>
    """
    if identifier is None:
        return None
    if isinstance(identifier, Metric):
        return identifier
    obj = deserialize(identifier) if isinstance(identifier, (str, dict)) else identifier
    if inspect.isclass(obj):
        if issubclass(obj, Metric):
            return obj()
        raise ValueError(f"Could not interpret metric identifier: the class {obj!r} is not a Metric.")
    if isinstance(obj, Metric):
        return obj
    if callable(obj):
        return red.MeanMetricWrapper(obj)
    raise ValueError(
        f"Could not interpret metric identifier {identifier!r} (type {type(identifier).__name__}). "
        "Pass a name such as 'accuracy' or 'mse', a config dict, a Metric or a function."
    )
