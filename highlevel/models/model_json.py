"""``hl.models.model_from_json``: a model from the JSON string ``Model.to_json()`` wrote (architecture only).

>>> import highlevel as hl
>>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, name="d")])
>>> again = hl.models.model_from_json(model.to_json())
>>> type(again).__name__, again.layers[0].units
('Sequential', 2)
"""

import json


def model_from_json(json_string, custom_objects=None):
    """Rebuilds a model (new weights) from :meth:`Model.to_json`'s string, compiled as it was when the string was
    made.

    Loading is as safe as ``load_model``: only highlevel's classes and the allow-list (registered objects, an
    enclosing ``custom_object_scope``, ``custom_objects``) are built, and a Lambda layer whose function is not
    highlevel's is refused.

    Args:
        json_string: the JSON text.
        custom_objects: ``{"Name": class_or_function}`` for your own layers and functions.

    Returns:
        A new, unbuilt-weights model of the described architecture (compiled if the string records a compile config).

    Raises:
        ValueError: the string is not JSON of a model config (``InvalidFileError``), or names a class or function
            outside the allow-list (``UnsafeFileError``).

    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, name="d")])
    >>> again = hl.models.model_from_json(model.to_json())
    >>> type(again).__name__, again.get_layer("d").units
    ('Sequential', 2)
    """
    from highlevel.saving import build_io, config_io
    from highlevel.saving.errors import InvalidFileError
    from highlevel.saving.object_registry import CustomObjectScope

    if not isinstance(json_string, (str, bytes)):
        raise TypeError(f"model_from_json expects a JSON string; received {type(json_string).__name__}.")
    try:
        config = json.loads(json_string)
    except (ValueError, RecursionError) as e:
        raise InvalidFileError(f"model_from_json: the string is not valid JSON ({e}).") from e
    with CustomObjectScope(custom_objects):
        model = config_io.deserialize_model(config, custom_objects, safe_mode=True)
        build_io.build_from_config(model, config.get("build_config"), "the JSON string")
        compile_config = config.get("compile_config")
        if compile_config:
            objects = config_io.allowed_objects(custom_objects)
            config_io.check_config_tree(compile_config, objects, True, where="compile_config")
            model.compile_from_config(compile_config)
    return model
