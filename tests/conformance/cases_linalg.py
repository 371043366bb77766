"""Conformance cases: matmul (1-D, 2-D, batched with broadcasting), einsum, tensordot, outer."""

from .harness import F32_64, INTS, C, ints, normal

CASES = [
    C("matmul", "2d", (normal(3, 4), normal(4, 5)), dtypes=F32_64, grad=(0, 1)),
    C("matmul", "1d-2d", (normal(4), normal(4, 5)), grad=(0, 1)),
    C("matmul", "2d-1d", (normal(3, 4), normal(4)), grad=(0, 1)),
    C("matmul", "1d-1d", (normal(4), normal(4)), grad=(0, 1)),
    C("matmul", "batched-broadcast", (normal(2, 1, 3, 4), normal(5, 4, 2)), dtypes=F32_64, grad=(0, 1)),
    C("matmul", "batched-1d", (normal(2, 3, 4), normal(4)), grad=(0, 1)),
    C("matmul", "size0", (normal(3, 0), normal(0, 2)), grad=(0, 1)),
    C("matmul", "int", (ints(3, 4), ints(4, 2)), dtypes=INTS),
    C("matmul", "mixed", (ints(3, 4), normal(4, 2)), dtypes=(("int32", "float32"), ("float32", "float64"))),
    C("matmul", "half", (normal(3, 4), normal(4, 5)), dtypes=("float16", "bfloat16")),
    C("einsum", "matmul", ("ij,jk->ik", normal(3, 4), normal(4, 5)), dtypes=F32_64, grad=(1, 2)),
    C("einsum", "batched", ("bij,bjk->bik", normal(2, 3, 4), normal(2, 4, 5)), grad=(1, 2)),
    C("einsum", "dot", ("i,i->", normal(5), normal(5)), grad=(1, 2)),
    C("einsum", "diagonal", ("ii->i", normal(4, 4)), grad=(1,)),
    C("einsum", "transpose-sum", ("ijk->kj", normal(2, 3, 4)), grad=(1,)),
    C("einsum", "three-operands", ("ij,jk,kl->il", normal(2, 3), normal(3, 4), normal(4, 2)), grad=(1, 2, 3)),
    C("einsum", "ellipsis", ("...ij,...jk->...ik", normal(2, 3, 4), normal(2, 4, 2)), grad=(1, 2)),
    C("einsum", "int", ("ij,jk->ik", ints(3, 4), ints(4, 2)), dtypes=("int32",)),
    C("tensordot", "axes2", (normal(2, 3, 4), normal(3, 4, 5)), dtypes=F32_64, grad=(0, 1)),
    C("tensordot", "axes1", (normal(2, 3), normal(3, 4)), grad=(0, 1), axes=1),
    C("tensordot", "axes-pairs", (normal(2, 3, 4), normal(4, 2, 5)), grad=(0, 1), axes=([0, 2], [1, 0])),
    C("tensordot", "axes0", (normal(2, 3), normal(4)), grad=(0, 1), axes=0),
    C("outer", "basic", (normal(3), normal(4)), dtypes=F32_64, grad=(0, 1)),
    C("outer", "flattens", (normal(2, 2), normal(3)), grad=(0, 1)),
    C("outer", "int", (ints(3), ints(4)), dtypes=INTS),
]
