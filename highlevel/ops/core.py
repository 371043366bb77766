"""The core ops: tensors and dtypes, gradients, slicing, control flow (``keras.ops``'s core names), and the
few ops highlevel adds (``value_and_grad``, ``grad``, ``dense``, ...).

>>> import highlevel as hl
>>> hl.ops.dtype(hl.ops.cast(hl.ops.convert_to_tensor([1, 2]), "float32"))
'float32'
"""

import builtins

from highlevel.keras_tensor import KerasTensor

from . import _args, _door


def _dense_only(value, name, op):
    """``sparse``/``ragged`` arguments: None and False are accepted (highlevel's tensors are dense), True is an
    error that says so."""
    if value is None or value is False:
        return
    if value is True:
        kind = "sparse" if name == "sparse" else "ragged"
        raise ValueError(f"{op}: {name}=True asks for a {kind} tensor, but highlevel's tensors are dense on every "
                         f"backend ({kind} tensors are not supported). Pass {name}=False (or leave it out) and work "
                         "with the dense tensor.")
    raise TypeError(f"{op}: `{name}` must be None, False or True; received {name}={value!r}.")


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """Returns ``x`` (a tensor, Variable, numpy array, Python scalar or nested list) as a tensor.

    Without ``dtype``: Python floats become :func:`floatx`, Python ints ``int32``, bools ``bool``; numpy arrays
    keep their dtype (float64 stays float64).

    Args:
        x: the values.
        dtype: the dtype to convert to (default: as above).
        sparse: None or False: highlevel's tensors are dense (True is an error).
        ragged: None or False: highlevel's tensors are dense (True is an error).

    Returns:
        A tensor of the current backend.

    Raises:
        ValueError: for ``sparse=True`` or ``ragged=True``.

    >>> import highlevel as hl
    >>> hl.ops.dtype(hl.ops.convert_to_tensor([1.0, 2.0]))
    'float32'
    """
    _dense_only(sparse, "sparse", "convert_to_tensor")
    _dense_only(ragged, "ragged", "convert_to_tensor")
    if isinstance(x, KerasTensor):
        return x if dtype is None else cast(x, dtype)
    return _door.call('convert_to_tensor', x, dtype=_args.dtype(dtype, "convert_to_tensor"))


def is_tensor(x):
    """True for this engine's tensor type (not for numpy arrays or Variables)."""
    if isinstance(x, KerasTensor):
        return False
    return _door.call('is_tensor', x)


def cast(x, dtype):
    """Returns ``x`` converted to ``dtype`` (a dtype name); differentiable between float dtypes."""
    return _door.call("cast", x, _args.dtype(dtype, "cast", allow_none=False))


def shape(x):
    """The static shape as a tuple of Python ints."""
    if isinstance(x, KerasTensor):
        return x.shape
    return _door.call('shape', x)


def dtype(x):
    """The dtype as a canonical string (``"float32"``, ``"int64"``, ...)."""
    if isinstance(x, KerasTensor):
        return x.dtype
    return _door.call('dtype', x)


def stop_gradient(variable):
    """Returns ``variable`` as a constant for differentiation: the same values, through which no gradient flows.

    Args:
        variable: a tensor (or Variable).

    Returns:
        A tensor of the same values, shape and dtype.

    >>> import highlevel as hl
    >>> f = lambda x: hl.ops.sum(x * hl.ops.stop_gradient(x))
    >>> hl.ops.convert_to_numpy(hl.ops.grad(f)(hl.ops.convert_to_tensor([3.0]))).tolist()
    [3.0]
    """
    return _door.call('stop_gradient', variable)


def value_and_grad(fn, argnums=0, has_aux=False):
    """Returns a function computing ``fn``'s value and its gradient.

    ``fn`` takes tensors (or nested lists/tuples/dicts of tensors) and returns a scalar tensor (or
    ``(scalar, aux)`` with ``has_aux``). The returned function gives ``(value, grads)`` or
    ``((value, aux), grads)``; ``grads`` mirrors the structure of the argument(s) at ``argnums``
    (an int or a tuple of ints). Integer inputs get no gradient (``None``)."""
    return _door.call('value_and_grad', fn, argnums=argnums, has_aux=has_aux)


def grad(fn, argnums=0, has_aux=False):
    """Like :meth:`value_and_grad`, returning only the gradient (and aux)."""
    return _door.call('grad', fn, argnums=argnums, has_aux=has_aux)


def getitem(x, key):
    """``x[key]`` with numpy basic indexing (ints, slices, None, Ellipsis) and integer-array indexing on one axis."""
    return _door.call('getitem', x, key)


def slice(inputs, start_indices, shape):
    """The block of ``shape`` starting at ``start_indices``."""
    return _door.call('slice', inputs, start_indices, shape)


def slice_update(inputs, start_indices, updates):
    """A copy of ``inputs`` with the block at ``start_indices`` replaced by ``updates`` (differentiable in both)."""
    return _door.call('slice_update', inputs, start_indices, updates)


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """Loops ``f`` over the leading axis of ``xs``, carrying state (``jax.lax.scan`` semantics).

    Args:
        f: ``f(carry, x) -> (new_carry, y)``; ``new_carry`` has the structure, shapes and dtypes of
            ``carry``; ``y`` is any nest of tensors (or None).
        init: the initial carry, a nest (lists, tuples, dicts) of tensors.
        xs: a nest of tensors sharing the leading (time) axis, or None (then ``length`` is required and
            ``f`` receives ``x=None``).
        length: the number of steps; must match the leading axis of ``xs`` when both are given.
        reverse: run from the last slice to the first; ``ys`` stay in the order of ``xs``.
        unroll: how many steps one loop iteration holds (an int, or True for all); a performance
            hint only, the result is the same.

    Returns:
        ``(final_carry, ys)`` where ``ys`` stacks every step's ``y`` along a new axis 0.
        Gradients flow to ``init``, ``xs`` and anything ``f`` closes over."""
    return _door.call('scan', f, init, xs=xs, length=length, reverse=reverse, unroll=unroll)


def dense(inputs, kernel, bias=None, activation=None):
    """A dense layer's forward pass, ``activation(inputs @ kernel + bias)`` over the last axis of ``inputs``.

    Args:
        inputs: a float tensor of shape ``(..., input_dim)``.
        kernel: a ``(input_dim, units)`` matrix of the same dtype.
        bias: None, or a ``(units,)`` vector of the same dtype.
        activation: one of :data:`DENSE_ACTIVATIONS` (None and ``"linear"`` are the identity).

    Returns:
        A tensor of shape ``(..., units)``; differentiable with respect to all three inputs."""
    return _door.call('dense', inputs, kernel, bias=bias, activation=activation)


def fused_batch_norm(x, scale=None, offset=None, axis=-1, epsilon=0.001):
    """Batch normalization in training mode: the statistics of the batch and the normalized tensor.

    As ``tf.nn.fused_batch_norm``: the mean and the (biased) variance over every axis of ``x`` but ``axis``,
    then ``(x - mean) / sqrt(variance + epsilon) * scale + offset``.

    Args:
        x: a float tensor.
        scale, offset: None, or vectors of ``x.shape[axis]`` values of ``x``'s dtype.
        axis: the channel axis (an int; negative counts from the end).
        epsilon: added to the variance.

    Returns:
        ``(outputs, mean, variance)``: ``outputs`` like ``x``, differentiable with respect to ``x``,
        ``scale`` and ``offset``; ``mean`` and ``variance`` of shape ``(x.shape[axis],)``, for the moving
        statistics (an engine may return them without a gradient)."""
    return _door.call('fused_batch_norm', x, scale=scale, offset=offset, axis=axis, epsilon=epsilon)


def sparse_softmax_cross_entropy(labels, logits, axis=-1):
    """Per-example ``-log softmax(logits)[label]`` along ``axis``; finite for logits of ±1e4.

    Args:
        labels: integer class indices, of the shape of ``logits`` without ``axis``.
        logits: float scores.
        axis: the class axis.

    Returns:
        The losses, of the labels' shape and the logits' dtype. Labels must lie in
        ``[0, num_classes)``; the caller checks that (out-of-range labels give engine-dependent values)."""
    return _door.call('sparse_softmax_cross_entropy', labels, logits, axis=axis)


def convert_to_numpy(x):
    """A numpy array holding the values of ``x`` (a host copy where the tensor lives on a device)."""
    if isinstance(x, KerasTensor):
        return _door.symbolic_call("to_numpy", (x,), {}, public="convert_to_numpy")
    return _door.call("to_numpy", x)


from .numpy import concatenate as concat  # noqa: E402


def unstack(x, num=None, axis=0):
    """Splits ``x`` into the slices along ``axis``, each without that axis.

    Args:
        x: a tensor of rank 1 or more.
        num: the number of slices, if given: it must equal the size of ``axis``; a symbolic tensor whose size
            there is unknown needs it.
        axis: the axis to unstack along.

    Returns:
        A list of ``x.shape[axis]`` tensors.

    >>> import highlevel as hl
    >>> [hl.ops.convert_to_numpy(t).tolist() for t in hl.ops.unstack(hl.ops.convert_to_tensor([[1, 2], [3, 4]]), axis=1)]
    [[1, 3], [2, 4]]
    """
    n = _args.ndim_of(x)
    if n == 0:
        raise ValueError("unstack: `x` must have rank 1 or more; received a scalar.")
    axis = _args.axis(axis, n, "unstack")
    size = _args.shape_of(x)[axis]
    if num is not None:
        num = _args.positive_int(num, "num", "unstack", minimum=0)
        if size is not None and num != size:
            raise ValueError(f"unstack: num={num} does not match the size {size} of axis {axis} of a tensor of shape "
                             f"{_args.shape_of(x)}.")
    if size is None:  # a symbolic tensor: num slices, each its own node
        if num is None:
            raise ValueError(f"unstack: the size of axis {axis} is unknown (shape {_args.shape_of(x)}), so the "
                             "number of results is too; pass num=.")
        return [getitem(x, (builtins.slice(None),) * axis + (i,)) for i in range(num)]
    return _door.call("unstack", x, num=num, axis=axis)


def rearrange(tensor, pattern, **axes_lengths):
    """Reorders, merges and splits the axes of ``tensor`` as an einops pattern says.

    The pattern names the input's axes, then ``->``, then the output's: ``"b h w c -> b c h w"`` transposes,
    ``"b h w c -> b (h w c)"`` merges axes (parentheses group them, left to right in row-major order),
    ``"b (h1 h) w c -> (b h1) h w c"`` splits an axis, given the sizes of all but one part of it as keyword
    arguments (``h1=2``). ``...`` stands for the axes not named, on both sides. Every axis of the input must
    appear in the output.

    Args:
        tensor: a tensor.
        pattern: the rearrangement, ``"input axes -> output axes"``.
        **axes_lengths: the sizes of axes that a split introduces.

    Returns:
        A tensor of the dtype of ``tensor``, with the same entries.

    Raises:
        ValueError: for a malformed pattern, one that does not match the rank of ``tensor``, or sizes that do
            not divide.

    >>> import highlevel as hl
    >>> x = hl.ops.ones((2, 6, 4, 3))
    >>> hl.ops.rearrange(x, "b h w c -> b c h w").shape
    (2, 3, 6, 4)
    >>> hl.ops.rearrange(x, "b (h1 h) w c -> (b h1) h (w c)", h1=2).shape
    (4, 3, 12)
    """
    from ._einops import plan

    decomposed, permutation, composed = plan(_args.shape_of(tensor), pattern, axes_lengths)
    from .numpy import reshape, transpose

    if decomposed is not None:
        tensor = reshape(tensor, decomposed)
    if permutation != tuple(range(len(permutation))):
        tensor = transpose(tensor, permutation)
    if composed is not None:
        tensor = reshape(tensor, composed)
    return convert_to_tensor(tensor)


__all__ = ['convert_to_tensor', 'is_tensor', 'cast', 'shape', 'dtype', 'stop_gradient', 'value_and_grad', 'grad', 'getitem', 'slice', 'slice_update', 'scan', 'dense', 'fused_batch_norm', 'sparse_softmax_cross_entropy', 'convert_to_numpy', 'concat']
__all__ += ["unstack", "rearrange"]


def saturate_cast(x, dtype):
    """Casts ``x`` to ``dtype``, clamping values beyond the range of ``dtype`` to its extremes.

    A plain :func:`cast` of an out-of-range value wraps around or is undefined (``cast(-1.0, "uint8")`` may give
    255); this gives the nearest representable value instead: ``-1.0 -> 0``, ``300.0 -> 255``, ``3e9 -> 2147483647``
    for int32. Infinities clamp too (to the largest finite values of a float ``dtype``), and NaN gives 0 in an
    integer or bool ``dtype``.

    Args:
        x: a tensor.
        dtype: the dtype to cast to.

    Returns:
        A tensor of ``dtype``; differentiable between float dtypes (gradient 1 inside the range, 0 outside).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.saturate_cast([-1.0, 256.0, 3.7], "uint8")).tolist()
    [0, 255, 3]
    """
    return _door.call("saturate_cast", x, _args.dtype(dtype, "saturate_cast", allow_none=False))


__all__ += ["saturate_cast"]
