"""``hl.legacy.saving``: Keras 2's config form; a layer rebuilt from it computes what the original does."""

import json

import numpy as np
import pytest

import highlevel as hl


def test_same_functions_as_utils_legacy():
    assert hl.legacy.saving.serialize_keras_object is hl.utils.legacy.serialize_keras_object
    assert hl.legacy.saving.deserialize_keras_object is hl.utils.legacy.deserialize_keras_object


def test_round_trip_rebuilds_an_equivalent_layer(backend):
    layer = hl.layers.Dense(3, activation="relu", kernel_initializer=hl.initializers.Constant(0.5), name="d")
    config = json.loads(json.dumps(hl.legacy.saving.serialize_keras_object(layer)))  # JSON-ready
    assert config["class_name"] == "Dense" and config["config"]["units"] == 3
    clone = hl.legacy.saving.deserialize_keras_object(config, module_objects=vars(hl.layers))
    x = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)
    np.testing.assert_allclose(hl.ops.convert_to_numpy(clone(x)), hl.ops.convert_to_numpy(layer(x)), rtol=1e-6)
    with pytest.raises(ValueError, match="Dense"):
        hl.legacy.saving.deserialize_keras_object(config)  # an unknown class is refused, never imported


def test_keras_legacy_reads_ours(keras):
    config = hl.legacy.saving.serialize_keras_object(hl.layers.Dense(2, use_bias=False, name="d"))
    layer = keras.legacy.saving.deserialize_keras_object(config, module_objects=vars(keras.layers))
    assert type(layer).__name__ == "Dense" and layer.units == 2 and not layer.use_bias
