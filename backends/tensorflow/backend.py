"""``TensorFlowBackend``: the contract implemented with ``tf.*`` ops.

The op groups live in sibling modules (core, math_ops, reduce_ops, shape_ops, activations, conv); this
class only puts them together and states the engine's name and capabilities. Every op also works inside
``tf.function`` (no ``.numpy()`` calls except in :meth:`to_numpy`).

>>> b = TensorFlowBackend()
>>> b.dtype(b.multiply(b.convert_to_tensor([1, 2]), 2.5))
'float32'
"""

import tensorflow as tf

from highlevel.backends.contract import Backend, Capabilities, Variable

from .abstract_eval import TensorFlowAbstractEvalMixin
from .activations import ActivationOps
from .control_flow import ControlFlowOps
from .conv import ConvOps
from .core import CoreOps
from .data_pipeline import TensorFlowDataPipelineOps
from .distribution import TensorFlowDistributionMixin
from .fused import TensorFlowFusedMixin
from .image_kernels import TensorFlowImageKernelsMixin
from .linalg import TensorFlowLinalgMixin
from .math_ops import MathOps
from .numpy_array import NumpyArrayOps
from .numpy_math import NumpyMathOps
from .onnx_export import OnnxExportOps
from .random import TensorFlowRandomOps
from .reduce_ops import ReduceOps
from .saved_model import SavedModelOps
from .scatter_segment import ScatterSegmentOps
from .shape_ops import ShapeOps
from .sparse_outputs import SparseOutputOps
from .spectral import TensorFlowSpectralMixin
from .training import TrainingOps


def _variable_to_tensor(value, dtype=None, name=None, as_ref=False):
    # `tf_tensor * hl_variable`: TensorFlow converts the right operand itself. Without this it would go
    # through Variable.__array__ — a constant (no gradient) eagerly, an error inside tf.function.
    tensor = value.value
    if dtype is not None and tensor.dtype != dtype:
        tensor = tf.cast(tensor, dtype)
    return tf.convert_to_tensor(tensor)


tf.register_tensor_conversion_function(Variable, _variable_to_tensor)


class TensorFlowBackend(
    TensorFlowImageKernelsMixin,
    TensorFlowAbstractEvalMixin,
    TensorFlowDistributionMixin,
    TensorFlowRandomOps,
    CoreOps,
    MathOps,
    NumpyMathOps,
    ReduceOps,
    ShapeOps,
    NumpyArrayOps,
    ActivationOps,
    ConvOps,
    ControlFlowOps,
    ScatterSegmentOps,
    TrainingOps,
    SavedModelOps,
    OnnxExportOps,
    TensorFlowLinalgMixin,
    TensorFlowSpectralMixin,
    TensorFlowDataPipelineOps,
    SparseOutputOps,
    TensorFlowFusedMixin,
    Backend,
):
    """The TensorFlow engine: ``tf.Variable`` state, ``tf.GradientTape`` gradients, stateless random."""

    name = "tensorflow"
    pip_extra = "tensorflow"
    capabilities = Capabilities(
        supports_float64=True,
        supports_bfloat16=True,
        supports_jit=True,
        stateless_step=False,
        supports_gpu=True,
        distributed=True,
        supports_sparse_outputs=True,
        supports_ragged_outputs=True,
    )
