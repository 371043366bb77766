"""Every conformance case, from the per-family tables (``cases_*.py``).

One import and one ``collect`` line per family table, so that adding a family adds two lines.
"""

from . import (
    cases_conv,
    cases_creation,
    cases_elementwise,
    cases_linalg,
    cases_nn,
    cases_nn_more,
    cases_numpy_generic,
    cases_reductions,
    cases_shape,
)
from .harness import collect

ALL = collect(
    cases_creation.CASES,
    cases_elementwise.CASES,
    cases_reductions.CASES,
    cases_shape.CASES,
    cases_linalg.CASES,
    cases_nn.CASES,
    cases_conv.CASES,
    cases_numpy_generic.CASES,
    cases_nn_more.CASES,
)

from . import cases_statistics  # noqa: E402

ALL = collect(ALL, cases_statistics.CASES)

from . import cases_image  # noqa: E402

ALL = collect(ALL, cases_image.CASES)

from . import cases_numpy_array  # noqa: E402

ALL = collect(ALL, cases_numpy_array.CASES)

from . import cases_numpy_math  # noqa: E402

ALL = collect(ALL, cases_numpy_math.CASES)

from . import cases_control_flow, cases_scatter_segment  # noqa: E402

ALL = collect(ALL, cases_control_flow.CASES, cases_scatter_segment.CASES)

from . import cases_spectral  # noqa: E402

ALL = collect(ALL, cases_spectral.CASES)

#: (test id, case, dtype spec) for every run of every case
RUNS = [(rid, case, spec) for case in ALL for rid, spec in case.runs()]
