"""``clone_model`` (clone_function, call_function, input_tensors), ``to_json``/``model_from_json``, and subclasses
of Model used functionally (the "customizing fit" pattern)."""

import json

import numpy as np
import pytest

import highlevel as hl

X = np.random.default_rng(0).normal(size=(16, 3)).astype("float32")
Y = (X @ np.array([[1.0], [-2.0], [0.5]], "float32")).astype("float32")


def _functional():
    x = hl.Input((3,), name="x")
    h = hl.layers.Dense(4, activation="relu", name="h")(x)
    return hl.Model(x, hl.layers.Dense(1, name="out")(h), name="f")


def test_clone_functional_has_new_weights_same_architecture(backend):
    model = _functional()
    twin = hl.models.clone_model(model)
    assert [l.name for l in twin.layers] == [l.name for l in model.layers]
    assert all(a is not b for a, b in zip(twin.layers[1:], model.layers[1:]))
    twin.set_weights(model.get_weights())
    np.testing.assert_allclose(twin.predict(X, verbose=0), model.predict(X, verbose=0), rtol=1e-6, atol=1e-6)


def test_clone_with_shared_layers_and_call_function(backend):
    model = _functional()
    seen = []

    def call_function(layer, *args, **kwargs):
        seen.append(layer.name)
        out = layer(*args, **kwargs)
        return hl.layers.Activation("sigmoid")(out) if layer.name == "out" else out

    twin = hl.models.clone_model(model, clone_function=lambda layer: layer, call_function=call_function)
    assert seen == ["h", "out"]
    assert twin.get_layer("h") is model.get_layer("h")  # shared: same weights
    pred = twin.predict(X, verbose=0)
    np.testing.assert_allclose(pred, 1 / (1 + np.exp(-model.predict(X, verbose=0))), rtol=1e-5, atol=1e-6)


def test_clone_sequential_with_input_tensors_and_clone_function(backend):
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, name="a"), hl.layers.Dense(1, name="b")])

    def rename(layer):
        config = layer.get_config()
        config["name"] = "new_" + config["name"]
        return type(layer).from_config(config)

    inp = hl.Input((3,), name="fresh")
    twin = hl.models.clone_model(model, input_tensors=inp, clone_function=rename)
    assert [l.name for l in twin.layers] == ["new_a", "new_b"]
    assert twin.predict(X, verbose=0).shape == (16, 1)
    with pytest.raises(ValueError, match="call_function"):
        hl.models.clone_model(model, call_function=lambda layer, *a, **k: layer(*a, **k))


def test_to_json_and_model_from_json(backend):
    model = _functional()
    model.compile(optimizer="sgd", loss="mse")
    text = model.to_json()
    assert json.loads(text)["class_name"] in ("Functional", "Model")
    again = hl.models.model_from_json(text)
    assert [l.name for l in again.layers] == [l.name for l in model.layers]
    again.set_weights(model.get_weights())
    np.testing.assert_allclose(again.predict(X, verbose=0), model.predict(X, verbose=0), rtol=1e-6, atol=1e-6)
    with pytest.raises(ValueError, match="JSON"):
        hl.models.model_from_json("{not json")


class CountingModel(hl.Model):
    """The "customizing fit" pattern: a functional model whose class overrides train_step."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.steps_seen = 0

    def train_step(self, data):
        self.steps_seen += 1
        return super().train_step(data)


def test_subclass_used_functionally_trains_with_its_train_step(backend):
    x = hl.Input((3,))
    model = CountingModel(inputs=x, outputs=hl.layers.Dense(1)(x))
    assert isinstance(model, CountingModel) and isinstance(model, hl.models.Functional)
    model.compile(optimizer=hl.optimizers.SGD(0.1), loss="mse", run_eagerly=True)
    before = model.evaluate(X, Y, verbose=0)
    model.fit(X, Y, epochs=5, batch_size=8, verbose=0)
    assert model.steps_seen == 10
    assert model.evaluate(X, Y, verbose=0) < before * 0.5
    again = CountingModel.from_config(model.get_config())
    assert type(again).__name__ == "CountingModel" and len(again.layers) == len(model.layers)


def test_subclass_calling_super_init_with_graph(backend):
    class Wrapped(hl.Model):
        def __init__(self, units=2, **kwargs):
            inp = hl.Input((3,))
            super().__init__(inputs=inp, outputs=hl.layers.Dense(units)(inp), **kwargs)
            self.units = units

        def get_config(self):
            return {"units": self.units, "name": self.name}

        @classmethod
        def from_config(cls, config):
            return cls(**config)

    model = Wrapped(units=5, name="w")
    assert model.predict(X, verbose=0).shape == (16, 5)
    again = Wrapped.from_config(model.get_config())
    assert again.units == 5 and again.predict(X, verbose=0).shape == (16, 5)


@hl.saving.register_keras_serializable(package="tests_models")
class TimesK(hl.layers.Layer):
    """A custom layer whose get_config() leaves out the base config (no name), as many Keras programs write it."""

    def __init__(self, k=2.0, **kwargs):
        super().__init__(**kwargs)
        self.k = k

    def call(self, x):
        return x * self.k

    def get_config(self):
        return {"k": self.k}


def test_functional_from_config_finds_a_custom_layer_without_name(backend):
    x = hl.Input((3,))
    model = hl.Model(x, hl.layers.Dense(1, name="d")(TimesK(3.0)(x)))
    again = hl.Model.from_config(json.loads(json.dumps(model.get_config())))  # registered: no custom_objects
    assert isinstance(again.layers[1], TimesK) and again.layers[1].k == 3.0
    again.set_weights(model.get_weights())
    np.testing.assert_allclose(again.predict(X, verbose=0), model.predict(X, verbose=0), rtol=1e-6, atol=1e-6)


def test_model_members_keras_programs_read(backend):
    x = hl.Input((3,))
    model = hl.Model(x, hl.layers.Dense(2, name="d")(hl.ops.relu(x)))
    assert model.input_shape == (None, 3) and model.output_shape == (None, 2)
    assert [getattr(op, "name", None) for op in model.operations][-1] == "d" and len(model.operations) == 3
    assert model.input_dtype == "float32" and model.call_signature_parameters[0] == "inputs"
    assert model.loss is None and model.train_function is None and not model.compiled
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    model.fit(X, np.zeros((16, 2), "float32"), epochs=1, verbose=0)
    assert model.loss == "mse" and model.train_function is not None
    assert callable(model.make_predict_function()) and model.predict_function is not None
    assert len(model.metrics_variables) == sum(len(m.variables) for m in model.metrics) > 0
    with pytest.raises(NotImplementedError, match="compile"):
        model.add_metric(1.0)
    layer = hl.layers.Layer()
    v = layer.add_variable((2,), "zeros", name="v")
    assert tuple(v.shape) == (2,) and v in layer.weights


def test_state_tree_round_trip(backend):
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, name="d")])
    model.compile(optimizer="adam", loss="mse")
    model.fit(X, np.zeros((16, 2), "float32"), epochs=1, verbose=0)
    state = model.get_state_tree(value_format="numpy_array")
    assert set(state) == {"trainable_variables", "non_trainable_variables", "optimizer_variables", "metrics_variables"}
    kernel = state["trainable_variables"]["d"]["kernel"]
    assert kernel.shape == (3, 2)
    before = model.predict(X, verbose=0)
    model.fit(X, np.ones((16, 2), "float32"), epochs=2, verbose=0)
    assert not np.allclose(model.predict(X, verbose=0), before)
    model.set_state_tree({"trainable_variables": state["trainable_variables"]})
    np.testing.assert_allclose(model.predict(X, verbose=0), before, rtol=1e-6, atol=1e-6)
    with pytest.raises(ValueError, match="no variable 'd/nope'"):
        model.set_state_tree({"trainable_variables": {"d": {"nope": kernel}}})


def test_sequential_from_config_with_custom_objects(backend):
    class Halve(hl.layers.Layer):
        def call(self, x):
            return x / 2

    model = hl.Sequential([hl.Input((3,)), Halve(name="h")])
    config = json.loads(json.dumps(model.get_config()))
    again = hl.Sequential.from_config(config, custom_objects={"Halve": Halve})
    assert isinstance(again.layers[0], Halve)
    np.testing.assert_allclose(again.predict(X, verbose=0), X / 2, rtol=1e-6)
