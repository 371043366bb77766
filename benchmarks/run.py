"""The benchmark table: every workload x backend, ours vs a hand-written loop vs Keras 3, in one command.

Rows (see ``_workloads.py`` for the models):

* **B1**, **B2**, **B3**, and the heavier **B5** (Transformer), **B6** / **B6-bi** (LSTM), **B7** (ResNet)
  (training, ms per step), **B4-predict**, **B4-evaluate** (ms per batch of 512, i.e.
  the time of one ``predict``/``evaluate`` call on 10,000 samples divided by its 20 batches), per backend:
  ours (``fit``/``predict``/``evaluate`` as users call them), the hand-written loop in the same framework
  (numpy for native; PyTorch eager for B5-B7 on native and torch, none yet on jax and tensorflow) and Keras 3 on
  the same framework (when ``keras`` is importable; none for native).
* **B8** (ms per batch): MobileNetV2 inference at 224x224, batch 8, ``predict_on_batch`` on 5 batches in turn;
  hand: the same network as a PyTorch eager module on native and torch (none on jax and tensorflow); Keras 3's
  ``keras.applications.MobileNetV2(weights=None)`` on the same framework. Target: no slower than Keras.
* **B1 int8** / **B1 int4** (``--quantized``; ``_quantized.py``): inference of B1's model after
  ``model.quantize(mode)`` against the same model in float32 (the "hand" column) and Keras 3's quantized model
  with the same weights: ms per batch of 128 with ``predict_on_batch`` and with ``predict``, and the KiB of the
  weights as stored and of the saved ``.keras`` file. Target: the weights 4x (int8) / 8x (int4) smaller.
* **first step** per backend (s): a fresh process's import + model build + compile + one finished ``fit``
  step on a B1 batch, against the hand-written loop's import + set-up + first step (for JAX: a ``jax.jit``
  step, compilation included). Timed from the worker's first line, so interpreter start-up is left out. With
  B5-B7 selected, also ``first step B5`` ... per backend: ours against Keras 3 on that workload.
* **import** (s): ``import highlevel`` in a fresh process with ``HIGHLEVEL_BACKEND=native``, against
  ``import numpy`` alone (the floor: highlevel needs numpy); the ``note`` column lists any of jax / torch /
  tensorflow found in ``sys.modules`` afterwards ("no framework" when none).
* **memory B1** (MiB), native only: the peak of the bytes traced by ``tracemalloc`` (numpy reports its array
  buffers to it) while building the B1 model and training it for two epochs, against the hand-written numpy
  loop's; the data arrays exist before tracing starts and are not counted. The ``note`` column adds each
  process's ``ru_maxrss`` growth over its resident size before training (a coarser, allocator-level view).
  With B5-B7 selected, ``memory B5`` ...: the ``ru_maxrss`` growth of two native training epochs against the
  PyTorch eager loop's (tracemalloc does not see torch's buffers).

Method: every library's thread pools are pinned (``--threads``, default 1) in every worker subprocess
(``_harness.run_worker``). The timing rows of one backend come from fresh subprocesses (``--repeats`` of them,
default 3) each holding that backend's contestants side by side: per workload each is built and warmed up
(builds, compiles, fills caches), then their timed runs alternate for ``--epochs`` cycles (default 5; ours,
hand, keras, then hand, keras, ours, ...), all reading one copy of the workload's data. A cell is the median
of its timed runs, a ratio the median over all cycles (of every process) of the ratio within the cycle, so that
load spikes on a shared machine hit both sides of a ratio alike, and no one process's luck (where its arrays
landed in memory) decides a ratio. Sharing a process, rather than one process per contestant and round, is
what lets the table finish in minutes: here importing TensorFlow or Keras costs ~10 s and compiling the JAX and
Keras steps tens of seconds per process.
On JAX, highlevel's engine turns on ``jax_enable_x64`` process-wide, which would make the hand-written loop and
Keras beside it trace float64 where their users get float32 (1.5-2x slower): they are built and run under
``jax.enable_x64(False)`` (``_workloads.make_contestant``), which lets them share ours' process.
``--clock cpu`` times process CPU time instead of elapsed time (steadier on a loaded machine, and with one
thread per library it is the work each contestant does). The first-step, import and memory cells each get
fresh processes.

Run: ``python benchmarks/run.py --workloads B1,B2,B3,B4`` (under 10 minutes on 2 cores; the default adds B5-B7,
which take about an hour there), ``--clock cpu`` on a shared machine,
``--quick`` for a smoke run (B4 on 5 batches), ``--backends native,jax`` / ``--workloads B2,B4`` to narrow it,
``--no-extras`` to skip the first-step / import / memory rows. ``--runs 3`` measures the whole table three
times in a row and then prints every target's value in each run, whether it was met in all three, and a verdict
line naming each target that failed and in which run (``_verdict.py``). Not a test: numbers depend on the
machine.
"""

import argparse
import json
import os
import sys
import time

_T0_WALL, _T0_CPU = time.perf_counter(), time.process_time()  # first-step workers time from here

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import _verdict  # noqa: E402 - after the path set-up above
from _bytecode import byte_compile_package  # noqa: E402
from _harness import format_table, median, pin_threads, run_worker  # noqa: E402
from _workloads import (  # noqa: E402 - after the path set-up above
    BACKENDS,
    FRAMEWORK,
    HEAVY,
    KINDS,
    WORKLOADS,
    expand,
    import_framework,
    make_contestant,  # noqa: E402
    make_data,
)

FRAMEWORKS = ("jax", "torch", "tensorflow")
#: The issue's targets as (workload, backend) -> max ours/hand; "*" matches every backend.
HAND_TARGETS = {
    ("B1", "jax"): 1.05,
    ("B1", "torch"): 1.10,
    ("B1", "tensorflow"): 1.10,
    ("B1", "native"): 1.20,
    ("B2", "jax"): 1.3,
    ("B2", "torch"): 1.3,
    ("B2", "tensorflow"): 1.3,
    ("B2", "native"): 2.5,
    ("B4-predict", "*"): 1.10,
    ("B4-evaluate", "*"): 1.10,
    ("first step", "jax"): 1.5,
    ("memory B1", "native"): 1.5,
    # B5-B7: the hand loop in each backend's framework; native's is PyTorch eager (at most 2x it)
    **{(w, b): 1.10 for w in ("B5", "B6", "B6-bi", "B7") for b in ("jax", "torch", "tensorflow")},
    **{(w, "native"): 2.0 for w in ("B5", "B6", "B6-bi", "B7")},
    **{(f"memory {w}", "native"): 1.5 for w in ("B5", "B6", "B6-bi", "B7")},
    # B8 (MobileNetV2 inference): the hand column is a PyTorch eager module on native and torch alike
    ("B8", "torch"): 1.10,
    ("B8", "native"): 2.0,
    # quantized B1 (hand: ours float32): int8 kernels are 4x smaller (scales and biases stay float32), int4 8x
    # (plus a scale and a zero point per group of 128 inputs)
    ("B1 int8 weights", "*"): 0.26,
    ("B1 int4 weights", "*"): 0.15,
}
#: Absolute targets of ours, in the row's unit: ``import highlevel`` under 0.3 s.
OURS_TARGETS = {("import", "native"): 0.3}
#: max ours/keras: not slower on B1, at least 1.2x faster on B2.
KERAS_TARGETS = {"B1": 1.0, "B2": 1 / 1.2, "B5": 1.0, "B6": 1.0, "B6-bi": 1.0, "B7": 1.0, "B8": 1.0}
KERAS_TARGETS.update({f"first step {w}": 1.0 for w in ("B5", "B6", "B6-bi", "B7")})
#: Contestants that run in separate processes, per backend (default: all in one). Ratios between different
#: processes are ratios of medians, which swung by 10-30% on a loaded machine; none are split at present (JAX's
#: hand loop and Keras share ours' process under ``jax.enable_x64(False)``).
PROCESS_GROUPS = {}
#: Fresh processes per backend for the timing rows, and timed runs per contestant and workload in each; a ratio
#: is the median over all their cycles. One process's ratio depends on that process: three back-to-back
#: processes of 11 cycles each gave B4-evaluate on PyTorch 1.09x, 0.97x and 0.92x (the same code; within a
#: process the cycles agree), so the table pools several processes rather than running more cycles in one.
DEFAULT_REPEATS = 3
DEFAULT_CYCLES = 5
HEADER = ["workload", "backend", "unit", "ours", "hand", "keras", "ours/hand", "ours/keras", "target", "note"]


def _clock(name):
    return time.process_time if name == "cpu" else time.perf_counter


# ------------------------------------------------------------------------------------------------- workers
def time_worker(backend, kinds, names, args):
    """Times ``kinds`` on one backend, interleaved run by run; prints ``{"results": {name: {kind: ...}}}``.

    Per workload every contestant is built and warmed up (builds, compiles, fills caches), then the timed runs
    alternate between the contestants (the order rotating each cycle, so none always follows the same one);
    each reports its runs' ms per step in cycle order (``{"ms": [...], ...}``), or ``{"error": ...}``.
    """
    clock = _clock(args.clock)
    results = {}
    for name in names:
        workload = WORKLOADS[name]
        steps = workload.steps(args.steps, args.quick)
        out, runs = {}, {}
        setup = {}
        # One copy of the data for every contestant: the same input memory on both sides of a ratio (where an
        # array lands, and whether the kernel backs it with huge pages, moves a streaming loop's time by 10-20%
        # from one array to another; two copies gave a per-process bias between contestants).
        data = make_data(workload, steps)
        for kind in kinds:
            try:
                t0 = time.perf_counter()
                runs[kind] = make_contestant(kind, backend, name, steps, args.threads, data=data)
                runs[kind]()  # warm-up
                setup[kind] = time.perf_counter() - t0
            except Exception as e:  # noqa: BLE001 - one broken contestant must not lose the others' numbers
                out[kind] = {"error": f"{type(e).__name__}: {e}"[-300:]}
                runs.pop(kind, None)
        times = {kind: [] for kind in runs}
        losses = {}
        order = list(runs)
        for _ in range(args.epochs or (1 if args.quick else DEFAULT_CYCLES)):
            for kind in order:
                try:
                    t0 = clock()
                    losses[kind] = runs[kind]()
                    times[kind].append(clock() - t0)
                except Exception as e:  # noqa: BLE001
                    out[kind] = {"error": f"{type(e).__name__}: {e}"[-300:]}
            order = order[1:] + order[:1]
        for kind, ts in times.items():
            if kind not in out and ts:
                out[kind] = {"ms": [1000.0 * t / steps for t in ts], "loss": losses[kind], "setup_s": setup[kind]}
        results[name] = out
        del runs  # free this workload's models before the next is built
    print(json.dumps({"results": results}))


def first_step_worker(kind, backend, args, name="B1"):
    """Import + build + compile + one finished training step on a batch of workload ``name`` (ours, Keras 3 or
    the hand-written loop), timed from the worker's start."""
    clock = _clock(args.clock)
    t0 = _T0_CPU if args.clock == "cpu" else _T0_WALL
    workload = WORKLOADS[name]
    if kind in ("ours", "keras"):
        os.environ["HIGHLEVEL_BACKEND" if kind == "ours" else "KERAS_BACKEND"] = backend
        from _workloads import build_model, make_data

        if kind == "ours":
            import highlevel as lib
        else:
            import_framework(backend, args.threads)
            import keras as lib

        x, y = make_data(workload, 1)
        loss = (
            build_model(lib, workload)
            .fit(x, y, batch_size=workload.batch, epochs=1, verbose=0, shuffle=False)
            .history["loss"][-1]
        )
    else:
        loss = make_contestant("hand", backend, "B1", 1, args.threads)()
    print(json.dumps({"s": clock() - t0, "loss": float(loss)}))


#: Run as ``python -c``: nothing but ``time`` is imported before the module under test.
IMPORT_WORKER = """import time, sys
clock = time.process_time if sys.argv[sys.argv.index("--clock") + 1] == "cpu" else time.perf_counter
t0 = clock()
import {module}
elapsed = clock() - t0
import json
print(json.dumps({{"s": elapsed, "frameworks": [m for m in {frameworks!r} if m in sys.modules]}}))
"""


def memory_worker(kind, args, name="B1"):
    """Peak memory of two training epochs of workload ``name`` on native: ours, or the hand-written loop (numpy on
    B1; PyTorch eager on B5-B7, whose buffers ``tracemalloc`` does not see: compare their ``ru_maxrss`` growth)."""
    import resource
    import tracemalloc

    import numpy as np  # noqa: F401 - imported before the baseline, like the data

    if kind == "ours":
        os.environ["HIGHLEVEL_BACKEND"] = "native"
        import highlevel as hl

        # loading code is not training memory: import what the lazy names load, and the engine, untraced
        hl.config.current_backend(), hl.layers, hl.models, hl.optimizers, hl.losses, hl.metrics, hl.callbacks
    elif WORKLOADS[name].model in HEAVY:
        import_framework("torch", args.threads)  # the framework's own start-up is not training memory
    from _workloads import make_data

    workload = WORKLOADS[name]
    steps = workload.steps(args.steps, args.quick)
    data = make_data(workload, steps)
    rss0 = _rss_kib()
    tracemalloc.start()
    run = make_contestant(kind, "native", name, steps, args.threads, data=data)
    run()
    run()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(json.dumps({"peak_mib": peak / 2**20, "rss_growth_mib": max(0, maxrss - rss0) / 1024}))


def quant_worker(backend, args, keras):
    """Float32 vs int8 / int4 inference of B1's model on one backend (``_quantized.py``), interleaved run by run;
    prints ``{"results": {contestant: {"predict_on_batch": [ms per batch...], "predict": [...], "sizes": {...}}}}``
    (``{"error": ...}`` for a contestant that failed)."""
    import _quantized

    clock = _clock(args.clock)
    built = _quantized.make_contestants(backend, args.threads, keras)
    results = {name: c for name, c in built.items() if isinstance(c, dict)}  # the errors
    runs = {name: c[0] for name, c in built.items() if not isinstance(c, dict)}
    for name, (_, sizes) in ((n, c) for n, c in built.items() if not isinstance(c, dict)):
        results[name] = {"sizes": sizes, **{task: [] for task in runs[name]}}
    for name in list(runs):
        try:
            for run in runs[name].values():
                run()  # warm-up: builds the predict functions, compiles the steps
        except Exception as e:  # noqa: BLE001 - one broken contestant must not lose the others' numbers
            results[name] = {"error": f"{type(e).__name__}: {e}"[-300:]}
            del runs[name]
    order = list(runs)
    batches = _quantized.BATCHES
    for _ in range(args.epochs or (1 if args.quick else DEFAULT_CYCLES)):
        for name in order:
            for task, run in runs[name].items():
                t0 = clock()
                run()
                results[name][task].append(1000.0 * (clock() - t0) / batches)
        order = order[1:] + order[:1]
    print(json.dumps({"results": results}))


def _rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


# -------------------------------------------------------------------------------------------------- driver
def _fmt(v, digits=3, suffix=""):
    return "-" if v is None else f"{v:.{digits}f}{suffix}"


def _median_of(values):
    values = [v for v in values if v is not None]
    return median(values) if values else None


def _median_ratio(a, b, paired=True):
    """The median over cycles of a/b from the cycles where both ran (``paired``), else the ratio of medians."""
    if not paired:
        ma, mb = _median_of(a), _median_of(b)
        return None if ma is None or mb is None else ma / mb
    return _median_of([x / y for x, y in zip(a, b) if x is not None and y is not None])


def _target(row_name, backend, r_hand, r_keras, ours=None):
    """The issue's targets for a row, each with ok / MISS (or "" when the row has none)."""
    out = []
    limit = OURS_TARGETS.get((row_name, backend))
    if limit is not None:
        out.append(f"ours<{limit:g} " + ("?" if ours is None else "ok" if ours < limit else "MISS"))
    limit = HAND_TARGETS.get((row_name, backend), HAND_TARGETS.get((row_name, "*")))
    if limit is not None:
        out.append(f"hand<={limit:g} " + ("?" if r_hand is None else "ok" if r_hand <= limit else "MISS"))
    limit = KERAS_TARGETS.get(row_name) if FRAMEWORK.get(backend) else None
    if limit is not None:
        out.append(f"keras<={limit:.2f} " + ("?" if r_keras is None else "ok" if r_keras <= limit else "MISS"))
    return ", ".join(out)


def _row(name, backend, unit, results, digits=3, note="", paired=True):
    """One table row from ``results`` = {kind: [value per run or None]}; ``paired``: runs of the same index were
    taken side by side (ratios per pair), else ratios of medians; a dict ``{kind: bool}`` says it per kind."""
    ours, hand, keras = (_median_of(results.get(k, [])) for k in KINDS)
    pairs = paired if isinstance(paired, dict) else {"hand": paired, "keras": paired}
    r_hand = _median_ratio(results.get("ours", []), results.get("hand", []), pairs.get("hand", False))
    r_keras = _median_ratio(results.get("ours", []), results.get("keras", []), pairs.get("keras", False))
    return [
        name,
        backend,
        unit,
        _fmt(ours, digits),
        _fmt(hand, digits),
        _fmt(keras, digits),
        _fmt(r_hand, 2, "x"),
        _fmt(r_keras, 2, "x"),
        _target(name, backend, r_hand, r_keras, ours),
        note,
    ]


class Driver:
    """Runs the workers of one invocation and collects the table's rows."""

    def __init__(self, args):
        self.args = args
        self.common = ["--threads", str(args.threads), "--clock", args.clock] + (["--quick"] if args.quick else [])
        if args.steps:
            self.common += ["--steps", str(args.steps)]
        if args.epochs:
            self.common += ["--epochs", str(args.epochs)]

    def call(self, worker_args, label, script=__file__, extra_env=None):
        """One worker's JSON, or None (reported on stderr) when it failed."""
        try:
            return run_worker(script, [*worker_args, *self.common], self.args.threads, extra_env)
        except Exception as e:  # noqa: BLE001 - one broken contestant must not end the run
            print(f"  {label} FAILED: {str(e)[-600:]}", file=sys.stderr, flush=True)
            return None

    def timings(self, backends, names, kinds_of):
        """The workload rows: per backend, ``--repeats`` fresh processes, each cycling through the contestants."""
        rows = []
        repeats = self.args.repeats or (1 if self.args.quick else DEFAULT_REPEATS)
        for backend in backends:
            kinds = kinds_of(backend)
            # per workload and kind: ms per step of every timed run, in cycle order (None: a failed cycle), so
            # that runs of the same cycle pair up for the ratios
            results = {name: {k: [] for k in kinds} for name in names}
            plans = {}  # the contestants' split into processes -> the workloads timed that way
            for name in names:
                spec = PROCESS_GROUPS.get(backend, [kinds])
                groups = tuple(g for g in (tuple(k for k in g if k in kinds) for g in spec) if g)
                plans.setdefault(groups, []).append(name)
            for r in range(repeats):
                for groups, group_names in plans.items():
                    for group in groups:
                        self._time_group(backend, list(group), group_names, results, r, repeats)
            for groups, group_names in plans.items():
                # a ratio is per cycle when ours and the other contestant ran in one process, else of medians
                paired = {k: any("ours" in g and k in g for g in groups) for k in kinds}
                for name in group_names:
                    unit = "ms/batch" if WORKLOADS[name].task != "train" else "ms/step"
                    rows.append(_row(name, backend, unit, results[name], paired=paired))
        rows.sort(key=lambda row: (backends.index(row[1]), list(names).index(row[0])))
        return rows

    def _time_group(self, backend, kinds, names, results, r, repeats):
        """One timing process for ``kinds`` on ``backend``; appends its runs to ``results``."""
        t0 = time.perf_counter()
        out = self.call(
            ["--worker", "time", backend, ",".join(kinds), "--workloads", ",".join(names)],
            f"{backend} {'/'.join(kinds)} round {r + 1}",
        )
        for name in names:
            got = (out or {}).get("results", {}).get(name, {})
            cycles = max([len(got.get(k, {}).get("ms", [])) for k in kinds] + [1])
            for kind in kinds:
                res = got.get(kind, {})
                if "error" in res:
                    print(
                        f"  {name} {backend} {kind} round {r + 1} FAILED: {res['error']}", file=sys.stderr, flush=True
                    )
                ms = res.get("ms", [])
                results[name][kind] += ms + [None] * (cycles - len(ms))
                if ms:
                    print(
                        f"  {name:11s} {backend:10s} {kind:5s} round {r + 1}/{repeats}: median {median(ms):.3f} "
                        f"ms over {len(ms)} runs (loss {res['loss']:.4f}; set-up and warm-up "
                        f"{res['setup_s']:.1f} s)",
                        file=sys.stderr,
                        flush=True,
                    )
        print(
            f"  ({backend} {'/'.join(kinds)} round {r + 1}: {time.perf_counter() - t0:.0f} s)",
            file=sys.stderr,
            flush=True,
        )

    def first_steps(self, backends, heavy=(), keras=False):
        rows = []
        rounds = self.args.first_rounds or (1 if self.args.quick else 2)
        for backend in backends:
            # the reference is a hand-written jax.jit step; numpy's is nearly free, so it costs nothing
            results = {"ours": [], "hand": []} if backend in ("native", "jax") else {"ours": []}
            for r in range(rounds):
                for kind in results:
                    out = self.call(["--worker", "first", kind, backend], f"first step {backend} {kind}")
                    results[kind].append(out and out["s"])
                    if out:
                        print(f"  first step {backend:10s} {kind:5s}: {out['s']:.2f} s", file=sys.stderr, flush=True)
            note = "hand: jax.jit step" if backend == "jax" else ""
            rows.append(_row("first step", backend, "s", results, 2, note))
            # B5-B7: ours against Keras 3 (the target: no slower than Keras)
            for name in heavy:
                results = {"ours": [], "keras": []} if FRAMEWORK[backend] and keras else {"ours": []}
                for r in range(rounds):
                    for kind in results:
                        out = self.call(
                            ["--worker", "first", kind, backend, name], f"first step {name} {backend} {kind}"
                        )
                        results[kind].append(out and out["s"])
                        if out:
                            print(
                                f"  first step {name} {backend:10s} {kind:5s}: {out['s']:.2f} s",
                                file=sys.stderr,
                                flush=True,
                            )
                rows.append(_row(f"first step {name}", backend, "s", results, 2, "", paired=False))
        return rows

    def quantized(self, backends, keras):
        """The quantization rows: per backend and mode, time per batch (``predict_on_batch``, ``predict``) and
        the bytes of the weights and of the saved file; ours quantized vs ours float32 vs Keras 3 quantized."""
        import _quantized

        rows = []
        repeats = self.args.repeats or (1 if self.args.quick else DEFAULT_REPEATS)
        for backend in backends:
            use_keras = keras and FRAMEWORK[backend] is not None
            got = {}  # contestant -> {"predict_on_batch": [...], "predict": [...], "sizes": {...}}
            for r in range(repeats):
                worker = ["--worker", "quant", backend] + ([] if use_keras else ["--no-keras"])
                out = self.call(worker, f"quantized {backend} round {r + 1}") or {}
                for name, res in out.get("results", {}).items():
                    if "error" in res:
                        print(f"  quantized {backend} {name} FAILED: {res['error']}", file=sys.stderr, flush=True)
                        continue
                    mine = got.setdefault(name, {"sizes": res["sizes"]})
                    for task in ("predict_on_batch", "predict"):
                        mine.setdefault(task, []).extend(res[task])
                        print(
                            f"  quantized {backend:10s} {name:10s} {task:16s} round {r + 1}: median "
                            f"{median(res[task]):.3f} ms/batch",
                            file=sys.stderr,
                            flush=True,
                        )
            for mode in _quantized.MODES:
                sides = {"ours": got.get(mode), "hand": got.get("float32"), "keras": got.get(f"keras-{mode}")}
                note = f"hand: ours float32; keras: Keras 3 {mode}" if use_keras else "hand: ours float32"
                for task, label in (("predict_on_batch", "on_batch"), ("predict", "predict")):
                    cells = {k: (v or {}).get(task, []) for k, v in sides.items()}
                    rows.append(_row(f"B1 {mode} {label}", backend, "ms/batch", cells, note=note))
                for size, unit in (("weights", "KiB"), ("file", "KiB")):
                    cells = {k: [v["sizes"][size] / 1024] if v else [] for k, v in sides.items()}
                    rows.append(_row(f"B1 {mode} {size}", backend, unit, cells, 1, note=note))
        return rows

    def import_time(self):
        runs = self.args.import_runs or (3 if self.args.quick else 7)
        results, frameworks = {"ours": [], "hand": []}, set()
        for _ in range(runs):
            for kind, module in (("ours", "highlevel"), ("hand", "numpy")):
                code = IMPORT_WORKER.format(module=module, frameworks=FRAMEWORKS)
                out = self.call([code], f"import {module}", script="-c", extra_env={"HIGHLEVEL_BACKEND": "native"})
                results[kind].append(out and out["s"])
                if out and kind == "ours":
                    frameworks.update(out["frameworks"])
                if out:
                    print(f"  import {module}: {out['s']:.3f} s", file=sys.stderr, flush=True)
        note = "hand: import numpy; " + (
            "imports " + ", ".join(sorted(frameworks)) if frameworks else "no framework imported"
        )
        return [_row("import", "native", "s", results, 3, note)]

    def memory(self, names=("B1",)):
        """Native training memory per workload: ``tracemalloc`` peaks on B1 (ours vs the numpy loop, both seen by
        it); on B5-B7 the ``ru_maxrss`` growth (ours vs PyTorch eager, whose buffers tracemalloc cannot see)."""
        rows = []
        for name in names:
            heavy = WORKLOADS[name].model in HEAVY
            results, growth, peaks = {"ours": [], "hand": []}, {}, {}
            for kind in results:
                out = self.call(["--worker", "memory", kind, name], f"memory {name} {kind}")
                peaks[kind] = out and out["peak_mib"]
                growth[kind] = out and out["rss_growth_mib"]
                results[kind].append(growth[kind] if heavy else peaks[kind])
            if heavy:
                note = "ru_maxrss growth, hand: PyTorch eager; tracemalloc peak ours {} MiB".format(
                    _fmt(peaks["ours"], 1)
                )
            else:
                note = "tracemalloc peak; ru_maxrss growth ours {} / hand {} MiB".format(
                    *(_fmt(growth[k], 1) for k in ("ours", "hand"))
                )
            rows.append(_row(f"memory {name}", "native", "MiB", results, 1, note))
        return rows


def _keras_available():
    import importlib.util

    return importlib.util.find_spec("keras") is not None


def drive(args):
    start = time.perf_counter()
    byte_compile_package()
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    for b in backends:
        if b not in BACKENDS:
            raise SystemExit(f"Unknown backend {b!r}; expected some of {', '.join(BACKENDS)}.")
    try:
        names = expand([w for w in args.workloads.split(",") if w.strip()])
    except ValueError as e:
        raise SystemExit(str(e)) from None
    keras = _keras_available() and not args.no_keras

    def kinds_of(backend):
        return [k for k in KINDS if k != "keras" or (keras and FRAMEWORK[backend])]

    if args.runs < 1:
        raise SystemExit(f"--runs must be at least 1; received {args.runs}.")
    driver = Driver(args)
    tables = []
    for run in range(args.runs):
        if args.runs > 1:
            print(f"  == run {run + 1} of {args.runs} ==", file=sys.stderr, flush=True)
        rows = driver.timings(backends, names, kinds_of) if names else []
        if args.quantized:
            rows += driver.quantized(backends, keras)
        if not args.no_extras:
            rows += driver.first_steps(backends, [n for n in names if WORKLOADS[n].model in HEAVY], keras)
            if "native" in backends:
                rows += driver.import_time()
                rows += driver.memory(["B1"] + [n for n in names if WORKLOADS[n].model in HEAVY])
        if args.runs > 1:
            print(f"Run {run + 1} of {args.runs}:\n")
        print(format_table(HEADER, rows))
        if args.runs > 1:
            print()
        tables.append(rows)
    if args.runs > 1:
        summary, verdict = _verdict.summarize(HEADER, tables)
        print(f"Targets in each of the {args.runs} runs (in a row, one invocation):\n")
        print(format_table(_verdict.summary_header(args.runs), summary))
        print(f"\n{verdict}")
    repeats, cycles = (
        args.repeats or (1 if args.quick else DEFAULT_REPEATS),
        args.epochs or (1 if args.quick else DEFAULT_CYCLES),
    )
    print(
        f"\n{f'{args.runs} runs in a row, each ' if args.runs > 1 else ''}"
        f"{repeats} process(es) x {cycles} alternating timed run(s) per backend, {args.threads} thread(s), "
        f"{args.clock} clock"
        f"{', quick' if args.quick else ''}; keras {'on' if keras else 'not installed or off'}; "
        f"total {time.perf_counter() - start:.0f} s."
    )


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated subset of " + ", ".join(BACKENDS))
    p.add_argument(
        "--workloads",
        default="B1,B2,B3,B4,B5,B6,B7,B8",
        help="comma-separated subset of B1, B2, B3, B4 (both B4 rows), B4-predict, B4-evaluate, B5, B6 (B6 and "
        "B6-bi), B6-bi, B7, B8; "
        "empty for only the extra rows",
    )
    p.add_argument("--threads", type=int, default=1, help="threads for every library (default 1)")
    p.add_argument(
        "--repeats",
        type=int,
        default=0,
        help="fresh processes per backend for the timing rows (default 3; 1 with --quick)",
    )
    p.add_argument(
        "--epochs",
        type=int,
        default=0,
        help="alternating timed runs per contestant and workload in a process (default 5; 1 with --quick)",
    )
    p.add_argument(
        "--runs",
        type=int,
        default=1,
        help="measure the whole table this many times in a row (default 1); with more than one, print every "
        "run's table, then each target's value in every run and whether it was met in all of them",
    )
    p.add_argument("--steps", type=int, default=0, help="training steps per timed epoch (default per workload)")
    p.add_argument("--first-rounds", type=int, default=0, help="fresh processes per first-step cell (default 2)")
    p.add_argument("--import-runs", type=int, default=0, help="fresh processes per import cell (default 7)")
    p.add_argument("--quick", action="store_true", help="fewer steps and rounds: a smoke run")
    p.add_argument("--no-keras", action="store_true", help="skip Keras 3 even when it is installed")
    p.add_argument(
        "--quantized",
        action="store_true",
        help="add the quantization rows: B1's model in float32 vs int8 / int4 inference (time and size)",
    )
    p.add_argument("--no-extras", action="store_true", help="skip the first-step, import and memory rows")
    p.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall: elapsed time (what users see); cpu: the process's CPU time (robust on a loaded "
        "machine, for single-threaded runs)",
    )
    p.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if not args.worker:
        return drive(args)
    pin_threads(args.threads)
    mode, rest = args.worker[0], args.worker[1:]
    if mode == "time":
        time_worker(rest[0], rest[1].split(","), expand(args.workloads.split(",")), args)
    elif mode == "first":
        if rest[0] == "hand":
            import_framework(rest[1], args.threads)  # part of the hand loop's first step, like ours
        first_step_worker(rest[0], rest[1], args, *rest[2:3])
    elif mode == "memory":
        memory_worker(rest[0], args, *rest[1:2])
    elif mode == "quant":
        quant_worker(rest[0], args, keras=not args.no_keras and _keras_available())
    else:
        raise SystemExit(f"Unknown worker mode {mode!r}")


if __name__ == "__main__":
    main()
