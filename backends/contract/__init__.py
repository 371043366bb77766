"""The backend contract: the one class every engine implements.

A backend is a subclass of :class:`Backend` that implements every abstract method of its parts —
:class:`CoreContract` (tensors, variables, devices, autodiff, random), :class:`NumpyContract` (the
numpy-like ops), :class:`NNContract` (activations, convolution, pooling), :class:`ControlFlowContract`
(``scan``, the compiled loop) and the primitives of :class:`NumpyMathContract` (bitwise ops, shifts, ``view``,
``erfc``, ``erfinv``) — and may override the generic definitions of :class:`NumpyGenericContract` and
:class:`NumpyMathContract` (ops written on the others: ``ptp``, ``hypot``, ``gcd``, ``nextafter``, ...), the generic
numpy-like ops), :class:`NNContract` (activations, convolution, pooling) and :class:`ControlFlowContract`
(``scan``, the compiled loop) — and may override the generic definitions of the rest of ``keras.ops.nn``
(:class:`NNMoreContract`), the generic
training hooks of :class:`TrainingContract` (gradients w.r.t. variables, compiling a step: eager engines can
use the step recorder of ``replay.py``), the generic fused kernels of :class:`FusedContract` (a dense layer,
``divide_no_nan``, Adam's update and learning rate, sparse softmax cross-entropy) and the single-device defaults
of :class:`DistributionContract`; :class:`LinalgContract` (decompositions, ``jvp``) and :class:`SpectralContract`
(complex numbers, Fourier transforms) add their primitives and the generic ops built on them, as does
:class:`RandomContract` (gamma and binomial draws; beta and categorical are generic); :class:`DataPipelineContract`
says which tensors belong to an engine's data pipeline (``tf.data``) and runs host code there;
:class:`AbstractEvalContract` finds the shapes a function of tensors returns (a layer's framework code met while a
model is built), generically on zeros, or by the engine's own abstract evaluation. ``highlevel.ops``
is a thin front over these methods. A third-party engine registers its subclass under the entry-point group
``highlevel.backends``.
(``scan`` and ``custom_gradient``; the other loops and conditionals are generic) and
:class:`ScatterSegmentContract` (``segment_reduce``; scatters and segment reductions are generic) — and may
override the generic training hooks of :class:`TrainingContract` (gradients w.r.t. variables, compiling a step:
eager engines can use the step recorder of ``replay.py``), the generic fused kernels of :class:`FusedContract` (a
dense layer, ``divide_no_nan``, Adam's update and learning rate, sparse softmax cross-entropy) and the
single-device defaults of :class:`DistributionContract`. ``highlevel.ops`` is a thin front over these methods. A
third-party engine registers its subclass under the entry-point group ``highlevel.backends``.

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
