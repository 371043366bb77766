"""The shared ``run_layer_test`` checks for every activation layer, on every backend."""

import pytest

from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

CASES = [
    (layers.ReLU, {"max_value": 2.0, "negative_slope": 0.1, "threshold": 0.5}, 0),
    (layers.LeakyReLU, {"negative_slope": 0.2}, 0),
    (layers.ELU, {"alpha": 0.5}, 0),
    (layers.PReLU, {"shared_axes": [1]}, 1),
    (layers.Softmax, {"axis": (1, 2)}, 0),
]


@pytest.mark.parametrize("cls,kwargs,n_trainable", CASES, ids=lambda v: v.__name__ if isinstance(v, type) else None)
def test_run_layer_test(backend, cls, kwargs, n_trainable):
    run_layer_test(
        cls,
        kwargs,
        input_shape=(2, 3, 4),
        expected_output_shape=(2, 3, 4),
        expected_num_trainable_weights=n_trainable,
        expected_num_non_trainable_weights=0,
        supports_masking=True,
        atol=1e-5,
        rtol=1e-5,
    )
