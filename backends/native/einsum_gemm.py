"""Two-operand einsum as one batched matrix product (BLAS), for the contractions attention layers make.

``numpy.einsum(..., optimize=True)`` hands a contraction with batch indices, such as attention's
``"aecd,abcd->acbe"`` (scores) or ``"acbe,aecd->abcd"`` (the weighted values), to a loop of small products
that does not reach BLAS; on a Transformer training step that was most of the time (and every einsum's
backward is two more such contractions). Here a two-operand contraction is rewritten as
``transpose -> reshape -> matmul -> reshape -> transpose``: the indices both operands and the output share are
the batch axes, those both operands share but the output lacks are contracted, the rest are each operand's
free axes. Indices repeated within one operand (traces, diagonals) are left to ``xp.einsum``.

>>> import numpy as np
>>> a, b = np.ones((2, 3, 4, 5)), np.ones((2, 6, 4, 5))
>>> einsum2("aecd,abcd->acbe", a, b).shape
(2, 4, 6, 3)
>>> bool(np.allclose(einsum2("aecd,abcd->acbe", a, b), np.einsum("aecd,abcd->acbe", a, b)))
True
"""

from .xp import xp


def _prod(sizes):
    n = 1
    for s in sizes:
        n *= s
    return n


def einsum2(expr, a, b):
    """``xp.einsum(expr, a, b)`` through one (batched) matmul; ``expr`` has explicit subscripts (``"ij,jk->ik"``,
    no ellipsis). Falls back to ``xp.einsum`` where an operand repeats an index."""
    lhs, out = expr.split("->")
    sa, sb = lhs.split(",")
    if len(set(sa)) != len(sa) or len(set(sb)) != len(sb) or len(set(out)) != len(out):
        return xp.einsum(expr, a, b, optimize=True)
    # indices only one operand has and the output lacks: summed out first
    only_a = [c for c in sa if c not in sb and c not in out]
    if only_a:
        a = a.sum(axis=tuple(sa.index(c) for c in only_a))
        sa = "".join(c for c in sa if c not in only_a)
    only_b = [c for c in sb if c not in sa and c not in out]
    if only_b:
        b = b.sum(axis=tuple(sb.index(c) for c in only_b))
        sb = "".join(c for c in sb if c not in only_b)
    size = dict(zip(sa, a.shape))
    for c, n in zip(sb, b.shape):
        if size.setdefault(c, n) != n:
            if size[c] == 1 or n == 1:  # a broadcast axis: numpy's einsum rule
                return xp.einsum(expr, a, b, optimize=True)
            raise ValueError(f"einsum: index {c!r} has sizes {size[c]} and {n} in {expr!r}.")
    batch = [c for c in out if c in sa and c in sb]
    contract = [c for c in sa if c in sb and c not in out]
    free_a = [c for c in sa if c not in sb]
    free_b = [c for c in sb if c not in sa]
    am = a.transpose([sa.index(c) for c in batch + free_a + contract]).reshape(
        _prod(size[c] for c in batch), _prod(size[c] for c in free_a), _prod(size[c] for c in contract)
    )
    bm = b.transpose([sb.index(c) for c in batch + contract + free_b]).reshape(
        _prod(size[c] for c in batch), _prod(size[c] for c in contract), _prod(size[c] for c in free_b)
    )
    y = (am @ bm).reshape([size[c] for c in batch + free_a + free_b])
    order = batch + free_a + free_b
    perm = [order.index(c) for c in out]
    return y.transpose(perm) if perm != list(range(len(perm))) else y
