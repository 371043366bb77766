"""Training-mode batch normalization as one recorded op of the native engine, with a hand-written backward.

The contract's generic ``fused_batch_norm`` is about ten ops (moments, rsqrt, scale, shift, two broadcasts),
each a pass over the activations and, in the backward pass, several more. Here the forward pass is the mean,
the centred input ``xc`` (kept: the one saved array), its variance, and ``xc * (inv * scale) + offset`` (two
passes, written over the squares' buffer); a channels-last array is handled as a wide 2-D view (see
:func:`_layout`: per-channel sums are one BLAS matrix-vector product). The backward pass is the classic closed form

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

import math

from .autograd import enable_grad, grad, record
from .tensor import Tensor
from .xp import xp


def _layout(shape, axis, dtype):
    """``(rows, csum, wide)`` for an array of ``shape`` with the channel axis ``axis``.

    ``rows(a)`` is the view the passes run on, ``csum(rows(a))`` the per-channel sums as a (C,) vector and
    ``wide(v)`` a (C,) vector shaped to broadcast against ``rows(a)``. With the channel axis last, ``rows``
    is a 2-D ``(-1, k * C)`` view, about a thousand values wide: a per-channel vector tiled ``k`` times
    broadcasts along long rows (numpy's inner loop over only ``C`` values is several times slower), and a
    per-channel sum is one BLAS matrix-vector product with a vector of ones (~10x faster than ``sum`` over
    the leading axes) folded over the ``k`` tiles.
    """
    nd, c = len(shape), shape[axis]
    count = math.prod(shape) // c
    if axis == nd - 1:
        k = math.gcd(count, max(1, 1024 // c))
        ones = xp.ones(count // k, dtype=dtype)
        return (
            lambda a: a.reshape(-1, k * c),
            lambda a2: (ones @ a2).reshape(k, c).sum(axis=0),
            lambda v: xp.tile(v, k),
        )
    axes = tuple(d for d in range(nd) if d != axis)
    bshape = tuple(c if d == axis else 1 for d in range(nd))
    return (lambda a: a, lambda a: a.sum(axis=axes), lambda v: v.reshape(bshape))


def batch_norm(x, scale, offset, axis, epsilon):
    """``(outputs, mean, variance)`` of :meth:`FusedContract.fused_batch_norm` on float32/float64 Tensors of
    one dtype (the caller checks), ``axis`` the channel axis."""
    xd = x.data
    shape = xd.shape
    axis = axis % xd.ndim
    count = xd.size // shape[axis]
    rows, csum, wide = _layout(shape, axis, xd.dtype)
    x2 = rows(xd)
    mean = csum(x2) / count
    xc = x2 - wide(mean)  # the centred input: the one array the backward pass keeps
    y = xp.multiply(xc, xc)  # squares first, then the output in the same buffer
    var = csum(y) / count
    inv = 1.0 / xp.sqrt(var + xd.dtype.type(epsilon))
    a = inv * scale.data.reshape(-1) if scale is not None else inv  # y = xc * (inv * scale) + offset
    xp.multiply(xc, wide(a), out=y)
    if offset is not None:
        y += wide(offset.data.reshape(-1))
    inputs = tuple(t for t in (x, scale, offset) if t is not None)

    def backward(g, out=None):
        if out is not None:  # graph mode: the op-by-op composition, recorded, differentiated again
            return _graph_grads(inputs, (scale is not None, offset is not None), axis, epsilon, g)
        # with xhat = xc * inv: dx = a * (g - sum(g) / n - xhat * sum(g * xhat) / n), a = inv * scale; two
        # reductions serve all three gradients, and one buffer holds g * xc, then the dx terms
        g2 = rows(g)
        gsum = csum(g2)
        buf = xp.multiply(g2, xc)
        gxsum = csum(buf) * inv  # sum(g * xhat)
        grads = [None]
        if x.requires_grad:
            xp.multiply(xc, wide(gxsum * (inv / count)), out=buf)
            buf += wide(gsum / count)
            xp.subtract(g2, buf, out=buf)
            buf *= wide(a)
            grads[0] = buf.reshape(shape)
        if scale is not None:
            grads.append(gxsum.reshape(scale.data.shape) if scale.requires_grad else None)
        if offset is not None:
            grads.append(gsum.reshape(offset.data.shape) if offset.requires_grad else None)
        return tuple(grads)

    out = record(y.reshape(shape), inputs, backward, (), "fused_batch_norm")
    return out, Tensor(mean), Tensor(var)


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
