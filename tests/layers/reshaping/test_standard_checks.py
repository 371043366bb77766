"""The shared ``run_layer_test`` checks for every reshaping layer, on every backend."""

import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

CASES = [
    (layers.Flatten, {"data_format": "channels_first"}, (2, 3, 4, 5), (2, 60)),
    (layers.Reshape, {"target_shape": (-1, 6)}, (2, 3, 4), (2, 2, 6)),
    (layers.Permute, {"dims": (2, 1)}, (2, 3, 4), (2, 4, 3)),
    (layers.RepeatVector, {"n": 3}, (2, 4), (2, 3, 4)),
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
    )
