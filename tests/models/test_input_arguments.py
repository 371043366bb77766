"""Keras's arguments of ``Input``, ``InputLayer``, ``InputSpec`` and ``KerasTensor``: their default values run
unchanged, and the values that need tensors highlevel does not have (ragged, sparse, optional inputs) are
refused with a message that says what to do instead."""

import numpy as np
import pytest

import highlevel as hl


def test_keras_default_arguments_build_a_model_that_predicts(backend):
    inputs = hl.Input(shape=(3,), ragged=False, optional=False, sparse=None)
    layer = hl.layers.InputLayer(shape=(3,), ragged=None, optional=False)
    assert layer.batch_shape == (None, 3)
    model = hl.Model(inputs, hl.layers.Dense(2, kernel_initializer="ones")(inputs))
    np.testing.assert_allclose(hl.ops.convert_to_numpy(model(np.ones((2, 3), "float32"))), np.full((2, 2), 3.0))


@pytest.mark.parametrize(
    "kwargs, match",
    [({"ragged": True}, "no ragged tensors.*pad_sequences"), ({"optional": True}, "take every input.*placeholder")],
)
def test_unsupported_input_kinds_are_refused_with_the_way_out(kwargs, match):
    with pytest.raises(ValueError, match=match):
        hl.Input(shape=(3,), **kwargs)
    with pytest.raises(ValueError, match=match):
        hl.layers.InputLayer(shape=(3,), **kwargs)


def test_keras_tensor_takes_keras_arguments():
    t = hl.KerasTensor((None, 4), "float32", sparse=False, ragged=False, record_history=False, name="t")
    assert (t.shape, t.dtype, t.name, t.record_history, t.sparse, t.ragged) == (
        (None, 4),
        "float32",
        "t",
        False,
        False,
        False,
    )
    with pytest.raises(ValueError, match="dense tensors only"):
        hl.KerasTensor((2,), sparse=True)


def test_optional_input_spec_lets_a_missing_input_through():
    spec = hl.InputSpec(ndim=2, optional=True)
    assert spec.optional
    from highlevel.input_spec import assert_input_compatibility

    assert_input_compatibility([spec], [None], "layer")  # an optional input left out is not checked
    with pytest.raises(ValueError, match="incompatible"):
        assert_input_compatibility([spec], [(2, 3, 4)], "layer")
