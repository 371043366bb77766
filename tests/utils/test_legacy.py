"""``hl.utils.legacy``: Keras 2's ``{"class_name", "config"}`` form, built back only from allowed classes."""

import numpy as np
import pytest

import highlevel as hl
from highlevel.utils import legacy


def test_layer_round_trip_predicts_the_same(backend):
    layer = hl.layers.Dense(3, activation="relu", kernel_initializer=hl.initializers.GlorotUniform(seed=1))
    x = np.ones((2, 4), "float32")
    layer(x)
    config = legacy.serialize_keras_object(layer)
    assert config["class_name"] == "Dense" and config["config"]["units"] == 3
    clone = legacy.deserialize_keras_object(config, module_objects=vars(hl.layers))
    clone(x)
    clone.set_weights(layer.get_weights())
    np.testing.assert_array_equal(hl.ops.convert_to_numpy(clone(x)), hl.ops.convert_to_numpy(layer(x)))


def test_keras_reads_our_legacy_config(keras):
    config = legacy.serialize_keras_object(hl.layers.Dense(2, name="d"))
    layer = keras.utils.legacy.deserialize_keras_object(config, module_objects=vars(keras.layers))
    assert type(layer).__name__ == "Dense" and layer.units == 2


def test_registered_classes_nested_objects_and_functions():
    @hl.saving.register_serializable(package="legacy_test")
    class Scale(hl.layers.Layer):
        def __init__(self, factor=1.0, regularizer=None, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor
            self.regularizer = regularizer

        def get_config(self):
            return {**super().get_config(), "factor": self.factor, "regularizer": self.regularizer}

    def double(x):
        return 2 * x

    config = legacy.serialize_keras_object(Scale(3.0, regularizer=hl.regularizers.L2(0.5)))
    assert config["class_name"] == "legacy_test>Scale"
    assert config["config"]["regularizer"]["__passive_serialization__"] is True
    layer = legacy.deserialize_keras_object(config, module_objects={"L2": hl.regularizers.L2})
    assert isinstance(layer, Scale) and layer.factor == 3.0 and isinstance(layer.regularizer, hl.regularizers.L2)
    assert legacy.serialize_keras_object(double) == "double"
    assert legacy.deserialize_keras_object("double", custom_objects={"double": double}) is double
    assert legacy.serialize_keras_object(None) is None and legacy.deserialize_keras_object(None) is None


def test_only_allowed_classes_are_built():
    with pytest.raises(ValueError, match="Unknown layer: 'os.system'"):
        legacy.deserialize_keras_object({"class_name": "os.system", "config": {}}, printable_module_name="layer")
    with pytest.raises(ValueError, match="Unknown object: 'eval'"):
        legacy.deserialize_keras_object("eval")
    with pytest.raises(ValueError, match="'class_name' and 'config'"):
        legacy.deserialize_keras_object({"config": {}})
    with pytest.raises(ValueError, match="no get_config"):
        legacy.serialize_keras_object(object())
