"""The JAX engine: :class:`JaxBackend` implements the whole backend contract with jax / jax.numpy / lax.

Why 64-bit mode is switched on: float64 and int64 tensors are part of the contract (a numpy float64 array
stays float64, ``cast(x, "int64")`` is int64), and without ``jax_enable_x64`` JAX silently turns them into
float32 / int32. Instantiating the backend therefore runs ``jax.config.update("jax_enable_x64", True)``.
The flip side is that JAX's own defaults become 64-bit (``jnp.asarray(1.0)`` is float64), so this backend
never relies on them: every conversion passes an explicit dtype (Python floats -> floatx, Python ints ->
int32) and mixed operands are promoted by ``contract.dtypes.result_type`` before JAX sees them
(see :mod:`.conversion`). float32 work stays float32.

>>> from highlevel.backends.jax import JaxBackend
>>> b = JaxBackend()
>>> b.dtype(b.multiply(b.convert_to_tensor([1.0, 2.0]), 2.5))
'float32'
"""

import jax

from highlevel.backends.contract import Backend, Capabilities

from . import conversion as cv
from . import pytree as _pytree  # noqa: F401  (Variables become JAX pytrees)
from . import recurrent
from .abstract_eval import JaxAbstractEvalMixin
from .control_flow import ControlFlowOps
from .core import CoreOps, JaxVariableHandle
from .distribution import JaxDistributionMixin
from .export import JaxExportOps
from .linalg import JaxLinalgMixin
from .math_ops import MathOps
from .nn_more import JaxNNMoreOps
from .nn_ops import NNOps
from .numpy_array import NumpyArrayOps
from .numpy_math import NumpyMathOps
from .onnx_export import JaxOnnxExportOps
from .random import JaxRandomOps
from .scatter_segment import ScatterSegmentOps
from .shape_ops import ShapeOps
from .spectral import JaxSpectralMixin
from .training import TrainingOps


class JaxBackend(
    JaxAbstractEvalMixin,
    CoreOps,
    JaxRandomOps,
    MathOps,
    NumpyMathOps,
    ShapeOps,
    NumpyArrayOps,
    NNOps,
    JaxNNMoreOps,
    ControlFlowOps,
    ScatterSegmentOps,
    TrainingOps,
    JaxDistributionMixin,
    JaxLinalgMixin,
    JaxSpectralMixin,
    JaxExportOps,
    JaxOnnxExportOps,
    Backend,
):
    """The ``"jax"`` backend: pure functions over immutable ``jax.Array`` values.

    Training steps run as pure functions under ``jax.jit`` (``capabilities.stateless_step``); variables
    are :class:`~.core.JaxVariableHandle` slots whose array is replaced on assignment.
    """

    name = "jax"
    pip_extra = "jax"
    capabilities = Capabilities(
        supports_float64=True,
        supports_bfloat16=True,
        supports_jit=True,
        stateless_step=True,
        supports_gpu=True,
        distributed=True,
        compiled_step_takes_host_arrays=True,
        fused_recurrence=True,
    )

    def __init__(self):
        # float64/int64 are part of the contract; see the module docstring.
        jax.config.update("jax_enable_x64", True)

    def lstm_sequence(self, inputs, h, c, kernel, recurrent_kernel, bias=None):
        # one scan with the input product hoisted out and a hand-written backward scan (recurrent.py);
        # mixed dtypes, non-float inputs and empty sequences keep the generic loop
        x, h0, c0, w, u = (cv.convert(t) for t in (inputs, h, c, kernel, recurrent_kernel))
        b = None if bias is None else cv.convert(bias)
        parts = (h0, c0, w, u) if b is None else (h0, c0, w, u, b)
        if not cv.is_float(x) or any(t.dtype != x.dtype for t in parts) or x.ndim != 3 or x.shape[1] == 0:
            return super().lstm_sequence(inputs, h, c, kernel, recurrent_kernel, bias)
        units = u.shape[0] if u.ndim == 2 else -1
        expected = {"kernel": (x.shape[2], 4 * units), "recurrent_kernel": (units, 4 * units)}
        expected.update(h=(x.shape[0], units), c=(x.shape[0], units))
        received = {"kernel": w.shape, "recurrent_kernel": u.shape, "h": h0.shape, "c": c0.shape}
        if b is not None:
            expected["bias"], received["bias"] = (4 * units,), b.shape
        received = {k: tuple(v) for k, v in received.items()}
        if units < 0 or received != expected:
            raise ValueError(
                f"lstm_sequence: inputs of shape {tuple(x.shape)} with a recurrent kernel of shape "
                f"{tuple(u.shape)} need the shapes {expected}; received {received}."
            )
        return recurrent.lstm_sequence(x, h0, c0, w, u, b)


__all__ = ["JaxBackend", "JaxVariableHandle"]
