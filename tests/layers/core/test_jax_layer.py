"""``JaxLayer`` / ``FlaxLayer``: a JAX function and its parameters as a layer. It trains on the jax engine; on the
others (and without flax) it says what it needs."""

import sys

import numpy as np
import pytest

import highlevel as hl

RNG = np.random.default_rng(0)
X = RNG.normal(size=(64, 4)).astype("float32")
Y = X @ np.array([[1.0], [2.0], [-1.0], [0.5]], "float32")


def test_jax_layer_needs_the_jax_engine(backend):
    def make():
        return hl.layers.JaxLayer(lambda params, inputs: inputs * params["w"], params={"w": np.ones(2, "float32")})

    if backend.jax_functions() is not None:  # the engine that runs JAX functions builds and calls it
        out = make()(np.full((3, 2), 2.0, "float32"))
        np.testing.assert_allclose(hl.ops.convert_to_numpy(out), np.full((3, 2), 2.0))
        return
    with pytest.raises(ValueError, match=rf"needs the jax backend; the current backend is '{backend.name}'"):
        make()


@pytest.fixture
def jax_engine():
    if "jax" not in hl.backends.installed():
        pytest.skip("jax is not installed")
    with hl.config.backend_scope("jax"):
        hl.utils.set_random_seed(0)
        yield


def test_jax_layer_with_init_fn_state_and_rng_trains(jax_engine, tmp_path):
    import jax
    import jax.numpy as jnp

    seen_rng = []

    def init_fn(rng, inputs):
        return {"w": jax.random.normal(rng, (inputs.shape[-1], 1)) * 0.1, "b": jnp.zeros((1,))}, {
            "calls": jnp.zeros(())
        }

    def call_fn(params, state, rng, inputs, training):
        seen_rng.append(rng is not None)
        return inputs @ params["w"] + params["b"], {"calls": state["calls"] + 1}

    layer = hl.layers.JaxLayer(call_fn, init_fn=init_fn, seed=3)
    inputs = hl.Input((4,))
    model = hl.Model(inputs, layer(inputs))
    assert model.output.shape == (None, 1)
    assert sorted(tuple(v.shape) for v in model.trainable_variables) == [(1,), (4, 1)]
    model.compile(optimizer=hl.optimizers.Adam(0.1), loss="mse")
    history = model.fit(X, Y, epochs=8, batch_size=16, verbose=0).history["loss"]
    assert history[-1] < 0.5 * history[0]
    assert float(layer.state["calls"].numpy()) >= 32  # the state call_fn returned was written back every step
    assert True in seen_rng and False in seen_rng  # a key when training, None otherwise
    predicted = model.predict(X, verbose=0)
    path = str(tmp_path / "jax_layer.weights.h5")
    model.save_weights(path)
    rebuilt = hl.Model(inputs, layer(inputs))
    for v in rebuilt.trainable_variables:
        v.assign(np.zeros(v.shape, "float32"))
    rebuilt.load_weights(path)
    np.testing.assert_allclose(rebuilt.predict(X, verbose=0), predicted, rtol=1e-6)


def test_jax_layer_with_params_and_errors(jax_engine):
    layer = hl.layers.JaxLayer(lambda params, inputs: inputs @ params[0], params=[np.eye(4, dtype="float32") * 2])
    np.testing.assert_allclose(hl.ops.convert_to_numpy(layer(X[:2])), 2 * X[:2])
    assert layer.built and len(layer.trainable_weights) == 1
    with pytest.raises(ValueError, match=r"`call_fn` takes the argument\(s\) \['weights'\]"):
        hl.layers.JaxLayer(lambda weights, inputs: inputs, params={})
    with pytest.raises(ValueError, match=r"give `init_fn` to make them"):
        hl.layers.JaxLayer(lambda params, inputs: inputs)
    with pytest.raises(ValueError, match=r"must take an argument named `inputs`"):
        hl.layers.JaxLayer(lambda params: params, params={})


def test_flax_layer_without_flax(jax_engine, monkeypatch):
    monkeypatch.setitem(sys.modules, "flax", None)  # as if flax were not installed: importing it fails
    with pytest.raises(ImportError, match=r'FlaxLayer needs the flax package.*pip install -e "\.\[flax\]"'):
        hl.layers.FlaxLayer(object())


def _flax_mlp():
    import flax.linen as nn

    class MLP(nn.Module):
        @nn.compact
        def __call__(self, x, training=False):
            x = nn.Dense(8)(x)
            x = nn.BatchNorm(use_running_average=not training, momentum=0.5)(x)
            x = nn.Dropout(0.1, deterministic=not training)(nn.relu(x))
            return nn.Dense(1)(x)

    return MLP()


def test_flax_layer_trains_matches_flax_and_saves(jax_engine, tmp_path):
    import jax

    module = _flax_mlp()
    layer = hl.layers.FlaxLayer(module)
    inputs = hl.Input((4,))
    model = hl.Model(inputs, layer(inputs))
    assert model.output.shape == (None, 1)
    assert len(model.trainable_variables) == 6 and len(layer.state["batch_stats"]["BatchNorm_0"]) == 2
    model.compile(optimizer=hl.optimizers.Adam(0.05), loss="mse")
    history = model.fit(X, Y, epochs=10, batch_size=16, verbose=0).history["loss"]
    assert history[-1] < 0.5 * history[0]
    mean = layer.state["batch_stats"]["BatchNorm_0"]["mean"]
    assert np.abs(hl.ops.convert_to_numpy(mean)).max() > 1e-3  # the running statistics were written back
    predicted = model.predict(X, verbose=0)
    variables = jax.tree_util.tree_map(np.asarray, {"params": layer.params, **layer.state})
    direct = module.apply(variables, X, training=False)  # the Flax module itself, with the layer's weights
    np.testing.assert_allclose(np.asarray(direct), predicted, rtol=1e-5, atol=1e-5)

    path = str(tmp_path / "flax_layer.weights.h5")
    model.save_weights(path)
    again = hl.layers.FlaxLayer(_flax_mlp())
    rebuilt = hl.Model(inputs, again(inputs))
    assert not np.allclose(rebuilt.predict(X, verbose=0), predicted)
    rebuilt.load_weights(path)
    np.testing.assert_allclose(rebuilt.predict(X, verbose=0), predicted, rtol=1e-6)


def test_flax_layer_with_given_variables_and_a_named_method(jax_engine):
    import flax.linen as nn
    import jax

    class Affine(nn.Module):
        def setup(self):
            self.dense = nn.Dense(2)

        def __call__(self, x):
            return self.dense(x)

        def doubled(self, x):
            return 2 * self.dense(x)

    module = Affine()
    variables = module.init(jax.random.PRNGKey(1), X[:1])
    layer = hl.layers.FlaxLayer(module, method="doubled", variables=variables)
    assert layer.built and not layer.non_trainable_weights
    expected = module.apply(variables, X[:5], method="doubled")
    np.testing.assert_allclose(hl.ops.convert_to_numpy(layer(X[:5])), np.asarray(expected), rtol=1e-6)


def test_native_serialization_platforms_reach_the_saved_model(jax_engine, tmp_path):
    import tensorflow as tf

    def model_for(platforms):
        layer = hl.layers.JaxLayer(
            lambda params, inputs: inputs @ params["w"],
            params={"w": np.ones((4, 1), "float32")},
            native_serialization_platforms=platforms,
        )
        assert layer.jax2tf_native_serialization_platforms == (None if platforms is None else tuple(platforms))
        return hl.Sequential([hl.Input((4,)), layer])

    cpu = model_for(["cpu"])
    cpu.export(str(tmp_path / "cpu"), format="tf_saved_model", verbose=False)
    restored = tf.saved_model.load(str(tmp_path / "cpu"))  # kept: its functions read its variables
    served = restored.serve(tf.constant(X[:3]))
    np.testing.assert_allclose(np.asarray(served), cpu.predict(X[:3], verbose=0), rtol=1e-5)
    # compiled for a TPU only: this CPU machine cannot run it, which shows the platforms were used
    tpu = model_for(["tpu"])
    tpu.export(str(tmp_path / "tpu"), format="tf_saved_model", verbose=False)
    restored = tf.saved_model.load(str(tmp_path / "tpu"))
    with pytest.raises(Exception, match="(?i)platform"):
        restored.serve(tf.constant(X[:3]))
    # the caller's own jax2tf_kwargs win
    tpu.export(
        str(tmp_path / "own"),
        format="tf_saved_model",
        verbose=False,
        jax2tf_kwargs={"native_serialization_platforms": ["cpu"]},
    )
    restored = tf.saved_model.load(str(tmp_path / "own"))
    served = restored.serve(tf.constant(X[:3]))
    np.testing.assert_allclose(np.asarray(served), tpu.predict(X[:3], verbose=0), rtol=1e-5)


def test_native_serialization_platforms_are_checked(jax_engine):
    with pytest.raises(ValueError, match=r"among \['cpu', 'cuda', 'rocm', 'tpu'\]. Received: .*='gpu'"):
        hl.layers.JaxLayer(lambda inputs: inputs, native_serialization_platforms="gpu")
    a = hl.layers.JaxLayer(lambda inputs: inputs, native_serialization_platforms=["cpu"])
    b = hl.layers.JaxLayer(lambda inputs: inputs, native_serialization_platforms=["cuda"])
    model = hl.Sequential([hl.Input((4,)), a, b])
    with pytest.raises(ValueError, match="different `native_serialization_platforms`"):
        model.export("unused", format="tf_saved_model", verbose=False)


def _registered_linear_fns():
    import jax

    @hl.saving.register_keras_serializable(package="test_jax_layer")
    def linear_init(rng, inputs):
        return {"w": jax.random.normal(rng, (inputs.shape[-1], 1))}

    @hl.saving.register_keras_serializable(package="test_jax_layer")
    def linear_call(params, inputs):
        return inputs @ params["w"]

    return linear_init, linear_call


def test_config_with_registered_functions_saves_and_loads(jax_engine, tmp_path):
    linear_init, linear_call = _registered_linear_fns()
    layer = hl.layers.JaxLayer(linear_call, init_fn=linear_init, seed=2, native_serialization_platforms=["cpu"])
    model = hl.Sequential([hl.Input((4,)), layer])
    config = layer.get_config()
    assert config["native_serialization_platforms"] == ["cpu"] and config["seed"] == 2
    model.set_weights([np.arange(4, dtype="float32").reshape(4, 1)])  # not what the seed would make again
    model.save(tmp_path / "m.keras")
    loaded = hl.models.load_model(tmp_path / "m.keras")
    want = X[:5] @ np.arange(4, dtype="float32").reshape(4, 1)
    np.testing.assert_allclose(loaded.predict(X[:5], verbose=0), want, rtol=1e-5, atol=1e-5)
    assert loaded.layers[-1].jax2tf_native_serialization_platforms == ("cpu",)
    # an unregistered function cannot be named in a config: the error says how to fix it
    with pytest.raises(NotImplementedError, match="register_keras_serializable"):
        hl.layers.JaxLayer(lambda inputs: inputs).get_config()
