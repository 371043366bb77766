"""Core layers: Dense, EinsumDense, Activation, Embedding, ReversibleEmbedding, Lambda, Identity, Masking, Wrapper,
JaxLayer, FlaxLayer, TFSMLayer, TorchModuleWrapper."""

from .activation import Activation
from .dense import Dense
from .einsum_dense import EinsumDense
from .embedding import Embedding
from .identity import Identity
from .jax_layer import FlaxLayer, JaxLayer
from .lambda_layer import Lambda
from .masking import Masking
from .reversible_embedding import ReversibleEmbedding
from .tfsm_layer import TFSMLayer
from .torch_module_wrapper import TorchModuleWrapper
from .wrapper import Wrapper

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
    "ReversibleEmbedding",
    "TFSMLayer",
    "TorchModuleWrapper",
    "Wrapper",
]
