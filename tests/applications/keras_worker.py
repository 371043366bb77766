"""Runs real Keras (its engine from ``KERAS_BACKEND``) for the applications oracle, in its own process.

``python keras_worker.py SPEC.json FOLDER`` reads the spec ``{"model": name, "kwargs": {...}, "legacy": bool,
"describe": [[name, kwargs], ...]}`` and writes into FOLDER:

- ``model.weights.h5``: the model's weights (Keras 3 layout), after every batch-norm statistic, gamma, beta and
  bias was set to seeded random values (so that a wrong load of any of them shows in the outputs);
- ``legacy.h5`` with ``"legacy": true``: the same weights in Keras 2's by-layer layout, by Keras's own writer;
- ``images.npy`` and ``outputs.npy``: seeded images and the model's inference outputs on them;
- ``describe.json``: for each ``describe`` entry, the parameter count, the names of the layers with weights,
  the weights' shapes and the names of all layers (built only, never run).

``python keras_worker.py --serve`` imports Keras once and serves many requests, one JSON line each on stdin:
``{"spec": SPEC.json, "folder": FOLDER}`` as above, or ``{"script": SOURCE, "argv": [...]}`` to run a short
script (as ``python -c SOURCE ARGV...`` would); it answers each with one JSON line, ``{"ok": true}`` or
``{"ok": false, "error": TRACEBACK}``. Every spec starts from a fresh Keras session and the same seed, so a
served spec writes the files a process of its own would.
"""

import contextlib
import json
import os
import sys
import traceback

import numpy as np


def _randomize(model, rng):
    for v in model.weights:
        name = v.path.rsplit("/", 1)[-1]
        shape = tuple(v.shape)
        if name in ("moving_variance", "gamma"):
            v.assign(rng.uniform(0.5, 1.5, shape).astype("float32"))
        elif name in ("moving_mean", "beta", "bias"):
            v.assign((0.1 * rng.standard_normal(shape)).astype("float32"))


@contextlib.contextmanager
def _no_random_draws():
    """Initializers fill weights with zeros instead of random draws: the described models are only counted and
    named, and drawing the largest ones' weights (EfficientNetV2L: 117M) was most of the worker's time."""
    from keras.src.initializers import random_initializers

    module = random_initializers.random
    saved = {name: getattr(module, name) for name in ("normal", "truncated_normal", "uniform")}

    def zeros(shape, *args, dtype=None, **kwargs):
        return np.zeros(shape, dtype=dtype or "float32")

    for name in saved:
        setattr(module, name, zeros)
    try:
        yield
    finally:
        for name, function in saved.items():
            setattr(module, name, function)


def main(spec_path, folder):
    import keras
    from keras.src.legacy.saving import legacy_h5_format

    with open(spec_path) as f:
        spec = json.load(f)
    keras.backend.clear_session(free_memory=False)  # a fresh session: what a new process starts with
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    build = getattr(keras.applications, spec["model"])
    model = build(weights=None, **spec["kwargs"])
    _randomize(model, rng)
    model.save_weights(os.path.join(folder, "model.weights.h5"))
    if spec.get("legacy"):
        import h5py

        with h5py.File(os.path.join(folder, "legacy.h5"), "w") as f:
            legacy_h5_format.save_weights_to_hdf5_group(f, model)
    shape = (2,) + tuple(model.input_shape[1:])
    images = rng.uniform(-1.0, 1.0, shape).astype("float32")
    np.save(os.path.join(folder, "images.npy"), images)
    np.save(os.path.join(folder, "outputs.npy"), np.asarray(model(images, training=False)))
    del model
    described = {}
    with _no_random_draws():
        for name, kwargs in spec.get("describe", []):
            # Each from a fresh session, as a user's first model is: its unnamed layers then get their first names.
            keras.backend.clear_session(free_memory=False)
            other = getattr(keras.applications, name)(weights=None, **kwargs)
            described[name] = {
                "params": int(other.count_params()),
                "layers": [layer.name for layer in other.layers if layer.weights],
                "shapes": [list(v.shape) for v in other.weights],
                "names": [layer.name for layer in other.layers],
            }
            del other
    with open(os.path.join(folder, "describe.json"), "w") as f:
        json.dump(described, f)


def _run_script(source, argv):
    saved = sys.argv
    sys.argv = ["-c", *argv]
    try:
        exec(compile(source, "<script>", "exec"), {"__name__": "__main__"})
    finally:
        sys.argv = saved


def serve():
    """Answers requests from stdin until it closes. Whatever Keras prints goes to stderr: stdout carries only
    the answers."""
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            if "script" in request:
                _run_script(request["script"], request.get("argv", []))
            else:
                main(request["spec"], request["folder"])
            answer = {"ok": True}
        except BaseException:  # noqa: B036 - the caller reports it; the server keeps serving
            answer = {"ok": False, "error": traceback.format_exc()}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        serve()
    else:
        main(sys.argv[1], sys.argv[2])
