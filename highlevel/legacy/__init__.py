"""``hl.legacy``: the Keras 2 forms that Keras 3 still offers (``keras.legacy``).

>>> import highlevel as hl
>>> hl.legacy.saving.serialize_keras_object(hl.layers.ReLU())["class_name"]
'ReLU'
"""

from . import saving

__all__ = ["saving"]
