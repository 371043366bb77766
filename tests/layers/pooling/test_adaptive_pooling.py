"""The adaptive pooling layers: configs, symbolic shapes, argument errors, the standard layer checks, and a
model that classifies inputs of different sizes through one."""

import numpy as np
import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

from ..core.keras_oracle import assert_config_round_trip, assert_symbolic_shape

NAMES = [f"Adaptive{m}Pooling{d}D" for m in ("Average", "Max") for d in (1, 2, 3)]


@pytest.mark.parametrize("name", NAMES)
def test_standard_checks_config_and_shapes(backend, name):
    d = int(name[-2])
    cls = getattr(layers, name)
    run_layer_test(
        cls,
        {"output_size": 2},
        input_shape=(2, *([5] * d), 3),
        expected_output_shape=(2, *([2] * d), 3),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        expected_output_dtype="float32",
    )
    layer = cls(output_size=(3,) * d, data_format="channels_first")
    assert layer.get_config()["output_size"] == (3,) * d
    assert_config_round_trip(layer, np.ones((1, 2, *([4] * d)), "float32"))
    assert_symbolic_shape(cls(2), (None, *([None] * d), 4))
    assert layer.compute_output_shape((1, 2, *([7] * d))) == (1, 2, *([3] * d))


@pytest.mark.parametrize("bad", [0, (2, 2, 2, 2), "2", 2.5, True])
def test_output_size_errors(bad):
    with pytest.raises(TypeError, match="output_size"):
        layers.AdaptiveAveragePooling2D(bad)


def test_average_of_integers_is_a_float(backend):
    x = hl.ops.reshape(hl.ops.arange(6, dtype="int32"), (1, 6, 1))
    y = layers.AdaptiveAveragePooling1D(2)(x)
    assert hl.ops.dtype(y) == "float32"
    assert hl.ops.convert_to_numpy(y).ravel().tolist() == [1.0, 4.0]


def test_model_learns_from_inputs_of_any_length(backend):
    """Bright-first vs bright-last sequences of lengths 8 and 12 through one model: adaptive pooling gives the
    Dense head a fixed size."""
    hl.utils.set_random_seed(0)
    rng = np.random.default_rng(0)

    def batch(length, n=32):
        y = rng.integers(0, 2, size=(n, 1)).astype("float32")
        x = rng.normal(scale=0.3, size=(n, length, 1)).astype("float32")
        half = length // 2
        x[:, :half] += np.where(y[:, None] > 0, 1.0, 0.0)
        x[:, half:] += np.where(y[:, None] > 0, 0.0, 1.0)
        return x, y

    inputs = hl.Input((None, 1))
    h = layers.Conv1D(4, 1, activation="relu")(inputs)
    h = layers.AdaptiveAveragePooling1D(2)(h)
    outputs = layers.Dense(1, activation="sigmoid")(layers.Flatten()(h))
    model = hl.Model(inputs, outputs)
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="binary_crossentropy", metrics=["accuracy"])
    (x8, y8), (x12, y12) = batch(8), batch(12)
    start = model.evaluate(x12, y12, verbose=0)[0]
    for _ in range(15):
        model.fit(x8, y8, verbose=0)
        model.fit(x12, y12, verbose=0)
    loss, accuracy = model.evaluate(x12, y12, verbose=0)
    assert loss < 0.5 * start and accuracy > 0.9
