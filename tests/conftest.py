"""Test-wide fixtures: the backend matrix.

Any test that takes a ``backend`` argument runs once per engine, inside ``backend_scope`` for that engine.
``HIGHLEVEL_TEST_BACKENDS=native,jax`` narrows the matrix. A backend whose framework is missing is skipped
on a developer's machine but is an error under CI (``CI=true``): CI must run every backend.
"""

import os

# One thread per numeric library in the test processes (and the children they start, which inherit the
# environment), set before numpy, torch, TensorFlow or JAX load: CI runs 2 xdist workers on 2 cores, and each
# library's default of one thread per core then oversubscribes the CPU; the suite's arrays are small, so the
# extra threads only add contention. ``setdefault``: a value set by the caller wins.
for _var, _value in {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
                     "TF_NUM_INTRAOP_THREADS": "1", "TF_NUM_INTEROP_THREADS": "1",
                     "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"}.items():
    os.environ.setdefault(_var, _value)

import pytest  # noqa: E402

import highlevel as hl  # noqa: E402

ALL_BACKENDS = ("native", "jax", "torch", "tensorflow")


def selected_backends():
    wanted = os.environ.get("HIGHLEVEL_TEST_BACKENDS")
    names = [n.strip() for n in wanted.split(",")] if wanted else list(ALL_BACKENDS)
    return names


def pytest_configure(config):
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        missing = [n for n in selected_backends() if n not in hl.backends.installed()]
        if missing:
            raise pytest.UsageError(
                f"CI must test every backend, but these are not installed: {missing}. "
                "Install the test extras as the README says."
            )


def pytest_generate_tests(metafunc):
    if "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", selected_backends(), indirect=True)


@pytest.fixture
def backend(request):
    name = request.param
    if name not in hl.backends.installed():
        pytest.skip(f"backend {name!r} is not installed")
    with hl.config.backend_scope(name) as b:
        yield b
