"""``hl.device``: places the tensors created inside a ``with`` block on a device.

>>> import highlevel as hl
>>> with hl.device("cpu:0"):
...     x = hl.ops.ones((2,))
>>> x.shape
(2,)
"""


def device(device_name):
    """A context manager placing new tensors on ``device_name`` (``keras.device``).

    Args:
        device_name: ``"cpu"``, ``"gpu"`` or one of the current engine's ``hl.distribution.list_devices()``
            names, with an optional ``":index"`` (``"gpu:1"``); case does not matter.

    Raises:
        ValueError: a device the current engine does not have.

    Returns:
        A context manager; inside its ``with`` block, new tensors are created on that device.

    >>> import highlevel as hl
    >>> with hl.device("cpu"):
    ...     x = hl.ops.ones((2,))
    >>> hl.ops.convert_to_numpy(x).tolist()
    [1.0, 1.0]
    """
    from highlevel.config import current_backend

    if not isinstance(device_name, str) or not device_name:
        raise ValueError(f"device expects a device name such as 'cpu:0' or 'gpu:0'; received {device_name!r}.")
    name = device_name.lower()
    if name.startswith("/device:"):
        name = name[len("/device:") :]
    if ":" not in name:
        name += ":0"
    return current_backend().device_scope(name)
