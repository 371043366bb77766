"""The core ops: tensors and dtypes, gradients, slicing, control flow (``keras.ops``'s core names), and the
few ops highlevel adds (``value_and_grad``, ``grad``, ``dense``, ...).

>>> import highlevel as hl
>>> hl.ops.dtype(hl.ops.cast(hl.ops.convert_to_tensor([1, 2]), "float32"))
'float32'
"""

import builtins
import functools

import numpy as _np

from highlevel.keras_tensor import KerasTensor

from . import _args, _door


def _dense_only(value, name, op):
    """``sparse``/``ragged`` arguments: None and False are accepted (highlevel's tensors are dense), True is an
    error that says so."""
    if value is None or value is False:
        return
    if value is True:
        kind = "sparse" if name == "sparse" else "ragged"
        raise ValueError(
            f"{op}: {name}=True asks for a {kind} tensor, but highlevel's tensors are dense on every "
            f"backend ({kind} tensors are not supported). Pass {name}=False (or leave it out) and work "
            "with the dense tensor."
        )
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
    return _door.call("convert_to_tensor", x, dtype=_args.dtype(dtype, "convert_to_tensor"))


def is_tensor(x):
    """Tests whether ``x`` is a tensor of the current engine.

    Args:
        x: any object.

    Returns:
        True for the engine's own tensor type; False for numpy arrays, Python numbers and Variables.

    >>> import highlevel as hl
    >>> hl.ops.is_tensor(hl.ops.ones((2,))), hl.ops.is_tensor([1.0, 2.0])
    (True, False)
    """
    if isinstance(x, KerasTensor):
        return False
    return _door.call("is_tensor", x)


def cast(x, dtype):
    """Converts ``x`` to another dtype.

    Float to integer conversion truncates toward zero; converting to bool gives True for nonzero entries. The
    result is differentiable between floating-point dtypes (the gradient is cast back).

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        dtype: the target dtype, a name such as ``"float32"``, ``"int32"`` or ``"bool"`` (or a numpy dtype).

    Returns:
        A tensor of the shape of ``x`` and dtype ``dtype``.

    Raises:
        ValueError: ``dtype`` is not a dtype highlevel knows.

    >>> import highlevel as hl
    >>> y = hl.ops.cast([1.7, -1.7, 0.0], "int32")
    >>> hl.ops.convert_to_numpy(y).tolist(), hl.ops.dtype(y)
    ([1, -1, 0], 'int32')
    """
    return _door.call("cast", x, _args.dtype(dtype, "cast", allow_none=False))


def shape(x):
    """Returns the shape of ``x``.

    Inside an engine's input pipeline being traced (a layer called in ``tf.data``'s ``map``), a size known only
    when the pipeline runs (the batch size) is a scalar tensor of that engine, as in Keras; for a symbolic tensor
    an unknown size is None.

    Args:
        x: a tensor, Variable, symbolic tensor or anything convertible to a tensor.

    Returns:
        A tuple with one entry per axis, each a Python int (or None / a scalar tensor for an unknown size).

    >>> import highlevel as hl
    >>> hl.ops.shape(hl.ops.zeros((2, 3)))
    (2, 3)
    >>> hl.ops.shape(hl.Input((4,)))
    (None, 4)
    """
    if isinstance(x, KerasTensor):
        return x.shape
    return _door.call("shape", x)


def dtype(x):
    """Returns the dtype of ``x`` as its canonical name.

    Args:
        x: a tensor, Variable, symbolic tensor or numpy array.

    Returns:
        A str such as ``"float32"``, ``"int64"`` or ``"bool"``, the same on every engine.

    >>> import highlevel as hl
    >>> hl.ops.dtype(hl.ops.zeros((2,))), hl.ops.dtype(hl.ops.convert_to_tensor([1, 2]))
    ('float32', 'int32')
    """
    if isinstance(x, KerasTensor):
        return x.dtype
    return _door.call("dtype", x)


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
    return _door.call("stop_gradient", variable)


def value_and_grad(fn, argnums=0, has_aux=False):
    """Returns a function that computes ``fn``'s value and its gradient.

    ``fn`` takes tensors (or nested lists/tuples/dicts of tensors) and returns a scalar tensor (or ``(scalar,
    aux)`` with ``has_aux``). The gradients are taken with the current engine's automatic differentiation, so the
    same code trains on every engine. Keyword arguments of the returned function go to ``fn`` unchanged and get no
    gradient, as with ``jax.value_and_grad``.

    Args:
        fn: the function to differentiate; it returns a scalar (or a pair ``(scalar, aux)`` when ``has_aux``).
        argnums: which positional argument(s) to differentiate with respect to: an int (default 0) or a tuple of
            ints.
        has_aux: whether ``fn`` returns ``(value, aux)``, where ``aux`` is carried along without a gradient.

    Returns:
        A function with ``fn``'s arguments that returns ``(value, grads)`` (or ``((value, aux), grads)``);
        ``grads`` mirrors the structure of the argument(s) at ``argnums`` (a tuple for a tuple ``argnums``), and
        integer inputs get None.

    >>> import highlevel as hl
    >>> f = hl.ops.value_and_grad(lambda x: hl.ops.sum(x ** 2))
    >>> value, g = f(hl.ops.convert_to_tensor([1.0, 2.0, 3.0]))
    >>> float(hl.ops.convert_to_numpy(value)), hl.ops.convert_to_numpy(g).tolist()
    (14.0, [2.0, 4.0, 6.0])
    """
    _args.function(fn, "fn", "value_and_grad")
    return _passing_keywords("value_and_grad", fn, _args.argnums(argnums, "value_and_grad"), has_aux)


def grad(fn, argnums=0, has_aux=False):
    """Returns a function that computes the gradient of ``fn``.

    Like :func:`value_and_grad`, but the returned function gives only the gradient (or ``(grads, aux)`` with
    ``has_aux``).

    Args:
        fn: the function to differentiate; it returns a scalar (or a pair ``(scalar, aux)`` when ``has_aux``).
        argnums: which positional argument(s) to differentiate with respect to: an int (default 0) or a tuple of
            ints.
        has_aux: whether ``fn`` returns ``(value, aux)``; ``aux`` is then returned with the gradient.

    Returns:
        A function with ``fn``'s arguments that returns the gradient, in the structure of the argument(s) at
        ``argnums`` (``(grads, aux)`` with ``has_aux``).

    >>> import highlevel as hl
    >>> df = hl.ops.grad(lambda x, y: hl.ops.sum(x * y), argnums=(0, 1))
    >>> gx, gy = df(hl.ops.convert_to_tensor([1.0, 2.0]), hl.ops.convert_to_tensor([3.0, 4.0]))
    >>> hl.ops.convert_to_numpy(gx).tolist(), hl.ops.convert_to_numpy(gy).tolist()
    ([3.0, 4.0], [1.0, 2.0])
    """
    _args.function(fn, "fn", "grad")
    return _passing_keywords("grad", fn, _args.argnums(argnums, "grad"), has_aux)


def _passing_keywords(name, fn, argnums, has_aux):
    """The engine's ``name`` transform of ``fn``, whose result also takes keyword arguments (passed to ``fn``)."""
    plain = _door.call(name, fn, argnums=argnums, has_aux=has_aux)

    def transformed(*args, **kwargs):
        if not kwargs:
            return plain(*args)
        return _door.call(name, functools.partial(fn, **kwargs), argnums=argnums, has_aux=has_aux)(*args)

    return transformed


def getitem(x, key):
    """Indexes ``x`` as ``x[key]``, with numpy's rules.

    Supports basic indexing (ints, slices, None for a new axis, ``...``) and integer-array indexing on one axis.
    ``x[key]`` on a tensor calls this op.

    Args:
        x: the tensor to index.
        key: an int, a slice, None, ``Ellipsis``, an integer tensor or list, or a tuple of these.

    Returns:
        The selected entries, a tensor of the dtype of ``x``.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(6), (2, 3))
    >>> hl.ops.convert_to_numpy(hl.ops.getitem(x, 1)).tolist()
    [3, 4, 5]
    >>> hl.ops.convert_to_numpy(hl.ops.getitem(x, (0, [2, 0]))).tolist()
    [2, 0]
    >>> tuple(hl.ops.getitem(x, (None, Ellipsis)).shape)
    (1, 2, 3)
    """
    return _door.call("getitem", x, key)


def slice(inputs, start_indices, shape):
    """Extracts a block of ``inputs`` of a given shape, starting at given indices.

    ``slice(x, (1, 0), (2, 3))`` is ``x[1:3, 0:3]``. The start indices may be tensors (computed values), the shape
    may not.

    Args:
        inputs: the tensor to slice.
        start_indices: one start index per axis (a sequence of ints or an integer tensor).
        shape: the size of the block along each axis, a sequence of ints.

    Returns:
        A tensor of shape ``shape`` and the dtype of ``inputs``.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(12), (3, 4))
    >>> hl.ops.convert_to_numpy(hl.ops.slice(x, (1, 1), (2, 2))).tolist()
    [[5, 6], [9, 10]]
    """
    return _door.call("slice", inputs, start_indices, shape)


def slice_update(inputs, start_indices, updates):
    """Returns a copy of ``inputs`` with the block at ``start_indices`` replaced by ``updates``.

    The block has the shape of ``updates``. The result is differentiable with respect to both ``inputs`` (outside
    the block) and ``updates``.

    Args:
        inputs: the tensor to update (it is not modified).
        start_indices: one start index per axis (a sequence of ints or an integer tensor).
        updates: the new values, a tensor of the rank of ``inputs`` that fits inside it from ``start_indices``.

    Returns:
        A tensor of the shape and dtype of ``inputs``.

    >>> import highlevel as hl
    >>> x = hl.ops.zeros((3, 3), dtype="int32")
    >>> y = hl.ops.slice_update(x, (1, 1), hl.ops.ones((2, 2), dtype="int32"))
    >>> hl.ops.convert_to_numpy(y).tolist()
    [[0, 0, 0], [0, 1, 1], [0, 1, 1]]
    """
    return _door.call("slice_update", inputs, start_indices, updates)


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
        unroll: how many steps one loop iteration holds (a positive int, or a bool: True for all, False for
            one); a performance hint only, the result is the same.

    Returns:
        ``(final_carry, ys)`` where ``ys`` stacks every step's ``y`` along a new axis 0 (a loop of no steps
        returns ``init`` and ``ys`` with a leading size of 0). Gradients flow to ``init``, ``xs`` and anything
        ``f`` closes over. Engines that compile run it as one loop op (``lax.scan``, ``tf.while_loop``).

    Raises:
        ValueError: ``unroll`` is not a positive int or a bool, or neither ``xs`` nor ``length`` is given.

    >>> import highlevel as hl
    >>> carry, ys = hl.ops.scan(lambda c, x: (c + x, c * 10), 0, hl.ops.convert_to_tensor([1, 2, 3]))
    >>> int(hl.ops.convert_to_numpy(carry)), hl.ops.convert_to_numpy(ys).tolist()
    (6, [0, 10, 30])
    """
    _args.function(f, "f", "scan")
    if not isinstance(unroll, bool) and not (_args.is_int(unroll) and unroll >= 1):
        raise ValueError(f"scan: `unroll` must be a positive int or a bool; received unroll={unroll!r}.")
    if length is not None:
        length = _args.positive_int(length, "length", "scan", minimum=0)
    if _symbolic(init, xs):
        if xs is None:
            if length is None:
                raise ValueError("scan: pass `xs` with a leading axis or an explicit `length`; received neither.")
            n, x = length, None
        else:
            sizes = _leading_sizes(xs, "scan", "xs")
            n, x = (length if length is not None else (sizes.pop() if sizes else None)), _slices(xs)
        _, y = f(_like(init), x)
        return _door.symbolic_node(
            "scan",
            (f, init),
            {"xs": xs, "length": length, "reverse": bool(reverse), "unroll": unroll},
            (_like(init), _stacked(y, n)),
        )
    return _door.call(
        "scan",
        f,
        init,
        xs=xs,
        length=length,
        reverse=bool(reverse),
        unroll=unroll if isinstance(unroll, bool) else int(unroll),
    )


def dense(inputs, kernel, bias=None, activation=None):
    """A dense layer's forward pass, ``activation(inputs @ kernel + bias)`` over the last axis of ``inputs``.

    Args:
        inputs: a float tensor of shape ``(..., input_dim)``.
        kernel: a ``(input_dim, units)`` matrix of the same dtype.
        bias: None, or a ``(units,)`` vector of the same dtype.
        activation: one of :data:`DENSE_ACTIVATIONS` (None and ``"linear"`` are the identity).

    Returns:
        A tensor of shape ``(..., units)``; differentiable with respect to all three inputs.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, -2.0]])
    >>> kernel = hl.ops.convert_to_tensor([[1.0, 0.0], [0.0, 1.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.dense(x, kernel, bias=hl.ops.ones((2,)), activation="relu")).tolist()
    [[2.0, 0.0]]
    """
    return _door.call("dense", inputs, kernel, bias=bias, activation=activation)


def int8_matmul(x, kernel):
    """``x @ kernel`` of two int8 tensors, accumulated exactly in int32: the product of an int8-quantized layer.

    Each engine uses its fastest exact kernel (an int8 matrix product where the framework has one).

    Args:
        x: an int8 tensor of shape ``(..., k)``.
        kernel: an int8 matrix of shape ``(k, n)``.

    Returns:
        The int32 tensor of shape ``(..., n)``.

    >>> import highlevel as hl
    >>> a = hl.ops.full((1, 300), 100, dtype="int8")
    >>> hl.ops.convert_to_numpy(hl.ops.int8_matmul(a, hl.ops.full((300, 1), 100, dtype="int8"))).tolist()
    [[3000000]]
    """
    # variables (a quantized layer's kernel) reach the engine as their values, as every other op's arguments do
    return _door.call("int8_matmul", convert_to_tensor(x), convert_to_tensor(kernel))


def fused_batch_norm(x, scale=None, offset=None, axis=-1, epsilon=0.001):
    """Batch normalization in training mode: the statistics of the batch and the normalized tensor.

    As ``tf.nn.fused_batch_norm``: the mean and the (biased) variance over every axis of ``x`` but ``axis``,
    then ``(x - mean) / sqrt(variance + epsilon) * scale + offset``.

    Args:
        x: a float tensor.
        scale: None (no scaling), or a vector of ``x.shape[axis]`` values of ``x``'s dtype.
        offset: None (no shift), or a vector of ``x.shape[axis]`` values of ``x``'s dtype.
        axis: the channel axis (an int; negative counts from the end).
        epsilon: added to the variance.

    Returns:
        ``(outputs, mean, variance)``: ``outputs`` like ``x``, differentiable with respect to ``x``,
        ``scale`` and ``offset``; ``mean`` and ``variance`` of shape ``(x.shape[axis],)``, for the moving
        statistics (an engine may return them without a gradient).

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, 10.0], [3.0, 30.0]])
    >>> out, mean, var = hl.ops.fused_batch_norm(x, epsilon=0.0)
    >>> hl.ops.convert_to_numpy(out).tolist(), hl.ops.convert_to_numpy(mean).tolist()
    ([[-1.0, -1.0], [1.0, 1.0]], [2.0, 20.0])
    >>> hl.ops.convert_to_numpy(var).tolist()
    [1.0, 100.0]
    """
    return _door.call("fused_batch_norm", x, scale=scale, offset=offset, axis=axis, epsilon=epsilon)


def lstm_sequence(inputs, h, c, kernel, recurrent_kernel, bias=None):
    """An LSTM layer's time loop (Keras's ``LSTMCell``: sigmoid gates, tanh, gates ``[i, f, c, o]``) as one op.

    Per step: ``z = x_t @ kernel + h @ recurrent_kernel + bias``; ``c = sigmoid(z_f) * c + sigmoid(z_i) *
    tanh(z_c)``; ``h = sigmoid(z_o) * tanh(c)``.

    Args:
        inputs: ``(batch, time, features)`` floats.
        h: the initial hidden state, ``(batch, units)``.
        c: the initial cell state, ``(batch, units)``.
        kernel: the input weights, ``(features, 4 * units)``.
        recurrent_kernel: the state weights, ``(units, 4 * units)``.
        bias: None, or ``(4 * units,)``.

    Returns:
        ``(outputs, h, c)``: every step's ``h`` as ``(batch, time, units)``, the final ``h`` and ``c``.

    >>> import highlevel as hl
    >>> z = hl.ops.zeros((2, 5))
    >>> seq, h, c = hl.ops.lstm_sequence(hl.ops.ones((2, 3, 4)), z, z, hl.ops.zeros((4, 20)), hl.ops.zeros((5, 20)))
    >>> hl.ops.shape(seq), hl.ops.shape(h)
    ((2, 3, 5), (2, 5))
    """
    return _door.call("lstm_sequence", inputs, h, c, kernel, recurrent_kernel, bias=bias)


def sparse_softmax_cross_entropy(labels, logits, axis=-1):
    """Per-example ``-log softmax(logits)[label]`` along ``axis``; finite for logits of ±1e4.

    Args:
        labels: integer class indices, of the shape of ``logits`` without ``axis``.
        logits: float scores.
        axis: the class axis.

    Returns:
        The losses, of the labels' shape and the logits' dtype. Labels must lie in
        ``[0, num_classes)``; the caller checks that (out-of-range labels give engine-dependent values).

    >>> import highlevel as hl
    >>> logits = hl.ops.convert_to_tensor([[0.0, 0.0], [10.0, 0.0]])
    >>> losses = hl.ops.sparse_softmax_cross_entropy(hl.ops.convert_to_tensor([1, 0]), logits)
    >>> print(hl.ops.convert_to_numpy(losses).round(4))
    [0.6931 0.    ]
    """
    return _door.call("sparse_softmax_cross_entropy", labels, logits, axis=axis)


def convert_to_numpy(x):
    """Returns the values of ``x`` as a numpy array.

    The result is a copy on the host where the tensor lives on a device (a GPU); a numpy array or Python value is
    converted as ``numpy.asarray`` would. Calling it on a symbolic tensor (from :func:`~highlevel.Input`) is an
    error, since such a tensor has no values.

    Args:
        x: a tensor of the current engine, a Variable, a numpy array, or a (nested) list of numbers.

    Returns:
        A ``numpy.ndarray`` of the shape of ``x`` and the matching numpy dtype.

    >>> import highlevel as hl
    >>> a = hl.ops.convert_to_numpy(hl.ops.ones((2, 2), dtype="int32"))
    >>> type(a).__name__, a.dtype, a.tolist()
    ('ndarray', dtype('int32'), [[1, 1], [1, 1]])
    """
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

    Raises:
        ValueError: ``x`` is a scalar, ``num`` does not match the size of ``axis``, or that size is unknown and
            ``num`` is not given.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1, 2], [3, 4]])
    >>> [hl.ops.convert_to_numpy(t).tolist() for t in hl.ops.unstack(x, axis=1)]
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
            raise ValueError(
                f"unstack: num={num} does not match the size {size} of axis {axis} of a tensor of shape "
                f"{_args.shape_of(x)}."
            )
    if size is None:  # a symbolic tensor: num slices, each its own node
        if num is None:
            raise ValueError(
                f"unstack: the size of axis {axis} is unknown (shape {_args.shape_of(x)}), so the "
                "number of results is too; pass num=."
            )
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


__all__ = [
    "convert_to_tensor",
    "is_tensor",
    "cast",
    "shape",
    "dtype",
    "stop_gradient",
    "value_and_grad",
    "grad",
    "getitem",
    "slice",
    "slice_update",
    "scan",
    "dense",
    "int8_matmul",
    "fused_batch_norm",
    "lstm_sequence",
    "sparse_softmax_cross_entropy",
    "convert_to_numpy",
    "concat",
]
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


# ------------------------------------------------------------------------------------ control flow
# On symbolic tensors, and inside a layer's symbolic call (where the functions close over KerasTensors), the
# control-flow ops infer their outputs as Keras does: by calling their functions on KerasTensors (each hl.ops call
# inside infers its own output), never by running a loop on placeholders. The node they record replays the op
# on real tensors.
def _symbolic(*structures):
    """Whether the op runs symbolically: a KerasTensor in ``structures``, or a layer's symbolic call in progress."""
    from highlevel.backends.contract import tree
    from highlevel.backends.contract.variable import _scopes

    if any(isinstance(v, KerasTensor) for v in tree.flatten(list(structures))[0]):
        return True
    return any(getattr(scope, "symbolic", False) for scope in _scopes.stack)


def _spec(v, shape=None):
    """A KerasTensor with the dtype of ``v`` and its shape (or ``shape``); None stays None."""
    if v is None:
        return None
    if isinstance(v, KerasTensor):
        return KerasTensor(v.shape if shape is None else shape, v.dtype)
    return KerasTensor(_args.shape_of(v) if shape is None else shape, _args.dtype_name_of(v) or "float32")


def _like(structure):
    """KerasTensors shaped like the leaves of ``structure`` (a loop's outputs are shaped like its variables)."""
    from highlevel.backends.contract import tree

    return tree.map_structure(_spec, structure)


def _merged(results, op, what):
    """The specs of several branches' results: one structure and dtype, sizes unknown (None) where they differ."""
    from highlevel.backends.contract import control_flow, tree

    first_leaves, first_def = tree.flatten(results[0])
    merged = [_spec(v) for v in first_leaves]
    for k, other in enumerate(results[1:], 1):
        leaves, treedef = tree.flatten(other)
        if control_flow._shape_of_tree(treedef) != control_flow._shape_of_tree(first_def):
            raise ValueError(
                f"{op}: every {what} must return the same structure; {what} 0 returned "
                f"{results[0]!r} and {what} {k} returned {other!r}."
            )
        for i, v in enumerate(leaves):
            a, b = merged[i], _spec(v)
            if (a is None) != (b is None) or (a is not None and (a.dtype != b.dtype or len(a.shape) != len(b.shape))):
                raise ValueError(
                    f"{op}: every {what} must return tensors of the same dtypes and ranks; {what} 0 "
                    f"returned {a!r} and {what} {k} returned {b!r} at the same place."
                )
            if a is not None:
                merged[i] = KerasTensor(tuple(d if d == e else None for d, e in zip(a.shape, b.shape)), a.dtype)
    return tree.unflatten(first_def, merged)


def _slices(structure, axis=0, keep=False):
    """Specs of one slice along ``axis`` of each tensor of ``structure`` (size 1 there with ``keep``)."""
    from highlevel.backends.contract import tree

    def one(v):
        if v is None:
            return None
        shape = list(_args.shape_of(v))
        if keep:
            shape[axis] = 1
        else:
            del shape[axis]
        return _spec(v, tuple(shape))

    return tree.map_structure(one, structure)


def _stacked(structure, n):
    """Specs of ``structure``'s tensors with a new leading axis of size ``n`` (None: unknown)."""
    from highlevel.backends.contract import tree

    return tree.map_structure(lambda v: None if v is None else _spec(v, (n,) + _spec(v).shape), structure)


def _leading_sizes(structure, op, name, axis=0):
    """The sizes along ``axis`` of the leaves of ``structure``, checked to agree (None where unknown)."""
    from highlevel.backends.contract import tree

    leaves = [v for v in tree.flatten(structure)[0] if v is not None]
    if not leaves:
        raise ValueError(f"{op}: `{name}` holds no tensor; pass a tensor or a nest of tensors.")
    sizes = set()
    for v in leaves:
        shape = _args.shape_of(v)
        if not -len(shape) <= axis < len(shape):
            raise ValueError(
                f"{op}: every tensor of `{name}` needs an axis {axis} to map over; received a tensor of shape {shape}."
            )
        if shape[axis] is not None:
            sizes.add(shape[axis])
    if len(sizes) > 1:
        raise ValueError(
            f"{op}: every tensor of `{name}` must have the same size along axis {axis}; received sizes {sorted(sizes)}."
        )
    return sizes


def _predicate(pred, op):
    if not isinstance(pred, bool) and _args.ndim_of(pred) != 0:
        raise ValueError(
            f"{op}: `pred` must be a scalar bool (a Python bool or a 0-d tensor); received a value of "
            f"shape {_args.shape_of(pred)}. Reduce it first, e.g. with hl.ops.all or hl.ops.any."
        )
    return pred


def cond(pred, true_fn, false_fn):
    """Runs ``true_fn()`` if ``pred`` holds, else ``false_fn()``.

    Inside a compiled function (``jax.jit``, ``tf.function``) this is the engine's conditional (``lax.cond``,
    ``tf.cond``), which decides on the value of ``pred`` when the function runs; on eager engines the branch
    taken runs as plain Python.

    Args:
        pred: a scalar bool: a Python bool or a 0-d tensor.
        true_fn: a function of no arguments returning a nest of tensors.
        false_fn: a function of no arguments returning a nest of the same structure, shapes and dtypes.

    Returns:
        The result of the branch taken; gradients flow through that branch.

    Raises:
        ValueError: ``pred`` is not a scalar.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor(3.0)
    >>> float(hl.ops.convert_to_numpy(hl.ops.cond(x > 0, lambda: x * 2, lambda: -x)))
    6.0
    """
    _args.function(true_fn, "true_fn", "cond")
    _args.function(false_fn, "false_fn", "cond")
    pred = _predicate(pred, "cond")
    if _symbolic(pred):
        out = _merged([true_fn(), false_fn()], "cond", "branch")
        return _door.symbolic_node("cond", (pred, true_fn, false_fn), {}, out)
    return _door.call("cond", pred, true_fn, false_fn)


def switch(index, branches, *operands):
    """Runs ``branches[index](*operands)``; an ``index`` out of range is clamped to the first or last branch.

    Inside a compiled function this is the engine's multi-way conditional (``lax.switch``, ``tf.switch_case``).

    Args:
        index: an integer scalar: a Python int or a 0-d integer tensor.
        branches: a non-empty sequence of functions, each taking ``*operands`` and returning a nest of tensors of
            the same structure, shapes and dtypes.
        *operands: the arguments of the branch.

    Returns:
        The selected branch's result; gradients flow through it to ``operands``.

    Raises:
        TypeError: ``branches`` is not a list or tuple of functions.
        ValueError: ``branches`` is empty.

    >>> import highlevel as hl
    >>> branches = [lambda x: x + 1.0, lambda x: x * 10.0]
    >>> [float(hl.ops.convert_to_numpy(hl.ops.switch(i, branches, 2.0))) for i in (0, 1, 5)]
    [3.0, 20.0, 20.0]
    """
    if callable(branches) or not isinstance(branches, (list, tuple)):
        raise TypeError(f"switch: `branches` must be a list or tuple of functions; received {branches!r}.")
    branches = tuple(_args.function(b, f"branches[{i}]", "switch") for i, b in enumerate(branches))
    if not branches:
        raise ValueError("switch: `branches` is empty; pass at least one function.")
    index = _args.int_scalar(index, "index", "switch")
    if _symbolic(index, operands):
        out = _merged([b(*operands) for b in branches], "switch", "branch")
        return _door.symbolic_node("switch", (index, branches) + operands, {}, out)
    return _door.call("switch", index, branches, *operands)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Repeats ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` holds.

    Inside a compiled function this is the engine's loop (``lax.while_loop``, ``tf.while_loop``); on eager engines
    a Python loop. Gradients flow through every iteration run on the native, PyTorch and TensorFlow engines; on
    JAX reverse-mode gradients need ``maximum_iterations`` (the loop then runs as a ``lax.scan`` of that many
    steps while it is differentiated).

    Args:
        cond: ``cond(*loop_vars)`` returning a scalar bool.
        body: ``body(*loop_vars)`` returning the new loop variables, of the same structure, shapes and dtypes (a
            bare value when there is one).
        loop_vars: a tuple or list of tensors (or nests of them), passed to ``cond`` and ``body`` as positional
            arguments; or one tensor (or dict), passed as the single argument.
        maximum_iterations: None, or the most iterations to run (an int >= 0).

    Returns:
        The final loop variables: a tuple when ``loop_vars`` is a tuple or list, else the one value.

    Raises:
        ValueError: ``body`` changed the structure, shape or dtype of a loop variable.

    >>> import highlevel as hl
    >>> i, total = hl.ops.while_loop(lambda i, t: i < 4, lambda i, t: (i + 1, t + i), (0, 0))
    >>> int(hl.ops.convert_to_numpy(i)), int(hl.ops.convert_to_numpy(total))
    (4, 6)
    """
    _args.function(cond, "cond", "while_loop")
    _args.function(body, "body", "while_loop")
    sequence = isinstance(loop_vars, (list, tuple))
    variables = tuple(loop_vars) if sequence else (loop_vars,)
    if not variables:
        raise ValueError("while_loop: `loop_vars` is empty; pass at least one loop variable.")
    if maximum_iterations is not None:
        maximum_iterations = _args.positive_int(maximum_iterations, "maximum_iterations", "while_loop", minimum=0)
    if _symbolic(variables):  # the outputs are shaped like the loop variables (running it could loop forever)
        out = _door.symbolic_node(
            "while_loop", (cond, body, variables), {"maximum_iterations": maximum_iterations}, _like(variables)
        )
    else:
        out = _door.call("while_loop", cond, body, variables, maximum_iterations=maximum_iterations)
    return tuple(out) if sequence else out[0]


def fori_loop(lower, upper, body_fun, init_val):
    """Runs ``val = body_fun(i, val)`` for ``i`` from ``lower`` up to ``upper - 1``, starting from ``init_val``.

    Inside a compiled function this is the engine's loop (``lax.fori_loop``, ``tf.while_loop``); with Python int
    bounds JAX runs it as a ``lax.scan``, which it can differentiate in reverse mode.

    Args:
        lower: the first index: a Python int or a 0-d integer tensor.
        upper: the bound (excluded), likewise.
        body_fun: ``body_fun(i, val)`` returning the new value, of the structure, shapes and dtypes of
            ``init_val``; ``i`` is a 0-d integer tensor (int32 for Python int bounds).
        init_val: a tensor or a nest of tensors.

    Returns:
        The final value; gradients flow through every iteration to ``init_val``.

    >>> import highlevel as hl
    >>> int(hl.ops.convert_to_numpy(hl.ops.fori_loop(0, 5, lambda i, s: s + i, 0)))
    10
    """
    _args.function(body_fun, "body_fun", "fori_loop")
    lower = _args.int_scalar(lower, "lower", "fori_loop")
    upper = _args.int_scalar(upper, "upper", "fori_loop")
    if _symbolic(lower, upper, init_val):
        return _door.symbolic_node("fori_loop", (lower, upper, body_fun, init_val), {}, _like(init_val))
    return _door.call("fori_loop", lower, upper, body_fun, init_val)


def map(f, xs):  # noqa: A001 - Keras's name
    """Applies ``f`` to each slice of ``xs`` along its leading axis and stacks the results.

    ``map(f, xs)`` is ``stack([f(x) for x in xs])``; for a nest ``xs``, ``f`` receives the nest of the ``i``-th
    slices of its tensors. Engines that compile run it as one loop (``lax.map``, a ``tf.while_loop``); use
    :func:`vectorized_map` to batch ``f`` instead of looping.

    Args:
        f: a function of one slice of ``xs``, returning a nest of tensors.
        xs: a tensor or a nest of tensors with the same leading size.

    Returns:
        ``f``'s outputs stacked along a new axis 0 (a nest like ``f``'s output).

    >>> import highlevel as hl
    >>> ys = hl.ops.map(lambda x: {"sq": x * x, "neg": -x}, hl.ops.arange(4))
    >>> hl.ops.convert_to_numpy(ys["sq"]).tolist()
    [0, 1, 4, 9]
    """
    _args.function(f, "f", "map")
    sizes = _leading_sizes(xs, "map", "xs")
    if _symbolic(xs):
        out = _stacked(f(_slices(xs)), sizes.pop() if sizes else None)
        return _door.symbolic_node("map", (f, xs), {}, out)
    return _door.call("map", f, xs)


def vectorized_map(function, elements):
    """Applies ``function`` to each slice of ``elements`` along axis 0, batched where the engine can.

    The result is ``stack([function(e) for e in elements])`` (for a nest, ``function`` receives the nest of the
    ``i``-th slices), computed with ``jax.vmap``, ``torch.vmap`` or ``tf.vectorized_map`` (one batched
    computation), or as :func:`map` on the native engine.

    Args:
        function: a function of one slice of ``elements``, returning a nest of tensors.
        elements: a tensor or a nest of tensors with the same leading size.

    Returns:
        ``function``'s outputs stacked along a new axis 0.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> hl.ops.convert_to_numpy(hl.ops.vectorized_map(lambda row: hl.ops.sum(row * row), x)).tolist()
    [5.0, 25.0]
    """
    _args.function(function, "function", "vectorized_map")
    sizes = _leading_sizes(elements, "vectorized_map", "elements")
    if _symbolic(elements):
        out = _stacked(function(_slices(elements)), sizes.pop() if sizes else None)
        return _door.symbolic_node("vectorized_map", (function, elements), {}, out)
    return _door.call("vectorized_map", function, elements)


def associative_scan(f, elems, reverse=False, axis=0):
    """The inclusive scan of an associative function: ``[e0, f(e0, e1), f(f(e0, e1), e2), ...]`` along ``axis``.

    Computed in a logarithmic number of rounds of ``f``, each on many pairs at once (the parallel prefix
    algorithm), so ``f`` must be associative (``f(a, f(b, c)) == f(f(a, b), c)``) and elementwise along ``axis``.

    Args:
        f: ``f(a, b)``: combines two nests shaped like ``elems`` (except along ``axis``) into one.
        elems: a tensor or a nest of tensors with the same size along ``axis``.
        reverse: scan from the last element to the first (the result keeps the order of ``elems``).
        axis: the axis to scan along.

    Returns:
        A nest like ``elems``; gradients flow to ``elems``.

    Raises:
        ValueError: a negative ``axis`` is used with tensors of different ranks, or ``f`` returns a
            structure with a different number of tensors than ``elems``.

    >>> import highlevel as hl
    >>> ys = hl.ops.associative_scan(lambda a, b: a + b, hl.ops.convert_to_tensor([1, 2, 3, 4, 5]))
    >>> hl.ops.convert_to_numpy(ys).tolist()
    [1, 3, 6, 10, 15]
    """
    _args.function(f, "f", "associative_scan")
    from highlevel.backends.contract import tree

    axis = _args.integer(axis, "axis", "associative_scan")
    _leading_sizes(elems, "associative_scan", "elems", axis=axis)
    if axis < 0:  # canonical: non-negative, the same axis of every tensor
        ranks = {_args.ndim_of(v) for v in tree.flatten(elems)[0] if v is not None}
        if len(ranks) > 1:
            raise ValueError(
                f"associative_scan: axis={axis} counts from the end of tensors of different ranks "
                f"{sorted(ranks)}; pass a non-negative axis."
            )
        axis += ranks.pop()
    if _symbolic(elems):  # shaped like elems, of the dtypes f gives
        part = _slices(elems, axis, keep=True)
        leaves, treedef = tree.flatten(elems)
        results = tree.flatten(f(part, part))[0]
        if len(results) != len(leaves):
            raise ValueError(
                f"associative_scan: `f` must return a nest like `elems` ({len(leaves)} tensors); it "
                f"returned {len(results)}."
            )
        out = tree.unflatten(
            treedef, [None if e is None else _spec(r, _args.shape_of(e)) for e, r in zip(leaves, results)]
        )
        return _door.symbolic_node("associative_scan", (f, elems), {"reverse": bool(reverse), "axis": axis}, out)
    return _door.call("associative_scan", f, elems, reverse=bool(reverse), axis=axis)


def custom_gradient(f):
    """Decorates ``f`` so that its gradient is the one ``f`` itself defines.

    ``f(*args)`` returns ``(output, grad_fn)``. Differentiating ``output`` with respect to ``args`` calls
    ``grad_fn`` with the cotangent ``upstream`` of ``output`` (a tensor, or a nest like ``output``), as
    ``grad_fn(upstream)``, or as ``grad_fn(*args, upstream=upstream)`` when ``grad_fn`` declares ``upstream`` as a
    keyword-only argument; so ``def grad_fn(*args, upstream=None)`` works on every engine, as in Keras.
    ``grad_fn`` returns one gradient per argument (a tensor for a single argument; None for no gradient).
    Values ``f`` closes over get no gradient through it. When ``grad_fn`` is written with ``hl.ops``, the
    gradient it gives can be differentiated again (second derivatives).

    Args:
        f: a function of tensors (or nests of tensors) returning ``(output, grad_fn)``.

    Returns:
        A function with ``f``'s arguments returning ``output``.

    >>> import highlevel as hl
    >>> @hl.ops.custom_gradient
    ... def clipped_identity(x):
    ...     return x, lambda upstream: hl.ops.clip(upstream, -1.0, 1.0)
    >>> g = hl.ops.grad(lambda x: hl.ops.sum(clipped_identity(x) * 5.0))(hl.ops.convert_to_tensor([1.0, 2.0]))
    >>> hl.ops.convert_to_numpy(g).tolist()
    [1.0, 1.0]
    """
    import functools

    _args.function(f, "f", "custom_gradient")

    @functools.wraps(f)
    def with_custom_gradient(*args, **kwargs):
        fn = functools.partial(f, **kwargs) if kwargs else f
        if _symbolic(args):
            outputs = _like(fn(*args)[0])
            return _door.symbolic_node("custom_gradient", args, {}, outputs, replay=with_custom_gradient)
        return _door.call("custom_gradient", fn, *args)

    return with_custom_gradient


# ------------------------------------------------------------------------------------------- scatters
def _index_rows(indices, target_shape, op):
    """Checks ``indices`` (``(..., k)`` integers, ``k <= len(target_shape)``) and returns ``k``; concrete indices
    outside ``target_shape`` raise ``IndexError`` (under tracing they are dropped)."""
    from highlevel.losses.host_values import concrete_value

    _args.integers(indices, "indices", op)
    shape = _args.shape_of(indices)
    if not shape or shape[-1] is None or not 1 <= shape[-1] <= len(target_shape):
        raise ValueError(
            f"{op}: `indices` must have shape (..., k) with 1 <= k <= {len(target_shape)} (the rank of "
            f"the target); received indices of shape {shape}."
        )
    k = shape[-1]
    values = concrete_value(indices, wait=True)  # a check of the data: read on a GPU too
    if values is not None and values.size:
        # unknown sizes (a symbolic batch axis) accept any index
        dims = _np.asarray([_np.iinfo(_np.int64).max if d is None else d for d in target_shape[:k]], _np.int64)
        bad = (values < -dims) | (values >= dims)
        if bad.any():
            row = values.reshape(-1, k)[bad.reshape(-1, k).any(axis=1)][0]
            raise IndexError(
                f"{op}: index {row.tolist()} is out of bounds for a target of shape "
                f"{tuple(target_shape)} (valid along each axis: -size to size - 1)."
            )
    return k


def _check_updates(updates, expected, op, name):
    shape = _args.shape_of(updates)
    if None in shape or None in expected:
        return
    try:
        _np.broadcast_shapes(shape, expected)
    except ValueError:
        raise ValueError(
            f"{op}: `{name}` must have shape indices.shape[:-1] + target.shape[k:] = {tuple(expected)} "
            f"(or broadcast to it); received shape {shape}."
        ) from None
    if _np.broadcast_shapes(shape, expected) != tuple(expected):
        raise ValueError(
            f"{op}: `{name}` of shape {shape} does not broadcast to {tuple(expected)} "
            "(indices.shape[:-1] + target.shape[k:])."
        )


def scatter(indices, values, shape):
    """A tensor of ``shape`` holding zeros except at ``indices``, where ``values`` are (added up).

    Args:
        indices: integers of shape ``(..., k)``, ``k <= len(shape)``: each row indexes an entry (``k == len(shape)``)
            or a slice ``shape[k:]``; negative indices count from the end.
        values: the values, of shape ``indices.shape[:-1] + shape[k:]`` (or broadcastable to it).
        shape: the shape of the result.

    Returns:
        A tensor of ``shape`` and ``values``' dtype; values at repeated indices add up. Differentiable w.r.t.
        ``values``.

    Raises:
        IndexError: an index is out of bounds (under ``jax.jit`` / ``tf.function``, where indices are not known,
            such a row is dropped).

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.scatter([[0, 1], [1, 0], [0, 1]], [1.0, 2.0, 3.0], (2, 2))).tolist()
    [[0.0, 4.0], [2.0, 0.0]]
    """
    shape = _args.shape(shape, "scatter")
    k = _index_rows(indices, shape, "scatter")
    _check_updates(values, _args.shape_of(indices)[:-1] + shape[k:], "scatter", "values")
    return _door.call("scatter", indices, values, shape)


#: the reductions of :func:`scatter_update`
SCATTER_REDUCTIONS = (None, "add", "max", "min", "mul")


def scatter_update(inputs, indices, updates, reduction=None):
    """``inputs`` with the entries (or slices) at ``indices`` set to ``updates``, or combined with them.

    Args:
        inputs: the tensor to update (it is not changed: a new tensor is returned).
        indices: integers of shape ``(..., k)``, ``k <= inputs.ndim``: each row indexes an entry (``k == ndim``) or
            a slice ``inputs.shape[k:]``; negative indices count from the end.
        updates: the new values, of shape ``indices.shape[:-1] + inputs.shape[k:]`` (or broadcastable to it); cast
            to ``inputs``' dtype.
        reduction: None to replace (of several updates to one index the last one wins, and only it gets a
            gradient), or ``"add"``, ``"max"``, ``"min"``, ``"mul"`` to combine the entry with all its updates.

    Returns:
        A tensor like ``inputs``; differentiable w.r.t. ``inputs`` and ``updates`` (for max and min the gradient
        goes to the entries equal to the result, shared among ties).

    Raises:
        IndexError: an index is out of bounds (dropped instead under ``jax.jit`` / ``tf.function``).
        ValueError: an unknown ``reduction`` or mismatched shapes.

    >>> import highlevel as hl
    >>> x = hl.ops.zeros((4,))
    >>> hl.ops.convert_to_numpy(hl.ops.scatter_update(x, [[1], [3]], [5.0, 7.0])).tolist()
    [0.0, 5.0, 0.0, 7.0]
    >>> hl.ops.convert_to_numpy(hl.ops.scatter_update(x, [[0], [0], [2]], [1.0, 1.0, 1.0], reduction="add")).tolist()
    [2.0, 0.0, 1.0, 0.0]
    """
    if isinstance(reduction, str):
        reduction = reduction.lower()
    _args.one_of(reduction, SCATTER_REDUCTIONS, "reduction", "scatter_update")
    shape = _args.shape_of(inputs)
    k = _index_rows(indices, shape, "scatter_update")
    _check_updates(updates, _args.shape_of(indices)[:-1] + tuple(shape[k:]), "scatter_update", "updates")
    return _door.call("scatter_update", inputs, indices, updates, reduction=reduction)


__all__ += [
    "cond",
    "switch",
    "while_loop",
    "fori_loop",
    "map",
    "vectorized_map",
    "associative_scan",
    "custom_gradient",
    "scatter",
    "scatter_update",
]
