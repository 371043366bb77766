"""What a layer accepts: rank, last-axis sizes and dtype, checked with errors that say what to fix.

>>> spec = InputSpec(min_ndim=2, axes={-1: 4})
>>> assert_input_compatibility([spec], [(8, 4)], "dense")
"""

from highlevel.backends.contract import dtypes as _dtypes


class InputSpec:
    """Describes what one input of a layer must look like (``keras.InputSpec``).

    A layer sets ``self.input_spec`` (one spec, or one per input) and every call checks its inputs against it
    before ``call`` runs, with an error naming the layer and the mismatch.

    Args:
        dtype: the expected dtype name, or None for any.
        shape: the expected full shape, batch axis included (None entries match any size), or None.
        ndim: the expected rank, or None.
        max_ndim: the largest rank accepted, or None.
        min_ndim: the smallest rank accepted, or None.
        axes: a dict ``{axis: size}`` of required sizes (negative axes count from the end), or None.
        allow_last_axis_squeeze: accept an input whose trailing size-1 axis is missing (or extra).
        name: a name for the input, used in error messages.
        optional: whether the input may be None.

    >>> import highlevel as hl
    >>> class Pairs(hl.layers.Layer):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.input_spec = hl.InputSpec(min_ndim=2, axes={-1: 2})
    ...     def call(self, x):
    ...         return x[..., 0] + x[..., 1]
    >>> hl.ops.convert_to_numpy(Pairs()(hl.ops.ones((3, 2)))).tolist()
    [2.0, 2.0, 2.0]
    >>> try:
    ...     Pairs()(hl.ops.ones((3, 4)))
    ... except ValueError:
    ...     print("rejected")
    rejected
    """

    def __init__(
        self,
        dtype=None,
        shape=None,
        ndim=None,
        max_ndim=None,
        min_ndim=None,
        axes=None,
        allow_last_axis_squeeze=False,
        name=None,
        optional=False,
    ):
        self.optional = bool(optional)  # a None in its place is not checked (a layer's optional input)
        self.dtype = _dtypes.standardize_dtype(dtype) if dtype is not None else None
        self.shape = tuple(shape) if shape is not None else None
        self.ndim = len(self.shape) if self.shape is not None else ndim
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.axes = dict(axes or {})
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        self.name = name

    def __repr__(self):
        parts = [f"{k}={v}" for k, v in vars(self).items() if v not in (None, {}, False)]
        return f"InputSpec({', '.join(parts)})"


def assert_input_compatibility(specs, shapes, layer_name, dtypes=None):
    """Raises ValueError naming the layer, the expectation and the shape received, on the first mismatch."""
    if not specs:
        return
    if len(shapes) != len(specs):
        raise ValueError(
            f"Layer '{layer_name}' expects {len(specs)} input(s), but it received {len(shapes)} input tensors."
        )
    for i, (spec, shape) in enumerate(zip(specs, shapes)):
        if spec is None or shape is None:
            continue
        shape = tuple(shape)
        where = f"Input {i} of layer '{layer_name}' is incompatible with the layer:"
        ndim = len(shape)
        if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
            raise ValueError(f"{where} expected ndim={spec.ndim}, found ndim={ndim}. Full shape received: {shape}")
        if spec.max_ndim is not None and ndim > spec.max_ndim:
            raise ValueError(
                f"{where} expected max_ndim={spec.max_ndim}, found ndim={ndim}. Full shape received: {shape}"
            )
        if spec.min_ndim is not None and ndim < spec.min_ndim:
            raise ValueError(
                f"{where} expected min_ndim={spec.min_ndim}, found ndim={ndim}. Full shape received: {shape}"
            )
        if dtypes is not None and spec.dtype is not None and dtypes[i] != spec.dtype:
            raise ValueError(f"{where} expected dtype={spec.dtype}, found dtype={dtypes[i]}.")
        for axis, size in spec.axes.items():
            if size is None:
                continue
            if -ndim <= axis < ndim and shape[axis] is not None and shape[axis] != size:
                raise ValueError(
                    f"{where} expected axis {axis} of input shape to have value {size}, but received input "
                    f"with shape {shape}"
                )
        if spec.shape is not None:
            for expected, got in zip(spec.shape, shape):
                if expected is not None and got is not None and expected != got:
                    raise ValueError(f"{where} expected shape={spec.shape}, found shape={shape}")
