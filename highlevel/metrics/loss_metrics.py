"""Metrics that average a probabilistic or hinge loss over all samples: cross-entropies, KL divergence,
Poisson and the hinge family, each a :class:`MeanMetricWrapper` of the loss function of the same name.

>>> round(float(BinaryCrossentropy()([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]])), 3)
0.815
>>> round(float(CategoricalHinge()([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]])), 2)
1.4
"""

from highlevel import losses

from .reduction_metrics import MeanMetricWrapper


class _SimpleWrapper(MeanMetricWrapper):
    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}


class KLDivergence(_SimpleWrapper):
    """Mean Kullback-Leibler divergence (:func:`highlevel.losses.kl_divergence`).

    Args:
        name: the metric's name (default ``"kl_divergence"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> round(float(hl.metrics.KLDivergence()([[0.5, 0.5], [1.0, 0.0]], [[0.5, 0.5], [0.5, 0.5]])), 4)
    0.3466
    """

    def __init__(self, name="kl_divergence", dtype=None):
        super().__init__(losses.kl_divergence, name=name, dtype=dtype)


class Poisson(_SimpleWrapper):
    """Mean Poisson loss (:func:`highlevel.losses.poisson`).

    Args:
        name: the metric's name (default ``"poisson"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> float(hl.metrics.Poisson()([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]]))
    0.75
    """

    def __init__(self, name="poisson", dtype=None):
        super().__init__(losses.poisson, name=name, dtype=dtype)


class Hinge(_SimpleWrapper):
    """Mean hinge loss (:func:`highlevel.losses.hinge`).

    Args:
        name: the metric's name (default ``"hinge"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> float(hl.metrics.Hinge()([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]]))
    1.25
    """

    def __init__(self, name="hinge", dtype=None):
        super().__init__(losses.hinge, name=name, dtype=dtype)


class SquaredHinge(_SimpleWrapper):
    """Mean squared hinge loss (:func:`highlevel.losses.squared_hinge`).

    Args:
        name: the metric's name (default ``"squared_hinge"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> float(hl.metrics.SquaredHinge()([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]]))
    2.25
    """

    def __init__(self, name="squared_hinge", dtype=None):
        super().__init__(losses.squared_hinge, name=name, dtype=dtype)


class CategoricalHinge(_SimpleWrapper):
    """Mean categorical hinge loss (:func:`highlevel.losses.categorical_hinge`).

    Args:
        name: the metric's name (default ``"categorical_hinge"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> float(hl.metrics.CategoricalHinge()([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]]))
    1.5
    """

    def __init__(self, name="categorical_hinge", dtype=None):
        super().__init__(losses.categorical_hinge, name=name, dtype=dtype)


class BinaryCrossentropy(MeanMetricWrapper):
    """Mean binary cross-entropy (:func:`highlevel.losses.binary_crossentropy`).

    Args:
        from_logits: whether predictions are logits.
        label_smoothing: in [0, 1].
        name: the metric's name (default ``"binary_crossentropy"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> round(float(hl.metrics.BinaryCrossentropy()([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]])), 4)
    0.8149
    """

    def __init__(self, name="binary_crossentropy", dtype=None, from_logits=False, label_smoothing=0):
        super().__init__(
            losses.binary_crossentropy, name=name, dtype=dtype, from_logits=from_logits, label_smoothing=label_smoothing
        )
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing

    def get_config(self):
        return {
            "name": self.name,
            "dtype": self.dtype,
            "from_logits": self.from_logits,
            "label_smoothing": self.label_smoothing,
        }


class CategoricalCrossentropy(MeanMetricWrapper):
    """Mean categorical cross-entropy (:func:`highlevel.losses.categorical_crossentropy`).

    Args:
        from_logits: whether predictions are logits.
        label_smoothing: in [0, 1].
        axis: the class axis.
        name: the metric's name (default ``"categorical_crossentropy"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> y_true, y_pred = [[0, 1, 0], [0, 0, 1]], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]]
    >>> round(float(hl.metrics.CategoricalCrossentropy()(y_true, y_pred)), 4)
    1.1769
    """

    def __init__(self, name="categorical_crossentropy", dtype=None, from_logits=False, label_smoothing=0, axis=-1):
        super().__init__(
            losses.categorical_crossentropy,
            name=name,
            dtype=dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def get_config(self):
        return {
            "name": self.name,
            "dtype": self.dtype,
            "from_logits": self.from_logits,
            "label_smoothing": self.label_smoothing,
            "axis": self.axis,
        }


class SparseCategoricalCrossentropy(MeanMetricWrapper):
    """Mean sparse categorical cross-entropy (:func:`highlevel.losses.sparse_categorical_crossentropy`).

    Args:
        from_logits: whether predictions are logits.
        ignore_class: a label whose entries give 0 (and, with sample weights, weigh 0).
        axis: the class axis.
        name: the metric's name (default ``"sparse_categorical_crossentropy"``).
        dtype: the dtype of the metric's state and result; None uses ``hl.config.floatx()``.

    >>> import highlevel as hl
    >>> round(float(hl.metrics.SparseCategoricalCrossentropy()([1, 2], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]])), 4)
    1.1769
    """

    def __init__(
        self, name="sparse_categorical_crossentropy", dtype=None, from_logits=False, ignore_class=None, axis=-1
    ):
        super().__init__(
            losses.sparse_categorical_crossentropy,
            name=name,
            dtype=dtype,
            from_logits=from_logits,
            ignore_class=ignore_class,
            axis=axis,
        )
        self.from_logits = from_logits
        self.ignore_class = ignore_class
        self.axis = axis

    def get_config(self):
        return {
            "name": self.name,
            "dtype": self.dtype,
            "from_logits": self.from_logits,
            "ignore_class": self.ignore_class,
            "axis": self.axis,
        }
