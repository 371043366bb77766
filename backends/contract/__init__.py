"""The backend contract: the one class every engine implements.

A backend is a subclass of :class:`Backend` built from these parts:

- :class:`CoreContract`: tensors, variables, devices, autodiff and random primitives, and the interop hooks
  (:meth:`~CoreContract.interop_base_class`, see ``interop.py``: on PyTorch every layer is also a
  ``torch.nn.Module``, on TensorFlow every variable acts as a resource variable a ``GradientTape`` watches; the
  framework-module hooks behind ``TorchModuleWrapper``, ``JaxLayer`` and ``TFSMLayer``).
- :class:`NumpyContract` (the numpy-like primitives), :class:`NumpyGenericContract` and
  :class:`NumpyMathContract` (ops written on the others: ``ptp``, ``hypot``, ``gcd``, ...; bitwise ops, ``erfinv``
  as primitives), :class:`LinalgContract` (decompositions, ``jvp``), :class:`SpectralContract` (complex numbers,
  Fourier transforms) and :class:`RandomContract` (gamma and binomial draws; beta and categorical are generic).
- :class:`NNContract` (activations, convolution, pooling) and :class:`NNMoreContract` (the rest of
  ``keras.ops.nn``, generic).
- :class:`ControlFlowContract` (``scan`` and ``custom_gradient``; the other loops and conditionals are generic)
  and :class:`ScatterSegmentContract` (``segment_reduce``; scatters and segment reductions are generic).
- :class:`TrainingContract`: gradients with respect to variables and compiling a step (eager engines use the step
  recorder of ``replay.py``); :class:`FusedContract`: fused kernels (a dense layer, ``divide_no_nan``, Adam's
  update, sparse softmax cross-entropy); :class:`DistributionContract`: the single-device defaults.
- :class:`DataPipelineContract`: which tensors belong to an engine's data pipeline (``tf.data``) and running host
  code there; :class:`AbstractEvalContract`: the shapes a function of tensors returns (a layer's framework code
  met while a model is built), generically on zeros, or by the engine's own abstract evaluation
  (``jax.eval_shape``, a traced ``tf.function``); :class:`ExportContract`: serving artifacts in an engine's own
  format (``model.export``).

An engine implements every abstract method and overrides a generic definition only where its own kernel is
faster or more exact. ``highlevel.ops`` is a thin front over these methods. A third-party engine registers its
subclass under the entry-point group ``highlevel.backends``.

>>> from highlevel.backends.contract import Backend
>>> sorted(Backend.__abstractmethods__)[:3]
['abs', 'add', 'all']
"""

from . import dtypes, tree
from .abstract_eval import AbstractEvalContract, ShapeSpec
from .control_flow import ControlFlowContract
from .core import Capabilities, CoreContract
from .data_pipeline import DataPipelineContract
from .distribution import DistributionContract
from .export import ExportContract
from .fused import FusedContract
from .linalg import LinalgContract
from .nn_more import NNMoreContract
from .nn_ops import NNContract
from .numpy_array import NumpyArrayContract
from .numpy_generic import NumpyGenericContract
from .numpy_math import NumpyMathContract
from .numpy_ops import NumpyContract
from .random import RandomContract
from .scatter_segment import ScatterSegmentContract
from .spectral import SpectralContract
from .statistics import StatisticsContract
from .training import TrainingContract
from .variable import StatelessScope, SymbolicScope, Variable


class Backend(
    CoreContract,
    NumpyContract,
    NumpyGenericContract,
    StatisticsContract,
    NumpyArrayContract,
    NumpyMathContract,
    NNContract,
    NNMoreContract,
    ControlFlowContract,
    TrainingContract,
    FusedContract,
    ScatterSegmentContract,
    DistributionContract,
    LinalgContract,
    SpectralContract,
    RandomContract,
    DataPipelineContract,
    AbstractEvalContract,
    ExportContract,
):
    """One engine behind ``highlevel.ops``. See the four parts for the methods."""

    def __repr__(self):
        return f"<highlevel backend {self.name!r}>"


__all__ = [
    "AbstractEvalContract",
    "Backend",
    "Capabilities",
    "ControlFlowContract",
    "CoreContract",
    "DataPipelineContract",
    "DistributionContract",
    "ExportContract",
    "FusedContract",
    "LinalgContract",
    "NNContract",
    "NNMoreContract",
    "NumpyArrayContract",
    "NumpyContract",
    "NumpyGenericContract",
    "NumpyMathContract",
    "RandomContract",
    "ScatterSegmentContract",
    "ShapeSpec",
    "SpectralContract",
    "StatelessScope",
    "StatisticsContract",
    "SymbolicScope",
    "TrainingContract",
    "Variable",
    "dtypes",
    "tree",
]
