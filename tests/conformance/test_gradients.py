"""Gradient conformance of ``sum(op(x) * cotangent)`` for every differentiable case.

* ``test_grad_finite_differences[<op>-<case>]``: the native engine's float64 gradient against central
  finite differences (eps 1e-6) of the float64 numpy reference. This makes the native float64 gradient
  a trusted oracle.
* ``test_grad[<backend>-<op>-<case>]``: each backend's float32 gradient (via ``backend.value_and_grad``)
  against the native float64 gradient taken at the same float32-rounded point with the same cotangent.
"""

import pytest

from .cases import ALL
from .runner import check_fd, check_grad, grad_cases

GRAD_CASES = grad_cases(ALL)


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_grad_finite_differences(case):
    check_fd(case)


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_grad(backend, case):
    check_grad(backend, case)
