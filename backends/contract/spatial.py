"""The arguments of convolution and pooling as the engines read them.

The front door (``highlevel/ops/_args.py``, ``highlevel/ops/nn.py``) checks what a user passes and hands the
engines canonical arguments, with the user's error worded there:

* ``data_format``: ``"channels_last"`` or ``"channels_first"`` (``None`` already replaced by
  ``hl.config.image_data_format()``);
* ``padding``: ``"valid"`` or ``"same"``, in lower case;
* ``strides``, ``dilation_rate``, ``pool_size``, ``output_padding``: a tuple of one int per spatial axis
  (``output_padding`` may be ``None``);
* ``inputs`` of rank 3, 4 or 5 (batch, 1 to 3 spatial axes, channels) and a kernel that fits them.

These helpers read those arguments, and also what the engines' own calls and direct calls in tests pass (an int
stride, ``data_format=None`` meaning channels_last), without checking them again.

>>> channels_first("channels_first"), channels_first(None), canonical_data_format(None)
(True, False, 'channels_last')
>>> canonical_padding("SAME")
'same'
>>> spatial_tuple(2, 3), spatial_tuple([1, 2], 2)
((2, 2, 2), (1, 2))
"""

import operator


def channels_first(data_format):
    """Whether ``data_format`` puts the channels axis first (``None``, from an engine's own call, does not)."""
    return data_format == "channels_first"


def canonical_data_format(data_format):
    """``data_format`` as ``"channels_last"`` or ``"channels_first"`` (``None``, from an engine's own call, is
    channels_last); what the front door passes comes back as it is."""
    return "channels_first" if channels_first(data_format) else "channels_last"


def canonical_padding(padding):
    """``padding`` in lower case (``"valid"`` or ``"same"``, as the front door passes it)."""
    return padding.lower()


def spatial_tuple(value, n):
    """``value`` (an int or a sequence of ``n`` ints) as a tuple of ``n`` Python ints."""
    try:
        return (operator.index(value),) * n
    except TypeError:  # a sequence
        return tuple(operator.index(v) for v in value)


__all__ = ["canonical_data_format", "canonical_padding", "channels_first", "spatial_tuple"]
