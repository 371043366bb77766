"""The native Tensor type: metadata, conversions, operators, in-place updates."""

import numpy as np
import pytest

from highlevel.backends.native import NativeBackend, Tensor

B = NativeBackend()


def test_metadata_and_conversions():
    t = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert t.shape == (2, 3) and isinstance(t.shape, tuple)
    assert t.dtype == "float32" and t.ndim == 2 and len(t) == 2 and t.size == 6
    assert not t.requires_grad
    a = t.numpy()
    a[0, 0] = 99.0
    assert t.data[0, 0] == 0.0  # numpy() is a copy
    assert np.asarray(t).tolist() == t.data.tolist()
    assert np.asarray(t, dtype=np.int64).dtype == np.int64
    assert "Tensor(" in repr(t) and "float32" in repr(t)
    one = Tensor(np.array([2.5], np.float32))
    assert float(one) == 2.5 and int(one) == 2 and bool(one) and one.item() == 2.5
    assert [1, 2, 3][Tensor(np.array(1, np.int32))] == 2
    with pytest.raises(ValueError, match="ambiguous"):
        bool(t)
    with pytest.raises(TypeError):
        len(Tensor(np.float32(1.0)))
    with pytest.raises(TypeError):
        [1, 2][Tensor(np.array(1.0, np.float32))]
    assert Tensor(np.float64(3.0)).dtype == "float64"


def test_operators_go_through_the_ops():
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    assert (x + 1.0).tolist() == [2.0, 3.0, 4.0]
    assert (1.0 - x).tolist() == [0.0, -1.0, -2.0]
    assert (x * x).tolist() == [1.0, 4.0, 9.0]
    assert (6.0 / x).tolist() == [6.0, 3.0, 2.0]
    assert (x // 2.0).tolist() == [0.0, 1.0, 1.0] and (x % 2.0).tolist() == [1.0, 0.0, 1.0]
    assert (x**2).tolist() == [1.0, 4.0, 9.0] and (2.0**x).tolist() == [2.0, 4.0, 8.0]
    assert (-x).tolist() == [-1.0, -2.0, -3.0] and abs(-x).tolist() == [1.0, 2.0, 3.0]
    m = Tensor(np.eye(2, dtype=np.float32))
    assert (m @ m).tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert (x > 1.5).dtype == "bool" and (x == 2.0).tolist() == [False, True, False]
    assert (x != 2.0).tolist() == [True, False, True] and (x <= 2.0).tolist() == [True, True, False]
    b = x > 1.5
    assert (b & (x < 2.5)).tolist() == [False, True, False]
    assert (b | (x < 1.5)).tolist() == [True, True, True]
    assert (b ^ True).tolist() == [True, False, False] and (~b).tolist() == [True, False, False]
    with pytest.raises(TypeError):
        ~x  # noqa: B018 - the operator itself must raise
    assert np.array([1.0, 1.0, 1.0], np.float32) * x is not None
    assert isinstance(np.ones(3, np.float32) + x, Tensor)  # numpy defers to the tensor
    t2 = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert t2.T.shape == (3, 2) and t2[1, 1:].tolist() == [4.0, 5.0]
    assert [r.tolist() for r in t2] == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


def test_tensors_are_hashable_by_identity():
    a = Tensor(np.zeros(2, np.float32))
    b = Tensor(np.zeros(2, np.float32))
    d = {a: 1, b: 2}
    assert d[a] == 1 and d[b] == 2 and len({a, b}) == 2


def test_in_place_updates_bump_the_version():
    t = Tensor(np.array([1.0, 2.0], np.float32))
    before = t.data
    t.add_(1.0).mul_(2.0).sub_(Tensor(np.array([1.0, 1.0], np.float32))).div_(2.0)
    assert t.tolist() == [1.5, 2.5] and t._version == 4 and t.dtype == "float32"
    assert before.tolist() == [1.0, 2.0]  # old buffers (and views of them) never change
    t.assign_([7.0, 8.0])
    assert t.tolist() == [7.0, 8.0] and t._version == 5
    t.zero_()
    assert t.tolist() == [0.0, 0.0] and t._version == 6
    with pytest.raises(ValueError, match="shape"):
        t.add_(np.ones((2, 2)))


def test_in_place_update_of_a_graph_tensor_is_refused():
    x = Tensor(np.array([1.0], np.float32), requires_grad=True)
    y = x * 2.0
    with pytest.raises(RuntimeError, match="in-place"):
        y.add_(1.0)


def test_detach_and_backward():
    x = Tensor(np.array([3.0], np.float32), requires_grad=True)
    assert not x.detach().requires_grad
    (x * x).sum().backward()
    assert x.grad.tolist() == [6.0]
