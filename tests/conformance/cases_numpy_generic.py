"""Conformance cases: the numpy ops with a generic definition in the contract (``numpy_generic.py``).

One line per case; see :func:`harness.C`. Each runs on every engine through ``hl.ops`` (the front door and the
engine's override or the generic definition) against the float64 numpy reference.
"""

from .harness import F32_64, FLOAT, INTS, C, ints, normal

CASES = [
    C("exp2", "basic", (normal(3, 4),), dtypes=F32_64, grad=(0,)),
    C("exp2", "int", (ints(3, 4, low=-3, high=8),), dtypes=INTS, out=FLOAT),
    C("deg2rad", "basic", (normal(3, 4, scale=90),), dtypes=F32_64, grad=(0,)),
    C("deg2rad", "int", (ints(5, low=-180, high=181),), dtypes=("int32",), out=FLOAT),
    C("rad2deg", "basic", (normal(3, 4),), dtypes=F32_64, grad=(0,)),
    C("ravel", "basic", (normal(2, 3, 4),), dtypes=F32_64 + INTS, grad=(0,)),
    C("ptp", "all", (normal(3, 4),), dtypes=F32_64, grad=(0,)),
    C("ptp", "axis", (normal(3, 4),), dtypes=F32_64 + INTS, grad=(0,), axis=-1),
    C("ptp", "keepdims", (normal(2, 3, 4),), grad=(0,), axis=(0, 2), keepdims=True),
    C("tril", "basic", (normal(4, 4),), dtypes=F32_64 + INTS, grad=(0,)),
    C("tril", "k", (normal(2, 3, 5),), grad=(0,), k=1),
    C("tril", "k-neg", (normal(4, 3),), grad=(0,), k=-1),
    C("triu", "basic", (normal(4, 4),), dtypes=F32_64 + INTS, grad=(0,)),
    C("triu", "k", (normal(2, 3, 5),), grad=(0,), k=2),
    C("triu", "k-neg", (normal(4, 3),), grad=(0,), k=-2),
]
