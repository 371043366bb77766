"""LayerNormalization: normalizes each sample over its feature axes, then scales and shifts."""

import warnings

from highlevel import constraints, initializers, ops, regularizers
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._axes import check_axis_arg, compute_float_dtype, resolve_axes


class LayerNormalization(Layer):
    """Layer normalization (``keras.layers.LayerNormalization``, Ba et al., 2016).

    Each sample is normalized independently over ``axis``:
    ``gamma * (x - mean) / sqrt(variance + epsilon) + beta``, the statistics being taken over the
    axes in ``axis`` and ``gamma``/``beta`` having the shape of those axes.

    Args:
        axis: int or list of ints, the axes to normalize over (default the last axis).
        epsilon: small float added to the variance.
        center: whether to add the learned offset ``beta``.
        scale: whether to multiply by the learned scale ``gamma``.
        beta_initializer: initializer of ``beta`` (the offset) (default ``"zeros"``).
        gamma_initializer: initializer of ``gamma`` (the scale) (default ``"ones"``).
        beta_regularizer: optional regularizer of ``beta`` (the offset) (default None).
        gamma_regularizer: optional regularizer of ``gamma`` (the scale) (default None).
        beta_constraint: optional constraint applied to ``beta`` (the offset) after each update (default None).
        gamma_constraint: optional constraint applied to ``gamma`` (the scale) after each update (default None).
        rms_scaling: keyword only; a deprecated Keras option kept for compatibility: when True, ``center`` is ignored
            and the input is scaled by ``gamma / sqrt(variance + epsilon)`` without subtracting the mean.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: any, the normalized axes of known size. Output shape: the input's shape.

    Raises:
        ValueError: if ``axis`` is not an int or a list of ints, or ``epsilon`` is negative or not a number.

    >>> import highlevel as hl
    >>> layer = hl.layers.LayerNormalization()
    >>> y = layer(hl.ops.convert_to_tensor([[1.0, 2.0, 3.0]]))
    >>> [round(v, 3) for v in hl.ops.convert_to_numpy(y)[0].tolist()]
    [-1.224, 0.0, 1.224]
    >>> [w.path for w in layer.weights]
    ['layer_normalization/gamma', 'layer_normalization/beta']
    """

    def __init__(
        self,
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
        *,
        rms_scaling=False,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.axis = check_axis_arg(axis, "LayerNormalization")
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not epsilon >= 0:
            raise ValueError(
                f"Invalid value for argument `epsilon` of LayerNormalization: expected a non-negative float. "
                f"Received: epsilon={epsilon!r}"
            )
        if rms_scaling:
            warnings.warn(
                "You passed `rms_scaling=True`, which is deprecated (as in Keras): it scales the input by the "
                "variance, not the root mean square.",
                stacklevel=2,
            )
        self.epsilon = float(epsilon)
        self.center = bool(center)
        self.scale = bool(scale)
        self.rms_scaling = bool(rms_scaling)
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.supports_masking = True
        # Half-precision inputs stay half here; the statistics are computed in float32 in call.
        self.autocast = False
        self.gamma = None
        self.beta = None

    def build(self, input_shape):
        ndim = len(input_shape)
        self._axes = resolve_axes(self.axis, ndim, f"layer '{self.name}'", input_shape)
        shape = tuple(input_shape[a] for a in self._axes)
        if any(d is None for d in shape):
            raise ValueError(
                f"Layer '{self.name}' needs known sizes on the normalized axes {self._axes} to create gamma/beta; "
                f"received input_shape={tuple(input_shape)}."
            )
        if self.scale or self.rms_scaling:
            self.gamma = self.add_weight(
                shape=shape,
                initializer=self.gamma_initializer,
                regularizer=self.gamma_regularizer,
                constraint=self.gamma_constraint,
                name="gamma",
            )
        if self.center and not self.rms_scaling:
            self.beta = self.add_weight(
                shape=shape,
                initializer=self.beta_initializer,
                regularizer=self.beta_regularizer,
                constraint=self.beta_constraint,
                name="beta",
            )
        self._broadcast_shape = tuple(input_shape[d] if d in self._axes else 1 for d in range(ndim))
        self._needs_reshape = self._axes != [ndim - 1]
        self.built = True

    def _param(self, weight, dtype):
        value = ops.cast(weight, dtype)
        return ops.reshape(value, self._broadcast_shape) if self._needs_reshape else value

    def call(self, inputs):
        if ops.ndim(inputs) != len(self._broadcast_shape):
            raise ValueError(
                f"Layer '{self.name}' was built for inputs of rank {len(self._broadcast_shape)}, but received an "
                f"input of shape {tuple(ops.shape(inputs))}."
            )
        dtype = compute_float_dtype(ops.dtype(inputs))
        x = ops.cast(inputs, dtype)
        if self.rms_scaling:
            variance = ops.var(x, axis=tuple(self._axes), keepdims=True)
            outputs = ops.multiply(x, ops.rsqrt(ops.add(variance, self.epsilon)))
            if self.gamma is not None:
                outputs = ops.multiply(outputs, self._param(self.gamma, dtype))
        else:
            # the engine's layer norm (a fused kernel where it has one; the same formula otherwise)
            gamma = None if self.gamma is None else ops.cast(self.gamma, dtype)
            beta = None if self.beta is None else ops.cast(self.beta, dtype)
            outputs = ops.layer_normalization(x, gamma, beta, axis=tuple(self._axes), epsilon=self.epsilon)
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
                "axis": self.axis,
                "epsilon": self.epsilon,
                "center": self.center,
                "scale": self.scale,
                "rms_scaling": self.rms_scaling,
                "beta_initializer": initializers.serialize(self.beta_initializer),
                "gamma_initializer": initializers.serialize(self.gamma_initializer),
                "beta_regularizer": regularizers.serialize(self.beta_regularizer),
                "gamma_regularizer": regularizers.serialize(self.gamma_regularizer),
                "beta_constraint": constraints.serialize(self.beta_constraint),
                "gamma_constraint": constraints.serialize(self.gamma_constraint),
            }
        )
        return config
