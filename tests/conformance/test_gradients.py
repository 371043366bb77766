"""Gradient conformance of ``sum(op(x) * cotangent)`` for every differentiable case.

* ``test_grad_finite_differences[<op>-<case>]``: the native engine's float64 gradient against central
  finite differences (eps 1e-6) of the float64 numpy reference. This makes the native float64 gradient
  a trusted oracle.
* ``test_grad[<backend>-<op>-<case>]``: each backend's float32 gradient (via ``backend.value_and_grad``)
  against the native float64 gradient taken at the same float32-rounded point with the same cotangent.

Which path each table covers on an engine that compiles composite functions (JAX): here the forward pass and
the gradient of each case run as ONE compiled program (``door_composite`` of the ``value_and_grad``), the way a
jitted training step differentiates an op; ``test_forward`` runs every op through the front door as a user's
eager call does (one program per op and signature); ``test_generic`` takes its gradients eagerly, op by op (an
eager ``value_and_grad`` over each op's own program). The other engines run every table op by op.
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
    check_grad(backend, case, whole=True)
