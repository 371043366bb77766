"""The ops that describe a tensor rather than compute from its values, on every engine and on symbolic tensors."""

import numpy as np

import highlevel as hl
from highlevel import ops


def test_is_tensor_ndim_size_shape_dtype(backend):
    x = ops.convert_to_tensor(np.zeros((2, 3, 4), "float32"))
    assert ops.is_tensor(x) and not ops.is_tensor(np.zeros(2)) and not ops.is_tensor([1.0])
    assert ops.ndim(x) == 3 and int(ops.size(x)) == 24
    assert tuple(ops.shape(x)) == (2, 3, 4) and ops.dtype(x) == "float32"
    i = ops.convert_to_tensor(np.arange(5, dtype="int32"))
    assert (ops.ndim(i), int(ops.size(i)), ops.dtype(i)) == (1, 5, "int32")
    np.testing.assert_array_equal(ops.convert_to_numpy(i), np.arange(5))


def test_symbolic_tensors_answer_from_their_spec(backend):
    t = hl.KerasTensor((None, 3), "float16")
    assert (ops.ndim(t), tuple(ops.shape(t)), ops.dtype(t)) == (2, (None, 3), "float16")
