"""Discretization: continuous values to bucket ids, with boundaries given or adapted from quantiles."""

import numpy as np

from highlevel import ops
from highlevel.keras_tensor import KerasTensor
from highlevel.layer import Layer

from ._categorical import batches_of, encode_categorical, encoded_shape, validate_output_mode


def _summarize(values, epsilon):
    """A weighted summary of a batch: about ``1 / epsilon`` evenly spaced order statistics with weights."""
    values = np.sort(np.reshape(values, [-1]))
    step = max(values.size / (1.0 / epsilon), 1)
    points = values[int(step - 1) :: int(step)]
    return np.stack([points, np.ones_like(points) * step])


def _compress(summary, epsilon):
    """Re-samples a summary at cumulative-weight fractions ``epsilon, 2 * epsilon, ..., 1``."""
    if summary.shape[1] * epsilon < 1:
        return summary
    fractions = epsilon + np.arange(0.0, 1.0, epsilon)
    cum = summary[1].cumsum()
    cum_fraction = cum / cum[-1]
    points = np.interp(fractions, cum_fraction, summary[0])
    cum_new = np.interp(fractions, cum_fraction, cum)
    weights = cum_new - np.concatenate((np.array([0]), cum_new[:-1]))
    return np.stack((points, weights)).astype("float32")


def _merge(a, b, epsilon):
    merged = np.concatenate((a, b), axis=1)
    return _compress(np.take(merged, np.argsort(merged[0]), axis=1), epsilon)


class Discretization(Layer):
    """Buckets continuous features by ranges (``keras.layers.Discretization``).

    A value ``x`` goes to bucket ``i`` when ``bin_boundaries[i - 1] <= x < bin_boundaries[i]`` (so there are
    ``len(bin_boundaries) + 1`` buckets). Boundaries are given, or computed by :meth:`adapt` as approximate
    quantiles (the same streaming summary as Keras, so adapted boundaries equal Keras' for the same data).
    Adapted boundaries are kept in :meth:`get_config`, so they survive saving.

    Args:
        bin_boundaries: sorted list of boundaries (None to adapt).
        num_bins: number of buckets to learn with :meth:`adapt` (exclusive with ``bin_boundaries``).
        epsilon: error tolerance of the quantile summary (default 0.01).
        output_mode: ``"int"`` (bucket ids, int32), ``"one_hot"``, ``"multi_hot"`` or ``"count"``.
        sparse: must be False (not supported).
        **kwargs: base layer arguments (``name``, ``dtype``).

    Input shape: any. Output shape: the input's for ``"int"``, else ``(..., num_buckets)``.

    Raises:
        ValueError: if ``sparse=True``; if ``num_bins`` is negative or not an int; if both or neither of ``num_bins``
            and ``bin_boundaries`` are set; or if ``bin_boundaries`` is not sorted.

    >>> import highlevel as hl
    >>> import numpy as np
    >>> layer = hl.layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
    >>> hl.ops.convert_to_numpy(layer(np.array([[-1.5, 1.0, 3.4, 0.5]]))).tolist()
    [[0, 2, 3, 1]]
    """

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if sparse:
            raise ValueError("`sparse=True` is not supported by highlevel's Discretization. Received: sparse=True")
        validate_output_mode(output_mode, ("int", "one_hot", "multi_hot", "count"), "Discretization")
        if num_bins is not None and (isinstance(num_bins, bool) or not isinstance(num_bins, int) or num_bins < 0):
            raise ValueError(
                f"`num_bins` must be an integer greater than or equal to 0. Received: `num_bins={num_bins!r}`"
            )
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError(
                f"Both `num_bins` and `bin_boundaries` should not be set. Received: "
                f"`num_bins={num_bins}` and `bin_boundaries={bin_boundaries}`"
            )
        if num_bins is None and bin_boundaries is None:
            raise ValueError("You need to set either `num_bins` or `bin_boundaries`.")
        if bin_boundaries is not None:
            bin_boundaries = [float(b) for b in np.asarray(bin_boundaries, dtype="float64").reshape(-1)]
            if any(b > a for a, b in zip(bin_boundaries[1:], bin_boundaries[:-1])):
                raise ValueError(
                    f"`bin_boundaries` must be sorted in increasing order. Received: bin_boundaries={bin_boundaries}"
                )
        self.bin_boundaries = bin_boundaries
        self.num_bins = num_bins
        self.epsilon = float(epsilon)
        self.output_mode = output_mode
        self.sparse = False
        self.summary = None if bin_boundaries else np.array([[], []], dtype="float32")
        self.built = True

    @property
    def output_dtype(self):
        return "int32" if self.output_mode == "int" else self.compute_dtype

    def adapt(self, data, steps=None):
        """Computes ``num_bins`` quantile buckets of ``data`` (array, tensor, or iterable of batches).

        Args:
            data: the samples, or an iterable of batches (a batch ``(x, y)`` contributes ``x``).
            steps: at most this many batches of an iterable (None: all).
        """
        if self.num_bins is None:
            raise ValueError(
                "Cannot adapt a Discretization layer that has been initialized with "
                "`bin_boundaries`, use `num_bins` instead."
            )
        self.summary = np.array([[], []], dtype="float32")
        for batch in batches_of(data, steps):
            batch = np.asarray(batch).astype("float32")
            self.summary = _merge(_summarize(batch, self.epsilon), self.summary, self.epsilon)
        if self.summary.shape[1] == 0:
            raise ValueError("Discretization.adapt() received no samples.")
        self.bin_boundaries = _compress(self.summary, 1.0 / self.num_bins)[0, :-1].tolist()

    def _depth(self):
        return len(self.bin_boundaries) + 1 if self.bin_boundaries is not None else self.num_bins

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError(
                "You need to either pass the `bin_boundaries` argument at construction time or call "
                "`adapt(dataset)` before you can start using the `Discretization` layer."
            )
        x = inputs
        if ops.dtype(x) not in ("float32", "float64"):
            x = ops.cast(x, "float32")
        if self.bin_boundaries:
            bounds = ops.convert_to_tensor(np.asarray(self.bin_boundaries, dtype="float32"), dtype=ops.dtype(x))
            # The bucket is the number of boundaries <= x (numpy.digitize with right=False).
            indices = ops.sum(ops.cast(ops.greater_equal(ops.expand_dims(x, -1), bounds), "int32"), axis=-1)
        else:
            indices = ops.zeros(ops.shape(x), dtype="int32")
        return encode_categorical(indices, self.output_mode, self._depth(), self.output_dtype)

    def compute_output_shape(self, input_shape):
        return encoded_shape(input_shape, self.output_mode, self._depth())

    def compute_output_spec(self, inputs):
        return KerasTensor(self.compute_output_shape(inputs.shape), self.output_dtype)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "bin_boundaries": self.bin_boundaries,
                "num_bins": self.num_bins,
                "epsilon": self.epsilon,
                "output_mode": self.output_mode,
                "sparse": self.sparse,
            }
        )
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if config.get("bin_boundaries") is not None and config.get("num_bins") is not None:
            boundaries = config.pop("bin_boundaries")
            layer = cls(**config)
            layer.bin_boundaries = list(boundaries)  # adapted boundaries of a num_bins layer
            return layer
        return cls(**config)
