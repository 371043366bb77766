"""The shared ``run_layer_test`` checks for every merging layer, on every backend."""

import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

CASES = [
    (layers.Add, {}, [(2, 3, 4), (2, 3, 4)], (2, 3, 4)),
    (layers.Subtract, {}, [(2, 4), (2, 3, 4)], (2, 3, 4)),
    (layers.Multiply, {}, [(2, 3, 4), (2, 1, 4)], (2, 3, 4)),
    (layers.Average, {}, [(2, 5), (2, 5), (2, 5)], (2, 5)),
    (layers.Maximum, {}, [(2, 5), (2, 5)], (2, 5)),
    (layers.Minimum, {}, [(2, 5), (2, 5)], (2, 5)),
    (layers.Concatenate, {"axis": 1}, [(2, 3, 4), (2, 2, 4)], (2, 5, 4)),
    (layers.Dot, {"axes": (1, 2), "normalize": True}, [(2, 3, 5), (2, 4, 3)], (2, 5, 4)),
]


@pytest.mark.parametrize(
    "cls,kwargs,input_shape,output_shape", CASES, ids=lambda v: v.__name__ if isinstance(v, type) else None
)
def test_run_layer_test(backend, cls, kwargs, input_shape, output_shape):
    run_layer_test(
        cls,
        kwargs,
        input_shape=input_shape,
        expected_output_shape=output_shape,
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        atol=1e-5,
        rtol=1e-5,
    )
