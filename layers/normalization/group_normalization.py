"""GroupNormalization: normalizes each sample over groups of channels."""

import numbers

from highlevel import constraints, initializers, ops, regularizers
from highlevel.input_spec import InputSpec
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._axes import check_axis_arg, compute_float_dtype, resolve_axes


class GroupNormalization(Layer):
    """Group normalization (``keras.layers.GroupNormalization``, Wu and He, 2018).

    The channels (axis ``axis``) are split into ``groups`` groups; each sample is normalized over the
    channels of a group and every other non-batch axis, then scaled by ``gamma`` and shifted by ``beta``
    (per channel). ``groups=1`` is layer normalization over all axes; ``groups=-1`` (one channel per
    group) is instance normalization. Independent of the batch size.

    Args:
        groups: positive int dividing the number of channels, or -1 for as many groups as channels.
        axis: int, the channels axis (default the last).
        epsilon: small non-negative float added to the variance.
        center: whether to add the learned offset ``beta``.
        scale: whether to multiply by the learned scale ``gamma``.
        beta_initializer: initializer of ``beta`` (the offset) (default ``"zeros"``).
        gamma_initializer: initializer of ``gamma`` (the scale) (default ``"ones"``).
        beta_regularizer: optional regularizer of ``beta`` (the offset) (default None).
        gamma_regularizer: optional regularizer of ``gamma`` (the scale) (default None).
        beta_constraint: optional constraint applied to ``beta`` (the offset) after each update (default None).
        gamma_constraint: optional constraint applied to ``gamma`` (the scale) after each update (default None).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: rank >= 2 with a known size on ``axis``. Output shape: the input's shape.

    Raises:
        ValueError: if ``groups`` is not a positive int or -1, or ``epsilon`` is negative or not a number.

    >>> import highlevel as hl
    >>> layer = hl.layers.GroupNormalization(groups=2)
    >>> y = layer(hl.ops.convert_to_tensor([[1.0, 3.0, 10.0, 30.0]]))
    >>> [round(v, 2) for v in hl.ops.convert_to_numpy(y)[0].tolist()]
    [-1.0, 1.0, -1.0, 1.0]
    """

    def __init__(
        self,
        groups=32,
        axis=-1,
        epsilon=1e-3,
        center=True,
        scale=True,
        beta_initializer="zeros",
        gamma_initializer="ones",
        beta_regularizer=None,
        gamma_regularizer=None,
        beta_constraint=None,
        gamma_constraint=None,
        **kwargs,
    ):
        if not isinstance(groups, numbers.Integral) or isinstance(groups, bool) or (groups <= 0 and groups != -1):
            raise ValueError(
                "Received an invalid value for argument `groups`, expected a positive integer (or `-1` for "
                f"instance normalization). Received: groups={groups!r}"
            )
        super().__init__(**kwargs)
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not epsilon >= 0:
            raise ValueError(
                f"Invalid value for argument `epsilon` of GroupNormalization: expected a non-negative "
                f"float. Received: epsilon={epsilon!r}"
            )
        self.groups = int(groups)
        self.axis = check_axis_arg(axis, "GroupNormalization", allow_list=False)
        self.epsilon = float(epsilon)
        self.center = bool(center)
        self.scale = bool(scale)
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.supports_masking = True
        self.autocast = False
        self.gamma = None
        self.beta = None

    def build(self, input_shape):
        ndim = len(input_shape)
        if ndim < 2:
            raise ValueError(
                f"Layer '{self.name}' expects inputs of rank >= 2 (batch, ..., channels); received "
                f"input_shape={tuple(input_shape)}."
            )
        (axis,) = resolve_axes(self.axis, ndim, f"layer '{self.name}'", input_shape)
        if axis == 0:
            raise ValueError(
                f"Layer '{self.name}': axis {self.axis} is the batch axis; GroupNormalization "
                "normalizes within each sample, so pass the channels axis."
            )
        dim = input_shape[axis]
        if dim is None:
            raise ValueError(
                f"Axis {self.axis} of the input of layer '{self.name}' should have a defined "
                f"dimension but the layer received an input with shape {tuple(input_shape)}."
            )
        groups = dim if self.groups == -1 else self.groups
        if dim < groups:
            raise ValueError(f"Number of groups ({groups}) cannot be more than the number of channels ({dim}).")
        if dim % groups != 0:
            raise ValueError(f"Number of groups ({groups}) must divide the number of channels ({dim}).")
        self._groups = groups
        self._axis = axis
        self.input_spec = InputSpec(ndim=ndim, axes={self.axis: dim})
        if self.scale:
            self.gamma = self.add_weight(
                shape=(dim,),
                initializer=self.gamma_initializer,
                regularizer=self.gamma_regularizer,
                constraint=self.gamma_constraint,
                name="gamma",
            )
        if self.center:
            self.beta = self.add_weight(
                shape=(dim,),
                initializer=self.beta_initializer,
                regularizer=self.beta_regularizer,
                constraint=self.beta_constraint,
                name="beta",
            )
        # The input seen as (..., groups, channels // groups, ...) and gamma/beta broadcast onto it.
        self._param_shape = [1] * (ndim + 1)
        self._param_shape[axis] = groups
        self._param_shape[axis + 1] = dim // groups
        self._reduction_axes = tuple(d for d in range(1, ndim + 1) if d != axis)
        self.built = True

    def call(self, inputs):
        shape = tuple(ops.shape(inputs))
        dim = shape[self._axis]
        grouped_shape = shape[: self._axis] + (self._groups, dim // self._groups) + shape[self._axis + 1 :]
        in_dtype = ops.dtype(inputs)
        dtype = compute_float_dtype(in_dtype)
        x = ops.cast(ops.reshape(inputs, grouped_shape), dtype)
        mean, variance = ops.moments(x, axes=self._reduction_axes, keepdims=True)
        inv = ops.rsqrt(ops.add(variance, self.epsilon))
        if self.gamma is not None:
            inv = ops.multiply(inv, ops.reshape(ops.cast(self.gamma, dtype), self._param_shape))
        shift = ops.negative(ops.multiply(mean, inv))
        if self.beta is not None:
            shift = ops.add(shift, ops.reshape(ops.cast(self.beta, dtype), self._param_shape))
        outputs = ops.reshape(ops.add(ops.multiply(x, inv), shift), shape)
        return ops.cast(outputs, self.compute_dtype)

    def compute_output_spec(self, inputs, *args, **kwargs):
        return KerasTensor(tuple(inputs.shape), self.compute_dtype)

    def compute_output_shape(self, input_shape):
        resolve_axes(self.axis, len(input_shape), f"layer '{self.name}'", input_shape)
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "groups": self.groups,
                "axis": self.axis,
                "epsilon": self.epsilon,
                "center": self.center,
                "scale": self.scale,
                "beta_initializer": initializers.serialize(self.beta_initializer),
                "gamma_initializer": initializers.serialize(self.gamma_initializer),
                "beta_regularizer": regularizers.serialize(self.beta_regularizer),
                "gamma_regularizer": regularizers.serialize(self.gamma_regularizer),
                "beta_constraint": constraints.serialize(self.beta_constraint),
                "gamma_constraint": constraints.serialize(self.gamma_constraint),
            }
        )
        return config
