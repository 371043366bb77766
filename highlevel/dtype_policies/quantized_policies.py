"""Dtype policies of quantized layers (``keras.dtype_policies.QuantizedDTypePolicy`` and its kinds).

A quantized policy is named ``"<mode>_from_<source>"``: the layer stores its kernel quantized by ``mode``
(``"int8"``, ``"int4"``, ``"float8"``, ``"gptq/4/128"``, ...) and otherwise computes as the float policy
``source`` (``"float32"``, ``"mixed_bfloat16"``, ...) does. The name is what a saved layer's config records,
so loading rebuilds the quantized layer.

>>> policy = policy_from_name("int4/64_from_mixed_bfloat16")
>>> type(policy).__name__, policy.quantization_mode, policy.block_size, policy.compute_dtype
('Int4DTypePolicy', 'int4', 64, 'bfloat16')
"""

from highlevel.backends.contract import dtypes as _dtypes
from highlevel.mixed_precision.policy import DTypePolicy, dtype_policy
from highlevel.quantizers.quantization_config import QUANTIZATION_MODES


class QuantizedDTypePolicy(DTypePolicy):
    """The policy of a layer quantized to int8 or int4 (per channel): the mode plus the float policy it
    computes with.

    Args:
        mode: the quantization mode, one of ``"int8"``, ``"float8"``, ``"int4"``, ``"gptq"``, ``"awq"``.
        source_name: the float policy the layer computes with (``"float32"``, ``"mixed_bfloat16"``, ...); None
            for the global policy's name.

    Raises:
        ValueError: for an unknown mode, an unknown source, or int8 with a float16 compute dtype (whose range is
            too narrow for int8 matmul results).

    >>> policy = QuantizedDTypePolicy("int8", "mixed_bfloat16")
    >>> policy.name, policy.quantization_mode, policy.variable_dtype
    ('int8_from_mixed_bfloat16', 'int8', 'float32')
    """

    def __init__(self, mode, source_name=None):
        if source_name is None:
            source_name = dtype_policy().name
        super().__init__(source_name)
        _check_mode(mode, self.compute_dtype)
        self._source_name = source_name
        self._quantization_mode = mode
        self._name = f"{mode}_from_{source_name}"

    @property
    def quantization_mode(self):
        """The quantization mode (``"int8"``, ``"int4"``, ...)."""
        return self._quantization_mode

    @property
    def source_name(self):
        """The name of the float policy the layer computes with."""
        return self._source_name

    def get_config(self):
        """The constructor arguments.

        Returns:
            ``{"mode": ..., "source_name": ...}``.

        >>> QuantizedDTypePolicy("int8", "float32").get_config()
        {'mode': 'int8', 'source_name': 'float32'}
        """
        return {"mode": self._quantization_mode, "source_name": self._source_name}

    def __eq__(self, other):
        return type(other) is type(self) and other.get_config() == self.get_config()

    def __hash__(self):
        return hash((type(self).__name__, self._name))


def _check_mode(mode, compute_dtype):
    if mode not in QUANTIZATION_MODES:
        raise ValueError(f"Invalid quantization mode {mode!r}; expected one of {QUANTIZATION_MODES}.")
    if mode == "int8" and compute_dtype == "float16":
        raise ValueError(
            "Quantization mode 'int8' does not work well with compute_dtype 'float16' (the rescaled int8 matmul "
            "overflows it); use a float32 or bfloat16 source such as 'int8_from_mixed_bfloat16'."
        )


class QuantizedFloat8DTypePolicy(QuantizedDTypePolicy):
    """The policy of a layer trained in float8: its inputs, kernel and gradients pass through float8 with scales
    from a history of recent absolute maxima.

    Args:
        mode: ``"float8"``.
        source_name: the float policy the layer computes with; None for the global one.
        amax_history_length: how many recent absolute maxima the scales are computed from.

    Raises:
        TypeError: if ``amax_history_length`` is not an integer.
        ValueError: for an invalid mode or source.

    >>> QuantizedFloat8DTypePolicy("float8", "float32", amax_history_length=16).get_config()
    {'mode': 'float8', 'source_name': 'float32', 'amax_history_length': 16}
    """

    #: The history length when none is given.
    default_amax_history_length = 1024

    def __init__(self, mode, source_name=None, amax_history_length=1024):
        super().__init__(mode=mode, source_name=source_name)
        if isinstance(amax_history_length, bool) or not isinstance(amax_history_length, int):
            raise TypeError(
                "amax_history_length must be an integer (such as 1024); received "
                f"{amax_history_length!r} of type {type(amax_history_length).__name__}."
            )
        self._amax_history_length = amax_history_length

    @property
    def amax_history_length(self):
        """How many recent absolute maxima the float8 scales are computed from."""
        return self._amax_history_length

    def get_config(self):
        """The constructor arguments.

        Returns:
            ``{"mode", "source_name", "amax_history_length"}``.

        >>> QuantizedFloat8DTypePolicy("float8", "float32").get_config()["amax_history_length"]
        1024
        """
        return {**super().get_config(), "amax_history_length": self._amax_history_length}


def _split_mode(mode, kind, parts_expected, example):
    parts = mode.split("/") if isinstance(mode, str) else []
    if len(parts) != parts_expected or parts[0] != kind:
        raise ValueError(
            f"Invalid mode {mode!r} for a {kind} dtype policy: expected {example} (such as "
            f"'{kind}/{'/'.join(['4', '128'][-(parts_expected - 1) :])}')."
        )
    try:
        return [int(p) for p in parts[1:]]
    except ValueError:
        raise ValueError(f"Invalid mode {mode!r}: the numbers in {example} must be integers.") from None


def _check_group(value, what, mode):
    if value < -1 or value == 0:
        raise ValueError(
            f"Invalid {what} {value} in mode {mode!r}: use -1 (one group per output channel) or a positive integer."
        )


class Int4DTypePolicy(QuantizedDTypePolicy):
    """The policy of a layer quantized to int4 by groups of rows (sub-channel), which records the group size.

    Args:
        mode: ``"int4/<block_size>"``: ``block_size`` rows per scale group, or -1 for one scale per output
            channel.
        source_name: the float policy the layer computes with; None for the global one.

    Raises:
        ValueError: for a mode not of that form or a block size that is neither -1 nor positive.

    >>> policy = Int4DTypePolicy("int4/128", "float32")
    >>> policy.name, policy.block_size, policy.get_config()["mode"]
    ('int4/128_from_float32', 128, 'int4/128')
    """

    def __init__(self, mode, source_name=None):
        (block_size,) = _split_mode(mode, "int4", 2, "'int4/<block_size>'")
        _check_group(block_size, "block_size", mode)
        super().__init__(mode="int4", source_name=source_name)
        self.mode = "int4"
        self.block_size = block_size
        self._name = f"{mode}_from_{self._source_name}"

    def get_config(self):
        """The constructor arguments, the mode with its block size.

        Returns:
            ``{"mode": "int4/<block_size>", "source_name": ...}``.

        >>> Int4DTypePolicy("int4/-1", "float32").get_config()
        {'mode': 'int4/-1', 'source_name': 'float32'}
        """
        return {**super().get_config(), "mode": f"int4/{self.block_size}"}


class GPTQDTypePolicy(QuantizedDTypePolicy):
    """The policy of a layer quantized with GPTQ, which records the bit width and group size.

    Args:
        mode: ``"gptq/<weight_bits>/<group_size>"``: 2, 3, 4 or 8 bits; -1 or a positive group size.
        source_name: the float policy the layer computes with; None for the global one.

    Raises:
        ValueError: for a mode not of that form, an unsupported bit width or an invalid group size.

    >>> policy = GPTQDTypePolicy("gptq/4/128", "float32")
    >>> policy.name, policy.weight_bits, policy.group_size
    ('gptq/4/128_from_float32', 4, 128)
    """

    def __init__(self, mode, source_name=None):
        weight_bits, group_size = _split_mode(mode, "gptq", 3, "'gptq/<weight_bits>/<group_size>'")
        if weight_bits not in (2, 3, 4, 8):
            raise ValueError(f"Invalid weight_bits {weight_bits} in mode {mode!r}: GPTQ supports 2, 3, 4 and 8.")
        _check_group(group_size, "group_size", mode)
        super().__init__(mode="gptq", source_name=source_name)
        self.mode = "gptq"
        self.weight_bits = weight_bits
        self.group_size = group_size
        self._name = f"{mode}_from_{self._source_name}"

    def get_config(self):
        """The constructor arguments, the mode with its bit width and group size.

        Returns:
            ``{"mode": "gptq/<weight_bits>/<group_size>", "source_name": ...}``.

        >>> GPTQDTypePolicy("gptq/8/-1", "float32").get_config()["mode"]
        'gptq/8/-1'
        """
        return {**super().get_config(), "mode": f"gptq/{self.weight_bits}/{self.group_size}"}


class AWQDTypePolicy(QuantizedDTypePolicy):
    """The policy of a layer quantized with AWQ, which records the bit width (4) and group size.

    Args:
        mode: ``"awq/4/<group_size>"``: AWQ supports 4 bits only; -1 or a positive group size.
        source_name: the float policy the layer computes with; None for the global one.

    Raises:
        ValueError: for a mode not of that form, a bit width other than 4 or an invalid group size.

    >>> AWQDTypePolicy("awq/4/-1", "float32").group_size
    -1
    """

    def __init__(self, mode, source_name=None):
        weight_bits, group_size = _split_mode(mode, "awq", 3, "'awq/<weight_bits>/<group_size>'")
        if weight_bits != 4:
            raise ValueError(f"Invalid weight_bits {weight_bits} in mode {mode!r}: AWQ supports 4 bits only.")
        _check_group(group_size, "group_size", mode)
        super().__init__(mode="awq", source_name=source_name)
        self.mode = "awq"
        self.weight_bits = weight_bits
        self.group_size = group_size
        self._name = f"{mode}_from_{self._source_name}"

    def get_config(self):
        """The constructor arguments, the mode with its bit width and group size.

        Returns:
            ``{"mode": "awq/4/<group_size>", "source_name": ...}``.

        >>> AWQDTypePolicy("awq/4/64", "float32").get_config()["mode"]
        'awq/4/64'
        """
        return {**super().get_config(), "mode": f"awq/{self.weight_bits}/{self.group_size}"}


def is_quantized_name(name):
    """Whether a policy name names a quantized policy (``"<mode>_from_<source>"``, ``<mode>`` a quantization
    mode, or a malformed name starting with a mode); the plain dtype names ``"int8"`` and friends are not."""
    if not isinstance(name, str) or not name.startswith(QUANTIZATION_MODES):
        return False
    try:
        _dtypes.standardize_dtype(name)
    except (TypeError, ValueError):
        return True
    return False


def policy_from_name(name):
    """The quantized policy a name such as ``"int8_from_float32"`` or ``"gptq/4/128_from_bfloat16"`` stands for.

    Args:
        name: ``"<mode>_from_<source>"``.

    Returns:
        A :class:`QuantizedDTypePolicy` (int8, int4), :class:`Int4DTypePolicy` (``"int4/<block_size>"``),
        :class:`QuantizedFloat8DTypePolicy`, :class:`GPTQDTypePolicy` or :class:`AWQDTypePolicy`.

    Raises:
        ValueError: if the name is not ``"<mode>_from_<source>"`` with a known mode and source.

    >>> policy_from_name("float8_from_mixed_bfloat16").amax_history_length
    1024
    """
    parts = name.split("_from_") if isinstance(name, str) else []
    if len(parts) != 2 or not parts[0].startswith(QUANTIZATION_MODES):
        raise ValueError(
            f"Cannot read {name!r} as a quantized dtype policy: expected '<mode>_from_<source>' such as "
            f"'int8_from_float32' or 'int4/128_from_mixed_bfloat16', with a mode starting with one of "
            f"{QUANTIZATION_MODES}."
        )
    mode, source = parts
    kind = mode.split("/")[0]
    if kind == "int4" and "/" in mode:
        return Int4DTypePolicy(mode, source)
    if kind == "gptq":
        return GPTQDTypePolicy(mode, source)
    if kind == "awq":
        return AWQDTypePolicy(mode, source)
    if kind == "float8":
        return QuantizedFloat8DTypePolicy(mode, source)
    return QuantizedDTypePolicy(mode, source)
