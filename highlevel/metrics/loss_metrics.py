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
    """Mean Kullback-Leibler divergence (:func:`highlevel.losses.kl_divergence`)."""

    def __init__(self, name="kl_divergence", dtype=None):
        super().__init__(losses.kl_divergence, name=name, dtype=dtype)


class Poisson(_SimpleWrapper):
    """Mean Poisson loss (:func:`highlevel.losses.poisson`)."""

    def __init__(self, name="poisson", dtype=None):
        super().__init__(losses.poisson, name=name, dtype=dtype)


class Hinge(_SimpleWrapper):
    """Mean hinge loss (:func:`highlevel.losses.hinge`)."""

    def __init__(self, name="hinge", dtype=None):
        super().__init__(losses.hinge, name=name, dtype=dtype)


class SquaredHinge(_SimpleWrapper):
    """Mean squared hinge loss (:func:`highlevel.losses.squared_hinge`)."""

    def __init__(self, name="squared_hinge", dtype=None):
        super().__init__(losses.squared_hinge, name=name, dtype=dtype)


class CategoricalHinge(_SimpleWrapper):
    """Mean categorical hinge loss (:func:`highlevel.losses.categorical_hinge`)."""

    def __init__(self, name="categorical_hinge", dtype=None):
        super().__init__(losses.categorical_hinge, name=name, dtype=dtype)


class BinaryCrossentropy(MeanMetricWrapper):
    """Mean binary cross-entropy (:func:`highlevel.losses.binary_crossentropy`).

    Args:
        from_logits: whether predictions are logits.
        label_smoothing: in [0, 1].
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
