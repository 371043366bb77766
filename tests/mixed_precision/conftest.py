"""Every mixed-precision test starts and ends with the default global dtype policy."""

import pytest

import highlevel as hl


@pytest.fixture(autouse=True)
def _reset_policy():
    hl.mixed_precision.set_dtype_policy(None)
    yield
    hl.mixed_precision.set_dtype_policy(None)
