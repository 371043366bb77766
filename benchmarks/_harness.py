"""Shared machinery of the benchmarks: pinned thread counts, one subprocess per measurement, interleaving.

Every measurement runs in a fresh Python process whose thread counts are fixed before any numeric library is
imported (``pin_threads`` for the environment, ``pin_framework_threads`` once a framework is loaded), so that
one run's thread pools, JIT caches or allocator state never leak into the next. The driver runs the
measurements interleaved (``A B C A B C ...``): slow phases of a shared machine then hit every contestant
alike, and the median over rounds of each per-round ratio is robust to the rest.

>>> env = thread_env(1)
>>> env["OMP_NUM_THREADS"], env["XLA_FLAGS"]
('1', '--xla_cpu_multi_thread_eigen=false')
>>> median([3.0, 1.0, 2.0])
2.0
"""

import json
import os
import statistics
import subprocess
import sys

#: Environment variables that size the BLAS / OpenMP thread pools of numpy, torch, TensorFlow and XLA.
THREAD_VARS = (
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)


def thread_env(threads):
    """The environment variables that fix every library's thread count to ``threads``."""
    env = {var: str(threads) for var in THREAD_VARS}
    xla = f"--xla_cpu_multi_thread_eigen={'true' if threads > 1 else 'false'}"
    env["XLA_FLAGS"] = xla
    env["TF_NUM_INTRAOP_THREADS"] = str(threads)
    env["TF_NUM_INTEROP_THREADS"] = "1"
    env["TF_CPP_MIN_LOG_LEVEL"] = "3"  # TensorFlow's start-up chatter would drown the results
    return env


def pin_threads(threads):
    """Sets :func:`thread_env` in this process; call before numpy or any framework is imported."""
    os.environ.update(thread_env(threads))


def pin_framework_threads(framework, threads):
    """Fixes the thread pools a framework sizes through its own API (call right after importing it)."""
    if framework == "torch":
        import torch

        torch.set_num_threads(threads)
        try:
            torch.set_num_interop_threads(1)
        except RuntimeError:  # already set, or parallel work has started: the env vars still hold
            pass
    elif framework == "tensorflow":
        import tensorflow as tf

        try:
            tf.config.threading.set_intra_op_parallelism_threads(threads)
            tf.config.threading.set_inter_op_parallelism_threads(1)
        except RuntimeError:  # TF was initialised already (the env vars above still applied)
            pass


def median(values):
    """The median of a non-empty sequence of numbers."""
    return float(statistics.median(values))


def run_worker(script, args, threads, extra_env=None, timeout=900):
    """Runs ``python script *args`` with pinned threads; returns the JSON object it prints last.

    Raises:
        RuntimeError: when the worker fails or prints no JSON line (its stderr tail is included).
    """
    env = dict(os.environ)
    env.update(thread_env(threads))
    env.update(extra_env or {})
    proc = subprocess.run([sys.executable, script, *args], env=env, capture_output=True, text=True, timeout=timeout)
    for line in reversed(proc.stdout.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError(
        f"worker {' '.join(args)} failed (exit code {proc.returncode}):\n{proc.stderr[-3000:]}\n{proc.stdout[-1000:]}"
    )


def format_table(header, rows):
    """A Markdown table (``header``: column names; ``rows``: lists of cells, already strings)."""
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"  # noqa: E731
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), sep] + [line(r) for r in rows])
