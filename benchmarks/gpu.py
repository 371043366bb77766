"""The native engine on a GPU (CuPy): the conformance suite on the CuPy path, then B1 at batch 4096 against
hand-written PyTorch CUDA eager. One prepared script for a machine with an NVIDIA GPU, CuPy and a CUDA build of
PyTorch; a few minutes.

```bash
pip install -e ".[gpu,test]" torch            # CuPy for the native engine; a CUDA torch for the comparison
python benchmarks/gpu.py                        # both parts
python benchmarks/gpu.py --skip-conformance     # only the timing
```

Part 1 runs ``pytest tests/conformance`` in a subprocess with ``HIGHLEVEL_DEVICE=gpu`` and
``HIGHLEVEL_TEST_BACKENDS=native`` (every op of the native engine against the float64 reference, on CuPy
arrays, including the fused CUDA kernels of backends/native/gpu_kernels.py through the dense, relu and Adam
cases) and reports its counts. bfloat16 cases are deselected: CuPy has no bfloat16 (the capability is off).
Without a GPU, tests/backends/native/test_gpu_path.py runs the same engine code on a fake CuPy and checks
that a training step reads nothing on the host; this script is where the real kernels compile and run.

Part 2 times one training step of B1 (MLP 784-512-512-10, Adam, sparse softmax cross-entropy, float32) at
batch 4096: our ``fit`` (``verbose=0``: no per-batch logs read on the host) on the native engine with CuPy
against a hand-written PyTorch loop (``nn.Linear``/``ReLU``, ``CrossEntropyLoss``, ``torch.optim.Adam``) on
the same GPU. Both take their batches from host numpy arrays each step (the transfer is part of a step for
both) and both are timed with a device synchronisation at the end of each timed run; the runs alternate (ours,
torch, ours, ...) and the table shows medians and the median per-round ratio (target: ours/torch <= 1.3), then
the bytes CuPy's memory pool (the caching allocator) holds.

Exit status: 0 when both parts ran (whatever the numbers), 2 when there is no GPU, CuPy or CUDA torch (with a
message saying which), 1 when the conformance run failed.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WIDTHS = (784, 512, 512, 10)
BATCH = 4096


def _missing():
    """What this machine lacks for the GPU run (None when it has everything)."""
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() < 1:
            return "CuPy sees no GPU"
    except Exception as e:  # ImportError, or a CUDA runtime error
        return f"CuPy is not usable ({e}); pip install 'highlevel[gpu]'"
    try:
        import torch

        if not torch.cuda.is_available():
            return "this PyTorch build has no CUDA (install a CUDA torch for the comparison)"
    except ImportError:
        return "PyTorch is not installed (needed for the comparison)"
    return None


def conformance():
    """Runs the conformance suite on the CuPy path; returns (exit code, last line of pytest's summary)."""
    env = dict(os.environ, HIGHLEVEL_DEVICE="gpu", HIGHLEVEL_TEST_BACKENDS="native", CI="")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "not bfloat16", "tests/conformance"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    return proc.returncode, (lines[-1] if lines else proc.stderr[-500:])


def _data(steps):
    import numpy as np

    rng = np.random.default_rng(0)
    x = rng.normal(size=(BATCH * steps, WIDTHS[0])).astype("float32")
    y = rng.integers(0, WIDTHS[-1], size=(BATCH * steps,)).astype("int64")
    return x, y


def ours(steps):
    """A function running one epoch (``steps`` steps) of our fit on the native engine with CuPy."""
    import cupy

    import highlevel as hl

    hl.config.set_backend("native")
    hl.utils.set_random_seed(0)
    layers = [hl.Input((WIDTHS[0],))]
    layers += [hl.layers.Dense(w, activation="relu") for w in WIDTHS[1:-1]] + [hl.layers.Dense(WIDTHS[-1])]
    model = hl.Sequential(layers)
    model.compile(optimizer=hl.optimizers.Adam(1e-3), loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True))
    x, y = _data(steps)

    def epoch():
        model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)
        cupy.cuda.Device().synchronize()

    return epoch


def hand_torch(steps):
    """A function running one epoch of the hand-written PyTorch CUDA eager loop."""
    import torch

    torch.manual_seed(0)
    dev = torch.device("cuda")
    mods = []
    for k, (i, o) in enumerate(zip(WIDTHS[:-1], WIDTHS[1:])):
        mods.append(torch.nn.Linear(i, o))
        if k < len(WIDTHS) - 2:
            mods.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*mods).to(dev)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    loss_fn = torch.nn.CrossEntropyLoss()
    x, y = _data(steps)

    def epoch():
        for s in range(steps):
            xb = torch.from_numpy(x[s * BATCH : (s + 1) * BATCH]).to(dev, non_blocking=True)
            yb = torch.from_numpy(y[s * BATCH : (s + 1) * BATCH]).to(dev, non_blocking=True)
            opt.zero_grad(set_to_none=True)
            loss_fn(net(xb), yb).backward()
            opt.step()
        torch.cuda.synchronize()

    return epoch


def timing(steps, rounds):
    """Alternating timed epochs of ours and the torch loop; returns (ours ms/step, torch ms/step, ratio)."""
    contestants = {"ours": ours(steps), "torch": hand_torch(steps)}
    for run in contestants.values():
        run()  # warm-up: the recording, cuBLAS handles, the memory pools
    times = {name: [] for name in contestants}
    ratios = []
    for _ in range(rounds):
        for name, run in contestants.items():
            t = time.perf_counter()
            run()
            times[name].append((time.perf_counter() - t) / steps * 1e3)
        ratios.append(times["ours"][-1] / times["torch"][-1])
    return statistics.median(times["ours"]), statistics.median(times["torch"]), statistics.median(ratios)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-conformance", action="store_true", help="only the timing")
    parser.add_argument("--steps", type=int, default=20, help="steps per timed run (default 20)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating timed runs each (default 5)")
    args = parser.parse_args(argv)
    missing = _missing()
    if missing:
        print(f"benchmarks/gpu.py needs a CUDA GPU with CuPy and a CUDA PyTorch: {missing}.", file=sys.stderr)
        return 2
    status = 0
    if not args.skip_conformance:
        t = time.perf_counter()
        code, summary = conformance()
        print(f"conformance on CuPy (native): {summary}  [{time.perf_counter() - t:.0f} s]")
        status = 1 if code else 0
    os.environ["HIGHLEVEL_DEVICE"] = "gpu"  # before highlevel's native engine loads in this process
    ours_ms, torch_ms, ratio = timing(args.steps, args.rounds)
    verdict = "ok" if ratio <= 1.3 else "MISS"
    print("| workload | ours (native, CuPy) ms/step | torch CUDA eager ms/step | ours/torch | target |")
    print("|---|---|---|---|---|")
    print(f"| B1, batch {BATCH} | {ours_ms:.3f} | {torch_ms:.3f} | {ratio:.2f}x | <=1.3 {verdict} |")
    import cupy

    pool = cupy.get_default_memory_pool()
    print(f"CuPy memory pool: {pool.used_bytes() / 2**20:.0f} MiB in use, {pool.total_bytes() / 2**20:.0f} MiB held")
    return status


if __name__ == "__main__":
    sys.exit(main())
