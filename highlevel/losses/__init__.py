"""``highlevel.losses``: what training minimises (``keras.losses``), with Keras 3's names, arguments,
defaults and numbers.

Every loss exists as a function ``fn(y_true, y_pred, ...)`` giving one value per sample and as a
:class:`Loss` class whose call ``loss(y_true, y_pred, sample_weight=None)`` weights those values and
reduces them (``reduction="sum_over_batch_size"`` by default).

>>> import highlevel as hl
>>> from highlevel import losses
>>> y_true, y_pred = [[0.0, 1.0], [0.0, 0.0]], [[0.6, 0.4], [0.4, 0.6]]
>>> round(float(losses.BinaryCrossentropy()(y_true, y_pred)), 3)
0.815
>>> round(float(losses.get("mse")(y_true, y_pred, sample_weight=[1.0, 0.0])), 3)
0.18
>>> [round(v, 3) for v in hl.ops.convert_to_numpy(losses.mae(y_true, y_pred)).tolist()]
[0.6, 0.5]
"""

from .circle_losses import Circle, circle
from .crossentropy_losses import (
    BinaryCrossentropy,
    BinaryFocalCrossentropy,
    CategoricalCrossentropy,
    CategoricalFocalCrossentropy,
    SparseCategoricalCrossentropy,
    binary_crossentropy,
    binary_focal_crossentropy,
    categorical_crossentropy,
    categorical_focal_crossentropy,
    sparse_categorical_crossentropy,
)
from .ctc_losses import CTC, ctc
from .hinge_losses import CategoricalHinge, Hinge, SquaredHinge, categorical_hinge, hinge, squared_hinge
from .loss import Loss, LossFunctionWrapper
from .noisy_label_losses import CategoricalGeneralizedCrossEntropy, categorical_generalized_cross_entropy
from .overlap_losses import Dice, Tversky, dice, tversky
from .probabilistic_losses import KLDivergence, Poisson, kl_divergence, poisson
from .reduction import REDUCTIONS, reduce_weighted_values
from .regression_losses import (
    EPSILON,
    CosineSimilarity,
    Huber,
    LogCosh,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    MeanSquaredLogarithmicError,
    cosine_similarity,
    huber,
    log_cosh,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    mean_squared_logarithmic_error,
)
from .serialization import ALL_OBJECTS, deserialize, get, serialize

# Keras' short and legacy spellings of the functions.
mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
bce = BCE = binary_crossentropy
logcosh = log_cosh

__all__ = [
    "ALL_OBJECTS",
    "BCE",
    "BinaryCrossentropy",
    "BinaryFocalCrossentropy",
    "CTC",
    "CategoricalCrossentropy",
    "CategoricalFocalCrossentropy",
    "CategoricalGeneralizedCrossEntropy",
    "CategoricalHinge",
    "Circle",
    "CosineSimilarity",
    "Dice",
    "EPSILON",
    "Hinge",
    "Huber",
    "KLD",
    "KLDivergence",
    "LogCosh",
    "Loss",
    "LossFunctionWrapper",
    "MAE",
    "MAPE",
    "MSE",
    "MSLE",
    "MeanAbsoluteError",
    "MeanAbsolutePercentageError",
    "MeanSquaredError",
    "MeanSquaredLogarithmicError",
    "Poisson",
    "REDUCTIONS",
    "SparseCategoricalCrossentropy",
    "SquaredHinge",
    "Tversky",
    "bce",
    "binary_crossentropy",
    "binary_focal_crossentropy",
    "categorical_crossentropy",
    "categorical_focal_crossentropy",
    "categorical_generalized_cross_entropy",
    "categorical_hinge",
    "circle",
    "cosine_similarity",
    "ctc",
    "deserialize",
    "dice",
    "get",
    "hinge",
    "huber",
    "kl_divergence",
    "kld",
    "kullback_leibler_divergence",
    "log_cosh",
    "logcosh",
    "mae",
    "mape",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_squared_error",
    "mean_squared_logarithmic_error",
    "mse",
    "msle",
    "poisson",
    "reduce_weighted_values",
    "serialize",
    "sparse_categorical_crossentropy",
    "squared_hinge",
    "tversky",
]
