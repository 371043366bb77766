"""Training-mode batch normalization as one recorded op of the native engine, with a hand-written backward.

The contract's generic ``fused_batch_norm`` is about ten ops (moments, rsqrt, scale, shift, two broadcasts),
each a pass over the activations and, in the backward pass, several more. Here the forward pass is the mean,
the centred input ``xc`` (kept: the one saved array), its variance, and ``xc * (inv * scale) + offset`` (two
passes, written over the squares' buffer); per-channel sums over a channels-last array are one BLAS
matrix-vector product with a vector of ones. The backward pass is the classic closed form

``dx = inv * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat))`` with ``dxhat = g * scale``,

and ``dscale = sum(g * xhat)``, ``doffset = sum(g)`` over every axis but the channel axis: two reductions
serve all three gradients. The batch mean and
variance come back without a gradient (the layer uses them for its moving statistics only). Every array
goes through ``xp``, so the same code runs on CuPy.

>>> import numpy as np
>>> from highlevel.backends.native.tensor import Tensor
>>> y, mean, var = batch_norm(Tensor(np.array([[1.0], [3.0]])), None, None, -1, 0.0)
>>> y.numpy().ravel().tolist(), mean.numpy().tolist(), var.numpy().tolist()
([-1.0, 1.0], [2.0], [1.0])
"""

from .autograd import enable_grad, grad, record
from .tensor import Tensor
from .xp import xp


def _channel_sum(a, axes, ones):
    """Per-channel sums of ``a`` with the reduced axes kept: a matrix-vector product ``ones @ a`` when the
    channel axis is the last (BLAS reads the array once, ~10x faster than ``sum`` over the leading axes)."""
    if ones is not None:
        c = a.shape[-1]
        return (ones @ a.reshape(-1, c)).reshape((1,) * (a.ndim - 1) + (c,))
    return a.sum(axis=axes, keepdims=True)


def batch_norm(x, scale, offset, axis, epsilon):
    """``(outputs, mean, variance)`` of :meth:`FusedContract.fused_batch_norm` on float32/float64 Tensors of
    one dtype (the caller checks), ``axis`` the channel axis."""
    xd = x.data
    nd = xd.ndim
    axis = axis % nd
    axes = tuple(d for d in range(nd) if d != axis)
    count = xd.size // xd.shape[axis]
    ones = xp.ones(count, dtype=xd.dtype) if axis == nd - 1 else None
    mean = _channel_sum(xd, axes, ones) / count
    xc = xd - mean  # the centred input: the one array the backward pass keeps
    y = xp.multiply(xc, xc)  # squares first, then the output in the same buffer
    var = _channel_sum(y, axes, ones) / count
    inv = 1.0 / xp.sqrt(var + xd.dtype.type(epsilon))
    sd = scale.data.reshape(inv.shape) if scale is not None else None
    od = offset.data.reshape(inv.shape) if offset is not None else None
    a = inv * sd if sd is not None else inv  # y = xc * (inv * scale) + offset: two passes
    xp.multiply(xc, a, out=y)
    if od is not None:
        y += od
    inputs = tuple(t for t in (x, scale, offset) if t is not None)

    def backward(g, out=None):
        if out is not None:  # graph mode: the op-by-op composition, recorded, differentiated again
            return _graph_grads(inputs, (scale is not None, offset is not None), axis, epsilon, g)
        # with xhat = xc * inv: dx = a * (g - sum(g) / n - xhat * sum(g * xhat) / n), a = inv * scale; two
        # reductions serve all three gradients, and one buffer holds g * xc, then the dx terms
        gsum = _channel_sum(g, axes, ones)
        buf = xp.multiply(g, xc)
        gxsum = _channel_sum(buf, axes, ones) * inv  # sum(g * xhat)
        grads = [None]
        if x.requires_grad:
            xp.multiply(xc, gxsum * (inv / count), out=buf)
            buf += gsum / count
            xp.subtract(g, buf, out=buf)
            buf *= a
            grads[0] = buf
        if scale is not None:
            grads.append(gxsum.reshape(scale.data.shape) if scale.requires_grad else None)
        if offset is not None:
            grads.append(gsum.reshape(offset.data.shape) if offset.requires_grad else None)
        return tuple(grads)

    out = record(y, inputs, backward, (), "fused_batch_norm")
    return out, Tensor(mean.reshape(-1)), Tensor(var.reshape(-1))


def _graph_grads(inputs, present, axis, epsilon, g):
    """Graph-mode VJP: the gradients of the contract's generic composition, themselves recorded."""
    from highlevel.backends.contract.fused import FusedContract

    from .backend import NativeBackend

    it = iter(inputs)
    x = next(it)
    scale = next(it) if present[0] else None
    offset = next(it) if present[1] else None
    with enable_grad():
        y, _, _ = FusedContract.fused_batch_norm(NativeBackend(), x, scale, offset, axis, epsilon)
    wanted = [t for t in inputs if t.requires_grad]
    got = iter(grad([y], wanted, [g], create_graph=True))
    return tuple(next(got) if t.requires_grad else None for t in inputs)
