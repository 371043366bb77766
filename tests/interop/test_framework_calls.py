"""A layer whose call() uses its engine's own framework (jnp, tf, torch, the native engine's ops) in a functional
model: the model builds (the engine evaluates the call abstractly), trains, saves and loads."""

import numpy as np
import pytest

import highlevel as hl
from highlevel.backends import registry


def _features(name):
    """``x -> concat([tanh(x), x * x], -1)`` written with the framework of engine ``name`` itself."""
    if name == "jax":
        import jax.numpy as jnp

        return lambda x: jnp.concatenate([jnp.tanh(x), jnp.multiply(x, x)], axis=-1)
    if name == "torch":
        import torch

        return lambda x: torch.cat([torch.tanh(x), torch.mul(x, x)], dim=-1)
    if name == "tensorflow":
        import tensorflow as tf

        return lambda x: tf.concat([tf.tanh(x), tf.multiply(x, x)], axis=-1)
    native = registry.get("native")
    return lambda x: native.concatenate([native.tanh(x), native.multiply(x, x)], axis=-1)


@hl.saving.register_keras_serializable(package="test_framework_calls")
class FrameworkFeatures(hl.layers.Layer):
    """Framework calls, and Python control flow on a static shape."""

    def call(self, x):
        out = _features(hl.config.backend())(x)
        if x.shape[-1] > 8:  # a static size: plain Python decides
            raise AssertionError("not reached for the small inputs of these tests")
        return out


def _data(n=64):
    rng = np.random.default_rng(0)
    x = rng.uniform(-1.5, 1.5, (n, 3)).astype("float32")
    y = (np.tanh(x).sum(1, keepdims=True) + 0.5 * (x * x).sum(1, keepdims=True)).astype("float32")
    return x, y


def _model():
    inputs = hl.Input((3,))
    features = FrameworkFeatures()(inputs)
    return hl.Model(inputs, hl.layers.Dense(1)(features)), features


def test_framework_call_builds_trains_saves_and_loads(backend, tmp_path):
    model, features = _model()
    assert features.shape == (None, 6) and features.dtype == "float32"
    x, y = _data()
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="mse")
    start = model.evaluate(x, y, verbose=0)
    model.fit(x, y, epochs=40, batch_size=16, verbose=0)
    end = model.evaluate(x, y, verbose=0)
    assert end < 0.5 * start, (start, end)
    path = str(tmp_path / "framework.keras")
    model.save(path)
    loaded = hl.models.load_model(path)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-5, atol=1e-5)


def test_unknown_dimensions_stay_unknown(backend):
    inputs = hl.Input((None, 3))
    out = FrameworkFeatures()(inputs)
    assert out.shape == (None, None, 6)


def test_framework_call_on_a_symbolic_tensor_outside_a_layer_says_what_to_do(backend):
    inputs = hl.Input((3,))
    with pytest.raises(TypeError, match="symbolic KerasTensor"):
        np.asarray(inputs)


def _matmul(name):
    if name == "jax":
        import jax.numpy as jnp

        return jnp.matmul
    if name == "torch":
        import torch

        return torch.matmul
    if name == "tensorflow":
        import tensorflow as tf

        return tf.matmul
    return registry.get("native").matmul


class FrameworkDense(hl.layers.Layer):
    """A weight used by the framework's own matmul: the gradients flow through framework code."""

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], 1), initializer="zeros")

    def call(self, x):
        return _matmul(hl.config.backend())(x, self.w.value)


def test_weights_used_by_framework_code_in_call_are_trained(backend):
    x, y = _data()
    inputs = hl.Input((3,))
    model = hl.Model(inputs, FrameworkDense()(FrameworkFeatures()(inputs)))
    assert model.output.shape == (None, 1)
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="mse")
    start = model.evaluate(x, y, verbose=0)
    model.fit(x, y, epochs=40, batch_size=16, verbose=0)
    assert model.evaluate(x, y, verbose=0) < 0.5 * start


def test_an_error_of_call_itself_reaches_the_user_unchanged(backend):
    class Picky(hl.layers.Layer):
        def call(self, x):
            raise ValueError("Picky wants images, not vectors")

    with pytest.raises(ValueError, match="Picky wants images"):
        Picky()(hl.Input((3,)))


def test_the_engine_reports_shapes_of_several_outputs(backend):
    from highlevel.backends.contract import ShapeSpec

    engine = hl.config.current_backend()
    out = engine.abstract_call(
        lambda x, y: {"sum": engine.add(x, y), "first": x[:, :1]},
        (ShapeSpec((None, 3), "float32"), ShapeSpec((1, 3), "float32")),
        {},
    )
    assert out == {"sum": ShapeSpec((None, 3), "float32"), "first": ShapeSpec((None, 1), "float32")}
