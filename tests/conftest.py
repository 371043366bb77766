"""Test-wide fixtures: the backend matrix.

Any test that takes a ``backend`` argument runs once per engine, inside ``backend_scope`` for that engine.
``HIGHLEVEL_TEST_BACKENDS=native,jax`` narrows the matrix. A backend whose framework is missing is skipped
on a developer's machine but is an error under CI (``CI=true``): CI must run every backend.
"""

import os
import sys

# One thread per numeric library in the test processes (and the children they start, which inherit the
# environment), set before numpy, torch, TensorFlow or JAX load: CI runs 2 xdist workers on 2 cores, and each
# library's default of one thread per core then oversubscribes the CPU; the suite's arrays are small, so the
# extra threads only add contention. ``setdefault``: a value set by the caller wins.
for _var, _value in {
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "TF_NUM_INTRAOP_THREADS": "1",
    "TF_NUM_INTEROP_THREADS": "1",
    "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false",
}.items():
    os.environ.setdefault(_var, _value)


def _jaxlib_version():
    try:
        from importlib.metadata import version

        return tuple(int(p) for p in version("jaxlib").split(".")[:2])
    except Exception:  # not installed, or an unusual version string
        return None


# JAX compiles every op it runs eagerly, and every jitted step, with XLA; on this suite's thousands of tiny
# programs XLA's compile time is most of the JAX tests' time (about 50-70 ms per program on one core). Two
# settings cut it, without changing what is computed:
# - LLVM's optimisation level 0 and XLA:CPU's loop emitters instead of its fusion emitters: code generation
#   about three times as fast, for code that runs slower, which the suite's small arrays do not notice. Flags only,
#   no fast-math: floating-point semantics stay IEEE. Known to XLA from jaxlib 0.10 (an unknown flag aborts
#   the process, so older versions keep XLA's defaults). The benchmarks run with XLA's defaults.
# - JAX's persistent compilation cache, shared by the xdist workers and the child processes tests start: a
#   program compiled once (by either worker, or in an earlier run on this machine) is loaded, not compiled
#   again. Its key includes the program, the flags and the jax/jaxlib versions.
# (XLA stops reading XLA_FLAGS at the first word that is not a flag: these go first.)
if (_jaxlib_version() or (0, 0)) >= (0, 10) and "--xla_backend_optimization_level" not in os.environ["XLA_FLAGS"]:
    os.environ["XLA_FLAGS"] = (
        "--xla_backend_optimization_level=0 --xla_llvm_disable_expensive_passes=true "
        "--xla_cpu_use_fusion_emitters=false " + os.environ["XLA_FLAGS"]
    )
if "JAX_COMPILATION_CACHE_DIR" not in os.environ:
    import tempfile

    os.environ["JAX_COMPILATION_CACHE_DIR"] = os.path.join(
        tempfile.gettempdir(), f"highlevel-tests-jax-cache-{os.getuid() if hasattr(os, 'getuid') else 0}"
    )
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES", "0")

import pytest  # noqa: E402

import highlevel as hl  # noqa: E402

ALL_BACKENDS = ("native", "jax", "torch", "tensorflow")


def selected_backends():
    wanted = os.environ.get("HIGHLEVEL_TEST_BACKENDS")
    names = [n.strip() for n in wanted.split(",")] if wanted else list(ALL_BACKENDS)
    return names


def _write_package_bytecode():
    """Writes highlevel's bytecode once, where ``PYTHONDONTWRITEBYTECODE`` would have every worker and every child
    process the tests start compile it from source (``benchmarks/_bytecode.py``)."""
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks", "_bytecode.py")
    spec = importlib.util.spec_from_file_location("highlevel_bytecode", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.byte_compile_package()


def pytest_configure(config):
    if sys.dont_write_bytecode and not hasattr(config, "workerinput"):  # once, before xdist starts its workers
        _write_package_bytecode()
    runs_tests = hasattr(config, "workerinput") or not config.getoption("numprocesses", None)  # not xdist's controller
    if runs_tests and "jax" in selected_backends() and "jax" in hl.backends.installed():
        from tests.jax_lowering import install

        install()  # one MLIR context per thread for many lowerings: see tests/jax_lowering.py
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        missing = [n for n in selected_backends() if n not in hl.backends.installed()]
        if missing:
            raise pytest.UsageError(
                f"CI must test every backend, but these are not installed: {missing}. "
                "Install the test extras as the README says."
            )


def pytest_collection_finish(session):
    # Everything alive once the tests are collected (imported modules, frameworks, 45,000 test items) lives
    # until the end: moved out of the collector's generations, so that each full collection later on (Keras
    # runs one per deleted variable, TensorFlow and JAX run their own) walks only what the tests made since,
    # not millions of permanent objects, which cost seconds per collection in a worker late in the suite.
    # They are still freed by reference counting; only a reference cycle among them would outlive its use.
    import gc

    gc.collect()
    gc.freeze()


def pytest_generate_tests(metafunc):
    if "backend" in metafunc.fixturenames:
        # ``@pytest.mark.backends("jax", ...)``: a test of what only some engines do runs on those of the matrix,
        # rather than on every engine with a skip on the others (CI counts no skips).
        marker = metafunc.definition.get_closest_marker("backends")
        names = selected_backends()
        if marker is not None:
            names = [n for n in names if n in marker.args]
        metafunc.parametrize("backend", names, indirect=True)


@pytest.fixture
def backend(request):
    name = request.param
    if name not in hl.backends.installed():
        pytest.skip(f"backend {name!r} is not installed")
    with hl.config.backend_scope(name) as b:
        yield b


#: The ways ``compile`` lets a training step run: compiled the engine's way (``jit_compile="auto"``: ``jax.jit``,
#: ``tf.function``, the recorded replay on PyTorch and native), without the extra compilation
#: (``jit_compile=False``), and eagerly (``run_eagerly=True``). A training effect must hold under each.
STEP_MODES = {"compiled": {}, "jit_off": {"jit_compile": False}, "eager": {"run_eagerly": True}}


@pytest.fixture(params=list(STEP_MODES))
def step_mode(request):
    """The ``compile()`` keyword arguments of one step mode (see ``STEP_MODES``)."""
    return dict(STEP_MODES[request.param])
