"""The top-level names Keras programs use: base classes, name_scope, Operation, Function, StatelessScope,
device, remat/RematScope, version."""

import numpy as np
import pytest

import highlevel as hl


def test_base_classes_are_the_namespaces_classes():
    assert hl.Layer is hl.layers.Layer and hl.Loss is hl.losses.Loss and hl.Metric is hl.metrics.Metric
    assert hl.Optimizer is hl.optimizers.Optimizer and hl.Initializer is hl.initializers.Initializer
    assert hl.Regularizer is hl.regularizers.Regularizer and hl.Constraint is hl.constraints.Constraint
    assert hl.DTypePolicy("mixed_float16").compute_dtype == "float16"
    assert isinstance(hl.FloatDTypePolicy("float32"), hl.DTypePolicy)
    assert hl.version() == hl.__version__


def test_name_scope_prefixes_layer_and_variable_paths(backend):
    with hl.name_scope("block"):
        dense = hl.layers.Dense(2, name="proj")
        dense.build((None, 3))
        with hl.name_scope("inner"):
            v = hl.Variable(np.zeros((2,), "float32"), name="v")
    assert dense.name == "proj" and dense.path == "block/proj"
    assert [w.path for w in dense.weights] == ["block/proj/kernel", "block/proj/bias"]
    assert v.path == "block/inner/v"
    outside = hl.layers.Dense(1, name="out")
    outside.build((None, 2))
    assert outside.kernel.path == "out/kernel"
    with pytest.raises(ValueError, match="non-empty"):
        hl.name_scope("")


class Clip01(hl.Operation):
    def call(self, x):
        return hl.ops.clip(x, 0.0, 1.0)


def test_operation_and_function_in_graphs(backend):
    x = hl.Input((3,))
    clipped = Clip01(name="clip")(x)
    assert clipped.shape == (None, 3)
    model = hl.Model(x, clipped)
    data = np.array([[-1.0, 0.5, 2.0]], "float32")
    np.testing.assert_allclose(model.predict(data, verbose=0), [[0.0, 0.5, 1.0]])
    fn = hl.Function(x, hl.ops.relu(x) * 2)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(fn(data)), [[0.0, 1.0, 4.0]])
    assert [type(op).__name__ for op in fn.operations][0] == "InputLayer"


def test_stateless_scope_substitutes_and_collects(backend):
    v = hl.Variable(np.ones((2,), "float32"), name="v")
    with hl.StatelessScope(state_mapping=[(v, np.full((2,), 5.0, "float32"))]) as scope:
        np.testing.assert_allclose(hl.ops.convert_to_numpy(v.value), [5.0, 5.0])
        v.assign(np.full((2,), 7.0, "float32"))
        np.testing.assert_allclose(hl.ops.convert_to_numpy(scope.get_current_value(v)), [7.0, 7.0])
    np.testing.assert_allclose(v.numpy(), [1.0, 1.0])  # the variable itself is untouched
    with pytest.raises(ValueError, match="state_mapping"):
        hl.StatelessScope(state_mapping=[1, 2])
    with hl.SymbolicScope():
        v.assign(np.zeros((2,), "float32"))
    np.testing.assert_allclose(v.numpy(), [1.0, 1.0])


def test_device_and_remat(backend):
    with hl.device("cpu:0"):
        x = hl.ops.ones((2,))
    assert tuple(x.shape) == (2,)
    square = hl.remat(lambda t: t * t)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(square(np.float32(3.0))), 9.0)
    with hl.RematScope(mode="larger_than", output_size_threshold=10) as scope:
        assert hl.remat.__module__ == "highlevel.rematerialization" and scope.output_size_threshold == 10
    with pytest.raises(ValueError, match="mode"):
        hl.RematScope(mode="sometimes")
    with pytest.raises(ValueError, match="device"):
        hl.device("")
