"""Keras's saving API: registration, serialize/deserialize_keras_object, the custom-layer hooks honoured by
save/load (build config, own variables, assets, compile config), folders (zipped=False), overwrite."""

import json
import os

import numpy as np
import pytest

import highlevel as hl
from highlevel.backends.contract.interop import front_class
from highlevel.saving import UnsafeFileError


@hl.saving.register_keras_serializable(package="tests_api")
def triple_relu(x):
    return 3 * hl.activations.relu(x)


@hl.saving.register_keras_serializable(package="tests_api")
class Scale(hl.layers.Layer):
    """Holds a weight plus an extra array it saves itself, and a vocabulary file saved as an asset."""

    def __init__(self, factor=1.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor
        self.vocab = ["a", "b"]
        self.extra = np.zeros((2,), "float32")

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

    def call(self, x):
        return x * self.w * self.factor

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}

    def save_own_variables(self, store):
        super().save_own_variables(store)
        store["extra"] = self.extra

    def load_own_variables(self, store):
        self.extra = np.asarray(store.pop("extra"))
        super().load_own_variables(store)

    def save_assets(self, dir_path):
        with open(os.path.join(dir_path, "vocab.txt"), "w") as f:
            f.write("\n".join(self.vocab))

    def load_assets(self, dir_path):
        with open(os.path.join(dir_path, "vocab.txt")) as f:
            self.vocab = f.read().split("\n")


def test_registration_names_and_lookup():
    assert hl.saving.get_registered_name(Scale) == "tests_api>Scale"
    assert hl.saving.get_registered_object("tests_api>Scale") is Scale
    assert hl.saving.get_registered_name(hl.layers.Dense) == "Dense"
    assert hl.saving.custom_object_scope is hl.saving.CustomObjectScope
    with hl.saving.CustomObjectScope({"Alias": Scale}):
        with hl.saving.custom_object_scope({"Inner": Scale}):
            assert hl.saving.get_registered_object("Alias") is Scale
            assert hl.saving.get_registered_object("Inner") is Scale
        assert hl.saving.get_registered_object("Inner") is None
    assert hl.saving.get_registered_object("Alias") is None
    with pytest.raises(ValueError, match="get_config"):
        hl.saving.register_keras_serializable()(type("NoConfig", (), {}))
    with pytest.raises(ValueError, match="'>'"):
        hl.saving.register_keras_serializable(package="a>b")


def test_serialize_roundtrip_of_layers_functions_and_arrays(backend):
    config = hl.saving.serialize_keras_object(Scale(2.0, name="s"))
    assert config["class_name"] == "Scale" and config["registered_name"] == "tests_api>Scale"
    json.dumps(config)
    again = hl.saving.deserialize_keras_object(json.loads(json.dumps(config)))  # no custom_objects: registered
    assert front_class(type(again)) is Scale and again.factor == 2.0 and again.name == "s"
    fn = hl.saving.serialize_keras_object(triple_relu)
    assert hl.saving.deserialize_keras_object(fn) is triple_relu
    arr = hl.saving.deserialize_keras_object(hl.saving.serialize_keras_object(np.arange(3, dtype="int32")))
    np.testing.assert_array_equal(arr, [0, 1, 2])
    with pytest.raises(ValueError, match="lambda"):
        hl.saving.serialize_keras_object(lambda x: x)


def test_unregistered_class_is_refused_without_custom_objects(backend):
    class Plain(hl.layers.Layer):
        def call(self, x):
            return x

    config = hl.saving.serialize_keras_object(Plain(name="p"))
    with pytest.raises((UnsafeFileError, ValueError, TypeError)):
        hl.saving.deserialize_keras_object(config)
    assert front_class(type(hl.saving.deserialize_keras_object(config, custom_objects={"Plain": Plain}))) is Plain
    with hl.saving.custom_object_scope({"Plain": Plain}):
        assert front_class(type(hl.saving.deserialize_keras_object(config))) is Plain


def _model():
    x = hl.Input((3,))
    h = hl.layers.Dense(4, activation=triple_relu, name="d")(x)
    y = Scale(0.5, name="scale")(h)
    model = hl.Model(x, y)
    model.compile(optimizer="adam", loss="mse")
    return model


@pytest.mark.parametrize("zipped", [None, False])
def test_custom_hooks_and_registered_activation_survive_save_and_load(backend, tmp_path, zipped):
    model = _model()
    scale = model.get_layer("scale")
    scale.w.assign(np.array([1.0, 2.0, 3.0, 4.0], "float32"))
    scale.extra = np.array([5.0, 6.0], "float32")
    scale.vocab = ["x", "y", "z"]
    x = np.random.default_rng(0).normal(size=(4, 3)).astype("float32")
    model.fit(x, np.ones((4, 4), "float32"), epochs=1, verbose=0)
    path = str(tmp_path / "m.keras")
    hl.saving.save_model(model, path, zipped=zipped)
    assert os.path.isdir(path) is (zipped is False)
    loaded = hl.saving.load_model(path)  # no custom_objects: Scale and triple_relu are registered
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6, atol=1e-6)
    assert loaded.get_layer("d").activation is triple_relu
    lscale = loaded.get_layer("scale")
    np.testing.assert_array_equal(lscale.extra, [5.0, 6.0])
    assert lscale.vocab == ["x", "y", "z"]
    assert loaded.optimizer is not None and loaded.compiled


def test_overwrite_false_keeps_the_existing_file(tmp_path):
    model = _model()
    path = tmp_path / "m.keras"
    path.write_bytes(b"precious")
    with pytest.raises(FileExistsError):
        hl.saving.save_model(model, path, overwrite=False)
    assert path.read_bytes() == b"precious"
    hl.models.save_model(model, path)
    assert hl.models.load_model(path).count_params() == model.count_params()


def test_build_config_hook_creates_weights_before_loading(backend, tmp_path):
    @hl.saving.register_keras_serializable(package="tests_api_build")
    class Sized(hl.layers.Layer):
        def build(self, input_shape):
            self.k = self.add_weight(shape=(input_shape[-1], 2), initializer="random_normal", name="k")

        def call(self, x):
            return hl.ops.matmul(x, self.k)

    layer = Sized(name="sized")
    layer(np.ones((1, 5), "float32"))
    assert layer.get_build_config() == {"input_shape": (1, 5)}
    twin = Sized.from_config(layer.get_config())
    twin.build_from_config(json.loads(json.dumps(layer.get_build_config())))
    assert twin.built and tuple(twin.k.shape) == (5, 2)


def test_compile_config_hooks(backend, tmp_path):
    model = _model()
    cfg = model.get_compile_config()
    assert cfg["optimizer"]["class_name"] == "Adam"
    twin = hl.models.clone_model(model)
    assert not twin.compiled
    twin.compile_from_config(json.loads(json.dumps(cfg)))
    assert twin.compiled and type(twin.optimizer).__name__ == "Adam"
    with pytest.raises(ValueError, match="compile_config|get_compile_config"):
        twin.compile_from_config({"loss": "mse"})


def test_keras_file_editor_edits_weights_without_building(backend, tmp_path):
    model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, name="d")])
    model.compile(optimizer="adam", loss="mse")
    path = tmp_path / "m.hl.zip"
    model.save(path)
    editor = hl.saving.KerasFileEditor(path)
    assert list(editor.weights_dict) == ["d/kernel", "d/bias"]
    assert editor.compare(model) == {"status": "success", "error_count": 0, "match_count": 2}
    other = hl.Sequential([hl.Input((3,)), hl.layers.Dense(4)])
    assert editor.compare(other)["status"] == "error"
    editor.weights_dict["d/bias"] = np.array([1.0, -1.0], "float32")
    editor.save(tmp_path / "edited.hl.zip")
    loaded = hl.saving.load_model(tmp_path / "edited.hl.zip")
    x = np.zeros((1, 3), "float32")
    np.testing.assert_allclose(loaded.predict(x, verbose=0), [[1.0, -1.0]])
    assert loaded.optimizer is not None
    editor.resave_weights(tmp_path / "w.safetensors")
    model.load_weights(tmp_path / "w.safetensors")
    np.testing.assert_allclose(model.predict(x, verbose=0), [[1.0, -1.0]])
    with pytest.raises(FileExistsError):
        editor.save(tmp_path / "edited.hl.zip", overwrite=False)
    model.save(tmp_path / "keras-format.keras")
    with pytest.raises(hl.saving.InvalidFileError, match="Keras 3's archive format"):
        hl.saving.KerasFileEditor(tmp_path / "keras-format.keras")
