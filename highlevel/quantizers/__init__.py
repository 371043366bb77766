"""``highlevel.quantizers``: the quantizers, quantization configs and low-level quantization functions
behind ``Layer.quantize`` / ``Model.quantize`` (``keras.quantizers``).

Integer modes store int8 values (int4 packed two per byte) in the engine's own integer dtypes, each with the
float scale that maps them back; float8 training is emulated on float32 values (see
:func:`quantize_and_dequantize`).

>>> import highlevel as hl
>>> q, scale = hl.quantizers.abs_max_quantize(hl.ops.convert_to_tensor([[0.5, -2.0]]), axis=-1)
>>> hl.ops.convert_to_numpy(q).tolist()
[[32, -127]]
"""

from .abs_max import AbsMaxQuantizer, Quantizer, abs_max_quantize, abs_max_quantize_grouped_with_zero_point
from .calibrated_configs import AWQConfig, GPTQConfig
from .fake_quant import fake_quant_with_min_max_vars
from .float8 import compute_float8_amax_history, compute_float8_scale, quantize_and_dequantize
from .int4_packing import pack_int4, unpack_int4
from .quantization_config import (
    QUANTIZATION_MODES,
    Float8QuantizationConfig,
    Int4QuantizationConfig,
    Int8QuantizationConfig,
    QuantizationConfig,
    validate_and_resolve_config,
)
from .serialization import ALL_OBJECTS, deserialize, get, serialize

__all__ = [
    "AWQConfig",
    "AbsMaxQuantizer",
    "Float8QuantizationConfig",
    "GPTQConfig",
    "Int4QuantizationConfig",
    "Int8QuantizationConfig",
    "QuantizationConfig",
    "Quantizer",
    "abs_max_quantize",
    "abs_max_quantize_grouped_with_zero_point",
    "compute_float8_amax_history",
    "compute_float8_scale",
    "deserialize",
    "fake_quant_with_min_max_vars",
    "get",
    "pack_int4",
    "quantize_and_dequantize",
    "serialize",
    "unpack_int4",
]
