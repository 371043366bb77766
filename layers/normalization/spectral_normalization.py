"""SpectralNormalization: keeps a wrapped layer's kernel at spectral norm 1 during training."""

from highlevel import initializers, ops
from highlevel.input_spec import InputSpec
from highlevel.keras_tensor import KerasTensor
from highlevel.layers.core.wrapper import Wrapper


class SpectralNormalization(Wrapper):
    """Spectral normalization of a layer's kernel (``keras.layers.SpectralNormalization``; Miyato et al., 2018).

    In each training call the kernel (reshaped to a matrix with its last axis as columns) is divided by an
    estimate of its largest singular value, obtained by ``power_iterations`` steps of power iteration from the
    vector ``u`` kept between calls (a non-trainable weight); the normalized kernel is written back into the
    wrapped layer, which then runs. At inference the wrapped layer runs on its current kernel. An all-zero
    kernel is left as it is. The wrapped layer needs a ``kernel`` (Dense, Conv...) or ``embeddings``.
    The output takes the input's dtype when that is a float; unlike Keras, token ids (an Embedding's input)
    do not turn the output vectors into integers.

    Args:
        layer: the layer to wrap.
        power_iterations: the number of power-iteration steps per training call, >= 1 (default 1).
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Raises:
        ValueError: if ``power_iterations`` is not an int >= 1 (or ``layer`` is not a Layer).

    >>> import highlevel as hl
    >>> dense = hl.layers.Dense(4)
    >>> layer = hl.layers.SpectralNormalization(dense, power_iterations=20)
    >>> _ = layer(hl.ops.ones((1, 3)), training=True)
    >>> sigma = float(hl.ops.convert_to_numpy(hl.ops.svd(dense.kernel.value, compute_uv=False))[0])
    >>> round(sigma, 3)
    1.0
    """

    def __init__(self, layer, power_iterations=1, **kwargs):
        super().__init__(layer, **kwargs)
        if isinstance(power_iterations, bool) or not isinstance(power_iterations, int) or power_iterations < 1:
            raise ValueError(
                f"`power_iterations` must be an integer >= 1; received power_iterations={power_iterations!r}."
            )
        self.power_iterations = power_iterations

    @property
    def kernel(self):
        """The wrapped layer's kernel (or embeddings): the variable this layer normalizes."""
        for name in ("kernel", "embeddings"):
            value = getattr(self.layer, name, None)
            if value is not None:
                return value
        raise ValueError(
            f"SpectralNormalization needs a layer with a `kernel` or `embeddings` weight; "
            f"{type(self.layer).__name__} '{self.layer.name}' has neither."
        )

    def build(self, input_shape):
        super().build(input_shape)
        self.input_spec = InputSpec(min_ndim=1, axes={-1: input_shape[-1]})
        kernel = self.kernel
        self.vector_u = self.add_weight(
            shape=(1, kernel.shape[-1]),
            initializer=initializers.TruncatedNormal(stddev=0.02),
            trainable=False,
            name="vector_u",
            dtype=kernel.dtype,
        )
        self.built = True

    def normalized_weights(self):
        """``(u, kernel / sigma)``: the power iteration's new ``u`` and the spectrally normalized kernel."""
        kernel = self.kernel
        shape = tuple(kernel.shape)
        w = ops.reshape(kernel.value, (-1, shape[-1]))
        u = self.vector_u.value
        for _ in range(self.power_iterations):
            v = ops.normalize(ops.matmul(u, ops.transpose(w)), axis=None)
            u = ops.normalize(ops.matmul(v, w), axis=None)
        u, v = ops.stop_gradient(u), ops.stop_gradient(v)
        sigma = ops.matmul(ops.matmul(v, w), ops.transpose(u))
        sigma = ops.where(ops.equal(sigma, 0), ops.ones_like(sigma), sigma)  # an all-zero kernel stays as it is
        return ops.cast(u, self.vector_u.dtype), ops.cast(ops.reshape(w / sigma, shape), kernel.dtype)

    def call(self, inputs, training=False):
        if training:
            kernel = self.kernel
            new_u, new_kernel = self.normalized_weights()
            all_zero = ops.all(ops.equal(kernel.value, 0))
            self.vector_u.assign(ops.where(all_zero, self.vector_u.value, new_u))
            kernel.assign(ops.where(all_zero, kernel.value, new_kernel))
        outputs = self.layer(inputs)
        # Keras casts the output to the input's dtype; for token ids (an Embedding) that would truncate the
        # vectors to integers, so only a float input's dtype is taken.
        return ops.cast(outputs, ops.dtype(inputs)) if "float" in ops.dtype(inputs) else outputs

    def compute_output_spec(self, inputs, *args, **kwargs):
        # Never trace call symbolically: in training mode it would assign to the kernel.
        spec = self.layer.compute_output_spec(inputs)
        return KerasTensor(tuple(spec.shape), inputs.dtype if "float" in inputs.dtype else spec.dtype)

    def get_config(self):
        config = super().get_config()
        config["power_iterations"] = self.power_iterations
        return config
