"""Normalization: shifts and scales features to zero mean and unit variance, statistics set or adapted."""

import itertools

import numpy as np

from highlevel import ops
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._running_moments import RunningMoments

# Keras' backend.epsilon(): the smallest standard deviation divided by.
_EPSILON = 1e-7
_INT32_MAX = 2**31 - 1


def _first_of(batch):
    """The features of a batch: ``x`` of an ``(x, y)`` or ``(x, y, sample_weight)`` tuple."""
    return batch[0] if isinstance(batch, tuple) else batch


def _host_array(x):
    """``x`` (numpy array, tensor of any engine, Variable, nested list) as a float64 numpy array."""
    if isinstance(x, np.ndarray):
        return x.astype("float64", copy=False)
    if ops.is_tensor(x):
        return np.asarray(ops.convert_to_numpy(x), dtype="float64")
    if hasattr(x, "detach"):  # a tensor of another engine that tracks gradients
        x = x.detach()
    if hasattr(x, "cpu"):
        x = x.cpu()
    return np.asarray(x, dtype="float64")


class Normalization(Layer):
    """Normalizes continuous features: ``(inputs - mean) / sqrt(variance)`` (``keras.layers.Normalization``).

    The mean and variance are either given (``mean=``, ``variance=``) or computed from data with
    :meth:`adapt` before training; adapted statistics live in non-trainable weights (``mean``,
    ``variance``, ``count``) so they are saved and loaded with the model. With ``invert=True`` the layer
    undoes the normalization: ``mean + inputs * sqrt(variance)``.

    Args:
        axis: int, tuple of ints or None: the axes that keep separate statistics (default the last,
            i.e. one mean per feature); statistics are taken over all the other axes. None means one
            mean and variance over everything.
        mean: optional mean (a float or an array broadcastable to the kept axes); requires ``variance``.
        variance: optional variance, same shape as ``mean``.
        invert: apply the inverse transformation (de-normalize).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: any, with known sizes on the kept axes. Output shape: the input's shape.

    Raises:
        TypeError: if ``axis`` is not an int, a tuple of ints or None.
        ValueError: if only one of ``mean`` and ``variance`` is given, their shapes differ or do not fit ``axis``, or
            ``variance`` has negative entries.

    >>> import highlevel as hl
    >>> import numpy as np
    >>> layer = hl.layers.Normalization()
    >>> layer.adapt(np.array([[1.0, 10.0], [3.0, 30.0]]))
    >>> layer.get_weights()[0].tolist(), layer.get_weights()[1].tolist()  # mean, variance
    ([2.0, 20.0], [1.0, 100.0])
    >>> hl.ops.convert_to_numpy(layer(np.array([[2.0, 40.0]]))).tolist()
    [[0.0, 2.0]]
    """

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        if axis is None:
            axis = ()
        elif isinstance(axis, (int, np.integer)) and not isinstance(axis, bool):
            axis = (int(axis),)
        elif isinstance(axis, (list, tuple)) and all(
            isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in axis
        ):
            axis = tuple(int(a) for a in axis)
        else:
            raise TypeError(
                f"Invalid value for argument `axis` of Normalization: expected an int, a tuple of ints "
                f"or None. Received: axis={axis!r}"
            )
        self.axis = axis
        if (mean is None) != (variance is None):
            raise ValueError(
                "When setting values directly, both `mean` and `variance` must be set. Received: "
                f"mean={mean!r} and variance={variance!r}"
            )
        if mean is not None:
            mean_arr, var_arr = np.asarray(mean, dtype="float64"), np.asarray(variance, dtype="float64")
            if mean_arr.shape != var_arr.shape:
                raise ValueError(
                    "When setting values directly, `mean` and `variance` must have the same shape. "
                    f"Received: mean shape {mean_arr.shape} and variance shape {var_arr.shape}"
                )
            if mean_arr.ndim > len(self.axis):
                raise ValueError(
                    f"The rank of `mean` must be less than or equal to the number of axes "
                    f"({len(self.axis)}). Received: mean shape {mean_arr.shape} for axis {self.axis}"
                )
            if np.any(var_arr < 0):
                raise ValueError(f"`variance` must be non-negative. Received: variance={variance!r}")
        self.input_mean = mean
        self.input_variance = variance
        self.invert = bool(invert)
        self.supports_masking = True
        self._build_input_shape = None

    # ------------------------------------------------------------------- build
    def build(self, input_shape):
        input_shape = tuple(input_shape)
        ndim = len(input_shape)
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError(
                f"All `axis` values must be in the range [-ndim, ndim). Received inputs with "
                f"ndim={ndim} (shape {input_shape}), while axis={self.axis}"
            )
        self._build_input_shape = input_shape
        self._keep_axis = tuple(sorted(a % ndim for a in self.axis))
        for d in self._keep_axis:
            if input_shape[d] is None:
                raise ValueError(
                    f"All `axis` values to be kept must have a known size. Received axis={self.axis}, "
                    f"inputs.shape={input_shape}, with unknown size at index {d}"
                )
        self._reduce_axis = tuple(d for d in range(ndim) if d not in self._keep_axis)
        self._broadcast_shape = tuple(input_shape[d] if d in self._keep_axis else 1 for d in range(ndim))
        self._mean_and_var_shape = tuple(input_shape[d] for d in self._keep_axis)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(
                shape=self._mean_and_var_shape, initializer="zeros", trainable=False, name="mean"
            )
            self.adapt_variance = self.add_weight(
                shape=self._mean_and_var_shape, initializer="ones", trainable=False, name="variance"
            )
            self.count = self.add_weight(shape=(), dtype="int32", initializer="zeros", trainable=False, name="count")
        else:
            self._fixed_mean = self._broadcast_given(self.input_mean)
            self._fixed_variance = self._broadcast_given(self.input_variance)
        self.built = True

    def _broadcast_given(self, value):
        """A given mean/variance as a float64 array of the broadcast shape (its axes align with the last
        kept axes, as in Keras)."""
        value = np.asarray(value, dtype="float64")
        expanded = [1] * len(self._broadcast_shape)
        for i in range(1, value.ndim + 1):
            expanded[self._keep_axis[-i]] = value.shape[-i]
        try:
            return np.broadcast_to(value.reshape(expanded), self._broadcast_shape)
        except ValueError:
            raise ValueError(
                f"The given mean/variance of shape {value.shape} cannot be broadcast to the kept axes "
                f"{self._keep_axis} of inputs of shape {self._build_input_shape}."
            ) from None

    # ------------------------------------------------------------------- adapt
    def _batches(self, data, batch_size):
        """``(first_batch_shape, iterator of host batches)`` for any supported ``data``."""
        if isinstance(data, (list, tuple)) and len(data) == 0:
            data = iter(())  # reported below as an empty iterable
        if isinstance(data, (np.ndarray, list)) and not (
            isinstance(data, list) and data and (hasattr(data[0], "shape") or isinstance(data[0], tuple))
        ):
            array = _host_array(data)
        elif ops.is_tensor(data) or (
            hasattr(data, "shape") and hasattr(data, "dtype") and not hasattr(data, "__next__")
        ):
            array = _host_array(data)
        elif isinstance(data, dict):
            raise TypeError(
                "Normalization.adapt() received a dict; pass the feature array (or an iterable of "
                "feature batches) to normalize."
            )
        elif hasattr(data, "__iter__"):
            iterator = iter(data)
            first = next(iterator, None)
            if first is None:
                raise ValueError(
                    "adapt() received an empty iterable (no batches). Pass a non-empty array or an "
                    "iterable of batches, e.g. layer.adapt([x]) or layer.adapt(list_of_batches)."
                )
            first = _host_array(_first_of(first))
            rest = (_host_array(_first_of(b)) for b in iterator)
            return first.shape, itertools.chain([first], rest)
        else:
            raise TypeError(
                f"Normalization.adapt() does not support data of type {type(data).__name__}. Pass a "
                "numpy array, a tensor, or an iterable of batches (list, generator, tf.data.Dataset)."
            )
        if array.ndim == 0 or array.size == 0:
            raise ValueError(f"Normalization.adapt() needs samples; received data of shape {array.shape}.")
        if batch_size is None:
            return array.shape, iter([array])
        return array.shape, (array[i : i + batch_size] for i in range(0, array.shape[0], batch_size))

    def adapt(self, data, batch_size=None, steps=None):
        """Computes the mean and variance of ``data`` and stores them in the layer's weights.

        The statistics are accumulated batch by batch on the host in float64 with an exact parallel
        update, so the result does not depend on how the data is split.

        Args:
            data: a numpy array or tensor of samples, or an iterable of batches (a list of arrays, a
                generator, a ``tf.data.Dataset``...); a batch that is an ``(x, y, ...)`` tuple contributes ``x``.
            batch_size: for array data, the number of samples per batch (bounds the host memory used);
                None processes the array at once.
            steps: the number of batches to use at most (None: all of them).
        """
        if self.input_mean is not None:
            raise ValueError(
                f"Layer '{self.name}' was given `mean` and `variance` in its constructor; adapt() "
                "would ignore them. Create the layer without mean/variance to adapt it to data."
            )
        for name, value in (("batch_size", batch_size), ("steps", steps)):
            if value is not None and (
                not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value <= 0
            ):
                raise ValueError(
                    f"Invalid value for argument `{name}` of adapt(): expected a positive int or "
                    f"None. Received: {name}={value!r}"
                )
        shape, batches = self._batches(data, batch_size)
        if not self.built:
            # Later calls may have another batch size: leave axis 0 unknown unless it keeps statistics.
            keep = {a % len(shape) for a in self.axis if -len(shape) <= a < len(shape)}
            self._maybe_build(_ShapeOnly(tuple(d if (i in keep or i > 0) else None for i, d in enumerate(shape))))
        moments = RunningMoments(self._reduce_axis)
        for i, batch in enumerate(batches):
            if steps is not None and i >= steps:
                break
            self._check_batch(batch.shape)
            moments.update(batch)
        if moments.count == 0:
            raise ValueError("Normalization.adapt() received no samples (every batch was empty).")
        self.adapt_mean.assign(moments.mean.astype(self.adapt_mean.dtype))
        self.adapt_variance.assign(moments.variance.astype(self.adapt_variance.dtype))
        self.count.assign(np.asarray(min(moments.count, _INT32_MAX), dtype="int32"))

    def _check_batch(self, shape):
        expected = self._build_input_shape
        ok = len(shape) == len(expected) and all(shape[d] == expected[d] for d in self._keep_axis)
        if not ok:
            raise ValueError(
                f"Layer '{self.name}' was built with input_shape={expected}, but adapt() received a "
                f"batch of incompatible shape {tuple(shape)}: the kept axes {self._keep_axis} must "
                "match."
            )

    # -------------------------------------------------------------------- call
    def _statistics(self, dtype):
        if self.input_mean is not None:
            return (
                ops.convert_to_tensor(np.asarray(self._fixed_mean), dtype=dtype),
                ops.convert_to_tensor(np.asarray(self._fixed_variance), dtype=dtype),
            )
        mean = ops.reshape(ops.cast(self.adapt_mean, dtype), self._broadcast_shape)
        variance = ops.reshape(ops.cast(self.adapt_variance, dtype), self._broadcast_shape)
        return mean, variance

    def call(self, inputs):
        dtype = self.compute_dtype
        x = ops.cast(inputs, dtype)
        mean, variance = self._statistics(dtype)
        stddev = ops.maximum(ops.sqrt(variance), _EPSILON)
        if self.invert:
            return ops.add(mean, ops.multiply(x, stddev))
        return ops.divide(ops.subtract(x, mean), stddev)

    @property
    def mean(self):
        """The mean in use, broadcastable to the inputs (None before the layer is built)."""
        if not self.built:
            return None
        return self._statistics(self.compute_dtype)[0]

    @property
    def variance(self):
        """The variance in use, broadcastable to the inputs (None before the layer is built)."""
        if not self.built:
            return None
        return self._statistics(self.compute_dtype)[1]

    def compute_output_spec(self, inputs, *args, **kwargs):
        return KerasTensor(tuple(inputs.shape), self.compute_dtype)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "axis": self.axis,
                "invert": self.invert,
                "mean": None if self.input_mean is None else np.asarray(self.input_mean).tolist(),
                "variance": None if self.input_variance is None else np.asarray(self.input_variance).tolist(),
            }
        )
        return config


class _ShapeOnly:
    """Stands for an input of a known shape when building from ``adapt``'s data."""

    def __init__(self, shape):
        self.shape = shape
