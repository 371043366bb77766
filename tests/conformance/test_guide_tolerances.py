"""The backends guide quotes the tolerance table: keep the two in agreement."""

import pathlib

from .tolerances import DEFAULTS, FD_TOLERANCE

GUIDE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "guides" / "backends.md"


def test_the_backends_guide_quotes_the_default_tolerances():
    text = GUIDE.read_text()
    for dtype, (rtol, atol) in DEFAULTS.items():
        row = f"| {dtype}{' (default)' if dtype == 'float32' else ''} | {rtol:.0e} | {atol:.0e} |"
        assert row in text, f"{GUIDE.name} lacks the row {row!r}"
    assert f"{FD_TOLERANCE[0]:.0e} | {FD_TOLERANCE[1]:.0e}" in text
