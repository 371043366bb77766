"""Runs the ``>>>`` examples in every docstring of the package, so that examples cannot go stale.

Engine packages run only when their framework is installed; their examples run with that engine active.
"""

import contextlib
import doctest
import importlib
import pkgutil

import pytest

import highlevel as hl
from tests.applications._oracle import no_random_draws


def _modules():
    names = []
    for pkg in (hl, hl.backends, hl.layers, hl.callbacks):
        names.append(pkg.__name__)
        for info in pkgutil.walk_packages(pkg.__path__, prefix=pkg.__name__ + "."):
            names.append(info.name)
    return sorted(set(names))


def _engine_of(module_name):
    parts = module_name.split(".")
    if len(parts) >= 3 and parts[1] == "backends" and parts[2] in hl.backends.known():
        return parts[2]
    return None


@pytest.mark.parametrize("module_name", _modules())
def test_docstring_examples(module_name):
    engine = _engine_of(module_name)
    if engine is not None and engine not in hl.backends.installed():
        pytest.skip(f"{engine} is not installed")
    module = importlib.import_module(module_name)
    # Examples show automatic names as a fresh session gives them. Names only: a full garbage collection costs
    # seconds in a worker that has run thousands of tests, once per module, and no example depends on it.
    hl.utils.clear_session(free_memory=False)
    # The applications' examples build whole models (ConvNeXtXLarge: 350M weights) to show shapes and counts,
    # which do not depend on the weights' values: their random initializers give zeros there instead of drawing,
    # most of those examples' time. tests/applications builds each family with its real draws.
    draws = no_random_draws() if module_name.startswith("highlevel.applications.") else contextlib.nullcontext()
    with hl.config.backend_scope(engine or "native"), draws:
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {module_name}"
