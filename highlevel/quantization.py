"""The checks before a layer is quantized, shared by every quantizable layer.

A request names a mode (``"int8"``, ``"int4"``, ``"float8"``), a configuration of :mod:`highlevel.quantizers`
(whose ``mode`` it then is), or both, as long as they agree; a mode alone gets its default configuration, as in
Keras (``"int4"`` then means groups of 128 inputs with a zero point each).

>>> from highlevel.quantization import check_quantizable
"""


def resolve(layer, mode, config):
    """The mode and configuration of a ``layer.quantize(mode, config=...)`` call, after checking that the layer
    can be quantized now.

    Args:
        layer: the layer about to be quantized.
        mode: a mode name, or None when ``config`` names it.
        config: a :class:`highlevel.quantizers.QuantizationConfig`, or None for the mode's default.

    Returns:
        ``(mode, config)``.

    Raises:
        ValueError: see :func:`highlevel.quantizers.quantization_config.validate_and_resolve_config` and
            :func:`check_quantizable`.

    >>> import highlevel as hl
    >>> layer = hl.layers.Dense(2)
    >>> layer.build((None, 3))
    >>> resolve(layer, "int4", None)[1].block_size
    128
    """
    from highlevel.quantizers.quantization_config import validate_and_resolve_config

    config = validate_and_resolve_config(mode, config)
    check_quantizable(layer, config.mode)
    return config.mode, config


def check_quantizable(layer, mode):
    """Raises the error of a layer that cannot be quantized to ``mode`` now.

    Args:
        layer: the layer about to be quantized.
        mode: the resolved mode name.

    Raises:
        ValueError: the layer is not built, is quantized already, or computes in float16 and ``mode`` is int8.

    >>> import highlevel as hl
    >>> check_quantizable(hl.layers.Dense(2, name="d"), "int8")
    Traceback (most recent call last):
    ...
    ValueError: Cannot quantize layer 'd' (Dense): it is not built yet. Build it first...
    """
    from highlevel.backends.contract.interop import front_class

    if not layer.built:
        raise ValueError(
            f"Cannot quantize layer '{layer.name}' ({front_class(type(layer)).__name__}): it is not built yet. "
            "Build it first (call it on data, or `layer.build(input_shape)`)."
        )
    if getattr(layer, "_is_quantized", False):
        raise ValueError(
            f"Layer '{layer.name}' is already quantized with dtype_policy='{layer._path_policy().name}'; a layer is "
            f"quantized once. Received: mode={mode!r}. Quantize a fresh copy of the float model instead."
        )
    if mode == "int8" and layer.compute_dtype == "float16":
        raise ValueError(
            f"Quantization mode 'int8' does not work well with compute_dtype='float16' (layer '{layer.name}'). "
            "Rebuild the layer with another dtype policy, e.g. 'mixed_bfloat16' or 'float32', then quantize it."
        )
