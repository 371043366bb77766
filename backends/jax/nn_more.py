"""JAX's kernels for ops of the ``nn_more`` contract part: ``dot_product_attention`` by
``jax.nn.dot_product_attention`` (XLA's fused attention; grouped-query attention without repeating the keys).

Keras's definition and JAX's are the same: logits in at least float32, masked logits at ``-0.7 * finfo.max``, the
softmax in float32, the probabilities rounded to the inputs' dtype. JAX's kernel needs values with the head size
of the keys, has no logit soft cap and computes float64 inputs' softmax in float32; those calls run the contract's
generic definition (all in float64 for float64 inputs). The conformance suite holds both to the same float64
reference.

>>> import numpy as np
>>> from highlevel.backends.jax import JaxBackend
>>> b = JaxBackend()
>>> q = np.ones((1, 2, 1, 4), np.float32)
>>> v = np.arange(2, dtype=np.float32).reshape(1, 2, 1, 1).repeat(4, axis=3)
>>> b.to_numpy(b.dot_product_attention(q, q, v, is_causal=True))[0, :, 0, 0].tolist()
[0.0, 0.5]
"""

import jax
import jax.numpy as jnp

from highlevel.backends.contract import dtypes
from highlevel.backends.contract.nn_more import NNMoreContract

from . import conversion as cv

#: JAX's kernel computes the softmax in float32 whatever the inputs: float64 keeps the generic definition
_KERNEL_DTYPES = ("float32", "float16", "bfloat16")


def _four_d(x):
    """``x`` with leading axes of size 1 up to rank 4: JAX's kernel takes 4-D biases and masks only (numpy's
    broadcasting does the same)."""
    return x if x.ndim == 4 else jnp.reshape(x, (1,) * (4 - x.ndim) + x.shape)


class JaxNNMoreOps(NNMoreContract):
    """``dot_product_attention`` on ``jax.nn.dot_product_attention``."""

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
        if attn_logits_soft_cap is not None or dt not in _KERNEL_DTYPES or v.shape[3] != q.shape[3]:
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
        q, k, v = (cv.convert(t, dt) for t in (q, k, v))
        if bias is not None:
            bias = _four_d(cv.convert(bias, dt))
        if mask is not None:
            mask = _four_d(cv.convert(mask, "bool"))
        return jax.nn.dot_product_attention(
            q, k, v, bias=bias, mask=mask, scale=scale, is_causal=is_causal, implementation="xla"
        )
