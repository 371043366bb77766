"""Where ``fit``'s per-step time goes in the front end: each candidate fix emulated by a monkeypatch, timed.

Each patch below replaces one piece of the front end that is still open (rebuilding the trainable-variable
list, op dispatch, on native a fused dense layer, on PyTorch a no-grad step) by what a fix would leave, in a
benchmark process only: no library file changes. (Patches for fixes that have landed — memoised layer walks,
Adam's bias correction on the host and its fused multi-variable kernel, the fused cross-entropy, per-batch
logs only when a callback reads them — were removed with the fix.) Running a workload of
``_workloads.py`` (``--workload``, default B2: MLP 32-64-64-10, batch 32, Adam) with no patch, with each patch
alone and with all of them shows how many ms/step each fix would save on each backend.
Each backend runs in its own subprocess with pinned threads; inside it the configurations alternate epoch by
epoch (patches applied and undone around each epoch), so machine noise hits them alike, and each saving is the
median over rounds of the paired difference with the unpatched epoch.

Run: ``python benchmarks/fit_overheads.py --backends native,torch [--rounds 15]``.
The numbers are upper bounds of what each fix saves: a patch skips the work, a real fix may keep some of it.
"""

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from _harness import format_table, median, pin_framework_threads, pin_threads, run_worker  # noqa: E402
from _workloads import MLP as WORKLOADS  # noqa: E402

WIDTHS, BATCH = WORKLOADS["B2"][:2]
FRAMEWORK = {"native": None, "torch": "torch", "jax": "jax", "tensorflow": "tensorflow"}


# --------------------------------------------------------------------------------------- the patches
def patch_trainable_variables(hl, model):
    """Cache ``model.trainable_variables`` (rebuilt from the layer tree on every ``train_step``)."""
    cls = type(model)
    had_own = "trainable_variables" in cls.__dict__
    original = cls.trainable_variables
    cache = {}

    def cached(self):
        if id(self) not in cache:
            cache[id(self)] = original.fget(self)
        return cache[id(self)]

    cls.trainable_variables = property(cached)
    return lambda: setattr(cls, "trainable_variables", original) if had_own else delattr(cls, "trainable_variables")


def patch_direct_dispatch(hl, model):
    """``hl.ops.<name>`` bound straight to the backend's method (no ``any_symbolic`` walk over the
    arguments and no ``current_backend()`` lookup on every op call)."""
    from highlevel import ops
    from highlevel.config import current_backend

    backend = current_backend()
    originals = {name: getattr(ops, name) for name in ops.__all__}
    for name in ops.__all__:
        target = getattr(backend, name, None)
        if target is not None and callable(target):
            setattr(ops, name, target)
    return lambda: [setattr(ops, n, f) for n, f in originals.items()]


def patch_fused_dense(hl, model):
    """Native only: ``Dense.call`` as the engine's fused ``dense`` op (matmul + bias + relu in one graph node,
    ReLU in place) instead of three ops."""
    from highlevel.config import current_backend

    return _patch_dense(current_backend())


def _patch_dense(backend):
    from highlevel.layers.core.dense import Dense

    if not hasattr(backend, "dense"):
        return lambda: None
    original = Dense.call

    def call(self, inputs):
        name = getattr(self.activation, "__name__", None)
        if name not in ("relu", "linear") and self.activation is not None:
            return original(self, inputs)
        return backend.dense(inputs, self.kernel, self.bias, "relu" if name == "relu" else None)

    Dense.call = call
    return lambda: setattr(Dense, "call", original)


def patch_no_grad_step(hl, model):
    """PyTorch only (a backend fix): run the eager step under ``torch.no_grad()`` — the loss part turns grad
    back on in ``variables_value_and_grad`` — so that the optimizer's arithmetic on Parameters
    (``assign_sub(variable.value - ...)``) records no autograd graph."""
    from highlevel.config import current_backend

    backend = current_backend()
    if backend.name != "torch":
        return lambda: None
    import torch

    cls = type(backend)
    had_own = "compile_step" in cls.__dict__
    original = cls.compile_step

    def compile_step(self, fn, state_variables, jit_compile=True, read_only=()):
        def step(*args, **kwargs):
            with torch.no_grad():
                return fn(*args, **kwargs)

        return step

    cls.compile_step = compile_step
    return lambda: setattr(cls, "compile_step", original) if had_own else delattr(cls, "compile_step")


PATCHES = {
    "trainable_vars": patch_trainable_variables,
    "direct_dispatch": patch_direct_dispatch,
    "fused_dense": patch_fused_dense,
    "no_grad_step": patch_no_grad_step,
}


CONFIGS = ["none"] + list(PATCHES) + ["all"]


def _patches_of(config):
    return [] if config == "none" else list(PATCHES) if config == "all" else [config]


def worker(backend, threads, rounds, steps):
    """Times every configuration in this process, interleaved epoch by epoch; prints the per-round times."""
    os.environ["HIGHLEVEL_BACKEND"] = backend
    if FRAMEWORK[backend]:
        __import__(FRAMEWORK[backend])
        pin_framework_threads(FRAMEWORK[backend], threads)
    import numpy as np

    import highlevel as hl

    rng = np.random.default_rng(0)
    x = rng.standard_normal((BATCH * steps, WIDTHS[0])).astype(np.float32)
    y = rng.integers(0, WIDTHS[-1], BATCH * steps).astype(np.int64)
    model = hl.Sequential(
        [hl.Input((WIDTHS[0],))]
        + [hl.layers.Dense(w, activation="relu") for w in WIDTHS[1:-1]]
        + [hl.layers.Dense(WIDTHS[-1])]
    )
    model.compile(optimizer=hl.optimizers.Adam(1e-3), loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True))
    fit = lambda: model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)  # noqa: E731
    fit()  # builds the model, the loss and the optimizer
    functions = {}  # each configuration keeps its own compiled step (jax.jit / tf.function trace the patches)

    def run(config):
        undo = [PATCHES[name](hl, model) for name in _patches_of(config)]
        try:
            model._train_function = functions.get(config)
            t0 = _clock()
            fit()
            elapsed = _clock() - t0
            functions[config] = model._train_function
        finally:
            for u in reversed(undo):
                u()
        return elapsed

    for config in CONFIGS:  # warm-up: traces and caches every configuration once
        run(config)
    times = {c: [] for c in CONFIGS}
    for _ in range(rounds):
        for config in CONFIGS:
            times[config].append(1000.0 * run(config) / steps)
    print(json.dumps(times))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--backends", default="native")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--rounds", type=int, default=15, help="interleaved rounds (one epoch per configuration each)")
    p.add_argument("--steps", type=int, default=100, help="steps per epoch")
    p.add_argument("--workload", default="B2", choices=sorted(WORKLOADS))
    p.add_argument("--worker", metavar="BACKEND", help=argparse.SUPPRESS)
    p.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="cpu",
        help="cpu (default): this process's CPU time, robust on a loaded machine for single-threaded "
        "runs; wall: elapsed time",
    )
    args = p.parse_args(argv)
    global _clock
    _clock = time.process_time if args.clock == "cpu" else time.perf_counter
    global WIDTHS, BATCH
    WIDTHS, BATCH = WORKLOADS[args.workload][:2]
    if args.worker:
        pin_threads(args.threads)
        worker(args.worker, args.threads, args.rounds, args.steps)
        return
    rows = []
    for backend in args.backends.split(","):
        times = run_worker(
            __file__,
            [
                "--worker",
                backend,
                "--threads",
                str(args.threads),
                "--clock",
                args.clock,
                "--rounds",
                str(args.rounds),
                "--steps",
                str(args.steps),
                "--workload",
                args.workload,
            ],
            args.threads,
        )
        base = times["none"]
        for c in CONFIGS:
            saved = median([b - v for b, v in zip(base, times[c])])
            rows.append(
                [
                    backend,
                    "all of them" if c == "all" else c,
                    f"{median(times[c]):.3f}",
                    "-" if c == "none" else f"{saved:.3f}",
                ]
            )
        print(f"[{backend} done]", file=sys.stderr, flush=True)
        print(format_table(["backend", "patch", "ms/step", "saves ms/step"], rows[-len(CONFIGS) :]), flush=True)


_clock = time.perf_counter

if __name__ == "__main__":
    main()
