"""The ``keras.ops`` math ops that live at the top level of ``hl.ops`` (``logsumexp``, ``top_k``, ``erf``, ...).

>>> import highlevel as hl
>>> round(float(hl.ops.convert_to_numpy(hl.ops.logsumexp(hl.ops.convert_to_tensor([0.0, 0.0])))), 4)
0.6931
"""

from . import _args, _door


def rsqrt(x):
    """Computes the reciprocal square root ``1 / sqrt(x)``, elementwise.

    Zero gives inf and negative inputs give NaN.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.rsqrt([1.0, 4.0, 0.25])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [1.  0.5 2. ]
    """
    return _door.call("rsqrt", x)


def erf(x):
    """Computes the Gauss error function of ``x``, elementwise.

    ``erf(x) = 2 / sqrt(pi) * integral from 0 to x of exp(-t**2) dt``, a value in ``[-1, 1]``.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).

    Returns:
        A tensor of the shape of ``x``, in its floating-point dtype (floatx for integer or bool inputs).

    >>> import highlevel as hl
    >>> y = hl.ops.erf([-1.0, 0.0, 0.5, 2.0])
    >>> print(hl.ops.convert_to_numpy(y).round(4))
    [-0.8427  0.      0.5205  0.9953]
    """
    return _door.call("erf", x)


def logsumexp(x, axis=None, keepdims=False):
    """Computes ``log(sum(exp(x)))`` over the given axes, without overflow.

    The maximum is subtracted before exponentiating, so inputs as large as +-1e4 stay finite.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        axis: the axis or axes to reduce: an int, a tuple of ints, or None (default) for all of them.
        keepdims: if True, the reduced axes stay in the result with size 1.

    Returns:
        A tensor of the shape of ``x`` without the reduced axes, in the floating-point dtype of ``x``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[0.0, 0.0], [1000.0, 1000.0]])
    >>> print(hl.ops.convert_to_numpy(hl.ops.logsumexp(x, axis=1)).round(4))
    [6.9309998e-01 1.0006932e+03]
    """
    return _door.call("logsumexp", x, axis=_args.axes(axis, _args.ndim_of(x), "logsumexp"), keepdims=bool(keepdims))


def top_k(x, k, sorted=True):
    """Finds the ``k`` largest entries of ``x`` along its last axis, and their indices.

    Args:
        x: the input, a tensor or anything convertible to one (numpy array, list, Python number).
        k: the number of entries to keep, an int no larger than the last axis.
        sorted: if True (default), the entries come in descending order; otherwise in an order the engine
            chooses.

    Returns:
        A pair ``(values, indices)`` of tensors of shape ``x.shape[:-1] + (k,)``: the values in the dtype of ``x``
        and their int32 positions along the last axis.

    >>> import highlevel as hl
    >>> values, indices = hl.ops.top_k([[1.0, 9.0, 3.0, 7.0]], k=2)
    >>> hl.ops.convert_to_numpy(values).tolist(), hl.ops.convert_to_numpy(indices).tolist()
    ([[9.0, 7.0]], [[1, 3]])
    """
    return _door.call("top_k", x, _args.positive_int(k, "k", "top_k", minimum=0), sorted=bool(sorted))


__all__ = ["rsqrt", "erf", "logsumexp", "top_k"]


def erfc(x):
    """Returns the complementary error function ``1 - erf(x)``, elementwise.

    Accurate where it is tiny: for large ``x`` it keeps the digits that ``1 - erf(x)`` would lose.

    Args:
        x: a tensor; integer and bool inputs compute in floatx.

    Returns:
        A float tensor of the shape of ``x``; differentiable (``-2/sqrt(pi) exp(-x**2)``).

    >>> import highlevel as hl
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.erfc(hl.ops.convert_to_tensor(5.0, dtype='float64')))):.6e}")
    1.537460e-12
    """
    return _door.call("erfc", x)


def erfinv(x):
    """Returns the inverse error function, elementwise: ``y`` such that ``erf(y) == x``.

    Args:
        x: a tensor of values in ``[-1, 1]`` (``+-1`` give ``+-inf``, values outside give NaN); integer and bool
            inputs compute in floatx.

    Returns:
        A float tensor of the shape of ``x``; differentiable (``sqrt(pi)/2 exp(erfinv(x)**2)``).

    >>> import highlevel as hl
    >>> print(f"{float(hl.ops.convert_to_numpy(hl.ops.erfinv(0.5))):.5f}")
    0.47694
    """
    return _door.call("erfinv", x)


__all__ += ["erfc", "erfinv"]


# ----------------------------------------------------------------------------------- segment reductions
def _segments(data, segment_ids, num_segments, op, allow_bool=False):
    """Checks a segment reduction's arguments; returns ``num_segments`` as an int (read from concrete ids when
    None: ``max(segment_ids) + 1``)."""
    from highlevel.backends.contract import dtypes
    from highlevel.keras_tensor import KerasTensor

    _args.integers(segment_ids, "segment_ids", op)
    ids_shape, data_shape = _args.shape_of(segment_ids), _args.shape_of(data)
    if len(ids_shape) != 1:
        raise ValueError(
            f"{op}: `segment_ids` must be a vector (one id per row of `data`); received shape "
            f"{ids_shape}. Flatten data and ids first (data.reshape((-1,) + data.shape[k:]))."
        )
    if not data_shape:
        raise ValueError(f"{op}: `data` must have at least one axis (its rows are reduced); received a scalar.")
    if None not in (ids_shape[0], data_shape[0]) and ids_shape[0] != data_shape[0]:
        raise ValueError(
            f"{op}: `segment_ids` needs one id per row of `data`; received {ids_shape[0]} ids for {data_shape[0]} rows."
        )
    dt = _args.dtype_name_of(data)
    if dt == "bool" and not allow_bool:
        raise TypeError(f"{op}: `data` is bool; cast it to a number first (hl.ops.cast(data, 'int32')).")
    if dt is not None and dt not in dtypes.FLOAT_DTYPES + dtypes.INT_DTYPES + (("bool",) if allow_bool else ()):
        raise TypeError(f"{op}: `data` must be a float or integer tensor; received dtype {dt}.")
    if num_segments is not None:
        return _args.positive_int(num_segments, "num_segments", op, minimum=0)
    values = None
    if not isinstance(segment_ids, KerasTensor):
        try:  # a read of the ids on the host: only eager values have them
            values = _door.call("to_numpy", segment_ids)
        except Exception:  # a traced (jax.jit, tf.function) or recorded step's value
            values = None
    if values is None:
        raise ValueError(
            f"{op}: `num_segments` is required here: the ids are not known yet (a symbolic tensor, or "
            "a function being compiled by jax.jit / tf.function or recorded as a step), and the "
            "output's size depends on them. Pass num_segments=<number of segments>."
        )
    return int(values.max()) + 1 if values.size else 0


def segment_sum(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002 - Keras's name
    """The sum of the rows of ``data`` in each segment: ``out[s] = sum(data[i] for segment_ids[i] == s)``.

    Args:
        data: a tensor of shape ``(n, ...)``.
        segment_ids: an integer vector of ``n`` segment ids; rows with an id outside ``[0, num_segments)`` (a
            negative id, say) are dropped.
        num_segments: the number of segments. When None it is ``max(segment_ids) + 1``, read from the ids: only
            possible for eager values, so pass it inside a compiled or symbolic function.
        sorted: whether ``segment_ids`` is sorted (a hint; the result is the same).

    Returns:
        A tensor of shape ``(num_segments, ...)`` and ``data``'s dtype (0 for an empty segment); differentiable
        w.r.t. ``data``.

    Raises:
        ValueError: ``num_segments`` is None for ids without known values; mismatched shapes.

    >>> import highlevel as hl
    >>> data = hl.ops.convert_to_tensor([1, 2, 10, 20, 100])
    >>> hl.ops.convert_to_numpy(hl.ops.segment_sum(data, hl.ops.convert_to_tensor([0, 0, 1, 1, 3]))).tolist()
    [3, 30, 0, 100]
    """
    n = _segments(data, segment_ids, num_segments, "segment_sum")
    return _door.call("segment_sum", data, segment_ids, n, sorted=bool(sorted))


def segment_max(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002 - Keras's name
    """Computes the maximum of the rows of ``data`` in each segment.

    Row ``i`` of ``data`` belongs to segment ``segment_ids[i]``; ``out[s]`` is the maximum of the rows of segment
    ``s``, as :func:`segment_sum` adds them.

    Args:
        data: a tensor of shape ``(n, ...)``.
        segment_ids: an integer vector of ``n`` segment ids; rows whose id is outside ``[0, num_segments)`` (a
            negative id, say) are dropped.
        num_segments: the number of segments. When None it is ``max(segment_ids) + 1``, read from the ids: only
            possible for eager values, so pass it inside a compiled or symbolic function.
        sorted: whether ``segment_ids`` is sorted (a hint; the result is the same).

    Returns:
        A tensor of shape ``(num_segments, ...)`` and ``data``'s dtype: ``-inf`` for an empty segment of floats (the
        lowest value of an integer dtype), NaN where the segment holds a NaN. The gradient goes to the maximal entries,
        shared equally among ties.

    >>> import highlevel as hl
    >>> data = hl.ops.convert_to_tensor([1.0, 5.0, 2.0, 3.0])
    >>> hl.ops.convert_to_numpy(hl.ops.segment_max(data, hl.ops.convert_to_tensor([0, 0, 2, 2]))).tolist()
    [5.0, -inf, 3.0]
    """
    n = _segments(data, segment_ids, num_segments, "segment_max")
    return _door.call("segment_max", data, segment_ids, n, sorted=bool(sorted))


def segment_min(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002 - Keras's name
    """Computes the minimum of the rows of ``data`` in each segment.

    Row ``i`` of ``data`` belongs to segment ``segment_ids[i]``; ``out[s]`` is the minimum of the rows of segment
    ``s``, as :func:`segment_sum` adds them.

    Args:
        data: a tensor of shape ``(n, ...)``.
        segment_ids: an integer vector of ``n`` segment ids; rows whose id is outside ``[0, num_segments)`` (a
            negative id, say) are dropped.
        num_segments: the number of segments. When None it is ``max(segment_ids) + 1``, read from the ids: only
            possible for eager values, so pass it inside a compiled or symbolic function.
        sorted: whether ``segment_ids`` is sorted (a hint; the result is the same).

    Returns:
        A tensor of shape ``(num_segments, ...)`` and ``data``'s dtype: ``inf`` for an empty segment of floats (the
        highest value of an integer dtype), NaN where the segment holds a NaN. The gradient goes to the minimal entries,
        shared equally among ties.

    >>> import highlevel as hl
    >>> data = hl.ops.convert_to_tensor([1.0, 5.0, 2.0, 3.0])
    >>> hl.ops.convert_to_numpy(hl.ops.segment_min(data, hl.ops.convert_to_tensor([0, 0, 2, 2]))).tolist()
    [1.0, inf, 2.0]
    """
    n = _segments(data, segment_ids, num_segments, "segment_min")
    return _door.call("segment_min", data, segment_ids, n, sorted=bool(sorted))


def segment_prod(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002 - Keras's name
    """Computes the product of the rows of ``data`` in each segment.

    Row ``i`` of ``data`` belongs to segment ``segment_ids[i]``; ``out[s]`` is the product of the rows of segment
    ``s``, as :func:`segment_sum` adds them.

    Args:
        data: a tensor of shape ``(n, ...)``.
        segment_ids: an integer vector of ``n`` segment ids; rows whose id is outside ``[0, num_segments)`` (a
            negative id, say) are dropped.
        num_segments: the number of segments. When None it is ``max(segment_ids) + 1``, read from the ids: only
            possible for eager values, so pass it inside a compiled or symbolic function.
        sorted: whether ``segment_ids`` is sorted (a hint; the result is the same).

    Returns:
        A tensor of shape ``(num_segments, ...)`` and ``data``'s dtype, 1 for an empty segment; differentiable with
        respect to ``data``.

    >>> import highlevel as hl
    >>> data = hl.ops.convert_to_tensor([1.0, 5.0, 2.0, 3.0])
    >>> hl.ops.convert_to_numpy(hl.ops.segment_prod(data, hl.ops.convert_to_tensor([0, 0, 2, 2]))).tolist()
    [5.0, 1.0, 6.0]
    """
    n = _segments(data, segment_ids, num_segments, "segment_prod")
    return _door.call("segment_prod", data, segment_ids, n, sorted=bool(sorted))


def in_top_k(targets, predictions, k):
    """Whether each target class is among the ``k`` highest predictions of its row.

    A target is in the top ``k`` when fewer than ``k`` predictions of its row are strictly greater than its own, so
    classes tied at the boundary all count. A NaN prediction for the target, or a target outside
    ``[0, num_classes)``, gives False; a NaN elsewhere in the row is not greater than anything.

    Args:
        targets: integer class indices, of shape ``(batch,)`` (or any shape ``s``).
        predictions: scores of shape ``(batch, num_classes)`` (``s + (num_classes,)``).
        k: how many of the highest predictions count (an int >= 0).

    Returns:
        A bool tensor of ``targets``' shape.

    Raises:
        ValueError: ``predictions`` does not have the shape of ``targets`` plus a class axis.

    >>> import highlevel as hl
    >>> predictions = hl.ops.convert_to_tensor([[0.1, 0.9, 0.5], [0.8, 0.1, 0.3]])
    >>> hl.ops.convert_to_numpy(hl.ops.in_top_k(hl.ops.convert_to_tensor([1, 2]), predictions, 1)).tolist()
    [True, False]
    """
    k = _args.positive_int(k, "k", "in_top_k", minimum=0)
    _args.integers(targets, "targets", "in_top_k")
    t_shape, p_shape = _args.shape_of(targets), _args.shape_of(predictions)
    if len(p_shape) != len(t_shape) + 1 or any(
        a is not None and b is not None and a != b for a, b in zip(t_shape, p_shape)
    ):
        raise ValueError(
            f"in_top_k: `predictions` must have the shape of `targets` plus a class axis; received "
            f"targets of shape {t_shape} and predictions of shape {p_shape}."
        )
    return _door.call("in_top_k", targets, predictions, k)


__all__ += ["segment_sum", "segment_max", "segment_min", "segment_prod", "in_top_k"]


def logdet(x):
    """The natural log of the determinant of each square matrix of ``x`` (meant for positive-definite matrices).

    Args:
        x: a tensor of shape ``(..., M, M)``.

    Returns:
        ``log(det(x))``, shape ``(...)``: NaN where the determinant is negative (a real log has no value there),
        ``-inf`` where it is 0.

    >>> import highlevel as hl
    >>> round(float(hl.ops.convert_to_numpy(hl.ops.logdet(hl.ops.convert_to_tensor([[2.0, 0.0], [0.0, 3.0]])))), 4)
    1.7918
    """
    return _door.call("logdet", _args.matrices(x, "logdet", square=True))


def cdist(x, y):
    """The Euclidean distance between each row of ``x`` and each row of ``y``.

    Args:
        x: a tensor of shape ``(..., m, d)``.
        y: a tensor of shape ``(..., n, d)``; the batch axes broadcast against ``x``'s.

    Returns:
        A float tensor of shape ``(..., m, n)``; the gradient at a distance of 0 is 0.

    Raises:
        ValueError: ``x`` or ``y`` has rank below 2, or their vectors (last axes) differ in length.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([[0.0, 0.0], [1.0, 1.0]])
    >>> d = hl.ops.cdist(x, hl.ops.convert_to_tensor([[3.0, 4.0]]))
    >>> hl.ops.convert_to_numpy(d).astype("float64").round(4).tolist()
    [[5.0], [3.6056]]
    """
    sx, sy = _args.shape_of(x), _args.shape_of(y)
    if len(sx) < 2 or len(sy) < 2:
        raise ValueError(
            f"cdist: `x` and `y` must have rank 2 or more (rows of vectors); received shapes {sx} and {sy}."
        )
    if None not in (sx[-1], sy[-1]) and sx[-1] != sy[-1]:
        raise ValueError(
            f"cdist: the vectors of `x` and `y` must have one length (the last axis); received shapes {sx} and {sy}."
        )
    return _door.call("cdist", x, y)


def fft(x):
    """The discrete Fourier transform along the last axis of a complex signal given as ``(real, imag)``.

    Args:
        x: a pair ``(real, imag)`` of float tensors of one shape (rank 1 or more).

    Returns:
        The pair ``(real, imag)`` of the transform, of the input's shape and float dtype.

    >>> import highlevel as hl
    >>> re, im = hl.ops.fft((hl.ops.convert_to_tensor([1.0, 2.0]), hl.ops.convert_to_tensor([0.0, 1.0])))
    >>> hl.ops.convert_to_numpy(re).tolist(), hl.ops.convert_to_numpy(im).tolist()
    ([3.0, -1.0], [1.0, -1.0])
    """
    return _door.call("fft", _args.real_pair(x, "fft"))


def fft2(x):
    """The 2-D discrete Fourier transform over the last two axes of a complex signal given as ``(real, imag)``.

    Args:
        x: a pair ``(real, imag)`` of float tensors of one shape (rank 2 or more).

    Returns:
        The pair ``(real, imag)`` of the transform.

    >>> import highlevel as hl
    >>> re, im = hl.ops.fft2((hl.ops.convert_to_tensor([[1.0, 2.0], [2.0, 1.0]]), hl.ops.zeros((2, 2))))
    >>> hl.ops.convert_to_numpy(re).tolist()
    [[6.0, 0.0], [0.0, -2.0]]
    """
    return _door.call("fft2", _args.real_pair(x, "fft2", min_rank=2))


def ifft2(x):
    """The inverse 2-D discrete Fourier transform (divided by the number of points) over the last two axes.

    Args:
        x: a pair ``(real, imag)`` of float tensors of one shape (rank 2 or more).

    Returns:
        The pair ``(real, imag)`` of the inverse transform.

    >>> import highlevel as hl
    >>> re, im = hl.ops.ifft2((hl.ops.convert_to_tensor([[6.0, 0.0], [0.0, -2.0]]), hl.ops.zeros((2, 2))))
    >>> hl.ops.convert_to_numpy(re).tolist()
    [[1.0, 2.0], [2.0, 1.0]]
    """
    return _door.call("ifft2", _args.real_pair(x, "ifft2", min_rank=2))


def rfft(x, fft_length=None):
    """The discrete Fourier transform of a real signal along its last axis: its ``fft_length // 2 + 1``
    non-negative frequencies.

    Args:
        x: a real tensor of rank 1 or more; integers compute in floatx.
        fft_length: the number of points of the transform (the signal is cropped or zero-padded to it); default
            the length of the last axis.

    Returns:
        The pair ``(real, imag)``, of shape ``(..., fft_length // 2 + 1)``.

    Raises:
        ValueError: ``x`` is a scalar.

    >>> import highlevel as hl
    >>> re, im = hl.ops.rfft(hl.ops.convert_to_tensor([1.0, 2.0, 3.0, 4.0]))
    >>> hl.ops.convert_to_numpy(re).tolist(), hl.ops.convert_to_numpy(im).tolist()
    ([10.0, -2.0, -2.0], [0.0, 2.0, 0.0])
    """
    if _args.ndim_of(x) < 1:
        raise ValueError(f"rfft: `x` must have rank 1 or more; received shape {_args.shape_of(x)}.")
    return _door.call("rfft", x, fft_length=_args.optional_positive_int(fft_length, "fft_length", "rfft"))


def irfft(x, fft_length=None):
    """The real signal whose discrete Fourier transform has the non-negative frequencies ``x`` (the inverse of
    :func:`rfft`).

    Args:
        x: a pair ``(real, imag)`` of float tensors of one shape: ``m`` frequencies along the last axis (cropped or
            zero-padded to ``fft_length // 2 + 1``).
        fft_length: the length of the signal; default ``2 * (m - 1)`` (pass it for an odd length).

    Returns:
        A float tensor of shape ``(..., fft_length)``.

    Raises:
        ValueError: ``x`` has fewer than 2 frequencies and no ``fft_length`` is given.

    >>> import highlevel as hl
    >>> re, im = hl.ops.rfft(hl.ops.convert_to_tensor([1.0, 2.0, 3.0, 4.0, 5.0]))
    >>> hl.ops.convert_to_numpy(hl.ops.irfft((re, im), 5)).round(4).tolist()
    [1.0, 2.0, 3.0, 4.0, 5.0]
    """
    x = _args.real_pair(x, "irfft")
    if fft_length is None:
        m = _args.shape_of(x[0])[-1]
        if m is not None and m < 2:
            raise ValueError(f"irfft: with {m} frequency the default fft_length 2 * (m - 1) is 0; pass `fft_length`.")
    return _door.call("irfft", x, fft_length=_args.optional_positive_int(fft_length, "fft_length", "irfft"))


def _window_arg(window, sequence_length, op):
    if window is None:
        return None
    if isinstance(window, str):
        return _args.one_of(window, ("hann", "hamming"), "window", op)
    shape = _args.shape_of(window)
    if len(shape) != 1 or shape[0] not in (None, sequence_length):
        raise ValueError(
            f"{op}: a `window` tensor must have shape (sequence_length,) = ({sequence_length},); "
            f"received shape {shape}."
        )
    return window


def _frame_args(sequence_length, sequence_stride, fft_length, op):
    length = _args.positive_int(sequence_length, "sequence_length", op)
    stride = _args.positive_int(sequence_stride, "sequence_stride", op)
    n = _args.positive_int(fft_length, "fft_length", op)
    if n < length:
        raise ValueError(
            f"{op}: `fft_length` must be at least `sequence_length`; received fft_length={fft_length} "
            f"and sequence_length={sequence_length}."
        )
    return length, stride, n


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    """The short-time Fourier transform of a real signal along its last axis.

    Frames of ``fft_length`` samples every ``sequence_stride`` samples are multiplied by the window (of
    ``sequence_length`` samples, centred in the frame with zeros around it) and transformed with :func:`rfft`.

    Args:
        x: a real tensor of shape ``(..., samples)``.
        sequence_length: the length of the window.
        sequence_stride: the hop between frames.
        fft_length: the number of points of each frame's transform (at least ``sequence_length``).
        window: ``"hann"`` or ``"hamming"`` (periodic windows, as ``scipy.signal.get_window``), a tensor of shape
            ``(sequence_length,)``, or None (no window: frames of ``fft_length`` samples as they are).
        center: pad the signal by ``fft_length // 2`` on each side, reflecting it, so that frame ``t`` is centred
            on sample ``t * sequence_stride``.

    Returns:
        The pair ``(real, imag)`` of shape ``(..., frames, fft_length // 2 + 1)``, with
        ``frames = 1 + (samples + 2 * (fft_length // 2 if center else 0) - fft_length) // sequence_stride``.

    Raises:
        ValueError: ``x`` is a scalar, or ``center=True`` and the signal has at most ``fft_length // 2``
            samples.

    >>> import highlevel as hl
    >>> re, im = hl.ops.stft(hl.ops.convert_to_tensor([0.0, 1.0, 2.0, 3.0, 4.0]), 3, 2, 3)
    >>> hl.ops.convert_to_numpy(re).round(4).tolist()
    [[0.75, -0.375], [3.75, -1.875], [5.25, -2.625]]
    """
    length, stride, n = _frame_args(sequence_length, sequence_stride, fft_length, "stft")
    if _args.ndim_of(x) < 1:
        raise ValueError(f"stft: `x` must have rank 1 or more; received shape {_args.shape_of(x)}.")
    center = _args.boolean(center, "center", "stft")
    samples = _args.shape_of(x)[-1]
    if center and samples is not None and samples <= n // 2:
        raise ValueError(
            f"stft: with center=True the signal is padded by reflection by fft_length // 2 = {n // 2} "
            f"samples, which needs more than {n // 2} samples; received {samples}."
        )
    return _door.call("stft", x, length, stride, n, window=_window_arg(window, length, "stft"), center=center)


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True):
    """The inverse short-time Fourier transform: the signal whose :func:`stft` (same arguments) is ``x``.

    Each frame's inverse transform is multiplied by the window and the frames are added up at their places
    (overlap-add), then divided by the overlap-added squared window (where that sum is not 0): the least-squares
    inverse, which gives the signal back exactly when the squared windows overlap everywhere.

    Args:
        x: a pair ``(real, imag)`` of shape ``(..., frames, fft_length // 2 + 1)``.
        sequence_length: the length of the window.
        sequence_stride: the hop between frames.
        fft_length: the number of points of each frame's transform.
        length: the length of the result (cropped, or zero-padded past the frames); default: everything the
            frames cover (less ``fft_length // 2`` at each end with ``center``).
        window: as in :func:`stft`.
        center: whether :func:`stft` padded the signal (the padding is removed).

    Returns:
        A float tensor of shape ``(..., samples)``.

    >>> import highlevel as hl
    >>> x = hl.ops.convert_to_tensor([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
    >>> y = hl.ops.istft(hl.ops.stft(x, 4, 1, 4), 4, 1, 4, length=8)
    >>> hl.ops.convert_to_numpy(y).round(4).tolist()
    [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    """
    x = _args.real_pair(x, "istft", min_rank=2)
    seq, stride, n = _frame_args(sequence_length, sequence_stride, fft_length, "istft")
    if length is not None:
        length = _args.positive_int(length, "length", "istft", minimum=0)
    return _door.call(
        "istft",
        x,
        seq,
        stride,
        n,
        length=length,
        window=_window_arg(window, seq, "istft"),
        center=_args.boolean(center, "center", "istft"),
    )


def extract_sequences(x, sequence_length, sequence_stride):
    """Frames of ``sequence_length`` samples taken every ``sequence_stride`` samples along the last axis.

    Args:
        x: a tensor of shape ``(..., n)``.
        sequence_length: the length of each frame.
        sequence_stride: the hop between frames.

    Returns:
        A tensor of shape ``(..., 1 + (n - sequence_length) // sequence_stride, sequence_length)`` (no frames when
        ``n < sequence_length``).

    Raises:
        ValueError: ``x`` is a scalar.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.extract_sequences(hl.ops.arange(6), 3, 2)).tolist()
    [[0, 1, 2], [2, 3, 4]]
    """
    if _args.ndim_of(x) < 1:
        raise ValueError(f"extract_sequences: `x` must have rank 1 or more; received shape {_args.shape_of(x)}.")
    return _door.call(
        "extract_sequences",
        x,
        _args.positive_int(sequence_length, "sequence_length", "extract_sequences"),
        _args.positive_int(sequence_stride, "sequence_stride", "extract_sequences"),
    )


def view_as_complex(x):
    """A complex tensor from a real one whose last axis holds the real and imaginary parts.

    Args:
        x: a real tensor of shape ``(..., 2)``.

    Returns:
        A complex tensor of shape ``(...)``: complex128 for float64 input, complex64 otherwise.

    Raises:
        ValueError: the last axis of ``x`` does not have size 2.

    >>> import highlevel as hl
    >>> hl.ops.convert_to_numpy(hl.ops.view_as_complex(hl.ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]]))).tolist()
    [(1+2j), (3+4j)]
    """
    shape = _args.shape_of(x)
    if len(shape) < 1 or shape[-1] not in (2, None):
        raise ValueError(
            f"view_as_complex: the last axis of `x` must have size 2 (real and imaginary parts); "
            f"received shape {shape}."
        )
    return _door.call("view_as_complex", x)


def view_as_real(x):
    """A real tensor whose last axis holds the real and imaginary parts of a complex ``x``.

    Args:
        x: a complex tensor (a real one gets zero imaginary parts).

    Returns:
        A real tensor of shape ``(..., 2)``: float32 for complex64, float64 for complex128.

    >>> import highlevel as hl
    >>> z = hl.ops.view_as_complex(hl.ops.convert_to_tensor([[1.0, 2.0]]))
    >>> hl.ops.convert_to_numpy(hl.ops.view_as_real(z)).tolist()
    [[1.0, 2.0]]
    """
    return _door.call("view_as_real", x)


__all__ += [
    "logdet",
    "cdist",
    "fft",
    "fft2",
    "ifft2",
    "rfft",
    "irfft",
    "stft",
    "istft",
    "extract_sequences",
    "view_as_complex",
    "view_as_real",
]
