"""Every conformance case, from the per-family tables (``cases_*.py``)."""

from . import (cases_conv, cases_creation, cases_elementwise, cases_linalg, cases_nn, cases_numpy_generic,
               cases_reductions, cases_shape, cases_spectral)
from .harness import collect

ALL = collect(cases_creation.CASES, cases_elementwise.CASES, cases_reductions.CASES, cases_shape.CASES,
              cases_linalg.CASES, cases_nn.CASES, cases_conv.CASES, cases_numpy_generic.CASES, cases_spectral.CASES)

#: (test id, case, dtype spec) for every run of every case
RUNS = [(rid, case, spec) for case in ALL for rid, spec in case.runs()]
