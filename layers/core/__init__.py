"""Core layers: Dense, EinsumDense, Activation, Embedding, Lambda, Identity, Masking, TorchModuleWrapper."""

from .activation import Activation
from .dense import Dense
from .einsum_dense import EinsumDense
from .embedding import Embedding
from .identity import Identity
from .lambda_layer import Lambda
from .masking import Masking
from .torch_module_wrapper import TorchModuleWrapper

__all__ = ["Activation", "Dense", "EinsumDense", "Embedding", "Identity", "Lambda", "Masking", "TorchModuleWrapper"]
