"""``hl.StatelessScope`` with Keras's constructor, and ``Layer.stateless_call`` with Keras's return shapes, on every
engine: values substituted for a block, assignments collected instead of made."""

import numpy as np
import pytest

import highlevel as hl


def _np(x):
    return np.asarray(hl.ops.convert_to_numpy(x))


def test_scope_maps_values_of_every_form_and_assigns_nothing(backend):
    a, b, c = hl.Variable([1.0, 2.0]), hl.Variable([[3.0]]), hl.Variable(0.0)
    other = hl.Variable([5.0, 6.0])
    mapping = [(a, other), (b, np.array([[7.0]], "float64")), (c, hl.ops.convert_to_tensor(9.0))]
    with hl.StatelessScope(state_mapping=mapping) as scope:
        assert _np(a.value).tolist() == [5.0, 6.0]
        assert _np(b.value).tolist() == [[7.0]] and hl.ops.dtype(b.value) == "float32"  # the variable's dtype
        a.assign(a * 2.0)
        scope.add_update((c, hl.ops.convert_to_tensor(1.5)))
        assert float(_np(c.value)) == 1.5
    assert _np(scope.get_current_value(a)).tolist() == [10.0, 12.0]
    assert float(_np(scope.get_current_value(c))) == 1.5
    assert scope.get_current_value(other) is None
    assert a.numpy().tolist() == [1.0, 2.0] and float(c.numpy()) == 0.0  # nothing was written
    with hl.StatelessScope({a: [0.0, 1.0]}):  # a dict works too
        assert _np(a.value).tolist() == [0.0, 1.0]


def test_scope_rejects_bad_mappings(backend):
    v = hl.Variable([1.0, 2.0])
    with pytest.raises(ValueError, match=r"value given for variable .* has shape \(3,\).*shape is \(2,\)"):
        hl.StatelessScope([(v, [1.0, 2.0, 3.0])])
    with pytest.raises(ValueError, match=r"dict \{variable: value\} or a list of \(variable, value\) pairs.*'v'"):
        hl.StatelessScope([("v", [1.0, 2.0])])


def test_stateless_call_returns_keras_shapes(backend):
    layer = hl.layers.Dense(2, kernel_regularizer=hl.regularizers.L2(0.5))
    norm = hl.layers.BatchNormalization()
    model = hl.Sequential([hl.Input((3,)), layer, norm])
    x = np.arange(12, dtype="float32").reshape(4, 3)
    model(x)
    tv = [hl.ops.ones_like(v.value) for v in model.trainable_variables]
    ntv = [v.value for v in model.non_trainable_variables]
    outputs, new_ntv = model.stateless_call(tv, ntv, x)
    assert tuple(outputs.shape) == (4, 2) and len(new_ntv) == len(ntv)
    outputs, new_ntv, losses = model.stateless_call(tv, ntv, x, training=True, return_losses=True)
    # The regularization loss is computed from the values given (a kernel of ones), not from the layer's kernel.
    assert len(losses) == 1 and float(_np(losses[0])) == pytest.approx(0.5 * 6.0)
    moving_mean = model.non_trainable_variables[0]
    assert not np.allclose(_np(new_ntv[0]), moving_mean.numpy())  # training moved the statistics...
    assert np.allclose(moving_mean.numpy(), 0.0)  # ...in the returned values only
    with pytest.raises(ValueError, match=r"expects 4 trainable and 2 non-trainable values; received 1 and 2"):
        model.stateless_call(tv[:1], ntv, x)


class _Penalized(hl.layers.Layer):
    def call(self, x):
        self.add_loss(hl.ops.sum(x))
        return x


def test_collect_losses(backend):
    layer = _Penalized()
    x = hl.ops.convert_to_tensor([1.0, 2.0])
    with hl.StatelessScope(collect_losses=True) as scope:
        layer(x)
    assert [float(_np(v)) for v in scope.losses] == [3.0]
    with hl.StatelessScope() as scope:
        layer(x)
    assert scope.losses == []
