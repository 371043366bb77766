"""The shared ``run_layer_test`` checks for every normalization layer, on every backend."""

import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

CASES = [
    (layers.BatchNormalization, {}, (4, 3), 2, 2),
    (layers.BatchNormalization, {"axis": 1, "center": False}, (2, 3, 4), 1, 2),
    (layers.BatchNormalization, {"renorm": True}, (4, 3), 2, 5),
    (layers.LayerNormalization, {}, (2, 5), 2, 0),
    (layers.LayerNormalization, {"axis": [1, 2], "scale": False}, (2, 3, 4), 1, 0),
    (layers.GroupNormalization, {"groups": 2}, (2, 3, 4), 2, 0),
    (layers.GroupNormalization, {"groups": -1, "axis": 1}, (2, 4, 3), 2, 0),
    (layers.UnitNormalization, {"axis": [1, 2]}, (2, 3, 4), 0, 0),
]


@pytest.mark.parametrize(
    "cls,kwargs,input_shape,n_trainable,n_non_trainable",
    CASES,
    ids=lambda v: v.__name__ if isinstance(v, type) else None,
)
def test_run_layer_test(backend, cls, kwargs, input_shape, n_trainable, n_non_trainable):
    run_layer_test(
        cls,
        kwargs,
        input_shape=input_shape,
        expected_output_shape=input_shape,
        expected_num_trainable_weights=n_trainable,
        expected_num_non_trainable_weights=n_non_trainable,
        expected_output_dtype="float32",
        supports_masking=True,
        atol=1e-5,
        rtol=1e-5,
    )
