"""Linear algebra of the native engine: matmul, einsum, tensordot, outer.

``matmul`` follows numpy's rules for 1-D and batched (broadcast) operands. ``einsum`` always runs
``xp.einsum(..., optimize=True)`` (the unoptimised path is orders of magnitude slower on contractions of
three or more operands); its VJP for each operand is another einsum, with identity matrices for repeated
indices and broadcasting for indices only that operand has.

>>> from highlevel.backends.native.tensor import Tensor
>>> matmul(Tensor([[1.0, 2.0]]), Tensor([[3.0], [4.0]])).numpy().tolist()
[[11.0]]
>>> einsum("ij,j->i", Tensor([[1.0, 2.0]]), Tensor([1.0, 1.0])).numpy().tolist()
[3.0]
"""

import string

from .autograd import record, unbroadcast
from .convert import binary, promote
from .einsum_gemm import einsum2
from .tensor import Tensor
from .xp import on_gpu, xp

#: The largest integer float32 / float64 hold exactly: an integer product whose every partial sum stays below
#: it comes out exact from a floating-point BLAS product.
_EXACT = {"float32": 2**24, "float64": 2**53}


def _integer_matmul(ad, bd):
    """``ad @ bd`` of integer arrays through BLAS where that is exact, else numpy's integer loop.

    numpy multiplies integer matrices in a plain loop, 30-60x slower than its float BLAS (an int8-quantized
    Dense's int32 product is one). When ``max|a| * max|b| * k`` is below the largest integer a float type holds
    exactly, every partial sum of the product is an integer that type represents exactly, so the float product
    rounded back is the integer product bit for bit; float32 when it fits (int8 operands up to k = 1040),
    float64 otherwise, the integer loop beyond that. On a GPU CuPy's own integer product runs (the bound would
    read values back to the host).

    >>> import numpy as np
    >>> _integer_matmul(np.full((1, 300), 127, np.int32), np.full((300, 1), -127, np.int32)).tolist()
    [[-4838700]]
    """
    if on_gpu or ad.size == 0 or bd.size == 0:
        return xp.matmul(ad, bd)  # (the bound would be a read from the device; CuPy's integer product is its own)
    bound = max(abs(int(ad.max())), abs(int(ad.min()))) * max(abs(int(bd.max())), abs(int(bd.min())))
    bound *= ad.shape[-1]
    for name, limit in _EXACT.items():
        if bound < limit:
            out_dtype = xp.result_type(ad.dtype, bd.dtype)
            return xp.matmul(ad.astype(name), bd.astype(name)).astype(out_dtype)
    return xp.matmul(ad, bd)


def matmul(x1, x2):
    """Matrix product with numpy's rules for 1-D and batched (broadcast) operands."""
    a, b = binary(x1, x2)
    ad, bd = a.data, b.data
    if ad.ndim == 0 or bd.ndim == 0:
        raise ValueError(
            f"matmul needs operands of rank >= 1; received shapes {ad.shape} and {bd.shape}. Use multiply for scalars."
        )
    yd = _integer_matmul(ad, bd) if ad.dtype.kind in "iu" and bd.dtype.kind in "iu" else xp.matmul(ad, bd)
    if yd.dtype != ad.dtype:  # ml_dtypes multiplies bfloat16 matrices into float32
        yd = yd.astype(ad.dtype)
    if ad.ndim == 2 and bd.ndim == 2:

        def backward(g, out=None):  # Tensor's @ and .T record: the same expression in both modes
            va, vb = (ad, bd) if out is None else (a, b)
            return (g @ vb.T if a.requires_grad else None, va.T @ g if b.requires_grad else None)

        return record(yd, (a, b), backward, (a, b), "matmul")

    def backward(g, out=None):
        if out is not None:
            return _matmul_grads(g, a, b)
        # work on operands lifted to >= 2-D, then drop the lifted axes again
        a2 = ad[None, :] if ad.ndim == 1 else ad
        b2 = bd[:, None] if bd.ndim == 1 else bd
        g2 = g.reshape(g.shape[:-1] + (1,) + g.shape[-1:]) if ad.ndim == 1 else g
        g2 = g2[..., None] if bd.ndim == 1 else g2
        ga = gb = None
        if a.requires_grad:
            if a2.ndim > 2 and b2.ndim == 2 and a2.ndim == g2.ndim:
                ga = g2 @ b2.T
            else:
                ga = unbroadcast(g2 @ xp.swapaxes(b2, -1, -2), a2.shape)
            ga = ga.reshape(ad.shape)
        if b.requires_grad:
            if b2.ndim == 2 and a2.ndim > 2:
                # dense layer on a batch of sequences: one 2-D product instead of a batched one plus a sum
                k = a2.shape[-1]
                gb = a2.reshape(-1, k).T @ g2.reshape(-1, g2.shape[-1])
            else:
                gb = unbroadcast(xp.swapaxes(a2, -1, -2) @ g2, b2.shape)
            gb = gb.reshape(bd.shape)
        return ga, gb

    return record(yd, (a, b), backward, (a, b), "matmul")


def _matmul_grads(g, a, b):
    """The gradients of a matmul with operands of any rank, with recorded ops (graph mode)."""
    from .ops_shape import reshape, swapaxes

    ad, bd = a.data, b.data
    a2 = reshape(a, (1,) + ad.shape) if ad.ndim == 1 else a
    b2 = reshape(b, bd.shape + (1,)) if bd.ndim == 1 else b
    g2 = reshape(g, g.shape[:-1] + (1,) + g.shape[-1:]) if ad.ndim == 1 else g
    g2 = reshape(g2, g2.shape + (1,)) if bd.ndim == 1 else g2
    ga = gb = None
    if a.requires_grad:
        ga = reshape(unbroadcast(matmul(g2, swapaxes(b2, -1, -2)), a2.shape), ad.shape)
    if b.requires_grad:
        gb = reshape(unbroadcast(matmul(swapaxes(a2, -1, -2), g2), b2.shape), bd.shape)
    return ga, gb


def _expand_subscripts(subscripts, shapes):
    """Explicit input and output subscripts: ellipses replaced by letters, implicit output spelled out."""
    s = subscripts.replace(" ", "")
    ins, arrow, out = s.partition("->")
    ins = ins.split(",")
    if len(ins) != len(shapes):
        raise ValueError(f"einsum: the subscripts {subscripts!r} name {len(ins)} operands, {len(shapes)} given.")
    free = [c for c in string.ascii_letters if c not in s]
    ell_n = max([len(shp) - (len(sub) - 3) for sub, shp in zip(ins, shapes) if "..." in sub] or [0])
    ell = "".join(free[:ell_n])
    expanded = []
    for sub, shp in zip(ins, shapes):
        if "..." in sub:
            n = len(shp) - (len(sub) - 3)
            sub = sub.replace("...", ell[ell_n - n :])
        if len(sub) != len(shp):
            raise ValueError(f"einsum: subscript {sub!r} does not match an operand of shape {shp}.")
        expanded.append(sub)
    if arrow:
        out = out.replace("...", ell)
    else:
        counts = {}
        for sub in expanded:
            for c in sub:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    return expanded, out


def einsum(subscripts, *operands):
    """Einstein summation, as ``numpy.einsum`` (run with ``optimize=True``)."""
    ts, _ = promote(list(operands))
    datas = [t.data for t in ts]
    ins, out = _expand_subscripts(subscripts, [d.shape for d in datas])
    if len(datas) == 2:  # one batched GEMM (einsum_gemm.py): numpy's einsum misses BLAS with batch indices
        yd = einsum2(f"{ins[0]},{ins[1]}->{out}", *datas)
    else:
        yd = xp.einsum(subscripts, *datas, optimize=True)
    if yd.dtype != datas[0].dtype:
        yd = yd.astype(datas[0].dtype)
    sizes = {}
    for sub, d in zip(ins, datas):
        for c, n in zip(sub, d.shape):
            sizes[c] = max(sizes.get(c, 1), n)

    def backward(g, out_=None):
        # written once: on arrays with xp.einsum, or on Tensors with this op (graph mode)
        values = datas if out_ is None else ts
        contract = _xp_einsum if out_ is None else einsum
        return tuple(
            _einsum_operand_grad(i, ins, out, values, g, sizes, contract) if t.requires_grad else None
            for i, t in enumerate(ts)
        )

    return record(yd, tuple(ts), backward, tuple(ts), "einsum")


def _xp_einsum(expr, *operands):
    if len(operands) == 2:
        return einsum2(expr, *operands)
    return xp.einsum(expr, *operands, optimize=True)


def _einsum_operand_grad(i, ins, out, datas, g, sizes, contract):
    """The gradient of operand ``i``: one contraction of ``g`` with the other operands (``contract`` is
    xp's einsum on arrays, or the recorded :func:`einsum` on Tensors)."""
    sub = ins[i]
    dt = g.dtype if g.__class__ is not Tensor else g.data.dtype
    others = [(s, d) for j, (s, d) in enumerate(zip(ins, datas)) if j != i]
    avail = set(out).union(*[set(s) for s, _ in others])
    unique = "".join(dict.fromkeys(sub))
    kept = "".join(c for c in unique if c in avail)
    lhs = ",".join([out] + [s for s, _ in others])
    args = [g] + [d for _, d in others]
    if kept == sub:  # no repeated index, nothing only this operand has: one einsum
        gi = contract(f"{lhs}->{sub}", *args)
        return unbroadcast(gi, datas[i].shape)
    gk = contract(f"{lhs}->{kept}", *args)
    # rebuild the full operand: ones for indices only it has, identities for repeated indices
    spare = iter(c for c in string.ascii_letters if c not in "".join(ins) + out)
    target, extra_subs, extra_ops, seen = [], [], [], set()
    for c in sub:
        if c in seen:
            n = next(spare)
            extra_subs.append(c + n)
            extra_ops.append(xp.eye(sizes[c], dtype=dt))
            target.append(n)
        else:
            seen.add(c)
            target.append(c)
            if c not in avail:
                extra_subs.append(c)
                extra_ops.append(xp.ones(sizes[c], dtype=dt))
    expr = ",".join([kept] + extra_subs) + "->" + "".join(target)
    gi = contract(expr, gk, *extra_ops)
    return unbroadcast(gi, datas[i].shape)


def tensordot(x1, x2, axes=2):
    """Contraction over ``axes``: an int (last n of x1 with first n of x2) or a pair of sequences."""
    a, b = binary(x1, x2)
    na, nb = a.ndim, b.ndim
    if isinstance(axes, int):
        ax_a = list(range(na - axes, na))
        ax_b = list(range(axes))
    else:
        ax_a, ax_b = axes
        ax_a = [ax_a] if isinstance(ax_a, int) else list(ax_a)
        ax_b = [ax_b] if isinstance(ax_b, int) else list(ax_b)
        ax_a = [x % na for x in ax_a]
        ax_b = [x % nb for x in ax_b]
    if len(ax_a) != len(ax_b):
        raise ValueError(f"tensordot: axes {axes} pair {len(ax_a)} axes of x1 with {len(ax_b)} of x2.")
    letters = iter(string.ascii_letters)
    sa = [next(letters) for _ in range(na)]
    sb = [next(letters) for _ in range(nb)]
    for p, q in zip(ax_a, ax_b):
        sb[q] = sa[p]
    out = [c for k, c in enumerate(sa) if k not in ax_a] + [c for k, c in enumerate(sb) if k not in ax_b]
    return einsum(f"{''.join(sa)},{''.join(sb)}->{''.join(out)}", a, b)


def outer(x1, x2):
    """Outer product of the flattened inputs."""
    from .ops_math import multiply
    from .ops_shape import reshape

    a, b = binary(x1, x2)
    return multiply(reshape(a, (-1, 1)), reshape(b, (1, -1)))
