"""The parametric rectified linear unit: a leaky ReLU whose slopes are learned."""

from highlevel import constraints, initializers, ops, regularizers
from highlevel.input_spec import InputSpec
from highlevel.layer import Layer


class PReLU(Layer):
    """Parametric rectified linear unit (``keras.layers.PReLU``).

    ``f(x) = alpha * x`` for ``x < 0`` and ``x`` for ``x >= 0``, with ``alpha`` a learned weight of the
    input's shape without the batch axis (size 1 on ``shared_axes``).

    Args:
        alpha_initializer: initializer of ``alpha`` (default ``"Zeros"``).
        alpha_regularizer: regularizer of ``alpha``.
        alpha_constraint: constraint of ``alpha``.
        shared_axes: an int or a list of axes (1-based: axis 1 is the first non-batch axis) along which
            ``alpha`` is shared; e.g. ``shared_axes=[1, 2]`` for ``(batch, height, width, channels)``
            images gives one slope per channel.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: any rank >= 2. Output shape: the input's shape.

    Raises:
        ValueError: if ``shared_axes`` holds anything but ints >= 1.

    >>> import highlevel as hl
    >>> from highlevel import initializers
    >>> layer = hl.layers.PReLU(alpha_initializer=initializers.Constant(0.25), shared_axes=[1])
    >>> y = layer(hl.ops.convert_to_tensor([[[-10.0, 2.0], [3.0, -4.0]]]))
    >>> layer.alpha.shape, hl.ops.convert_to_numpy(y).tolist()
    ((1, 2), [[[-2.5, 2.0], [3.0, -1.0]]])
    """

    def __init__(
        self, alpha_initializer="Zeros", alpha_regularizer=None, alpha_constraint=None, shared_axes=None, **kwargs
    ):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        if shared_axes is None:
            self.shared_axes = None
        else:
            axes = list(shared_axes) if isinstance(shared_axes, (list, tuple)) else [shared_axes]
            if not all(isinstance(a, int) and not isinstance(a, bool) and a >= 1 for a in axes):
                raise ValueError(
                    "PReLU's `shared_axes` must be an int or a list of ints >= 1 (axis 0 is the batch axis). "
                    f"Received: shared_axes={shared_axes!r}"
                )
            self.shared_axes = axes

    def build(self, input_shape):
        rank = len(input_shape)
        if rank < 2:
            raise ValueError(
                f"Layer '{self.name}' (PReLU) needs inputs with a batch axis and at least one more axis; received "
                f"input_shape={tuple(input_shape)}."
            )
        param_shape = list(input_shape[1:])
        for axis in self.shared_axes or ():
            if axis >= rank:
                raise ValueError(
                    f"PReLU shared_axes={self.shared_axes} names axis {axis}, but the input has rank {rank} "
                    f"(shape {tuple(input_shape)}); axes go from 1 to {rank - 1}."
                )
            param_shape[axis - 1] = 1
        if any(d is None for d in param_shape):
            raise ValueError(
                f"Layer '{self.name}' (PReLU) needs the sizes of its non-batch axes to create alpha, but received "
                f"input_shape={tuple(input_shape)}. Give those axes known sizes or share them with `shared_axes`."
            )
        self.alpha = self.add_weight(
            shape=tuple(param_shape),
            initializer=self.alpha_initializer,
            regularizer=self.alpha_regularizer,
            constraint=self.alpha_constraint,
            name="alpha",
        )
        shared = set(self.shared_axes or ())
        self.input_spec = InputSpec(ndim=rank, axes={i: input_shape[i] for i in range(1, rank) if i not in shared})
        self.built = True

    def call(self, inputs):
        # relu(x) - alpha * relu(-x): both pieces are exact where the other is zero.
        return ops.subtract(ops.relu(inputs), ops.multiply(self.alpha, ops.relu(ops.negative(inputs))))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "alpha_initializer": initializers.serialize(self.alpha_initializer),
                "alpha_regularizer": regularizers.serialize(self.alpha_regularizer),
                "alpha_constraint": constraints.serialize(self.alpha_constraint),
                "shared_axes": self.shared_axes,
            }
        )
        return config
