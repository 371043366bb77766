"""Per-step training time of ``model.fit`` against a hand-written loop and against Keras 3, on every backend.

Workloads (softmax cross-entropy on integer labels, Adam 1e-3):

* **B1**: MLP 784-512-512-10, batch 128 (compute-bound: big matrix products);
* **B2**: MLP 32-64-64-10, batch 32 (overhead-bound: every microsecond of Python per step shows).

For each backend three contestants train the same model on the same data:

* **ours**: ``highlevel`` ``Sequential`` + ``compile(Adam, SparseCategoricalCrossentropy(from_logits=True))`` +
  ``fit(x, y, batch_size, epochs=1, verbose=0, shuffle=False)``, measured as users run it (one ``fit`` call
  per timed epoch, so per-call set-up counts);
* **hand**: the hand-written loop of ``_hand_loops.py`` in the backend's framework (numpy for native);
* **keras**: Keras 3 with ``KERAS_BACKEND`` set to the same framework (none for native: "-").

Every measurement is its own subprocess with pinned thread counts (``--threads``, default 1: the
``OMP/MKL/OPENBLAS_NUM_THREADS`` variables, ``torch.set_num_threads``, TensorFlow's intra/inter-op threads and
``XLA_FLAGS=--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1``). A worker runs one warm-up
epoch (compilation, caches), then ``--epochs`` timed epochs and reports the fastest one's ms/step (on a shared
machine the fastest epoch is the one least disturbed by other load). The driver runs
the contestants interleaved (ours, hand, keras, ours, hand, keras, ...) for ``--repeats`` rounds and prints the
medians and the median of the per-round ratios.

Run: ``python benchmarks/train_mlp.py`` (a few minutes per backend), ``--quick`` for a fast smoke run,
``--backends native,jax --workloads B2`` to narrow it. Not a test: numbers depend on the machine.
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

#: name -> (layer widths from input to logits, batch size, steps per epoch, quick steps per epoch)
WORKLOADS = {
    "B1": ([784, 512, 512, 10], 128, 30, 8),
    "B2": ([32, 64, 64, 10], 32, 300, 60),
}
BACKENDS = ("native", "torch", "jax", "tensorflow")
KINDS = ("ours", "hand", "keras")
#: the framework each backend's hand-written loop and Keras run use (native: numpy, and no Keras)
FRAMEWORK = {"native": None, "torch": "torch", "jax": "jax", "tensorflow": "tensorflow"}


def make_data(widths, batch, steps):
    """Standard-normal features and uniform integer labels (int64, as numpy gives them), fixed seed."""
    import numpy as np

    rng = np.random.default_rng(0)
    n = batch * steps
    x = rng.standard_normal((n, widths[0])).astype(np.float32)
    y = rng.integers(0, widths[-1], n).astype(np.int64)
    return x, y


# ------------------------------------------------------------------------------------------ the workers
def _ours_epoch(backend, x, y, widths, batch):
    os.environ["HIGHLEVEL_BACKEND"] = backend
    if FRAMEWORK[backend]:
        __import__(FRAMEWORK[backend])
        pin_framework_threads(FRAMEWORK[backend], _ARGS.threads)
    import highlevel as hl

    layers = [hl.Input((widths[0],))]
    layers += [hl.layers.Dense(w, activation="relu") for w in widths[1:-1]]
    layers.append(hl.layers.Dense(widths[-1]))
    model = hl.Sequential(layers)
    model.compile(optimizer=hl.optimizers.Adam(1e-3),
                  loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True))

    def epoch():
        history = model.fit(x, y, batch_size=batch, epochs=1, verbose=0, shuffle=False)
        return history.history["loss"][-1]

    return epoch


def _keras_epoch(backend, x, y, widths, batch):
    os.environ["KERAS_BACKEND"] = backend
    __import__(FRAMEWORK[backend])
    pin_framework_threads(FRAMEWORK[backend], _ARGS.threads)
    import keras

    layers = [keras.Input((widths[0],))]
    layers += [keras.layers.Dense(w, activation="relu") for w in widths[1:-1]]
    layers.append(keras.layers.Dense(widths[-1]))
    model = keras.Sequential(layers)
    model.compile(optimizer=keras.optimizers.Adam(1e-3),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))

    def epoch():
        history = model.fit(x, y, batch_size=batch, epochs=1, verbose=0, shuffle=False)
        return history.history["loss"][-1]

    return epoch


def _hand_epoch(backend, x, y, widths, batch):
    import _hand_loops

    if FRAMEWORK[backend]:
        __import__(FRAMEWORK[backend])
        pin_framework_threads(FRAMEWORK[backend], _ARGS.threads)
    return _hand_loops.MAKERS[backend](x, y, widths, batch)


def worker(kind, backend, workload, steps, epochs):
    """Times one contestant in this process; prints ``{"ms_per_step": ..., ...}`` (fastest epoch) last."""
    widths, batch = WORKLOADS[workload][:2]
    x, y = make_data(widths, batch, steps)
    make = {"ours": _ours_epoch, "hand": _hand_epoch, "keras": _keras_epoch}[kind]
    epoch = make(backend, x, y, widths, batch)
    loss = epoch()  # warm-up: builds, compiles, fills caches
    times = []
    for _ in range(epochs):
        t0 = _clock()
        loss = epoch()
        times.append(_clock() - t0)
    print(json.dumps({"ms_per_step": 1000.0 * min(times) / steps, "loss": float(loss),
                      "epoch_ms": [1000.0 * t for t in times]}))


# ------------------------------------------------------------------------------------------ the driver
HEADER = ["workload", "backend", "ours ms/step", "hand ms/step", "keras ms/step", "ours/hand", "ours/keras"]


def _fmt(v, digits=3, suffix=""):
    return "-" if v is None else f"{v:.{digits}f}{suffix}"


def _median_of(values):
    values = [v for v in values if v is not None]
    return median(values) if values else None


def _median_ratio(a, b):
    """The median over rounds of a/b, from the rounds where both ran."""
    return _median_of([x / y for x, y in zip(a, b) if x is not None and y is not None])


def drive(args):
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    workloads = [w.strip().upper() for w in args.workloads.split(",") if w.strip()]
    for b in backends:
        if b not in BACKENDS:
            raise SystemExit(f"Unknown backend {b!r}; expected some of {', '.join(BACKENDS)}.")
    for w in workloads:
        if w not in WORKLOADS:
            raise SystemExit(f"Unknown workload {w!r}; expected some of {', '.join(WORKLOADS)}.")
    repeats = args.repeats or (1 if args.quick else 3)
    epochs = args.epochs or (2 if args.quick else 3)
    rows = []
    for workload in workloads:
        steps = WORKLOADS[workload][3 if args.quick else 2]
        for backend in backends:
            kinds = [k for k in KINDS if not (k == "keras" and FRAMEWORK[backend] is None)]
            results = {k: [] for k in kinds}  # one entry per round; None where the worker failed
            for r in range(repeats):
                for kind in kinds:
                    try:
                        out = run_worker(__file__, ["--worker", kind, backend, workload, "--steps", str(steps),
                                                    "--epochs", str(epochs), "--threads", str(args.threads),
                                                    "--clock", args.clock], args.threads)
                    except Exception as e:  # noqa: BLE001 - one broken contestant must not end the run
                        print(f"  {workload} {backend} {kind} round {r + 1} FAILED: {str(e)[-400:]}",
                              file=sys.stderr, flush=True)
                        results[kind].append(None)
                        continue
                    results[kind].append(out["ms_per_step"])
                    print(f"  {workload} {backend:10s} {kind:5s} round {r + 1}/{repeats}: "
                          f"{out['ms_per_step']:.3f} ms/step (loss {out['loss']:.4f})", file=sys.stderr, flush=True)
            ours, hand = _median_of(results["ours"]), _median_of(results["hand"])
            keras = _median_of(results["keras"]) if "keras" in results else None
            r_hand = _median_ratio(results["ours"], results["hand"])
            r_keras = _median_ratio(results["ours"], results["keras"]) if "keras" in results else None
            rows.append([workload, backend, _fmt(ours), _fmt(hand), _fmt(keras), _fmt(r_hand, 2, "x"),
                         _fmt(r_keras, 2, "x")])
            print(format_table(HEADER, rows[-1:]), file=sys.stderr, flush=True)
    print(format_table(HEADER, rows))
    print(f"\n{repeats} interleaved round(s), {epochs} timed epoch(s) per run, {args.threads} thread(s).")


def main(argv=None):
    global _ARGS
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated subset of " + ", ".join(BACKENDS))
    p.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated subset of B1, B2")
    p.add_argument("--threads", type=int, default=1, help="threads for every library (default 1)")
    p.add_argument("--repeats", type=int, default=0, help="interleaved rounds (default 3; 1 with --quick)")
    p.add_argument("--epochs", type=int, default=0, help="timed epochs per run (default 3; 2 with --quick)")
    p.add_argument("--quick", action="store_true", help="fewer steps, one round: a smoke run")
    p.add_argument("--worker", nargs=3, metavar=("KIND", "BACKEND", "WORKLOAD"), help=argparse.SUPPRESS)
    p.add_argument("--steps", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="wall: elapsed time (what users see); cpu: this process's CPU time (robust on a loaded "
                        "machine, for single-threaded runs)")
    args = p.parse_args(argv)
    global _clock
    _clock = time.process_time if args.clock == "cpu" else time.perf_counter
    _ARGS = args
    if args.worker:
        pin_threads(args.threads)
        worker(*args.worker, steps=args.steps, epochs=args.epochs or 3)
    else:
        drive(args)


_ARGS = None

_clock = time.perf_counter

if __name__ == "__main__":
    main()
