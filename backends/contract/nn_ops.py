"""The backend contract, part 3: neural-network ops behind ``highlevel.ops`` (``keras.ops.nn`` names).

Images are channels_last by default (``data_format=None`` means ``"channels_last"``). Convolution kernels
are laid out as Keras does: ``conv`` (*spatial, in_channels // groups, out_channels), ``depthwise_conv``
(*spatial, in_channels, multiplier), ``conv_transpose`` (*spatial, out_channels, in_channels). ``strides``,
``dilation_rate`` and ``pool_size`` take an int or a tuple; ``padding`` is ``"valid"`` or ``"same"``
(as TensorFlow pads: the extra row or column goes after). ``average_pool`` with ``"same"`` padding averages
over the real (unpadded) entries only.
"""

import abc


class NNContract(abc.ABC):
    """Activations, softmax, convolution, pooling and moments."""

    @abc.abstractmethod
    def relu(self, x):
        """max(x, 0); gradient 0 at 0."""

    @abc.abstractmethod
    def relu6(self, x):
        """min(max(x, 0), 6)."""

    @abc.abstractmethod
    def sigmoid(self, x):
        """1 / (1 + exp(-x)), stable for large |x|."""

    @abc.abstractmethod
    def softplus(self, x):
        """log(1 + exp(x)), stable for large |x|."""

    @abc.abstractmethod
    def softsign(self, x):
        """x / (1 + |x|)."""

    @abc.abstractmethod
    def silu(self, x):
        """x * sigmoid(x) (swish)."""

    @abc.abstractmethod
    def gelu(self, x, approximate=True):
        """Gaussian error linear unit; the tanh approximation when ``approximate``."""

    @abc.abstractmethod
    def elu(self, x, alpha=1.0):
        """x if x > 0 else alpha * (exp(x) - 1)."""

    @abc.abstractmethod
    def selu(self, x):
        """scale * elu(x, alpha) with the self-normalising constants."""

    @abc.abstractmethod
    def leaky_relu(self, x, negative_slope=0.2):
        """x if x >= 0 else negative_slope * x."""

    @abc.abstractmethod
    def hard_sigmoid(self, x):
        """clip(x / 6 + 0.5, 0, 1) (Keras 3's definition)."""

    @abc.abstractmethod
    def softmax(self, x, axis=-1):
        """exp(x) / sum(exp(x)) along ``axis``, finite for inputs of +-1e4."""

    @abc.abstractmethod
    def log_softmax(self, x, axis=-1):
        """x - logsumexp(x) along ``axis``, finite for inputs of +-1e4."""

    @abc.abstractmethod
    def conv(self, inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
        """N-D convolution (1, 2 or 3 spatial dims); groups = in_channels // kernel.shape[-2]."""

    @abc.abstractmethod
    def depthwise_conv(self, inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
        """Depthwise convolution: each input channel convolved with its own ``multiplier`` filters."""

    @abc.abstractmethod
    def conv_transpose(self, inputs, kernel, strides, padding="valid", output_padding=None, data_format=None, dilation_rate=1):
        """Transposed convolution (the gradient of ``conv`` with respect to its input), output sized as Keras does."""

    @abc.abstractmethod
    def max_pool(self, inputs, pool_size, strides=None, padding="valid", data_format=None):
        """Max pooling over 1, 2 or 3 spatial dims; ``strides`` defaults to ``pool_size``."""

    @abc.abstractmethod
    def average_pool(self, inputs, pool_size, strides=None, padding="valid", data_format=None):
        """Average pooling; ``"same"`` padding averages over real entries only."""

    @abc.abstractmethod
    def moments(self, x, axes, keepdims=False):
        """``(mean, variance)`` over ``axes``."""
