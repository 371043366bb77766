"""The mask a tensor carries (Keras's ``_keras_mask``): from layer to layer, and from a model's output to its
losses and metrics.

A layer that makes a mask (``Embedding(mask_zero=True)``, ``Masking``) or passes one on (``LSTM(return_sequences=
True)``, ``Dense``, ...) attaches it to its output; a layer called on that output receives it as its ``mask``
argument, also when the layers are called one after the other in a subclassed model's ``call``. A model's output
mask makes the compiled loss and the metrics count only the entries it keeps, as in Keras (for a padded sequence:
the timesteps that are not padding).

Engine tensors do not all take new attributes (a JAX tracer or a native tensor does not), so the masks are kept
here, keyed by the tensor's identity, for as long as the tensor lives.

>>> import numpy as np, highlevel as hl
>>> out = hl.ops.convert_to_tensor(np.ones((2, 3), "float32"))
>>> set_keras_mask(out, hl.ops.convert_to_tensor([[True, True, False], [True, False, False]]))
>>> get_keras_mask(out).shape, get_keras_mask(hl.ops.ones((2, 3)))
((2, 3), None)
"""

import weakref

_masks = {}


def _forget(key):
    _masks.pop(key, None)


def _set_attribute(tensor, mask):
    # Keras programs read ``output._keras_mask``: every engine's tensor takes the attribute (a Python number
    # or a frozen object does not, and then only the table below holds the mask).
    try:
        if mask is None:
            if getattr(tensor, "_keras_mask", None) is not None:
                del tensor._keras_mask
        else:
            tensor._keras_mask = mask
    except (AttributeError, TypeError):
        pass


def set_keras_mask(tensor, mask):
    """Attaches ``mask`` (a boolean tensor, or None to remove it) to ``tensor``; it is also readable as
    ``tensor._keras_mask``, as in Keras."""
    _set_attribute(tensor, mask)
    key = id(tensor)
    entry = _masks.get(key)
    if mask is None:
        if entry is not None:
            entry[1].detach()
            del _masks[key]
        return
    if entry is not None:
        _masks[key] = (mask, entry[1])
        return
    try:
        finalizer = weakref.finalize(tensor, _forget, key)
    except TypeError:  # a value that cannot be referenced weakly (a Python number) carries no mask
        return
    finalizer.atexit = False
    _masks[key] = (mask, finalizer)


def get_keras_mask(tensor):
    """The mask attached to ``tensor``, or None."""
    entry = _masks.get(id(tensor))
    if entry is not None:
        return entry[0]
    try:  # a mask a program set itself (``x._keras_mask = mask``), as Keras reads it
        return getattr(tensor, "_keras_mask", None)
    except Exception:  # an object whose attribute lookup fails in its own way carries no mask
        return None
