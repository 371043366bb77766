"""``JaxLayer`` / ``FlaxLayer``: a JAX function and its parameters as a layer. It trains on the jax engine; on the
others (and without flax) it says what it needs."""

import importlib.util

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


@pytest.mark.skipif(importlib.util.find_spec("flax") is not None, reason="flax is installed")
def test_flax_layer_without_flax(jax_engine):
    with pytest.raises(ImportError, match=r"FlaxLayer needs the flax package.*pip install flax"):
        hl.layers.FlaxLayer(object())
