"""``hl.legacy.saving``: the legacy ``{"class_name", "config"}`` serialization (``keras.legacy.saving``).

The same two functions as :mod:`highlevel.utils.legacy`, at the path Keras 3 also exports them from.

>>> import highlevel as hl
>>> config = hl.legacy.saving.serialize_keras_object(hl.layers.Dense(3))
>>> layer = hl.legacy.saving.deserialize_keras_object(config, module_objects={"Dense": hl.layers.Dense})
>>> layer.units
3
"""

from highlevel.utils.legacy import deserialize_keras_object, serialize_keras_object

__all__ = ["deserialize_keras_object", "serialize_keras_object"]
