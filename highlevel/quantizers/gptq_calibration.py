"""GPTQ over a model: the calibration samples, and the block-by-block pass that measures each Dense layer's input
Hessian and quantizes it (``model.quantize("gptq", config=GPTQConfig(...))``).

The model says how to run it, as in Keras 3: ``config.quantization_layer_structure`` or
``model.get_quantization_layer_structure("gptq")`` is a dict with ``"pre_block_layers"`` (run once on the token
ids, e.g. an embedding) and ``"sequential_blocks"`` (layers or sub-models run one after another). Each block's
Dense layers are quantized from the outputs of the blocks before it, already quantized, so the later layers
correct the earlier ones' error. The Hessians are accumulated on the host in float64 (``ops.convert_to_numpy``
of each captured input).

>>> import numpy as np
>>> calibration_samples([np.arange(10)], None, sequence_length=4, num_samples=2).shape
(2, 1, 4)
"""

import math
import re

import numpy as np

from highlevel import ops


def _tokens(tokenizer, text):
    if tokenizer is None:
        raise ValueError(
            "GPTQConfig: the calibration dataset holds strings but tokenizer=None. Pass a tokenizer (an object "
            "with a `tokenize(text)` method, or a callable text -> token ids), or pass token ids as the dataset."
        )
    tokenize = getattr(tokenizer, "tokenize", tokenizer)
    return np.asarray(ops.convert_to_numpy(tokenize(text))).reshape(-1)


def calibration_samples(dataset, tokenizer, *, sequence_length, num_samples):
    """Windows of ``sequence_length`` token ids cut from the calibration data, evenly spread over it.

    The samples (strings through ``tokenizer``, or token arrays) are joined into one stream, repeated until it
    holds ``num_samples * sequence_length`` tokens; the windows start every
    ``(len - sequence_length + 1) // num_samples`` tokens from the first.

    Args:
        dataset: an iterable of strings or of token-id arrays (any shape; flattened).
        tokenizer: turns a string into token ids (``tokenize(text)`` or a callable); unused for token ids.
        sequence_length: tokens per sample.
        num_samples: samples to cut.

    Returns:
        int32 array ``(num_samples, 1, sequence_length)``.

    Raises:
        TypeError: ``dataset`` is not an iterable of samples.
        ValueError: ``dataset`` is None or empty, or strings come without a tokenizer.

    >>> calibration_samples([[1, 2, 3, 4, 5, 6]], None, sequence_length=3, num_samples=2)[:, 0].tolist()
    [[1, 2, 3], [3, 4, 5]]
    """
    if dataset is None:
        raise ValueError(
            "GPTQ needs calibration data, but GPTQConfig(dataset=None). Pass dataset= a list of strings (with a "
            "tokenizer) or of token-id arrays, e.g. GPTQConfig(dataset=[ids], tokenizer=None)."
        )
    if not hasattr(dataset, "__iter__") or isinstance(dataset, (str, bytes)):
        raise TypeError(
            "GPTQConfig: dataset must be an iterable of samples (a list of strings, a list or array of token "
            f"ids); received {type(dataset).__name__}. Wrap a single text in a list."
        )
    samples = list(dataset)
    if not samples:
        raise ValueError("GPTQConfig: the calibration dataset is empty; pass at least one sample.")
    pieces = [
        _tokens(tokenizer, s) if isinstance(s, str) else np.asarray(ops.convert_to_numpy(s)).reshape(-1)
        for s in samples
    ]
    stream = np.concatenate(pieces).astype("int32")
    needed = num_samples * sequence_length
    if stream.size < needed:
        stream = np.tile(stream, math.ceil(needed / max(1, stream.size)))
    last_start = stream.size - sequence_length
    stride = max(1, (last_start + 1) // num_samples)
    starts = (np.arange(num_samples) * stride) % (last_start + 1)
    windows = np.lib.stride_tricks.sliding_window_view(stream, sequence_length)
    return windows[starts].astype("int32")[:, None, :]


def _selected(layer, filters):
    if filters is None:
        return True
    if isinstance(filters, str):
        return re.search(filters, layer.name) is not None
    if isinstance(filters, (list, tuple)):
        return any(re.search(pattern, layer.name) for pattern in filters)
    return bool(filters(layer))


def gptq_layers(block, filters=None):
    """The layers of ``block`` (itself included) that GPTQ quantizes: leaf layers with a GPTQ form (Dense,
    EinsumDense).

    Args:
        block: a layer or model.
        filters: as for ``Model.quantize``.

    Returns:
        A list of layers.

    >>> import highlevel as hl
    >>> [l.name for l in gptq_layers(hl.Sequential([hl.layers.Dense(2, name="d"), hl.layers.ReLU()]))]
    ['d']
    """
    return [
        layer
        for layer in block._flatten_layers()
        if len(layer._flatten_layers()) == 1 and hasattr(layer, "_gptq_prepare") and _selected(layer, filters)
    ]


class _Hessian:
    """Accumulates ``XᵀX`` (float64) over the captured inputs of one layer, each flattened to ``(-1, features)``."""

    def __init__(self, features):
        self.features = features
        self.gram = np.zeros((features, features), "float64")
        self.count = 0

    def __call__(self, inputs):
        x = np.asarray(ops.convert_to_numpy(inputs), "float64")
        x = x.reshape(-1, self.features)
        self.gram += x.T @ x
        self.count += x.shape[0]

    def value(self):
        """``2·XᵀX / n``."""
        return 2.0 * self.gram / max(1, self.count)


def check_structure(structure, mode="gptq"):
    """Raises the error of a missing or malformed quantization structure.

    Args:
        structure: the dict from the config or the model, or None.
        mode: the quantization mode, for the message.

    Raises:
        ValueError: ``structure`` is None or has no ``"sequential_blocks"``.

    >>> check_structure(None)
    Traceback (most recent call last):
    ...
    ValueError: For mode='gptq', a valid quantization structure must be provided...
    """
    if structure is None:
        raise ValueError(
            f"For mode={mode!r}, a valid quantization structure must be provided, either as "
            "GPTQConfig(quantization_layer_structure=...) (or AWQConfig) or by overriding "
            "`model.get_quantization_layer_structure(mode)`. It is a dict with keys 'pre_block_layers' (layers "
            "run on the token ids first, e.g. [embedding]) and 'sequential_blocks' (the blocks to quantize in "
            "order). Received None."
        )
    if not isinstance(structure, dict) or not structure.get("sequential_blocks"):
        raise ValueError(
            f"The quantization structure for mode={mode!r} must be a dict with a non-empty "
            f"'sequential_blocks' list (and optionally 'pre_block_layers'); received {structure!r}."
        )


def gptq_quantize(config, structure, filters=None):
    """Quantizes the Dense and EinsumDense layers of ``structure``'s blocks with GPTQ, block after block.

    Args:
        config: a :class:`highlevel.quantizers.GPTQConfig` with calibration data.
        structure: ``{"pre_block_layers": [...], "sequential_blocks": [...]}``.
        filters: as for ``Model.quantize``: which layers to quantize.

    Returns:
        None.

    Raises:
        ValueError: no dataset, strings without a tokenizer, or a bad ``structure``.

    >>> import highlevel as hl
    >>> emb, dense = hl.layers.Embedding(10, 4), hl.layers.Dense(3)
    >>> _ = dense(emb(hl.ops.zeros((1, 2), dtype="int32")))
    >>> config = hl.quantizers.GPTQConfig([list(range(10))], None, num_samples=2, sequence_length=4)
    >>> gptq_quantize(config, {"pre_block_layers": [emb], "sequential_blocks": [dense]})
    >>> dense.dtype_policy.name, dense.is_gptq_calibrated
    ('gptq/4/128_from_float32', True)
    """
    from highlevel.quantizers.gptq import gptq_quantize_kernel

    def quantize(layer, hessian, matrix):
        return gptq_quantize_kernel(
            matrix,
            hessian.value(),
            weight_bits=config.weight_bits,
            group_size=config.group_size,
            symmetric=config.symmetric,
            per_channel=config.per_channel,
            activation_order=config.activation_order,
            hessian_damping=config.hessian_damping,
        )

    _calibrate(config, structure, filters, _Hessian, quantize)


class _ActivationMax:
    """The largest absolute value of each input channel over the captured inputs of one layer."""

    def __init__(self, features):
        self.features = features
        self.magnitudes = np.zeros((features,), "float32")

    def __call__(self, inputs):
        x = np.abs(np.asarray(ops.convert_to_numpy(inputs), "float32")).reshape(-1, self.features)
        self.magnitudes = np.maximum(self.magnitudes, x.max(axis=0))


def awq_quantize(config, structure, filters=None):
    """Quantizes the Dense and EinsumDense layers of ``structure``'s blocks with AWQ, block after block.

    Args:
        config: a :class:`highlevel.quantizers.AWQConfig` with calibration data.
        structure: ``{"pre_block_layers": [...], "sequential_blocks": [...]}``.
        filters: as for ``Model.quantize``: which layers to quantize.

    Returns:
        None.

    Raises:
        ValueError: no dataset, strings without a tokenizer, or a bad ``structure``.

    >>> import highlevel as hl
    >>> emb, dense = hl.layers.Embedding(10, 4), hl.layers.Dense(3)
    >>> _ = dense(emb(hl.ops.zeros((1, 2), dtype="int32")))
    >>> config = hl.quantizers.AWQConfig([list(range(10))], None, num_samples=2, sequence_length=4)
    >>> awq_quantize(config, {"pre_block_layers": [emb], "sequential_blocks": [dense]})
    >>> dense.dtype_policy.name, dense.is_awq_calibrated
    ('awq/4/128_from_float32', True)
    """
    from highlevel.quantizers.awq import awq_quantize_kernel

    def quantize(layer, activations, matrix):
        q, scale, zero, awq_scales, g_idx = awq_quantize_kernel(
            matrix, activations.magnitudes, group_size=config.group_size, num_grid_points=config.num_grid_points
        )
        return q, scale, zero, g_idx, awq_scales

    _calibrate(config, structure, filters, _ActivationMax, quantize)


def _calibrate(config, structure, filters, collector, quantize):
    """The block-by-block pass shared by GPTQ and AWQ: ``collector(features)`` gathers each layer's inputs,
    ``quantize(layer, collected, kernel matrix)`` returns the values for ``layer._gptq_assign``."""
    mode = config.mode
    check_structure(structure, mode)
    samples = calibration_samples(
        config.dataset, config.tokenizer, sequence_length=config.sequence_length, num_samples=config.num_samples
    )
    inputs = []
    for sample in samples:
        x = ops.convert_to_tensor(sample, dtype="int32")
        for layer in structure.get("pre_block_layers", []) or []:
            x = layer(x)
        inputs.append(x)
    blocks = structure["sequential_blocks"]
    for index, block in enumerate(blocks):
        # float layers, and layers prepared for this mode but not calibrated yet; those quantized otherwise stay
        targets = [
            layer
            for layer in gptq_layers(block, filters)
            if layer.quantization_mode is None or (layer.quantization_mode == mode and not layer._ptq_calibrated)
        ]
        for layer in targets:
            if layer.quantization_mode is None:
                layer.quantize(mode, config=config)
            layer._gptq_collector = collector(layer._gptq_matrix_shape(layer.kernel.shape)[0])
        try:
            for x in inputs:
                block(x)
        finally:
            collected = [layer._gptq_collector for layer in targets]
            for layer in targets:
                layer._gptq_collector = None
        for layer, stats in zip(targets, collected):
            matrix = ops.convert_to_numpy(layer.kernel).reshape(layer._gptq_matrix_shape(layer.kernel.shape))
            layer._gptq_assign(*quantize(layer, stats, matrix))
        if index < len(blocks) - 1:
            inputs = [block(x) for x in inputs]
