"""PyTorch's kernels for ops of the ``nn_more`` contract part: ``dot_product_attention`` by
``torch.nn.functional.scaled_dot_product_attention`` (a fused kernel: FlashAttention on CPUs and GPUs that have it),
and ``layer_normalization`` over trailing axes by ``torch.nn.functional.layer_norm``.

The fused attention kernels have no second derivative, so inside a nested differentiation (a gradient of a
gradient, when ``value_and_grad`` runs within another) the contract's generic definition runs instead; so do
half-precision inputs (Keras computes their logits in float32, rounds the probabilities to the inputs' dtype and
only then averages the values: the fused kernel's half-precision path rounds differently) and the logit soft
cap, which the kernel does not have. The conformance suite holds both paths to the same float64 reference.

>>> import numpy as np
>>> from highlevel.backends.torch import TorchBackend
>>> b = TorchBackend()
>>> q = np.ones((1, 2, 1, 4), np.float32)
>>> v = np.arange(2, dtype=np.float32).reshape(1, 2, 1, 1)
>>> b.to_numpy(b.dot_product_attention(q, q, v, is_causal=True)).ravel().tolist()
[0.0, 0.5]
"""

import torch
import torch.nn.functional as F

from highlevel.backends.contract import dtypes
from highlevel.backends.contract.nn_more import NNMoreContract

from . import _convert as cv
from .core import _DIFFERENTIATIONS

_FUSED_DTYPES = ("float32", "float64")


class TorchNNMoreMixin(NNMoreContract):
    """``dot_product_attention`` and ``layer_normalization`` on PyTorch's fused kernels."""

    def layer_normalization(self, x, gamma=None, beta=None, axis=(-1,), epsilon=1e-7, rms_scaling=False):
        # aten's layer norm (the statistics, the normalization and their backward in fused kernels) where the
        # axes are the trailing ones; the generic formula costs a var_mean, five elementwise passes and their
        # gradients (B5: about a quarter of a Transformer step).
        t = cv.convert(x)
        ndim = t.ndim
        axes = tuple(sorted(a % ndim for a in ((axis,) if isinstance(axis, int) else axis))) if ndim else ()
        params = [None if p is None else cv.convert(p) for p in (gamma, beta)]
        shape = tuple(t.shape[a] for a in axes)
        if (
            rms_scaling
            or not axes
            or axes != tuple(range(ndim - len(axes), ndim))
            or cv.dtype_name(t) not in _FUSED_DTYPES
            or any(p is not None and (p.dtype != t.dtype or tuple(p.shape) != shape) for p in params)
        ):
            return super().layer_normalization(x, gamma, beta, axis, epsilon, rms_scaling)
        return F.layer_norm(t, shape, params[0], params[1], float(epsilon))

    def dot_product_attention(
        self,
        query,
        key,
        value,
        bias=None,
        mask=None,
        scale=None,
        is_causal=False,
        flash_attention=None,
        attn_logits_soft_cap=None,
    ):
        q, k, v = cv.convert(query), cv.convert(key), cv.convert(value)
        dt = dtypes.result_type(cv.dtype_name(q), cv.dtype_name(k), cv.dtype_name(v))
        if attn_logits_soft_cap is not None or dt not in _FUSED_DTYPES or _DIFFERENTIATIONS.depth > 1:
            return super().dot_product_attention(
                q,
                k,
                v,
                bias=bias,
                mask=mask,
                scale=scale,
                is_causal=is_causal,
                flash_attention=flash_attention,
                attn_logits_soft_cap=attn_logits_soft_cap,
            )
        torch_dt = cv.to_torch_dtype(dt)
        q, k, v = (t.to(torch_dt) for t in (q, k, v))
        steps, length = q.shape[1], k.shape[1]
        # one additive mask: the bias, and -0.7 * finfo.max where a key is masked (not -inf: a query with every key
        # masked then averages the values, as the generic definition and JAX do, instead of giving NaN)
        additive = None if bias is None else cv.convert(bias).to(torch_dt)
        keep = None if mask is None else cv.convert(mask).to(torch.bool)
        if is_causal:
            causal = torch.ones(steps, length, dtype=torch.bool, device=q.device).tril()
            keep = causal if keep is None else keep & causal
        if keep is not None:
            lowest = torch.tensor(-0.7 * torch.finfo(torch.float32).max, dtype=torch_dt, device=q.device)
            base = torch.zeros((), dtype=torch_dt, device=q.device) if additive is None else additive
            additive = torch.where(keep.to(q.device), base, lowest)
        out = F.scaled_dot_product_attention(
            q.transpose(1, 2),
            k.transpose(1, 2),
            v.transpose(1, 2),
            attn_mask=additive,
            scale=scale,
            enable_gqa=q.shape[2] != k.shape[2],
        )
        return out.transpose(1, 2)
