"""``to_categorical`` and ``normalize``: one-hot class matrices and unit-norm rows.

Both keep the kind of their input: numpy (or a list) in, numpy out; an engine tensor in, a tensor of the
current engine out.

>>> import numpy as np
>>> to_categorical(np.array([[1], [0]])).tolist()
[[0.0, 1.0], [1.0, 0.0]]
>>> normalize(np.array([[3.0, 4.0]])).tolist()
[[0.6, 0.8]]
"""

import numpy as np


def _is_engine_tensor(x):
    from highlevel import ops

    return not isinstance(x, np.ndarray) and ops.is_tensor(x)


def to_categorical(x, num_classes=None):
    """Turns class indices into one-hot rows (for ``categorical_crossentropy``).

    Args:
        x: integer class indices, any shape; a trailing axis of size 1 is dropped first (``(n, 1)`` labels
            give ``(n, num_classes)``).
        num_classes: the number of classes; ``max(x) + 1`` when None.

    Returns:
        ``x.shape + (num_classes,)`` of 0s and 1s: a float64 numpy array for numpy or list input (as
        Keras returns), a float tensor of the current engine for a tensor.

    Raises:
        ValueError: for a negative index, an index >= ``num_classes``, or a non-integer value.

    >>> to_categorical([0, 2, 1]).tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]
    """
    if num_classes is not None and (
        isinstance(num_classes, bool) or not isinstance(num_classes, (int, np.integer)) or num_classes < 1
    ):
        raise ValueError(f"`num_classes` must be a positive integer or None; received num_classes={num_classes!r}.")
    if _is_engine_tensor(x):
        from highlevel import ops

        shape = tuple(ops.shape(x))
        if len(shape) > 1 and shape[-1] == 1:
            x = ops.reshape(x, shape[:-1])
        if num_classes is None:
            num_classes = int(ops.convert_to_numpy(ops.max(x))) + 1
        return ops.one_hot(ops.cast(x, "int32"), int(num_classes))
    values = np.asarray(x)
    if values.dtype.kind == "f" and values.size and not np.all(np.mod(values, 1) == 0):
        raise ValueError(
            "to_categorical expects integer class indices; received non-integer values such as "
            f"{values[np.mod(values, 1) != 0].ravel()[0]!r}. Round or map the labels to 0..num_classes-1 first."
        )
    if values.dtype.kind not in "biuf":
        raise ValueError(f"to_categorical expects integer class indices; received an array of dtype {values.dtype}.")
    values = values.astype("int64")
    shape = values.shape
    if len(shape) > 1 and shape[-1] == 1:
        shape = shape[:-1]
    flat = values.reshape(-1)
    if flat.size and flat.min() < 0:
        raise ValueError(f"to_categorical expects class indices >= 0; received {int(flat.min())}.")
    if num_classes is None:
        num_classes = int(flat.max()) + 1 if flat.size else 0
    elif flat.size and flat.max() >= num_classes:
        raise ValueError(
            f"Class index {int(flat.max())} is out of range for num_classes={num_classes}: indices must be in "
            f"[0, {num_classes - 1}]. Pass a larger num_classes, or None to use max(x) + 1."
        )
    out = np.zeros((flat.size, int(num_classes)))
    out[np.arange(flat.size), flat] = 1.0
    return out.reshape(shape + (int(num_classes),))


def normalize(x, axis=-1, order=2):
    """Scales ``x`` to unit norm along ``axis``.

    Args:
        x: an array or a tensor.
        axis: the axis along which to normalize.
        order: the order of the norm (2: Euclidean, 1: sum of absolute values, ...).

    Returns:
        ``x`` divided by its norm along ``axis`` (slices of norm 0 are left unchanged); numpy for numpy
        input, an engine tensor for a tensor.

    Raises:
        ValueError: if ``order`` is not a positive number or ``axis`` is not an int in range.

    >>> normalize([[1.0, 1.0, 2.0]], order=1).tolist()
    [[0.25, 0.25, 0.5]]
    """
    if isinstance(order, bool) or not isinstance(order, (int, float, np.integer, np.floating)) or order <= 0:
        raise ValueError(f"`order` must be a positive number (1, 2, ...); received order={order!r}.")
    if _is_engine_tensor(x):
        from highlevel import ops
        from highlevel.backend import floatx, standardize_dtype

        x = ops.convert_to_tensor(x)
        if "float" not in standardize_dtype(x.dtype):
            x = ops.cast(x, floatx())
        magnitude = ops.abs(x)
        if order == 1:
            norm = ops.sum(magnitude, axis=axis, keepdims=True)
        elif order == 2:
            norm = ops.sqrt(ops.sum(ops.square(magnitude), axis=axis, keepdims=True))
        else:
            norm = ops.power(ops.sum(ops.power(magnitude, float(order)), axis=axis, keepdims=True), 1.0 / order)
        return x / ops.where(norm == 0, ops.ones_like(norm), norm)
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise ValueError(f"`axis` must be an int; received axis={axis!r}.")
    values = np.asarray(x)
    if values.dtype.kind not in "fc":
        values = values.astype("float64")
    if values.ndim == 0 or not -values.ndim <= axis < values.ndim:
        raise ValueError(f"`axis`={axis} is out of range for an input of shape {values.shape}.")
    norm = np.linalg.norm(values, ord=order, axis=axis, keepdims=True)
    norm = np.where(norm == 0, 1, norm)
    return values / norm
