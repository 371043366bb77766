"""BatchNormalization: normalizes with batch statistics in training and moving statistics at inference."""

import numbers

from highlevel import constraints, initializers, ops, regularizers
from highlevel.input_spec import InputSpec
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._axes import check_axis_arg, compute_float_dtype, resolve_axes

# Keras' backend.epsilon(): guards the masked statistics against an all-masked batch.
_MASK_EPSILON = 1e-7


def _check_float(value, name, low=None, high=None):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value != value:
        raise ValueError(
            f"Invalid value for argument `{name}` of BatchNormalization: expected a float. Received: {name}={value!r}"
        )
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(
            f"Invalid value for argument `{name}` of BatchNormalization: expected a float in "
            f"[{low}, {high if high is not None else 'inf'}]. Received: {name}={value!r}"
        )
    return float(value)


class BatchNormalization(Layer):
    """Batch normalization (``keras.layers.BatchNormalization``, Ioffe and Szegedy, 2015).

    With ``training=True`` the input is normalized with the mean and variance of the current batch
    (over every axis but ``axis``) and the moving statistics are updated with ``variable.assign``::

        moving_mean = moving_mean * momentum + mean(batch) * (1 - momentum)
        moving_variance = moving_variance * momentum + var(batch) * (1 - momentum)

    Otherwise (inference, ``training`` False or None) it uses the moving statistics. The output is
    ``gamma * (x - mean) / sqrt(var + epsilon) + beta``. As in Keras 3, a layer with
    ``trainable=False`` always runs in inference mode and leaves its statistics alone.

    Args:
        axis: int, the features axis (e.g. ``1`` after a ``channels_first`` convolution).
        momentum: float in [0, 1], the momentum of the moving averages.
        epsilon: small non-negative float added to the variance.
        center: whether to add the learned offset ``beta``.
        scale: whether to multiply by the learned scale ``gamma``.
        beta_initializer: initializer of ``beta`` (the offset) (default ``"zeros"``).
        gamma_initializer: initializer of ``gamma`` (the scale) (default ``"ones"``).
        moving_mean_initializer: initializer of the moving mean (default ``"zeros"``).
        moving_variance_initializer: initializer of the moving variance (default ``"ones"``).
        beta_regularizer: optional regularizer of ``beta`` (the offset) (default None).
        gamma_regularizer: optional regularizer of ``gamma`` (the scale) (default None).
        beta_constraint: optional constraint applied to ``beta`` (the offset) after each update (default None).
        gamma_constraint: optional constraint applied to ``gamma`` (the scale) after each update (default None).
        renorm: whether to use batch renormalization (Ioffe, 2017): extra non-trainable statistics and a
            correction ``(r, d)`` of the batch-normalized values during training.
        renorm_clipping: dict with optional keys ``"rmax"``, ``"rmin"``, ``"dmax"`` clipping ``r`` to
            ``[rmin, rmax]`` and ``d`` to ``[-dmax, dmax]`` (only with ``renorm``).
        renorm_momentum: the momentum of the renorm statistics.
        synchronized: accepted for Keras compatibility; statistics are those of the local batch (one
            replica), which is what Keras computes outside a distribution strategy.
        **kwargs: base layer arguments (``name``, ``dtype``, ``trainable``...).

    Call arguments:
        inputs: a tensor of any rank.
        training: True to use (and update) batch statistics.
        mask: optional boolean tensor with the input's shape minus the features axis; masked entries do
            not count in the batch statistics.

    Input shape: any, with a known size on ``axis``. Output shape: the input's shape.

    >>> import highlevel as hl
    >>> layer = hl.layers.BatchNormalization(momentum=0.5)
    >>> x = hl.ops.convert_to_tensor([[0.0, 1.0], [2.0, 3.0]])
    >>> y = layer(x, training=True)
    >>> hl.ops.convert_to_numpy(layer.moving_mean).tolist()  # 0 * 0.5 + [1, 2] * 0.5
    [0.5, 1.0]
    >>> [w.path for w in layer.non_trainable_weights]
    ['batch_normalization/moving_mean', 'batch_normalization/moving_variance']
    """

    def __init__(
        self,
        axis=-1,
        momentum=0.99,
        epsilon=1e-3,
        center=True,
        scale=True,
        beta_initializer="zeros",
        gamma_initializer="ones",
        moving_mean_initializer="zeros",
        moving_variance_initializer="ones",
        beta_regularizer=None,
        gamma_regularizer=None,
        beta_constraint=None,
        gamma_constraint=None,
        renorm=False,
        renorm_clipping=None,
        renorm_momentum=0.99,
        synchronized=False,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.axis = check_axis_arg(axis, "BatchNormalization", allow_list=False)
        self.momentum = _check_float(momentum, "momentum", 0.0, 1.0)
        self.epsilon = _check_float(epsilon, "epsilon", 0.0)
        self.center = bool(center)
        self.scale = bool(scale)
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.synchronized = bool(synchronized)
        self.renorm = bool(renorm)
        self.renorm_momentum = _check_float(renorm_momentum, "renorm_momentum", 0.0, 1.0)
        self.renorm_clipping = self._check_renorm_clipping(renorm_clipping) if self.renorm else renorm_clipping
        self.supports_masking = True
        self.gamma = None
        self.beta = None
        self.moving_mean = None
        self.moving_variance = None

    @staticmethod
    def _check_renorm_clipping(clipping):
        clipping = dict(clipping or {})
        unknown = set(clipping) - {"rmax", "rmin", "dmax"}
        if unknown:
            raise ValueError(
                f"Received invalid keys for `renorm_clipping` argument: {sorted(unknown)}. Supported "
                "keys: ['rmax', 'rmin', 'dmax']."
            )
        rmax, rmin, dmax = clipping.get("rmax"), clipping.get("rmin"), clipping.get("dmax")
        if rmax is not None and rmin is not None and rmax < rmin:
            raise ValueError(f"`renorm_clipping`: rmax must be >= rmin. Received: rmax={rmax}, rmin={rmin}.")
        if dmax is not None and dmax < 0:
            raise ValueError(f"`renorm_clipping`: dmax must be non-negative. Received: dmax={dmax}.")
        return clipping

    def build(self, input_shape):
        ndim = len(input_shape)
        (axis,) = resolve_axes(self.axis, ndim, f"layer '{self.name}'", input_shape)
        dim = input_shape[axis]
        if dim is None:
            raise ValueError(
                f"Layer '{self.name}' needs the size of axis {self.axis} of its input to create its weights, but "
                f"received input_shape={tuple(input_shape)}."
            )
        shape = (dim,)
        # Every weight is read in float32 (the statistics are computed in float32), never autocast.
        if self.scale:
            self.gamma = self.add_weight(
                shape=shape,
                initializer=self.gamma_initializer,
                regularizer=self.gamma_regularizer,
                constraint=self.gamma_constraint,
                name="gamma",
                autocast=False,
            )
        if self.center:
            self.beta = self.add_weight(
                shape=shape,
                initializer=self.beta_initializer,
                regularizer=self.beta_regularizer,
                constraint=self.beta_constraint,
                name="beta",
                autocast=False,
            )
        self.moving_mean = self.add_weight(
            shape=shape, initializer=self.moving_mean_initializer, trainable=False, name="moving_mean", autocast=False
        )
        self.moving_variance = self.add_weight(
            shape=shape,
            initializer=self.moving_variance_initializer,
            trainable=False,
            name="moving_variance",
            autocast=False,
        )
        if self.renorm:

            def stddev_init(shape, dtype=None):
                return ops.sqrt(self.moving_variance_initializer(shape, dtype=dtype))

            self.moving_stddev = self.add_weight(
                shape=shape, initializer=stddev_init, trainable=False, name="moving_stddev", autocast=False
            )
            self.renorm_mean = self.add_weight(
                shape=shape,
                initializer=self.moving_mean_initializer,
                trainable=False,
                name="renorm_mean",
                autocast=False,
            )
            self.renorm_stddev = self.add_weight(
                shape=shape, initializer=stddev_init, trainable=False, name="renorm_stddev", autocast=False
            )
        self.input_spec = InputSpec(ndim=ndim, axes={self.axis: dim})
        self._axis = axis
        self._reduction_axes = tuple(d for d in range(ndim) if d != axis)
        self.built = True

    # ----------------------------------------------------------------- helpers
    def _masked_moments(self, x, mask):
        if ops.ndim(mask) != ops.ndim(x) - 1:
            raise ValueError(
                f"Layer '{self.name}': the mask should have one dimension less than the inputs. Received: "
                f"mask.shape={tuple(ops.shape(mask))}, inputs.shape={tuple(ops.shape(x))}"
            )
        keep = ops.broadcast_to(ops.expand_dims(ops.cast(mask, "bool"), -1), ops.shape(x))
        weights = ops.sum(ops.cast(keep, ops.dtype(x)), axis=self._reduction_axes, keepdims=True)
        denominator = ops.add(weights, _MASK_EPSILON)
        mean = ops.divide(ops.sum(ops.where(keep, x, 0.0), axis=self._reduction_axes, keepdims=True), denominator)
        squared = ops.square(ops.where(keep, ops.subtract(x, mean), 0.0))
        variance = ops.divide(ops.sum(squared, axis=self._reduction_axes, keepdims=True), denominator)
        return ops.squeeze(mean, self._reduction_axes), ops.squeeze(variance, self._reduction_axes)

    def _update(self, variable, value, momentum):
        old = ops.cast(variable, ops.dtype(value))
        variable.assign(ops.add(ops.multiply(old, momentum), ops.multiply(value, 1.0 - momentum)))

    def _renorm_correction(self, mean, variance, dtype):
        """Batch renormalization: the (r, d) correction and the update of the renorm statistics."""
        stddev = ops.sqrt(ops.add(variance, self.epsilon))
        renorm_mean = ops.cast(self.renorm_mean, dtype)
        renorm_stddev = ops.maximum(ops.cast(self.renorm_stddev, dtype), self.epsilon**0.5)
        r = ops.divide(stddev, renorm_stddev)
        d = ops.divide(ops.subtract(mean, renorm_mean), renorm_stddev)
        clip = self.renorm_clipping
        if clip.get("rmin") is not None:
            r = ops.maximum(r, float(clip["rmin"]))
        if clip.get("rmax") is not None:
            r = ops.minimum(r, float(clip["rmax"]))
        if clip.get("dmax") is not None:
            d = ops.clip(d, -float(clip["dmax"]), float(clip["dmax"]))
        self._update(self.renorm_mean, mean, self.renorm_momentum)
        self._update(self.renorm_stddev, stddev, self.renorm_momentum)
        self._update(self.moving_mean, mean, self.momentum)
        old_stddev = ops.cast(self.moving_stddev, dtype)
        new_stddev = ops.add(ops.multiply(old_stddev, self.momentum), ops.multiply(stddev, 1.0 - self.momentum))
        self.moving_stddev.assign(new_stddev)
        self.moving_variance.assign(ops.relu(ops.subtract(ops.square(new_stddev), self.epsilon)))
        return ops.stop_gradient(r), ops.stop_gradient(d)

    # -------------------------------------------------------------------- call
    def call(self, inputs, training=None, mask=None):
        dtype = compute_float_dtype(ops.dtype(inputs))
        x = ops.cast(inputs, dtype)
        gamma = ops.cast(self.gamma, dtype) if self.gamma is not None else None
        beta = ops.cast(self.beta, dtype) if self.beta is not None else None
        # As in Keras 3, a frozen layer (trainable=False) always runs in inference mode.
        if training and self.trainable and mask is None and not self.renorm:
            # The statistics, the normalization and (on the engines that have one) the gradient in fused kernels.
            outputs, mean, variance = ops.fused_batch_norm(x, gamma, beta, self._axis, self.epsilon)
            self._update(self.moving_mean, ops.stop_gradient(mean), self.momentum)
            self._update(self.moving_variance, ops.stop_gradient(variance), self.momentum)
            return ops.cast(outputs, self.compute_dtype)
        if training and self.trainable:
            if mask is None:
                mean, variance = ops.moments(x, axes=self._reduction_axes)
            else:
                mean, variance = self._masked_moments(x, mask)
            if self.renorm:
                r, d = self._renorm_correction(mean, variance, dtype)
                # (x_hat * r + d) * gamma + beta == x_hat * (r * gamma) + (d * gamma + beta)
                new_beta = ops.multiply(d, gamma) if gamma is not None else d
                beta = ops.add(new_beta, beta) if beta is not None else new_beta
                gamma = ops.multiply(r, gamma) if gamma is not None else r
            else:
                self._update(self.moving_mean, mean, self.momentum)
                self._update(self.moving_variance, variance, self.momentum)
        else:
            mean = ops.cast(self.moving_mean, dtype)
            variance = ops.cast(self.moving_variance, dtype)
        # One op, so that an engine with an inference batch-norm kernel runs it (TensorFlow folds it into the
        # convolution before it); elsewhere it is the multiply-add of ``x * inv + (beta - mean * inv)``.
        outputs = ops.batch_normalization(x, mean, variance, self._axis, offset=beta, scale=gamma, epsilon=self.epsilon)
        return ops.cast(outputs, self.compute_dtype)

    def compute_output_spec(self, inputs, *args, **kwargs):
        # Never trace call symbolically: in training mode it would assign to the moving statistics.
        return KerasTensor(tuple(inputs.shape), self.compute_dtype)

    def compute_output_shape(self, input_shape):
        resolve_axes(self.axis, len(input_shape), f"layer '{self.name}'", input_shape)
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "axis": self.axis,
                "momentum": self.momentum,
                "epsilon": self.epsilon,
                "center": self.center,
                "scale": self.scale,
                "beta_initializer": initializers.serialize(self.beta_initializer),
                "gamma_initializer": initializers.serialize(self.gamma_initializer),
                "moving_mean_initializer": initializers.serialize(self.moving_mean_initializer),
                "moving_variance_initializer": initializers.serialize(self.moving_variance_initializer),
                "beta_regularizer": regularizers.serialize(self.beta_regularizer),
                "gamma_regularizer": regularizers.serialize(self.gamma_regularizer),
                "beta_constraint": constraints.serialize(self.beta_constraint),
                "gamma_constraint": constraints.serialize(self.gamma_constraint),
                "synchronized": self.synchronized,
                "renorm": self.renorm,
                "renorm_clipping": self.renorm_clipping,
                "renorm_momentum": self.renorm_momentum,
            }
        )
        return config
