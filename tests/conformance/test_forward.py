"""Forward conformance: every case on every backend against the float64 numpy reference.

Checks values (tolerances from :mod:`tolerances`), the result dtype (the promotion table and the op's
dtype rule) and the shape. Test ids read ``test_forward[<backend>-<op>-<case>-<dtype>]``.
"""

import pytest

from .cases import RUNS
from .runner import check_forward


@pytest.mark.parametrize("case,spec", [pytest.param(c, s, id=rid) for rid, c, s in RUNS])
def test_forward(backend, case, spec):
    check_forward(backend, case, spec)
