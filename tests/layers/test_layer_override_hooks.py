"""The Layer methods a Keras user overrides — ``Conv.convolution_op``, ``compute_output_shape``,
``compute_output_spec``, ``compute_mask``, ``build``, ``get_build_config``/``build_from_config`` — are called where
Keras calls them: each override changes the outcome."""

import numpy as np

import highlevel as hl
from highlevel import ops


class StandardizedConv2D(hl.layers.Conv2D):
    """keras-io's weight-standardized convolution: the kernel is standardized before each convolution."""

    def convolution_op(self, inputs, kernel):
        mean = ops.mean(kernel, axis=(0, 1, 2), keepdims=True)
        var = ops.var(kernel, axis=(0, 1, 2), keepdims=True)
        return super().convolution_op(inputs, (kernel - mean) / ops.sqrt(var + 1e-10))


def test_convolution_op_override_changes_the_kernel_the_layer_applies(backend):
    x = np.random.default_rng(0).normal(size=(2, 5, 5, 3)).astype("float32")
    layer = StandardizedConv2D(4, 3, bias_initializer="ones")
    out = ops.convert_to_numpy(layer(x))
    kernel = ops.convert_to_numpy(layer.kernel)
    standard = (kernel - kernel.mean(axis=(0, 1, 2), keepdims=True)) / np.sqrt(
        kernel.var(axis=(0, 1, 2), keepdims=True) + 1e-10
    )
    expected = ops.convert_to_numpy(ops.conv(x, standard, padding="valid")) + 1.0
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)
    plain = hl.layers.Conv2D(4, 3, bias_initializer="ones")
    plain.build(x.shape)
    plain.set_weights(layer.get_weights())
    assert np.abs(ops.convert_to_numpy(plain(x)) - out).max() > 1e-2  # the override made a difference


def test_convolution_op_override_keeps_causal_padding(backend):
    class Doubled(hl.layers.Conv1D):
        def convolution_op(self, inputs, kernel):
            return super().convolution_op(inputs, 2.0 * kernel)

    x = np.random.default_rng(1).normal(size=(2, 6, 2)).astype("float32")
    layer = Doubled(3, 3, padding="causal", use_bias=False)
    plain = hl.layers.Conv1D(3, 3, padding="causal", use_bias=False)
    out = ops.convert_to_numpy(layer(x))
    plain.build(x.shape)
    plain.set_weights(layer.get_weights())
    assert out.shape == (2, 6, 3)
    np.testing.assert_allclose(out, 2.0 * ops.convert_to_numpy(plain(x)), rtol=1e-4, atol=1e-5)


class HostCumsum(hl.layers.Layer):
    """A call that needs real values (it goes through the host); it counts the calls it gets."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.calls = 0

    def call(self, x):
        self.calls += 1
        return ops.convert_to_tensor(np.cumsum(ops.convert_to_numpy(x), axis=-1))


class DeclaredShape(HostCumsum):
    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


class DeclaredSpec(HostCumsum):
    def compute_output_spec(self, x):
        return hl.KerasTensor(x.shape, dtype="float32")


def test_compute_output_shape_override_gives_the_symbolic_output_as_in_keras(backend):
    inputs = hl.Input((4,))

    class OpsCumsum(HostCumsum):
        def call(self, x):
            self.calls += 1
            return ops.cumsum(x, axis=-1)

    undeclared = OpsCumsum()
    undeclared(inputs)
    assert undeclared.calls > 0  # without a declaration, building runs call
    for cls in (DeclaredShape, DeclaredSpec):
        layer = cls()
        out = layer(inputs)
        assert out.shape == (None, 4) and out.dtype == "float32"
        assert layer.calls == 0  # the declared output is taken as it is: call does not run while building
        model = hl.Model(inputs, out)
        x = np.arange(8, dtype="float32").reshape(2, 4)
        np.testing.assert_allclose(ops.convert_to_numpy(model(x)), np.cumsum(x, axis=-1))


def test_compute_output_shape_override_that_defers_to_super_runs_call(backend):
    class Deferring(hl.layers.Layer):
        def call(self, x):
            return ops.concatenate([x, x], axis=-1)

        def compute_output_shape(self, input_shape):
            return super().compute_output_shape(input_shape)

    assert Deferring()(hl.Input((3,))).shape == (None, 6)


class FirstFeatureMask(hl.layers.Layer):
    """Masks the time steps whose first feature is 0."""

    def compute_mask(self, inputs, mask=None):
        return ops.not_equal(inputs[..., 0], 0.0)


class MaskToValues(hl.layers.Layer):
    def call(self, x, mask=None):
        return ops.cast(mask, "float32")


def test_compute_mask_override_reaches_the_next_layer(backend):
    inputs = hl.Input((3, 2))
    model = hl.Model(inputs, MaskToValues()(FirstFeatureMask()(inputs)))
    x = np.array([[[1, 5], [0, 5], [2, 0]]], "float32")
    np.testing.assert_allclose(ops.convert_to_numpy(model(x)), [[1.0, 0.0, 1.0]])


@hl.saving.register_keras_serializable(package="test_layer_override_hooks")
class Tiled(hl.layers.Layer):
    """build() makes a weight sized by a number get_build_config stores; build_from_config reads it back."""

    def __init__(self, copies=2, **kwargs):
        super().__init__(**kwargs)
        self.copies = copies

    def build(self, input_shape):
        self.scale = self.add_weight(shape=(input_shape[-1] * self.copies,), initializer="random_normal")

    def call(self, x):
        return ops.tile(x, (1, self.copies)) * self.scale

    def get_config(self):
        return {**super().get_config(), "copies": self.copies}

    def get_build_config(self):
        return {"features": int(self.scale.shape[0]) // self.copies, "seen": True}

    def build_from_config(self, config):
        assert config["seen"]
        self.build((None, config["features"]))
        self.built = True


def test_build_and_build_config_overrides_are_used_by_saving(backend, tmp_path):
    inputs = hl.Input((3,))
    model = hl.Model(inputs, Tiled(copies=2)(inputs))
    assert tuple(model.layers[-1].scale.shape) == (6,)
    path = str(tmp_path / "tiled.keras")
    model.save(path)
    loaded = hl.models.load_model(path)
    x = np.arange(6, dtype="float32").reshape(2, 3)
    np.testing.assert_allclose(ops.convert_to_numpy(loaded(x)), ops.convert_to_numpy(model(x)), rtol=1e-6)
