"""The backend contract, part 3: neural-network ops behind ``highlevel.ops`` (``keras.ops.nn`` names).

Images are channels_last by default (``data_format=None`` means ``"channels_last"``). Convolution kernels
are laid out as Keras does: ``conv`` (*spatial, in_channels // groups, out_channels), ``depthwise_conv``
(*spatial, in_channels, multiplier), ``conv_transpose`` (*spatial, out_channels, in_channels). ``strides``,
``dilation_rate`` and ``pool_size`` take an int or a tuple; ``padding`` is ``"valid"`` or ``"same"``
(as TensorFlow pads: the extra row or column goes after). ``average_pool`` with ``"same"`` padding averages
over the real (unpadded) entries only.
"""

import abc
import math


class NNContract(abc.ABC):
    """Activations, softmax, convolution, pooling and moments.

    Arguments arrive in the front door's canonical form (``highlevel/ops/_args.py``, ``highlevel/ops/nn.py``),
    already checked there: ``data_format`` is ``"channels_last"`` or ``"channels_first"`` (None replaced by
    ``hl.config.image_data_format()``); ``padding`` is ``"valid"`` or ``"same"``; ``strides``, ``dilation_rate``,
    ``pool_size`` are tuples of one positive int per spatial axis; ``inputs`` has rank 3, 4 or 5; softmax's and
    moments' axes are as in :class:`~highlevel.backends.contract.numpy_ops.NumpyContract`. An engine reads them with
    :mod:`highlevel.backends.contract.spatial` and :mod:`highlevel.backends.contract.axes` and words no argument
    error of its own.
    """

    @abc.abstractmethod
    def relu(self, x):
        """max(x, 0); gradient 0 at 0."""

    def relu6(self, x):
        """min(max(x, 0), 6)."""
        x = self.convert_to_tensor(x)
        # where, not minimum: the gradient is 0 at 6 (and relu's is 0 at 0), the convention of every engine.
        return self.where(self.less(x, 6), self.relu(x), self.full((), 6, self.dtype(x)))

    @abc.abstractmethod
    def sigmoid(self, x):
        """1 / (1 + exp(-x)), stable for large |x|."""

    @abc.abstractmethod
    def softplus(self, x):
        """log(1 + exp(x)), stable for large |x|."""

    def softsign(self, x):
        """x / (1 + |x|)."""
        return self.divide(x, self.add(self.abs(x), 1))

    def silu(self, x):
        """x * sigmoid(x) (swish)."""
        return self.multiply(x, self.sigmoid(x))

    def gelu(self, x, approximate=True):
        """Gaussian error linear unit; the tanh approximation when ``approximate``."""
        if approximate:
            inner = self.multiply(
                self.add(x, self.multiply(self.multiply(x, self.multiply(x, x)), 0.044715)), math.sqrt(2.0 / math.pi)
            )
            return self.multiply(self.multiply(x, 0.5), self.add(self.tanh(inner), 1))
        return self.multiply(self.multiply(x, 0.5), self.add(self.erf(self.multiply(x, 1.0 / math.sqrt(2.0))), 1))

    def elu(self, x, alpha=1.0):
        """x if x > 0 else alpha * (exp(x) - 1)."""
        x = self.convert_to_tensor(x)
        positive = self.greater(x, 0)
        # expm1 of the non-positive part only: no overflow (and no inf gradient) from the branch not taken
        safe = self.where(positive, self.zeros((), self.dtype(x)), x)
        return self.where(positive, x, self.multiply(self.expm1(safe), alpha))

    def selu(self, x):
        """scale * elu(x, alpha) with the self-normalising constants."""
        return self.multiply(self.elu(x, alpha=1.6732632423543772), 1.0507009873554805)

    def leaky_relu(self, x, negative_slope=0.2):
        """x if x >= 0 else negative_slope * x."""
        return self.where(self.greater_equal(x, 0), x, self.multiply(x, negative_slope))

    def hard_sigmoid(self, x):
        """clip(x / 6 + 0.5, 0, 1) (Keras 3's definition)."""
        return self.divide(self.relu6(self.add(x, 3.0)), 6.0)

    def softmax(self, x, axis=-1):
        """exp(x) / sum(exp(x)) along ``axis``, finite for inputs of +-1e4."""
        axis = (axis % len(self.shape(x)),) if isinstance(axis, int) else axis
        shifted = self.subtract(x, self.stop_gradient(self.max(x, axis=axis, keepdims=True)))
        e = self.exp(shifted)
        return self.divide(e, self.sum(e, axis=axis, keepdims=True))

    def log_softmax(self, x, axis=-1):
        """x - logsumexp(x) along ``axis``, finite for inputs of +-1e4."""
        # Shifted by the maximum first: subtracting logsumexp (~1e4 for inputs of 1e4) would lose the digits.
        axis = (axis % len(self.shape(x)),) if isinstance(axis, int) else axis
        shifted = self.subtract(x, self.stop_gradient(self.max(x, axis=axis, keepdims=True)))
        return self.subtract(shifted, self.log(self.sum(self.exp(shifted), axis=axis, keepdims=True)))

    @abc.abstractmethod
    def conv(self, inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
        """N-D convolution (1, 2 or 3 spatial dims); groups = in_channels // kernel.shape[-2]."""

    @abc.abstractmethod
    def depthwise_conv(self, inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
        """Depthwise convolution: each input channel convolved with its own ``multiplier`` filters."""

    @abc.abstractmethod
    def conv_transpose(
        self, inputs, kernel, strides, padding="valid", output_padding=None, data_format=None, dilation_rate=1
    ):
        """Transposed convolution (the gradient of ``conv`` with respect to its input), output sized as Keras does."""

    @abc.abstractmethod
    def max_pool(self, inputs, pool_size, strides=None, padding="valid", data_format=None):
        """Max pooling over 1, 2 or 3 spatial dims; ``strides`` defaults to ``pool_size``."""

    @abc.abstractmethod
    def average_pool(self, inputs, pool_size, strides=None, padding="valid", data_format=None):
        """Average pooling; ``"same"`` padding averages over real entries only."""

    def moments(self, x, axes, keepdims=False):
        """``(mean, variance)`` over ``axes``."""
        return self.mean(x, axis=axes, keepdims=keepdims), self.var(x, axis=axes, keepdims=keepdims)
