"""Configs of the post-training quantizers that calibrate on data: GPTQ and AWQ (``keras.quantizers.GPTQConfig``,
``keras.quantizers.AWQConfig``).

Both carry the calibration ``dataset`` and ``tokenizer`` (used once, never saved: their configs store None)
and the bit width and group size that end up in the layers' dtype policy names (``"gptq/4/128"``).

>>> config = GPTQConfig(dataset=None, tokenizer=None, weight_bits=8, group_size=-1)
>>> config.mode, config.dtype_policy_string()
('gptq', 'gptq/8/-1')
>>> AWQConfig(None, None).dtype_policy_string()
'awq/4/128'
"""

from .quantization_config import QuantizationConfig


def _positive(value, name, owner):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{owner}: {name} must be a positive integer; received {name}={value!r}.")


def _group_size(value, owner):
    if isinstance(value, bool) or not isinstance(value, int) or value < -1 or value == 0:
        raise ValueError(
            f"{owner}: group_size must be -1 (one group per output channel) or a positive integer; received "
            f"group_size={value!r}."
        )


class GPTQConfig(QuantizationConfig):
    """Settings of GPTQ, which quantizes weights column by column and corrects the error left by each with the
    inverse Hessian of the layer's inputs, measured on calibration data.

    Args:
        dataset: the calibration data: an iterable of strings (tokenized with ``tokenizer``) or of token arrays.
        tokenizer: a callable that turns the dataset's strings into token ids.
        weight_bits: bits per weight, one of 2, 3, 4 and 8.
        num_samples: calibration samples to use.
        per_channel: one scale per output channel (True) or per tensor.
        sequence_length: tokens per calibration sample.
        hessian_damping: the fraction of the Hessian's mean diagonal added to it before inverting, in [0, 1].
        group_size: weights per scale group; -1 for one group per channel.
        symmetric: symmetric (True) or asymmetric quantization.
        activation_order: quantize the columns in order of decreasing activation magnitude.
        quantization_layer_structure: a dict with ``"pre_block_layers"`` and ``"sequential_blocks"``, the
            layers to run before the blocks and the blocks quantized one after another; None: the model's
            ``get_quantization_layer_structure`` says.

    Raises:
        ValueError: for an unsupported bit width, a non-positive count or length, a damping outside [0, 1], or
            an invalid group size.

    >>> GPTQConfig(None, None, hessian_damping=0.5).get_config()["hessian_damping"]
    0.5
    """

    def __init__(
        self,
        dataset,
        tokenizer,
        *,
        weight_bits=4,
        num_samples=128,
        per_channel=True,
        sequence_length=512,
        hessian_damping=0.01,
        group_size=128,
        symmetric=False,
        activation_order=False,
        quantization_layer_structure=None,
    ):
        super().__init__()
        if weight_bits not in (2, 3, 4, 8) or isinstance(weight_bits, bool):
            raise ValueError(f"GPTQConfig: weight_bits must be one of 2, 3, 4 and 8; received {weight_bits!r}.")
        _positive(num_samples, "num_samples", "GPTQConfig")
        _positive(sequence_length, "sequence_length", "GPTQConfig")
        if not 0 <= hessian_damping <= 1:
            raise ValueError(f"GPTQConfig: hessian_damping must be in [0, 1]; received {hessian_damping!r}.")
        _group_size(group_size, "GPTQConfig")
        self.dataset = dataset
        self.tokenizer = tokenizer
        self.weight_bits = weight_bits
        self.num_samples = num_samples
        self.per_channel = per_channel
        self.sequence_length = sequence_length
        self.hessian_damping = hessian_damping
        self.group_size = group_size
        self.symmetric = symmetric
        self.activation_order = activation_order
        self.quantization_layer_structure = quantization_layer_structure

    @property
    def mode(self):
        """``"gptq"``."""
        return "gptq"

    def dtype_policy_string(self):
        """The mode part of the dtype policy name of a layer quantized with this config.

        Returns:
            ``"gptq/<weight_bits>/<group_size>"``.

        >>> GPTQConfig(None, None).dtype_policy_string()
        'gptq/4/128'
        """
        return f"gptq/{self.weight_bits}/{self.group_size}"

    def get_config(self):
        """The settings (``dataset`` and ``tokenizer`` are stored as None: they serve calibration only).

        Returns:
            A dict for :meth:`from_config`.

        >>> GPTQConfig([1, 2], None).get_config()["dataset"] is None
        True
        """
        return {
            "dataset": None,
            "tokenizer": None,
            "weight_bits": self.weight_bits,
            "num_samples": self.num_samples,
            "per_channel": self.per_channel,
            "sequence_length": self.sequence_length,
            "hessian_damping": self.hessian_damping,
            "group_size": self.group_size,
            "symmetric": self.symmetric,
            "activation_order": self.activation_order,
            "quantization_layer_structure": self.quantization_layer_structure,
        }

    @classmethod
    def from_config(cls, config):
        """Rebuilds the config from :meth:`get_config`'s dict.

        Args:
            config: the dict.

        Returns:
            A GPTQConfig (without calibration data).

        >>> GPTQConfig.from_config(GPTQConfig(None, None, weight_bits=3).get_config()).weight_bits
        3
        """
        return cls(**config)


class AWQConfig(QuantizationConfig):
    """Settings of AWQ (activation-aware weight quantization), which scales the weight channels that meet large
    activations before quantizing them to 4 bits, the scales found by a grid search on calibration data.

    Args:
        dataset: the calibration data: an iterable of strings (tokenized with ``tokenizer``) or of token arrays.
        tokenizer: a callable that turns the dataset's strings into token ids.
        weight_bits: bits per weight; AWQ supports 4 only.
        num_samples: calibration samples to use.
        sequence_length: tokens per calibration sample.
        group_size: weights per scale group; -1 for one group per channel.
        num_grid_points: points of the grid searched for each layer's scaling exponent.
        quantization_layer_structure: as for :class:`GPTQConfig`.

    Raises:
        ValueError: for a bit width other than 4, a non-positive count, length or grid size, or an invalid
            group size.

    >>> AWQConfig(None, None, group_size=-1).get_config()["group_size"]
    -1
    """

    def __init__(
        self,
        dataset,
        tokenizer,
        *,
        weight_bits=4,
        num_samples=128,
        sequence_length=512,
        group_size=128,
        num_grid_points=20,
        quantization_layer_structure=None,
    ):
        super().__init__()
        if weight_bits != 4 or isinstance(weight_bits, bool):
            raise ValueError(f"AWQConfig: AWQ supports 4-bit weights only; received weight_bits={weight_bits!r}.")
        _positive(num_samples, "num_samples", "AWQConfig")
        _positive(sequence_length, "sequence_length", "AWQConfig")
        _group_size(group_size, "AWQConfig")
        _positive(num_grid_points, "num_grid_points", "AWQConfig")
        self.dataset = dataset
        self.tokenizer = tokenizer
        self.weight_bits = weight_bits
        self.num_samples = num_samples
        self.sequence_length = sequence_length
        self.group_size = group_size
        self.num_grid_points = num_grid_points
        self.quantization_layer_structure = quantization_layer_structure

    @property
    def mode(self):
        """``"awq"``."""
        return "awq"

    def dtype_policy_string(self):
        """The mode part of the dtype policy name of a layer quantized with this config.

        Returns:
            ``"awq/<weight_bits>/<group_size>"``.

        >>> AWQConfig(None, None, group_size=64).dtype_policy_string()
        'awq/4/64'
        """
        return f"awq/{self.weight_bits}/{self.group_size}"

    def get_config(self):
        """The settings (``dataset`` and ``tokenizer`` are stored as None).

        Returns:
            A dict for :meth:`from_config`.

        >>> AWQConfig(None, None).get_config()["num_grid_points"]
        20
        """
        return {
            "dataset": None,
            "tokenizer": None,
            "weight_bits": self.weight_bits,
            "num_samples": self.num_samples,
            "sequence_length": self.sequence_length,
            "group_size": self.group_size,
            "num_grid_points": self.num_grid_points,
            "quantization_layer_structure": self.quantization_layer_structure,
        }

    @classmethod
    def from_config(cls, config):
        """Rebuilds the config from :meth:`get_config`'s dict.

        Args:
            config: the dict.

        Returns:
            An AWQConfig (without calibration data).

        >>> AWQConfig.from_config(AWQConfig(None, None, num_samples=8).get_config()).num_samples
        8
        """
        return cls(**config)
