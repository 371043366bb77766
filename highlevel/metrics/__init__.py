"""``highlevel.metrics``: what training reports (``keras.metrics``), with Keras 3's names, arguments,
defaults and numbers.

A metric keeps its state in non-trainable variables (:attr:`Metric.variables`): ``update_state`` adds a
batch, ``result`` reads the value, ``reset_state`` starts over; calling the metric does update-then-result.

>>> from highlevel import metrics
>>> m = metrics.SparseCategoricalAccuracy()
>>> m.update_state([1, 2], [[0.1, 0.8, 0.1], [0.6, 0.3, 0.1]])
>>> m.update_state([0], [[0.9, 0.05, 0.05]])
>>> round(float(m.result()), 4)
0.6667
>>> m.reset_state(); float(m.result())
0.0
>>> metrics.get("mae").name
'mean_absolute_error'
"""

from highlevel.losses import (
    binary_crossentropy,
    binary_focal_crossentropy,
    categorical_crossentropy,
    categorical_focal_crossentropy,
    categorical_hinge,
    hinge,
    huber,
    kl_divergence,
    log_cosh,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    mean_squared_logarithmic_error,
    poisson,
    sparse_categorical_crossentropy,
    squared_hinge,
)

from .accuracy_metrics import (
    Accuracy,
    BinaryAccuracy,
    CategoricalAccuracy,
    SparseCategoricalAccuracy,
    SparseTopKCategoricalAccuracy,
    TopKCategoricalAccuracy,
    accuracy,
    binary_accuracy,
    categorical_accuracy,
    sparse_categorical_accuracy,
    sparse_top_k_categorical_accuracy,
    top_k_categorical_accuracy,
)
from .auc import AUC
from .confusion_metrics import FalseNegatives, FalsePositives, Precision, Recall, TrueNegatives, TruePositives
from .constrained_metrics import (
    PrecisionAtRecall,
    RecallAtPrecision,
    SensitivityAtSpecificity,
    SpecificityAtSensitivity,
)
from .correlation_metrics import (
    ConcordanceCorrelation,
    PearsonCorrelation,
    concordance_correlation,
    pearson_correlation,
)
from .f_score_metrics import F1Score, FBetaScore
from .iou_metrics import BinaryIoU, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU
from .loss_metrics import (
    BinaryCrossentropy,
    CategoricalCrossentropy,
    CategoricalHinge,
    Hinge,
    KLDivergence,
    Poisson,
    SparseCategoricalCrossentropy,
    SquaredHinge,
)
from .metric import Metric
from .reduction_metrics import Mean, MeanMetricWrapper, Sum
from .regression_metrics import (
    CosineSimilarity,
    LogCoshError,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    MeanSquaredLogarithmicError,
    R2Score,
    RootMeanSquaredError,
    cosine_similarity,
)
from .serialization import ALL_OBJECTS, deserialize, get, serialize

__all__ = [
    "ALL_OBJECTS",
    "AUC",
    "Accuracy",
    "BinaryAccuracy",
    "BinaryCrossentropy",
    "BinaryIoU",
    "CategoricalAccuracy",
    "CategoricalCrossentropy",
    "CategoricalHinge",
    "ConcordanceCorrelation",
    "CosineSimilarity",
    "F1Score",
    "FBetaScore",
    "FalseNegatives",
    "FalsePositives",
    "Hinge",
    "IoU",
    "KLDivergence",
    "LogCoshError",
    "Mean",
    "MeanAbsoluteError",
    "MeanAbsolutePercentageError",
    "MeanIoU",
    "MeanMetricWrapper",
    "MeanSquaredError",
    "MeanSquaredLogarithmicError",
    "Metric",
    "OneHotIoU",
    "OneHotMeanIoU",
    "PearsonCorrelation",
    "Poisson",
    "Precision",
    "PrecisionAtRecall",
    "R2Score",
    "Recall",
    "RecallAtPrecision",
    "RootMeanSquaredError",
    "SensitivityAtSpecificity",
    "SparseCategoricalAccuracy",
    "SparseCategoricalCrossentropy",
    "SparseTopKCategoricalAccuracy",
    "SpecificityAtSensitivity",
    "SquaredHinge",
    "Sum",
    "TopKCategoricalAccuracy",
    "TrueNegatives",
    "TruePositives",
    "accuracy",
    "binary_accuracy",
    "binary_crossentropy",
    "binary_focal_crossentropy",
    "categorical_accuracy",
    "categorical_crossentropy",
    "categorical_focal_crossentropy",
    "categorical_hinge",
    "concordance_correlation",
    "cosine_similarity",
    "deserialize",
    "get",
    "hinge",
    "huber",
    "kl_divergence",
    "log_cosh",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_squared_error",
    "mean_squared_logarithmic_error",
    "pearson_correlation",
    "poisson",
    "serialize",
    "sparse_categorical_accuracy",
    "sparse_categorical_crossentropy",
    "sparse_top_k_categorical_accuracy",
    "squared_hinge",
    "top_k_categorical_accuracy",
]
