"""The contract's generic definitions, checked on their own: every case of every op that has one.

An engine may override a generic op with its own kernel (the usual case: each framework has ``log2``,
``softmax``, ``tensordot``...), and then ``test_forward``/``test_gradients`` check the override. This module checks
the definition the override replaces: each engine runs a *generic view* of itself in which every generic op is the
contract's definition (built on the engine's primitives), and the cases of those ops must meet the same float64
references and tolerances, forward and gradient. So a new engine that implements only the primitives is covered
too, and an override and its generic definition agree through the reference.

The gradients here are taken eagerly, op by op (on JAX: an eager ``value_and_grad`` over each op's own compiled
program), while ``test_gradients`` runs each case's forward pass and gradient as one compiled program: between
them, both paths are covered (see ``test_gradients``).
"""

import functools

import pytest

from highlevel.backends.contract import Backend

from .cases import ALL
from .runner import check_forward, check_grad, grad_cases


def generic_ops():
    """The op names whose contract method has a generic definition (a body, not abstract)."""
    abstract = Backend.__abstractmethods__
    return sorted(n for n in {c.op for c in ALL} if hasattr(Backend, n) and n not in abstract)


GENERIC = generic_ops()


@functools.lru_cache(maxsize=None)
def generic_view(b):
    """``b`` with every generic op of the contract restored to its generic definition."""
    overrides = {n: getattr(Backend, n) for n in GENERIC}
    cls = type(f"Generic{type(b).__name__}", (type(b),), overrides)
    view = object.__new__(cls)
    view.__dict__.update(b.__dict__)
    return view


CASES = [c for c in ALL if c.op in GENERIC]
RUNS = [(rid, case, spec) for case in CASES for rid, spec in case.runs() if "32" in spec or spec == "-"]


def test_the_contract_has_generic_ops():
    from highlevel.backends.contract import LinalgContract, RandomContract, SpectralContract

    assert len(GENERIC) >= 40, GENERIC
    # 101 primitives, plus those of the families added since: 9 of the elementwise/bitwise family
    # (contract/numpy_math.py: the bitwise operations and shifts, view, erfc and erfinv), custom_gradient and
    # segment_reduce (control flow, scatter/segment), the decompositions (and jvp) and the DFTs on complex
    # tensors (11 and 6), and the gamma and binomial draws (2)
    linalg, spectral = LinalgContract.__abstractmethods__, SpectralContract.__abstractmethods__
    random = RandomContract.__abstractmethods__
    assert len(linalg) <= 11 and len(spectral) <= 6 and len(random) <= 2, (
        sorted(linalg),
        sorted(spectral),
        sorted(random),
    )
    rest = Backend.__abstractmethods__ - linalg - spectral - random
    assert len(rest) <= 112, sorted(rest)


@pytest.mark.parametrize("rid,case,spec", RUNS, ids=[r[0] for r in RUNS])
def test_generic_forward(backend, rid, case, spec):
    check_forward(generic_view(backend), case, spec)


@pytest.mark.parametrize("case", grad_cases(CASES), ids=lambda c: c.id)
def test_generic_grad(backend, case):
    check_grad(generic_view(backend), case)
