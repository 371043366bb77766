"""Names that ``hl.preprocessing`` re-exports from ``hl.utils``, looked up when first asked for.

Keras 3 keeps ``keras.preprocessing`` as aliases of ``keras.utils`` functions. Here each alias is resolved on
first access, in the places listed for it, so that importing ``hl.preprocessing`` loads nothing heavy (Pillow,
TensorFlow) and an alias appears as soon as ``hl.utils`` defines its function.

>>> import highlevel as hl
>>> resolve({"floatx": [("highlevel.config", "floatx")]}, "floatx", "demo") is hl.config.floatx
True
"""

import importlib


def resolve(table, name, namespace):
    """The object ``table[name]`` names: the first ``(module, attribute)`` of its list that exists.

    Raises:
        AttributeError: for a name not in ``table``, or one that none of its places defines yet.
    """
    places = table.get(name)
    if places is None:
        raise AttributeError(f"module {namespace!r} has no attribute {name!r}")
    for module_name, attribute in places:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name is not None and not module_name.startswith(e.name):
                raise  # a module that exists failed on a missing dependency: that error is the user's answer
            continue
        if hasattr(module, attribute):
            return getattr(module, attribute)
    where = " or ".join(f"{m}.{a}" for m, a in places)
    raise AttributeError(
        f"module {namespace!r} has no attribute {name!r}: it is an alias of {where}, which this "
        "version of highlevel does not define."
    )
