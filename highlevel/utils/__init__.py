"""``highlevel.utils``: Keras's ``keras.utils`` names, for data, images, plots, progress and serialization.

Every name loads on first use, so ``import highlevel.utils`` stays light: the dataset builders, the image
helpers (Pillow) and the model plots (pydot) import what they need only when they are called.

>>> import highlevel as hl
>>> hl.utils.set_random_seed(0)
>>> hl.utils.to_categorical([0, 2], num_classes=3).tolist()
[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
>>> hl.utils.pad_sequences([[1, 2, 3], [4]], maxlen=2).tolist()
[[2, 3], [0, 4]]
"""

import importlib as _importlib

#: Public names loaded on first access: name -> (module, attribute of it, or None for the module itself).
_LAZY = {
    "to_categorical": ("highlevel.utils.numerical_utils", "to_categorical"),
    "normalize": ("highlevel.utils.numerical_utils", "normalize"),
    "pad_sequences": ("highlevel.utils.sequence_utils", "pad_sequences"),
    "pack_x_y_sample_weight": ("highlevel.utils.data_packing", "pack_x_y_sample_weight"),
    "unpack_x_y_sample_weight": ("highlevel.utils.data_packing", "unpack_x_y_sample_weight"),
    "Config": ("highlevel.utils.config_dict", "Config"),
    "Progbar": ("highlevel.utils.progbar", "Progbar"),
    "get_source_inputs": ("highlevel.utils.graph_utils", "get_source_inputs"),
    "is_keras_tensor": ("highlevel.backend", "is_keras_tensor"),
    "standardize_dtype": ("highlevel.backend", "standardize_dtype"),
    "enable_interactive_logging": ("highlevel.config", "enable_interactive_logging"),
    "disable_interactive_logging": ("highlevel.config", "disable_interactive_logging"),
    "is_interactive_logging_enabled": ("highlevel.config", "is_interactive_logging_enabled"),
    "PyDataset": ("highlevel.trainers.data_adapters.py_dataset", "PyDataset"),
    "Sequence": ("highlevel.trainers.data_adapters.py_dataset", "PyDataset"),  # Keras 2's name for it
    "img_to_array": ("highlevel.utils.image_utils", "img_to_array"),
    "array_to_img": ("highlevel.utils.image_utils", "array_to_img"),
    "load_img": ("highlevel.utils.image_utils", "load_img"),
    "save_img": ("highlevel.utils.image_utils", "save_img"),
    "timeseries_dataset_from_array": ("highlevel.utils.timeseries_dataset", "timeseries_dataset_from_array"),
    "image_dataset_from_directory": ("highlevel.utils.image_dataset", "image_dataset_from_directory"),
    "text_dataset_from_directory": ("highlevel.utils.text_dataset", "text_dataset_from_directory"),
    "audio_dataset_from_directory": ("highlevel.utils.audio_dataset", "audio_dataset_from_directory"),
    "split_dataset": ("highlevel.utils.dataset_split", "split_dataset"),
    "model_to_dot": ("highlevel.utils.model_visualization", "model_to_dot"),
    "plot_model": ("highlevel.utils.model_visualization", "plot_model"),
    "bounding_boxes": ("highlevel.utils.bounding_boxes", None),
    "legacy": ("highlevel.utils.legacy", None),
    "FeatureSpace": ("highlevel.utils.feature_space", "FeatureSpace"),
    "get_file": ("highlevel.utils.file_utils", "get_file"),
}

#: Names that belong to ``hl.saving`` and are re-exported here, as Keras does. They are looked up in
#: ``hl.saving`` when first asked for, so that a name appears here as soon as ``hl.saving`` has it.
_FROM_SAVING = (
    "custom_object_scope",
    "CustomObjectScope",
    "get_custom_objects",
    "get_registered_name",
    "get_registered_object",
    "register_keras_serializable",
    "serialize_keras_object",
    "deserialize_keras_object",
)


def _resolve(name):
    entry = _LAZY.get(name)
    if entry is not None:
        module = _importlib.import_module(entry[0])
        return module if entry[1] is None else getattr(module, entry[1])
    if name in _FROM_SAVING:
        saving = _importlib.import_module("highlevel.saving")
        if hasattr(saving, name):
            return getattr(saving, name)
        raise AttributeError(f"module 'highlevel.utils' has no attribute {name!r} (hl.saving does not define it)")
    raise AttributeError(f"module 'highlevel.utils' has no attribute {name!r}")


def __getattr__(name):
    value = _resolve(name)
    globals()[name] = value
    return value


def __dir__():
    available = set()
    for name in _FROM_SAVING:
        try:
            _resolve(name)
        except (AttributeError, ImportError):
            continue
        available.add(name)
    return sorted(set(globals()) | set(_LAZY) | available)


def clear_session(free_memory=True):
    """Restarts automatic layer naming ("dense", "dense_1", ...) and restores the default dtype policy, as
    ``keras.utils.clear_session`` does.

    Args:
        free_memory: also run Python's garbage collector, so that the arrays of models that are no longer
            referenced are released now rather than at some later collection.

    Returns:
        None.

    >>> import highlevel as hl
    >>> hl.utils.clear_session()
    >>> hl.layers.Dense(1).name, hl.layers.Dense(1).name
    ('dense', 'dense_1')
    >>> hl.utils.clear_session()
    >>> hl.layers.Dense(1).name
    'dense'
    """
    from highlevel.mixed_precision.policy import set_dtype_policy
    from highlevel.naming import reset_names

    reset_names()
    set_dtype_policy(None)
    if free_memory:
        import gc

        gc.collect()


def set_random_seed(seed):
    """Seeds everything highlevel draws: the host stream (initial weights, shuffling) and the global
    seed generator of ``highlevel.random``. Python's ``random`` and numpy's global generator are
    seeded too, for user code that relies on them.

    Args:
        seed: a non-negative int.

    Returns:
        None.

    Raises:
        ValueError: if ``seed`` is not a non-negative int.

    >>> import highlevel as hl
    >>> hl.utils.set_random_seed(0)
    >>> first = hl.ops.convert_to_numpy(hl.random.uniform((2,)))
    >>> hl.utils.set_random_seed(0)
    >>> bool((first == hl.ops.convert_to_numpy(hl.random.uniform((2,)))).all())
    True
    """
    import random

    import numpy as np

    from highlevel.random.host import set_host_seed
    from highlevel.random.seed_generator import reset_global_seed_generator

    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"set_random_seed expects a non-negative int; received {seed!r}.")
    set_host_seed(seed)
    reset_global_seed_generator()
    random.seed(seed)
    np.random.seed(seed % 2**32)


# The re-exports of hl.saving are left out: they exist only as far as hl.saving has them.
__all__ = sorted({"clear_session", "set_random_seed", *_LAZY})
