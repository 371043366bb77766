"""``hl.ops.linalg``: linear algebra (``keras.ops.linalg``'s names).

>>> import highlevel as hl
>>> hasattr(hl.ops, "linalg")
True
"""

__all__ = []
