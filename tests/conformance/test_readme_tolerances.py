"""The README quotes the tolerance table: keep the two in agreement."""

import pathlib

from .tolerances import DEFAULTS, FD_TOLERANCE

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_readme_quotes_the_default_tolerances():
    text = README.read_text()
    for dtype, (rtol, atol) in DEFAULTS.items():
        row = f"| {dtype}{' (default)' if dtype == 'float32' else ''} | {rtol:.0e} | {atol:.0e} |"
        assert row in text, f"README lacks the row {row!r}"
    assert f"{FD_TOLERANCE[0]:.0e} | {FD_TOLERANCE[1]:.0e}" in text
