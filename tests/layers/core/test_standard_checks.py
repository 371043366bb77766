"""The shared ``run_layer_test`` checks for every core layer, on every backend."""

import pytest

import highlevel as hl
from highlevel import layers
from tests.layers.layer_test_helper import run_layer_test

CASES = [
    (layers.Dense, {"units": 3, "activation": "relu"}, (2, 4), (2, 3), 2, {}),
    (layers.Dense, {"units": 3, "use_bias": False}, (2, 5, 4), (2, 5, 3), 1, {}),
    (
        layers.EinsumDense,
        {"equation": "abc,cd->abd", "output_shape": (None, 6), "bias_axes": "d"},
        (2, 3, 4),
        (2, 3, 6),
        2,
        {},
    ),
    (layers.EinsumDense, {"equation": "...b,bc->...c", "output_shape": 5}, (2, 3, 4), (2, 3, 5), 1, {}),
    (layers.Activation, {"activation": "tanh"}, (2, 3), (2, 3), 0, {"supports_masking": True}),
    (layers.Identity, {}, (2, 3), (2, 3), 0, {"supports_masking": True}),
    (layers.Masking, {"mask_value": 0.0}, (2, 3, 4), (2, 3, 4), 0, {"supports_masking": True}),
    (
        layers.Embedding,
        {"input_dim": 5, "output_dim": 3, "mask_zero": True},
        (2, 4),
        (2, 4, 3),
        1,
        {"input_dtype": "int32", "supports_masking": True},
    ),
]


@pytest.mark.parametrize(
    "cls,kwargs,input_shape,output_shape,n_trainable,extra",
    CASES,
    ids=lambda v: v.__name__ if isinstance(v, type) else None,
)
def test_run_layer_test(backend, cls, kwargs, input_shape, output_shape, n_trainable, extra):
    run_layer_test(
        cls,
        kwargs,
        input_shape=input_shape,
        expected_output_shape=output_shape,
        expected_num_trainable_weights=n_trainable,
        expected_num_non_trainable_weights=0,
        atol=1e-5,
        rtol=1e-5,
        **extra,
    )


def test_run_layer_test_lambda(backend):
    # The function is highlevel's own, so the config round trip works in safe mode.
    run_layer_test(
        layers.Lambda,
        {"function": hl.ops.tanh},
        input_shape=(2, 3),
        expected_output_shape=(2, 3),
        expected_num_trainable_weights=0,
    )
