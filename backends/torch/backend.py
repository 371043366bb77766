"""The PyTorch engine: every method of the backend contract on torch tensors.

>>> from highlevel.backends.torch import TorchBackend
>>> b = TorchBackend()
>>> b.dtype(b.add(b.convert_to_tensor([1, 2], "int8"), 3))
'int8'
>>> b.to_numpy(b.multiply(b.convert_to_tensor([1.0, 2.0]), 2.0)).tolist()
[2.0, 4.0]
"""

from highlevel.backends.contract import Backend, Capabilities

from .abstract_eval import TorchAbstractEvalMixin
from .control_flow import TorchControlFlowMixin
from .core import TorchCoreMixin
from .distribution import TorchDistributionMixin
from .export import TorchExportOps
from .fused import TorchFusedMixin
from .linalg import TorchLinalgMixin
from .math_ops import TorchMathMixin
from .module_wrapping import TorchModuleWrappingMixin
from .nn_more import TorchNNMoreMixin
from .nn_ops import TorchNNMixin
from .numpy_array import TorchNumpyArrayMixin
from .numpy_math import TorchNumpyMathMixin
from .onnx_export import TorchOnnxExportMixin
from .random import TorchRandomMixin
from .reduction_ops import TorchReductionMixin
from .scatter_segment import TorchScatterSegmentMixin
from .shape_ops import TorchShapeMixin
from .spectral import TorchSpectralMixin
from .training import TorchTrainingMixin


class TorchBackend(
    TorchAbstractEvalMixin,
    TorchCoreMixin,
    TorchRandomMixin,
    TorchMathMixin,
    TorchNumpyMathMixin,
    TorchReductionMixin,
    TorchShapeMixin,
    TorchNumpyArrayMixin,
    TorchNNMixin,
    TorchNNMoreMixin,
    TorchControlFlowMixin,
    TorchScatterSegmentMixin,
    TorchTrainingMixin,
    TorchOnnxExportMixin,
    TorchFusedMixin,
    TorchDistributionMixin,
    TorchLinalgMixin,
    TorchSpectralMixin,
    TorchModuleWrappingMixin,
    TorchExportOps,
    Backend,
):
    """highlevel's PyTorch backend: eager autograd, ``torch.compile`` for ``jit_compile=True``.

    Tensors are ``torch.Tensor``; variables hold a ``torch.nn.Parameter``. Promotion follows the
    contract's table, not torch's (see ``_convert``).
    """

    name = "torch"
    pip_extra = "torch"
    capabilities = Capabilities(
        supports_float64=True,
        supports_bfloat16=True,
        supports_jit=True,
        stateless_step=False,
        supports_gpu=True,
        distributed=True,
        fused_recurrence=True,
        fused_attention=True,
        layouts_set_on_first_use=True,
    )
