"""The per-sample dot product of two inputs along chosen axes."""

from highlevel import ops

from .base_merge import Merge

_LETTERS = "bcdefghijklmnopqrstuvwxy"


def batch_dot(x, y, axes):
    """Per-sample dot product of ``x`` and ``y`` (both of rank >= 2) contracting ``x``'s axis ``axes[0]``
    with ``y``'s axis ``axes[1]`` (non-negative, never 0).

    The result's axes are ``x``'s (less the contracted one) followed by ``y``'s (less the batch axis and
    the contracted one); a result of rank 1 gets a trailing axis of size 1, as in Keras.
    """
    x_rank, y_rank = len(ops.shape(x)), len(ops.shape(y))
    x_letters = ["a"] + list(_LETTERS[: x_rank - 1])
    y_letters = ["a"] + list(_LETTERS[x_rank - 1 : x_rank + y_rank - 2])
    y_letters[axes[1]] = "z"
    x_letters[axes[0]] = "z"
    out = [c for c in x_letters if c != "z"] + [c for c in y_letters[1:] if c != "z"]
    result = ops.einsum(f"{''.join(x_letters)},{''.join(y_letters)}->{''.join(out)}", x, y)
    if len(out) == 1:
        result = ops.expand_dims(result, -1)
    return result


def l2_normalize(x, axis, epsilon=1e-7):
    """``x / max(||x||, epsilon)`` along ``axis`` (as ``keras.ops.normalize``)."""
    inv_norm = ops.rsqrt(ops.sum(ops.square(x), axis=axis, keepdims=True))
    return ops.multiply(x, ops.minimum(inv_norm, 1.0 / epsilon))


class Dot(Merge):
    """The dot product of two inputs, sample by sample (``keras.layers.Dot``).

    For inputs of shapes ``(batch, 3, 5)`` and ``(batch, 10, 3)`` with ``axes=(1, 2)`` the output has
    shape ``(batch, 5, 10)``: the remaining axes of the first input, then those of the second.

    Args:
        axes: an int (the same axis in both inputs) or a pair of ints (one axis per input); negative
            values count from the end; the batch axis 0 cannot be contracted.
        normalize: whether to L2-normalize both inputs along the contracted axis first (the output is
            then the cosine similarity).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Raises:
        TypeError: if ``axes`` is neither an int nor a pair.
        ValueError: if ``axes`` is a list or tuple that is not two ints.

    >>> import highlevel as hl
    >>> x = hl.ops.reshape(hl.ops.arange(10.0), (1, 5, 2))
    >>> y = hl.ops.reshape(hl.ops.arange(10.0, 20.0), (1, 2, 5))
    >>> hl.ops.convert_to_numpy(hl.layers.Dot(axes=(1, 2))([x, y])).tolist()
    [[[260.0, 360.0], [320.0, 445.0]]]
    """

    num_inputs = 2

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axes, (list, tuple)):
            if len(axes) != 2 or not all(isinstance(a, int) and not isinstance(a, bool) for a in axes):
                raise ValueError(
                    f"Invalid format for argument `axes`: it should be an int or a pair of ints. Received: "
                    f"axes={axes!r}"
                )
            axes = tuple(axes)
        elif not isinstance(axes, int) or isinstance(axes, bool):
            raise TypeError(f"Invalid type for argument `axes`: it should be a list or an int. Received: axes={axes!r}")
        self.axes = axes
        self.normalize = bool(normalize)

    def _resolved_axes(self, shape1, shape2):
        pair = (self.axes, self.axes) if isinstance(self.axes, int) else self.axes
        resolved = []
        for a, shape in zip(pair, (shape1, shape2)):
            rank = len(shape)
            if rank < 2:
                raise ValueError(
                    f"A `Dot` layer needs inputs of rank >= 2 (a batch axis and a feature axis). Received "
                    f"input shapes {tuple(shape1)} and {tuple(shape2)}."
                )
            if not -rank <= a < rank:
                raise ValueError(f"Dot axes={self.axes} is out of range for an input of shape {tuple(shape)}.")
            resolved.append(a % rank)
        if 0 in resolved:
            raise ValueError(
                f"Dot cannot contract the batch axis 0 (axes={self.axes}, input shapes {tuple(shape1)} and "
                f"{tuple(shape2)}). If your inputs are not batched, add a batch axis with hl.ops.expand_dims(x, 0)."
            )
        d1, d2 = shape1[resolved[0]], shape2[resolved[1]]
        if d1 is not None and d2 is not None and d1 != d2:
            raise ValueError(
                f"Incompatible input shapes: axis values {d1} (at axis {resolved[0]}) != {d2} (at axis "
                f"{resolved[1]}). Full input shapes: {tuple(shape1)}, {tuple(shape2)}"
            )
        return resolved

    def build(self, input_shape):
        self._check_shapes(input_shape)
        self._resolved_axes(*input_shape)
        self.built = True

    def call(self, inputs, mask=None):
        self._check_input_list(inputs)
        x1, x2 = inputs
        axes = self._resolved_axes(ops.shape(x1), ops.shape(x2))
        if self.normalize:
            x1 = l2_normalize(x1, axes[0])
            x2 = l2_normalize(x2, axes[1])
        return batch_dot(x1, x2, axes)

    def compute_output_shape(self, input_shape):
        self._check_shapes(input_shape)
        shape1, shape2 = (list(s) for s in input_shape)
        a1, a2 = self._resolved_axes(shape1, shape2)
        shape1.pop(a1)
        shape2.pop(a2)
        output = shape1 + shape2[1:]
        if len(output) == 1:
            output.append(1)
        if output[0] is None:
            output[0] = shape2[0]
        return tuple(output)

    def compute_mask(self, inputs, mask=None):
        return None

    def get_config(self):
        config = super().get_config()
        config.update({"axes": self.axes, "normalize": self.normalize})
        return config


def dot(inputs, axes=-1, **kwargs):
    """Dot product of samples from two tensors (the functional form of :class:`Dot`).

    For each sample ``i``, sums ``x1[i] * x2[i]`` over the contracted axes.

    Args:
        inputs: a list of two tensors with a batch axis first.
        axes: int or pair of ints, the axis (or one axis per input) to contract; axis 0 is the batch axis
            (default -1, the last axis).
        **kwargs: arguments of the layer, for example ``normalize=True`` to L2-normalize both inputs along ``axes``
            first (the result is then the cosine similarity).

    Returns:
        A tensor of the remaining axes of both inputs, ``(batch, 1)`` for two ``(batch, n)`` inputs.

    >>> import highlevel as hl
    >>> x1 = hl.ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> x2 = hl.ops.convert_to_tensor([[5.0, 6.0], [7.0, 8.0]])
    >>> hl.ops.convert_to_numpy(hl.layers.dot([x1, x2], axes=1)).tolist()
    [[17.0], [53.0]]
    """
    return Dot(axes=axes, **kwargs)(inputs)
