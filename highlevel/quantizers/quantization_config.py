"""Quantization configs: which mode ``Layer.quantize`` / ``Model.quantize`` applies and with which quantizers
(``keras.quantizers.QuantizationConfig`` and its int8, int4 and float8 forms).

>>> config = Int4QuantizationConfig(block_size=64)
>>> config.mode, config.block_size, config.activation_quantizer is None
('int4', 64, True)
>>> Int4QuantizationConfig.from_config(config.get_config()).block_size
64
"""

#: The modes a layer can be quantized to (Keras's ``QUANTIZATION_MODES``).
QUANTIZATION_MODES = ("int8", "float8", "int4", "gptq", "awq")


def _serialize_quantizer(quantizer):
    from .serialization import serialize

    return serialize(quantizer)


def _deserialize_quantizer(config):
    from .serialization import deserialize

    return None if config is None else deserialize(config)


def _check_quantizer(quantizer, role, owner):
    from .abs_max import Quantizer

    if quantizer is not None and not isinstance(quantizer, Quantizer):
        raise TypeError(
            f"{owner}: {role} must be a Quantizer (such as hl.quantizers.AbsMaxQuantizer()) or None; received "
            f"{quantizer!r} of type {type(quantizer).__name__}."
        )


class QuantizationConfig:
    """The base class of quantization configs: a mode and the quantizers of weights and activations.

    Subclasses define :attr:`mode`.

    Args:
        weight_quantizer: the :class:`~highlevel.quantizers.Quantizer` for weights; None for the mode's default.
        activation_quantizer: the quantizer for the layer's inputs; None for weight-only quantization.

    Raises:
        TypeError: if a quantizer is neither a Quantizer nor None.

    >>> from highlevel.quantizers import AbsMaxQuantizer
    >>> QuantizationConfig(AbsMaxQuantizer()).weight_quantizer.value_range
    (-127, 127)
    """

    def __init__(self, weight_quantizer=None, activation_quantizer=None):
        _check_quantizer(weight_quantizer, "weight_quantizer", type(self).__name__)
        _check_quantizer(activation_quantizer, "activation_quantizer", type(self).__name__)
        self.weight_quantizer = weight_quantizer
        self.activation_quantizer = activation_quantizer

    @property
    def mode(self):
        """The quantization mode (``"int8"``, ``"int4"``, ...), defined by each subclass.

        Raises:
            NotImplementedError: on this base class, which has no mode.
        """
        raise NotImplementedError(
            "QuantizationConfig has no mode of its own: use Int8QuantizationConfig, Int4QuantizationConfig, "
            "Float8QuantizationConfig, GPTQConfig or AWQConfig."
        )

    def get_config(self):
        """The config as plain values (the quantizers serialized).

        Returns:
            A dict for :meth:`from_config`.

        >>> Int8QuantizationConfig(activation_quantizer=None).get_config()
        {'weight_quantizer': None, 'activation_quantizer': None}
        """
        return {
            "weight_quantizer": _serialize_quantizer(self.weight_quantizer),
            "activation_quantizer": _serialize_quantizer(self.activation_quantizer),
        }

    @classmethod
    def from_config(cls, config):
        """Rebuilds a config from :meth:`get_config`'s dict.

        Args:
            config: the dict.

        Returns:
            A new config of this class.

        >>> Int8QuantizationConfig.from_config(Int8QuantizationConfig().get_config()).mode
        'int8'
        """
        return cls(
            weight_quantizer=_deserialize_quantizer(config.get("weight_quantizer")),
            activation_quantizer=_deserialize_quantizer(config.get("activation_quantizer")),
        )

    @staticmethod
    def weight_quantizer_or_default(config, default):
        """``config``'s weight quantizer, or ``default`` when there is no config or it names none.

        Args:
            config: a QuantizationConfig or None.
            default: the quantizer to use otherwise.

        Returns:
            A quantizer.

        >>> QuantizationConfig.weight_quantizer_or_default(None, "default")
        'default'
        """
        if config is not None and config.weight_quantizer is not None:
            return config.weight_quantizer
        return default

    @staticmethod
    def activation_quantizer_or_default(config, default):
        """``config``'s activation quantizer (None means weight-only), or ``default`` when there is no config.

        Args:
            config: a QuantizationConfig or None.
            default: the quantizer to use without a config.

        Returns:
            A quantizer or None.

        >>> QuantizationConfig.activation_quantizer_or_default(Int4QuantizationConfig(), "default") is None
        True
        """
        if config is not None:
            return config.activation_quantizer
        return default

    def __eq__(self, other):
        return type(other) is type(self) and other.get_config() == self.get_config()

    def __hash__(self):
        return hash(type(self).__name__)

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_config().items() if k not in ("dataset", "tokenizer"))
        return f"{type(self).__name__}({args})"


class Int8QuantizationConfig(QuantizationConfig):
    """Int8 quantization: int8 weights (per output channel) and, by default, int8 activations.

    Args:
        weight_quantizer: a Quantizer with ``output_dtype="int8"``; None for the default
            (:class:`~highlevel.quantizers.AbsMaxQuantizer`).
        activation_quantizer: ``"default"`` (an ``AbsMaxQuantizer()`` over the last axis), a Quantizer, or
            None for weight-only int8.

    Raises:
        ValueError: if ``weight_quantizer`` does not produce int8.

    >>> Int8QuantizationConfig().activation_quantizer.value_range
    (-127, 127)
    >>> Int8QuantizationConfig(activation_quantizer=None).activation_quantizer is None
    True
    """

    def __init__(self, weight_quantizer=None, activation_quantizer="default"):
        from .abs_max import AbsMaxQuantizer

        if isinstance(activation_quantizer, str) and activation_quantizer == "default":
            activation_quantizer = AbsMaxQuantizer()
        super().__init__(weight_quantizer, activation_quantizer)
        if weight_quantizer is not None and weight_quantizer.output_dtype != "int8":
            raise ValueError(
                "Int8QuantizationConfig needs a weight_quantizer with output_dtype='int8'; received "
                f"output_dtype={weight_quantizer.output_dtype!r}."
            )

    @property
    def mode(self):
        """``"int8"``."""
        return "int8"


class Int4QuantizationConfig(QuantizationConfig):
    """Int4 quantization: weights in [-8, 7], two per byte; weight-only by default.

    Args:
        weight_quantizer: a Quantizer with ``value_range=(-8, 7)`` and ``output_dtype="int8"`` (per-channel
            mode only); None for the default.
        activation_quantizer: ``"default"`` (None: weight-only), a Quantizer, or None.
        block_size: rows of the kernel per scale group (sub-channel quantization, with a zero point); None or
            -1 for one scale per output channel.

    Raises:
        ValueError: for a ``block_size`` that is not None, -1 or positive; for custom quantizers together with
            sub-channel quantization; or for a weight quantizer of the wrong range or dtype.

    >>> Int4QuantizationConfig().block_size
    128
    >>> Int4QuantizationConfig(block_size=None).mode
    'int4'
    """

    def __init__(self, weight_quantizer=None, activation_quantizer="default", block_size=128):
        if isinstance(activation_quantizer, str) and activation_quantizer == "default":
            activation_quantizer = None
        super().__init__(weight_quantizer, activation_quantizer)
        if block_size is not None and (
            isinstance(block_size, bool) or not isinstance(block_size, int) or (block_size != -1 and block_size <= 0)
        ):
            raise ValueError(
                "Int4QuantizationConfig: block_size must be None or -1 (one scale per output channel) or a "
                f"positive integer (rows per group); received block_size={block_size!r}."
            )
        self.block_size = block_size
        sub_channel = block_size is not None and block_size > 0
        if sub_channel and (weight_quantizer is not None or self.activation_quantizer is not None):
            raise ValueError(
                "Int4QuantizationConfig: sub-channel quantization (block_size > 0) takes no custom quantizers; "
                f"received block_size={block_size} with a custom quantizer. Pass block_size=None (or -1) for "
                "per-channel quantization, or drop the quantizer arguments."
            )
        if weight_quantizer is not None:
            if tuple(getattr(weight_quantizer, "value_range", ())) != (-8, 7):
                raise ValueError(
                    "Int4QuantizationConfig needs a weight_quantizer with value_range=(-8, 7); received "
                    f"value_range={getattr(weight_quantizer, 'value_range', None)!r}."
                )
            if weight_quantizer.output_dtype != "int8":
                raise ValueError(
                    "Int4QuantizationConfig needs a weight_quantizer with output_dtype='int8' (int4 values are "
                    f"held in int8 before packing); received output_dtype={weight_quantizer.output_dtype!r}."
                )

    @property
    def mode(self):
        """``"int4"``."""
        return "int4"

    def get_config(self):
        """The base config plus ``block_size``.

        Returns:
            A dict for :meth:`from_config`.

        >>> Int4QuantizationConfig(block_size=32).get_config()["block_size"]
        32
        """
        return {**super().get_config(), "block_size": self.block_size}

    @classmethod
    def from_config(cls, config):
        """Rebuilds the config; one saved without ``block_size`` is per-channel.

        Args:
            config: the dict from :meth:`get_config`.

        Returns:
            An Int4QuantizationConfig.

        >>> Int4QuantizationConfig.from_config({"weight_quantizer": None, "activation_quantizer": None}).block_size
        """
        return cls(
            weight_quantizer=_deserialize_quantizer(config.get("weight_quantizer")),
            activation_quantizer=_deserialize_quantizer(config.get("activation_quantizer")),
            block_size=config.get("block_size", None),
        )


class Float8QuantizationConfig(QuantizationConfig):
    """Float8 training: it takes no quantizers (the scales are learned from amax histories); the config only
    selects the mode.

    >>> Float8QuantizationConfig().mode, Float8QuantizationConfig().get_config()
    ('float8', {})
    """

    def __init__(self):
        super().__init__(None, None)

    @property
    def mode(self):
        """``"float8"``."""
        return "float8"

    def get_config(self):
        """An empty dict: there is nothing to configure.

        Returns:
            ``{}``.

        >>> Float8QuantizationConfig().get_config()
        {}
        """
        return {}

    @classmethod
    def from_config(cls, config):
        """Builds the config (``config`` is ignored, it has no entries).

        Args:
            config: the (empty) dict from :meth:`get_config`.

        Returns:
            A Float8QuantizationConfig.

        >>> Float8QuantizationConfig.from_config({}).mode
        'float8'
        """
        return cls()


def validate_and_resolve_config(mode, config):
    """The config that ``quantize(mode, config=...)`` applies, checked against the mode.

    A config given as a string is taken as the mode; no config gives the mode's default one (GPTQ and AWQ need
    an explicit config, their calibration data).

    Args:
        mode: ``"int8"``, ``"int4"``, ``"float8"``, ``"gptq"``, ``"awq"`` or None (the config's mode).
        config: a QuantizationConfig, a mode string, or None.

    Returns:
        A QuantizationConfig whose ``mode`` is ``mode``.

    Raises:
        ValueError: for an unknown mode, a config that is not a QuantizationConfig, a mode that contradicts the
            config, or GPTQ/AWQ without their config.

    >>> validate_and_resolve_config("int4", None).block_size
    128
    >>> validate_and_resolve_config(None, Float8QuantizationConfig()).mode
    'float8'
    """
    if isinstance(config, str):
        mode, config = config, None
    _check_mode(mode)
    if config is None:
        defaults = {"int8": Int8QuantizationConfig, "int4": Int4QuantizationConfig, "float8": Float8QuantizationConfig}
        if mode in defaults:
            return defaults[mode]()
        if mode in ("gptq", "awq"):
            name = "GPTQConfig" if mode == "gptq" else "AWQConfig"
            raise ValueError(
                f"Quantization mode {mode!r} needs calibration data: pass config=hl.quantizers.{name}(dataset, "
                "tokenizer, ...)."
            )
        raise ValueError(f"quantize needs a mode (one of {QUANTIZATION_MODES}) or a config; received neither.")
    if not isinstance(config, QuantizationConfig):
        raise ValueError(
            "config must be a QuantizationConfig (such as hl.quantizers.Int8QuantizationConfig()); received "
            f"{config!r} of type {type(config).__name__}."
        )
    if mode is not None and config.mode != mode:
        raise ValueError(f"Contradictory arguments: mode={mode!r} but config.mode={config.mode!r}.")
    _check_mode(config.mode)
    return config


def _check_mode(mode):
    if mode is not None and mode not in QUANTIZATION_MODES:
        raise ValueError(f"Invalid quantization mode {mode!r}; expected one of {QUANTIZATION_MODES}.")
