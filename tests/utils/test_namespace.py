"""``hl.utils`` has Keras's public names, loads them lazily, and re-exports ``hl.saving``'s as they appear."""

import os
import subprocess
import sys

import pytest

import highlevel as hl

# keras.utils's public names (Keras 3.15); get_file lives in file_utils (below).
KERAS_NAMES = [
    "Config",
    "FeatureSpace",
    "CustomObjectScope",
    "Progbar",
    "PyDataset",
    "Sequence",
    "array_to_img",
    "audio_dataset_from_directory",
    "bounding_boxes",
    "clear_session",
    "custom_object_scope",
    "deserialize_keras_object",
    "disable_interactive_logging",
    "enable_interactive_logging",
    "get_custom_objects",
    "get_registered_name",
    "get_registered_object",
    "get_source_inputs",
    "image_dataset_from_directory",
    "img_to_array",
    "is_interactive_logging_enabled",
    "is_keras_tensor",
    "legacy",
    "load_img",
    "model_to_dot",
    "normalize",
    "pack_x_y_sample_weight",
    "pad_sequences",
    "plot_model",
    "register_keras_serializable",
    "save_img",
    "serialize_keras_object",
    "set_random_seed",
    "split_dataset",
    "standardize_dtype",
    "text_dataset_from_directory",
    "timeseries_dataset_from_array",
    "to_categorical",
    "unpack_x_y_sample_weight",
]
SAVING_NAMES = [
    "CustomObjectScope",
    "custom_object_scope",
    "deserialize_keras_object",
    "get_custom_objects",
    "get_registered_name",
    "get_registered_object",
    "register_keras_serializable",
    "serialize_keras_object",
]


@pytest.mark.parametrize("name", [n for n in KERAS_NAMES if n not in SAVING_NAMES])
def test_name_resolves(name):
    assert getattr(hl.utils, name) is not None
    assert name in dir(hl.utils)


@pytest.mark.parametrize("name", SAVING_NAMES)
def test_saving_names_are_hl_saving_objects(name):
    # hl.saving is written in parallel: every name it has is the same object here; the others are absent here too.
    if hasattr(hl.saving, name):
        assert getattr(hl.utils, name) is getattr(hl.saving, name)
        assert name in dir(hl.utils)
    else:
        with pytest.raises(AttributeError, match=name):
            getattr(hl.utils, name)
        assert name not in dir(hl.utils)


def test_the_names_match_keras(keras):
    ours = set(KERAS_NAMES) | {"get_file"}
    theirs = {n for n in dir(keras.utils) if not n.startswith("_")}
    assert ours == theirs
    assert {n for n in dir(keras.utils.bounding_boxes) if not n.startswith("_")} == set(hl.utils.bounding_boxes.__all__)
    for name in ("serialize_keras_object", "deserialize_keras_object"):
        assert callable(getattr(hl.utils.legacy, name))


def test_aliases_and_reexports():
    assert hl.utils.Sequence is hl.utils.PyDataset
    assert hl.utils.is_keras_tensor(hl.Input((2,))) and not hl.utils.is_keras_tensor(1.0)
    assert hl.utils.standardize_dtype("float64") == "float64"
    hl.utils.disable_interactive_logging()
    try:
        assert hl.utils.is_interactive_logging_enabled() is False
        assert hl.config.is_interactive_logging_enabled() is False
    finally:
        hl.utils.enable_interactive_logging()
    assert hl.utils.is_interactive_logging_enabled() is True


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        hl.utils.nope  # noqa: B018


def test_importing_the_utils_loads_no_framework():
    code = (
        "import sys, highlevel as hl\n"
        "hl.utils.to_categorical([0, 1]); hl.utils.pad_sequences([[1]]); hl.utils.Progbar(1, verbose=0)\n"
        "hl.utils.bounding_boxes; hl.utils.legacy; hl.utils.split_dataset; hl.utils.plot_model\n"
        "print(*[m for m in ('jax', 'torch', 'tensorflow', 'keras') if m in sys.modules] or ['none'])"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HIGHLEVEL_BACKEND": "native"},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["none"]


def test_clear_session_takes_free_memory():
    hl.layers.Dense(1)
    hl.utils.clear_session(free_memory=True)
    assert hl.layers.Dense(1).name == "dense"
    hl.utils.clear_session(free_memory=False)
    assert hl.layers.Dense(1).name == "dense"
