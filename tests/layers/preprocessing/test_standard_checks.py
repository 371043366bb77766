"""The shared ``run_layer_test`` checks for the preprocessing layers, on every backend."""

import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

CASES = [
    (layers.Rescaling, {"scale": 1 / 255.0, "offset": -0.5}, (2, 3), 0),
    (layers.Rescaling, {"scale": [1.0, 2.0, 3.0]}, (2, 4, 3), 0),
    (layers.Normalization, {}, (2, 3), 3),
    (layers.Normalization, {"axis": None, "mean": 1.0, "variance": 4.0, "invert": True}, (2, 3), 0),
    (layers.Normalization, {"axis": (1, 2), "mean": [1.0, 2.0], "variance": [1.0, 9.0]}, (2, 3, 2), 0),
]


@pytest.mark.parametrize(
    "cls,kwargs,input_shape,n_non_trainable", CASES, ids=lambda v: v.__name__ if isinstance(v, type) else None
)
def test_run_layer_test(backend, cls, kwargs, input_shape, n_non_trainable):
    run_layer_test(
        cls,
        kwargs,
        input_shape=input_shape,
        expected_output_shape=input_shape,
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=n_non_trainable,
        expected_output_dtype="float32",
        supports_masking=True,
        atol=1e-6,
        rtol=1e-5,
    )
