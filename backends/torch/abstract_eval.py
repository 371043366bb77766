"""PyTorch's abstract evaluation: the function runs on small zero tensors with autograd off (no graph is kept).

>>> from highlevel.backends import registry
>>> from highlevel.backends.contract import ShapeSpec
>>> import torch
>>> registry.get("torch").abstract_call(lambda x: torch.sum(x, dim=-1), (ShapeSpec((None, 4), "float32"),), {})
ShapeSpec(shape=(None,), dtype='float32')
"""

import torch

from highlevel.backends.contract.abstract_eval import AbstractEvalContract


class TorchAbstractEvalMixin:
    def abstract_call(self, fn, args, kwargs):
        # Meta tensors would not mix with the layer's weights, which live on a real device; zeros of the trial
        # sizes do, and without autograd they cost no more than one small forward pass.
        with torch.no_grad():
            return AbstractEvalContract.abstract_call(self, fn, args, kwargs)
