"""losses.get / serialize / deserialize and get_config round trips."""

import numpy as np
import pytest

import highlevel as hl
import highlevel.losses  # noqa: F401
from highlevel import losses

CLASSES = [
    c
    for c in set(losses.ALL_OBJECTS.values())
    if isinstance(c, type) and c not in (losses.Loss, losses.LossFunctionWrapper)
]


#: Losses whose inputs are not a (batch, classes) pair of targets and predictions: (y_true, y_pred).
_SPECIAL_INPUTS = {
    "SparseCategoricalCrossentropy": ([1], [[0.2, 0.7, 0.1]]),
    "CategoricalGeneralizedCrossEntropy": ([1], [[0.2, 0.7, 0.1]]),
    "CTC": ([[1, 2]], [[[0.1, 0.5, -0.2], [0.3, 0.0, 0.4], [-0.1, 0.2, 0.6]]]),
    "Circle": ([0, 0, 1], [[0.6, 0.8], [0.8, 0.6], [1.0, 0.0]]),
}


def _inputs_for(cls):
    t, p = _SPECIAL_INPUTS.get(cls.__name__, ([[0.0, 1.0, 0.0]], [[0.2, 0.7, 0.1]]))
    t = np.array(t, "int32" if cls.__name__ in _SPECIAL_INPUTS else "float32")
    return t, np.array(p, "float32")


@pytest.mark.parametrize("cls", sorted(CLASSES, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_config_round_trip(cls):
    loss = cls(reduction="sum", name="custom")
    again = losses.deserialize(losses.serialize(loss))
    assert type(again) is cls and again.get_config() == loss.get_config()
    assert again.name == "custom" and again.reduction == "sum"
    t, p = _inputs_for(cls)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(loss(t, p)), hl.ops.convert_to_numpy(again(t, p)))


@pytest.mark.parametrize(
    "name,fn",
    [
        ("mse", "mean_squared_error"),
        ("MAE", "mean_absolute_error"),
        ("kld", "kl_divergence"),
        ("binary_crossentropy", "binary_crossentropy"),
        ("sparse_categorical_crossentropy", "sparse_categorical_crossentropy"),
        ("huber", "huber"),
        ("log_cosh", "log_cosh"),
        ("logcosh", "log_cosh"),
    ],
)
def test_get_function_names_gives_wrapped_losses(name, fn):
    loss = losses.get(name)
    assert isinstance(loss, losses.LossFunctionWrapper) and loss.fn is getattr(losses, fn)
    assert loss.name == fn and loss.reduction == "sum_over_batch_size"
    assert losses.deserialize(name) is getattr(losses, fn)  # deserialize keeps functions, as Keras


def test_get_forms():
    assert isinstance(losses.get("CategoricalCrossentropy"), losses.CategoricalCrossentropy)
    assert isinstance(losses.get(losses.Huber), losses.Huber)
    inst = losses.Huber(delta=3.0)
    assert losses.get(inst) is inst
    assert losses.get(None) is None
    cfg = {"class_name": "BinaryCrossentropy", "config": {"from_logits": True, "label_smoothing": 0.1}}
    got = losses.get(cfg)
    assert got.from_logits and got.label_smoothing == 0.1

    def my_loss(y_true, y_pred):
        return hl.ops.mean(hl.ops.abs(y_true - y_pred), axis=-1)

    wrapped = losses.get(my_loss)
    assert wrapped.name == "my_loss"
    assert float(hl.ops.convert_to_numpy(wrapped([[1.0]], [[3.0]], sample_weight=[0.5]))) == 1.0
    with pytest.raises(ValueError, match="Unknown loss 'nope'"):
        losses.get("nope")
    with pytest.raises(ValueError, match="Could not interpret"):
        losses.get(3)


def test_wrapper_config_round_trip():
    w = losses.LossFunctionWrapper(losses.huber, delta=0.3, reduction="sum")
    cfg = losses.serialize(w)
    assert cfg["config"]["fn"] == "huber" and cfg["config"]["delta"] == 0.3
    again = losses.deserialize(cfg)
    assert again.fn is losses.huber and again.get_config() == w.get_config()
    assert losses.serialize(losses.mse) == {"class_name": "function", "config": "mean_squared_error"}


def test_reduction_validation():
    with pytest.raises(ValueError, match="reduction"):
        losses.MeanSquaredError(reduction="avg")


def test_sparse_label_error_message(backend):
    loss = losses.SparseCategoricalCrossentropy()
    with pytest.raises(
        ValueError, match=r"labels from -3 to 0, out of range for 3 classes \(valid labels are 0 to 2\)"
    ):
        loss(np.array([0, -3]), np.full((2, 3), 1 / 3, "float32"))
    # the ignored label may lie outside the range
    losses.SparseCategoricalCrossentropy(ignore_class=-3)(np.array([0, -3]), np.full((2, 3), 1 / 3, "float32"))


@pytest.mark.parametrize(
    "name",
    ["BinaryCrossentropy", "CategoricalCrossentropy", "SparseCategoricalCrossentropy", "BinaryFocalCrossentropy"],
)
def test_gradients_finite_for_huge_logits(backend, name):
    logits = np.array([[1e4, -1e4, 0.0], [-1e4, 1e4, 3.0]], "float32")
    if name == "SparseCategoricalCrossentropy":
        y = np.array([1, 0], "int32")
    else:
        y = np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]], "float32")
    loss = getattr(losses, name)(from_logits=True)
    value, grad = hl.ops.value_and_grad(lambda x: loss(y, x))(hl.ops.convert_to_tensor(logits))
    assert np.isfinite(float(hl.ops.convert_to_numpy(value)))
    assert np.all(np.isfinite(hl.ops.convert_to_numpy(grad)))
