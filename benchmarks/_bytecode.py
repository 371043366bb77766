"""Writing highlevel's bytecode (``__pycache__``) ahead of the processes that import it.

From a source checkout with ``PYTHONDONTWRITEBYTECODE`` set, every fresh process compiles each highlevel module
it imports from source, about a second of CPU per process. ``benchmarks/run.py`` writes the bytecode before it
times any start-up (as installing a wheel does), and the test session before its workers and child processes
start (the setting stops writing bytecode, not reading it). Standard library only: the test suite loads this file
by its path.
"""

import compileall
import importlib.util
import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def byte_compile_package():
    """Compiles every module of highlevel's source tree that has no up-to-date bytecode yet.

    Folders that are not writable are left alone; a file written by two processes at once is replaced atomically.
    """
    spec = importlib.util.find_spec("highlevel")
    roots = set(spec.submodule_search_locations or ()) if spec else set()
    # the source layout maps these sub-packages from top-level folders (pyproject's package-dir)
    roots |= {os.path.join(REPO, d) for d in ("backends", "layers", "callbacks")}
    for root in sorted(roots):
        if os.path.isfile(os.path.join(root, "__init__.py")) and os.access(root, os.W_OK):
            compileall.compile_dir(root, quiet=1)
