"""Fused primitives of the native engine: a dense layer and softmax cross-entropy (one graph node each), and
one variable's Adam step (three buffers), which the backend's ``adam_update`` runs per variable.

A define-by-run engine pays its bookkeeping per op (a Tensor, a graph node, a VJP closure, a dtype check):
``relu(x @ kernel + bias)`` costs three nodes and three intermediate arrays, and sparse softmax cross-entropy
written with ``log_softmax``, ``take_along_axis``, ``squeeze`` and ``negative`` costs four nodes plus index
bookkeeping. These fused versions compute the same values with one node each and a hand-written VJP that
reuses the forward buffers (the ReLU is applied in place; the cross-entropy gradient is
``softmax - one_hot``). ``sparse_softmax_cross_entropy`` overrides the contract's generic kernel of that name
(backends/contract/fused.py); ``dense`` is for code that knows it runs on the native engine.

>>> import numpy as np
>>> from highlevel.backends.native.tensor import Tensor
>>> x = Tensor(np.ones((2, 3), np.float32)); w = Tensor(np.ones((3, 2), np.float32), requires_grad=True)
>>> dense(x, w, None, "relu").numpy().tolist()
[[3.0, 3.0], [3.0, 3.0]]
>>> [round(v, 4) for v in sparse_softmax_cross_entropy([0], Tensor([[0.0, 0.0]])).numpy().tolist()]
[0.6931]
"""

from .autograd import record
from .convert import binary, to_float, to_tensor
from .tensor import DTYPE_NAMES as _NAMES
from .tensor import FLOAT_DTYPES, Tensor
from .xp import on_gpu, xp

_FUSED = frozenset()  # dtypes with a fused CUDA kernel (gpu_kernels.py); none on numpy
if on_gpu:
    from . import gpu_kernels

    _FUSED = gpu_kernels.FUSED_DTYPES

_ACTIVATIONS = (None, "linear", "relu")


def dense(x, kernel, bias=None, activation=None):
    """``activation(x @ kernel + bias)`` on the last axis of ``x`` as one op; ``activation`` is None,
    ``"linear"`` or ``"relu"`` (gradient 0 at 0, as :func:`relu`).

    Args:
        x: inputs of shape ``(..., input_dim)``.
        kernel: a ``(input_dim, units)`` matrix.
        bias: None or a ``(units,)`` vector.
        activation: None / ``"linear"`` (identity) or ``"relu"``.
    """
    if activation not in _ACTIVATIONS:
        raise ValueError(
            f"dense: activation must be one of {_ACTIVATIONS}; received {activation!r}. Apply "
            "other activations after the fused op."
        )
    a, w = binary(x, kernel)
    if a.data.dtype not in FLOAT_DTYPES:
        raise TypeError(f"dense needs float inputs; received {a.dtype}. Cast the inputs first.")
    if w.data.ndim != 2 or a.data.ndim < 1 or a.data.shape[-1] != w.data.shape[0]:
        raise ValueError(
            f"dense: inputs of shape {a.data.shape} do not match a kernel of shape {w.data.shape}; "
            "the kernel must be (input_dim, units) with input_dim the inputs' last axis."
        )
    ad, wd = a.data, w.data
    lead = ad.shape[:-1]
    a2 = ad.reshape(-1, ad.shape[-1]) if ad.ndim != 2 else ad
    yd = a2 @ wd
    if yd.dtype != ad.dtype:  # ml_dtypes multiplies bfloat16 matrices into float32: round as matmul does
        yd = yd.astype(ad.dtype)
    inputs = (a, w)
    if bias is not None:
        b = to_tensor(bias, a.dtype)
        if b.data.shape != (wd.shape[1],):
            raise ValueError(f"dense: the bias has shape {b.data.shape}; expected ({wd.shape[1]},).")
        yd += b.data  # yd is a fresh product: adding in place saves one array
        inputs = (a, w, b)
    relu = activation == "relu"
    if relu:
        xp.maximum(yd, 0, out=yd)

    def backward(g, out=None):
        if out is not None:
            return _dense_grads(g, inputs, relu and yd > 0)
        g2 = g.reshape(-1, g.shape[-1]) if g.ndim != 2 else g
        if relu:
            g2 = gpu_kernels.relu_grad(g2, yd) if on_gpu and yd.dtype in _FUSED else g2 * (yd > 0)
        ga = (g2 @ wd.T).reshape(ad.shape) if a.requires_grad else None
        gw = a2.T @ g2 if w.requires_grad else None
        if len(inputs) == 3:
            return ga, gw, (g2.sum(axis=0) if inputs[2].requires_grad else None)
        return ga, gw

    out = yd.reshape(lead + (wd.shape[1],)) if ad.ndim != 2 else yd
    return record(out, inputs, backward, (), "dense")


def _dense_grads(g, inputs, mask):
    """The gradients of :func:`dense` with recorded ops (graph mode); ``mask``: where the ReLU passes, or False."""
    from .ops_shape import reshape

    a, w = inputs[0], inputs[1]
    g2 = reshape(g, (-1, g.shape[-1]))
    if mask is not False:  # the ReLU's derivative: a constant mask (its second derivative is 0 off the kink)
        g2 = g2 * Tensor(mask.reshape(g2.shape))
    ga = reshape(g2 @ w.T, a.shape) if a.requires_grad else None
    gw = reshape(a, (-1, a.shape[-1])).T @ g2 if w.requires_grad else None
    if len(inputs) == 3:
        return ga, gw, (g2.sum(axis=0) if inputs[2].requires_grad else None)
    return ga, gw


def sparse_softmax_cross_entropy(labels, logits, axis=-1):
    """Per-example ``-log softmax(logits)[label]`` along ``axis`` as one op, finite for logits of +-1e4.

    Args:
        labels: integer class indices, ``logits``' shape without ``axis``.
        logits: float scores.
        axis: the class axis.

    Returns:
        The losses, shaped like ``labels``, in ``logits``' float dtype.

    Raises:
        ValueError: on the CPU, for a label outside ``[0, classes)``. On a GPU (CuPy) the labels are not read
            on the host (that would synchronise every training step): the loss of such an example is NaN and
            so is its row of the gradient, as TensorFlow and JAX do on a GPU.
    """
    z = to_float(logits)
    zd = z.data
    lab = to_tensor(labels).data
    if lab.dtype.kind not in "iu":
        raise TypeError(f"sparse_softmax_cross_entropy needs integer labels; received {lab.dtype}.")
    moved = axis not in (-1, zd.ndim - 1)
    if moved:
        zd = xp.moveaxis(zd, axis, -1)
    if lab.shape != zd.shape[:-1]:
        raise ValueError(
            f"sparse_softmax_cross_entropy: labels of shape {lab.shape} do not match logits of "
            f"shape {z.data.shape} without the class axis {axis}."
        )
    n = zd.shape[-1]
    poison = None
    if on_gpu:
        # no host read: out-of-range labels pick column 0 and their loss and gradient rows become NaN
        bad = (lab < 0) | (lab >= n)
        lab = xp.where(bad, 0, lab)
        poison = xp.where(bad, zd.dtype.type(xp.nan), zd.dtype.type(0))  # 0 or NaN per example
    elif lab.size and (int(lab.min()) < 0 or int(lab.max()) >= n):
        raise ValueError(
            f"sparse_softmax_cross_entropy: labels must be in [0, {n}); received values from "
            f"{int(lab.min())} to {int(lab.max())}."
        )
    shifted = zd - zd.max(axis=-1, keepdims=True)
    e = xp.exp(shifted)
    s = e.sum(axis=-1, keepdims=True)
    # the labels' entries, picked by (row, label) indexing over the rows of the flattened batch
    rows = xp.arange(lab.size)
    flat_lab = lab.reshape(-1)
    picked = shifted.reshape(-1, n)[rows, flat_lab].reshape(lab.shape)
    loss = (xp.log(s[..., 0]) - picked).astype(zd.dtype, copy=False)
    if poison is not None:
        loss += poison

    def backward(g, out=None):
        if out is not None:
            return (_xent_grad(z, g, lab, n, axis, poison),)
        grad = e / s  # softmax, minus the one-hot labels
        if not grad.flags.c_contiguous:  # (a moved class axis): the reshape below must be a view
            grad = xp.ascontiguousarray(grad)
        grad.reshape(-1, n)[rows, flat_lab] -= 1  # written in place through the view
        grad *= (g if poison is None else g + poison)[..., None]
        if moved:
            grad = xp.moveaxis(grad, -1, axis)
        return (grad.astype(z.data.dtype, copy=False),)

    return record(loss, (z,), backward, (), "sparse_softmax_cross_entropy")


def _xent_grad(z, g, lab, n, axis, poison):
    """The logits' gradient of :func:`sparse_softmax_cross_entropy`, ``(softmax(z) - one_hot(labels)) * g``,
    with recorded ops (graph mode): the softmax is differentiable, the labels constant."""
    from .ops_nn import softmax
    from .ops_shape import expand_dims

    zd = z.data
    one_hot = (lab[..., None] == xp.arange(n)).astype(zd.dtype)
    if axis not in (-1, zd.ndim - 1):
        one_hot = xp.moveaxis(one_hot, -1, axis)
    scale = g if poison is None else g + poison
    return (softmax(z, axis) - one_hot) * expand_dims(scale, axis)


def adam_step(value, m, v, grad, alpha, beta_1, beta_2, epsilon):
    """One Adam step as one op: ``(value - alpha * m' / (sqrt(v') + epsilon), m', v')`` with
    ``m' = m + (grad - m)(1 - beta_1)`` and ``v' = v + (grad² - v)(1 - beta_2)`` (Keras' formula).

    ``alpha`` is the bias-corrected learning rate ``lr * sqrt(1 - beta_2^t) / (1 - beta_1^t)`` (a scalar).
    The inputs are not changed: three new arrays come back, each written in place as it is computed, so
    the step allocates three buffers instead of a dozen temporaries. Not differentiable (an optimizer
    update).
    """
    p = to_tensor(value).data
    dt = p.dtype
    md, vd, gd = (to_tensor(t, _NAMES[dt]).data for t in (m, v, grad))
    a = to_tensor(alpha, _NAMES[dt]).data
    p_new, m_new, v_new = adam_arrays(p, md, vd, gd, a, 1.0 - float(beta_1), 1.0 - float(beta_2), float(epsilon))
    return Tensor(p_new), Tensor(m_new), Tensor(v_new)


def adam_arrays(p, m, v, g, alpha, c1, c2, epsilon):
    """:func:`adam_step` on xp arrays of one dtype, with ``c1 = 1 - beta_1`` and ``c2 = 1 - beta_2``; on a GPU
    one fused kernel (gpu_kernels.adam), with the same operation order."""
    if on_gpu and p.dtype in _FUSED:
        return gpu_kernels.adam(p, m, v, g, alpha, c1, c2, epsilon)
    # Every result written through out=: an operation on 0-d arrays returns a numpy scalar otherwise, which
    # cannot be written in place (a scalar weight would fail).
    m_new, v_new, p_new = xp.empty_like(p), xp.empty_like(p), xp.empty_like(p)
    xp.subtract(g, m, out=m_new)
    xp.multiply(m_new, c1, out=m_new)
    xp.add(m_new, m, out=m_new)
    xp.multiply(g, g, out=v_new)
    xp.subtract(v_new, v, out=v_new)
    xp.multiply(v_new, c2, out=v_new)
    xp.add(v_new, v, out=v_new)
    xp.sqrt(v_new, out=p_new)
    xp.add(p_new, epsilon, out=p_new)
    xp.divide(m_new, p_new, out=p_new)
    xp.multiply(p_new, alpha, out=p_new)
    xp.subtract(p, p_new, out=p_new)
    return p_new, m_new, v_new
