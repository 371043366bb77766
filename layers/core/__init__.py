"""Core layers: Dense, EinsumDense, Activation, Embedding, Lambda, Identity, Masking, JaxLayer, FlaxLayer, TFSMLayer,
TorchModuleWrapper."""

from .activation import Activation
from .dense import Dense
from .einsum_dense import EinsumDense
from .embedding import Embedding
from .identity import Identity
from .jax_layer import FlaxLayer, JaxLayer
from .lambda_layer import Lambda
from .masking import Masking
from .tfsm_layer import TFSMLayer
from .torch_module_wrapper import TorchModuleWrapper

__all__ = [
    "Activation",
    "Dense",
    "EinsumDense",
    "Embedding",
    "FlaxLayer",
    "Identity",
    "JaxLayer",
    "Lambda",
    "Masking",
    "TFSMLayer",
    "TorchModuleWrapper",
]
