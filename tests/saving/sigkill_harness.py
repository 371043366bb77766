"""Kills a process with SIGKILL while it saves over existing files, then checks those files still load.

Run as ``python -m tests.saving.sigkill_harness FOLDER ROUNDS SEED [in-place]`` with
``HIGHLEVEL_BACKEND=native`` (the writer does not depend on the engine, and a process holding no engine
threads forks safely). Each round
forks a writer that saves, over and over, a model whose every variable holds the save's number ``k``
(rounds alternate ``model.save`` and ``model.save_weights``); the harness kills it after a random delay,
then loads the file. Prints one JSON line: per round, the target, the delay, the ``k`` the file holds (every
variable must hold the same one: a mix would be a torn write), how many temporary files the kill left
behind (one means it struck mid-write), and any load error.

With ``in-place`` the writer overwrites the destination directly instead of atomically: the control that
shows the harness does catch torn writes.
"""

import json
import os
import random
import signal
import sys
import time

import numpy as np


def _fill(model, k):
    for v in model.variables:
        v.assign(np.full(tuple(v.shape), k, dtype=v.dtype))


def _value(model):
    import highlevel as hl

    values = {float(x) for v in model.variables for x in np.unique(np.asarray(hl.ops.convert_to_numpy(v.value)))}
    if len(values) != 1:
        raise AssertionError(f"the file mixes saves: its variables hold {sorted(values)[:6]}")
    return values.pop()


def _writer(model, path, kind):
    """The forked child: saves forever (until killed), each save with a new ``k``."""
    try:
        k = 1
        while True:
            _fill(model, k)
            model.save(path) if kind == "model" else model.save_weights(path)
            k += 1
    finally:
        os._exit(0)


def _write_in_place(path, data):
    """``atomic_write`` without the temporary file and the rename: what the harness must catch."""
    with open(path, "wb") as f:
        if callable(data):
            data(f)
        else:
            f.write(data)
        f.flush()
        os.fsync(f.fileno())


def main(folder, rounds, seed, in_place=False):
    import highlevel as hl
    from highlevel.saving import archive

    if in_place:
        archive.atomic_write = _write_in_place

    def make():
        return hl.Sequential([hl.Input((64,)), hl.layers.Dense(512, name="a"), hl.layers.Dense(512, name="b")])

    model = make()
    paths = {"model": os.path.join(folder, "m.hl.zip"), "weights": os.path.join(folder, "m.safetensors")}
    _fill(model, 0)
    model.save(paths["model"])
    model.save_weights(paths["weights"])
    rng = random.Random(seed)
    results = []
    for r in range(rounds):
        kind = "model" if r % 2 == 0 else "weights"
        delay = rng.uniform(0.0, 0.25)
        pid = os.fork()
        if pid == 0:
            _writer(model, paths[kind], kind)
        time.sleep(delay)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        leftovers = [n for n in os.listdir(folder) if n.endswith(".tmp")]
        for name in leftovers:  # what a killed writer cannot clean up; the next round starts clean
            os.unlink(os.path.join(folder, name))
        result = {"kind": kind, "delay": round(delay, 4), "leftover_tmp": len(leftovers), "k": None, "error": None}
        try:
            if kind == "model":
                result["k"] = _value(hl.saving.load_model(paths[kind]))
            else:
                fresh = make()
                fresh.load_weights(paths[kind])
                result["k"] = _value(fresh)
        except Exception as e:  # reported to the test, which fails on it
            result["error"] = f"{type(e).__name__}: {e}"
        results.append(result)
    print(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), in_place=sys.argv[4:] == ["in-place"])
