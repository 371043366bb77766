"""The quantization rows of ``run.py``: B1's model (MLP 784-512-512-10) in float32 against its int8 / int4 forms.

One worker process per backend holds every contestant side by side, all from the same float32 weights (seed 0):

* ``float32``: ours, unquantized (the reference of each row's ratio);
* ``int8`` / ``int4``: ours after ``model.quantize(mode)`` (Keras's defaults: int8 per output channel with
  per-token abs-max quantization of the inputs, so the product is an int8 x int8 -> int32 one; int4 in groups
  of 128 inputs with a zero point, computed from the dequantized kernel);
* ``keras-int8`` / ``keras-int4``: Keras 3 on the same framework, the same weights, ``model.quantize(mode)``
  (when ``keras`` is importable; none for native).

Two timings per contestant, in ms per batch of 128: ``predict_on_batch`` on :data:`BATCHES` batches in turn, and
``predict`` over the same samples (the compiled predict step in the ``predict`` loop). Timed runs alternate
between contestants as in the other rows. Two sizes: the bytes of the weights as stored (the sum of every
variable's ``nbytes``: int8 kernels, float32 scales and biases) and the size of the ``.keras`` file ``save``
writes.

>>> MODES
('int8', 'int4')
"""

import contextlib
import os
import tempfile

import numpy as np

#: Batches of 128 per timed run, and the quantization modes measured.
BATCHES = 8
BATCH = 128
MODES = ("int8", "int4")


def weight_bytes(lib, model):
    """The bytes of every variable of ``model`` as stored (quantized kernels at their integer width)."""
    return int(sum(np.asarray(lib.ops.convert_to_numpy(v.value)).nbytes for v in model.weights))


def file_bytes(model):
    """The size of the ``.keras`` file ``model.save`` writes."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.keras")
        model.save(path)
        return os.path.getsize(path)


def _runner(model, x):
    batches = [x[i : i + BATCH] for i in range(0, len(x), BATCH)]

    def on_batch():
        out = None
        for xb in batches:
            out = model.predict_on_batch(xb)
        return float(np.asarray(out)[-1, 0])

    def predict():
        return float(model.predict(x, batch_size=BATCH, verbose=0)[-1, 0])

    return {"predict_on_batch": on_batch, "predict": predict}


def _b1(lib, weights=None):
    from _workloads import WORKLOADS, _build

    model = _build(lib, WORKLOADS["B1"])
    if weights is not None:
        model.set_weights(weights)
    return model


def make_contestants(backend, threads, keras=True):
    """``{name: (runs, sizes)}``: per contestant its ``{"predict_on_batch": run, "predict": run}`` and its
    ``{"weights": bytes, "file": bytes}``, or ``{name: {"error": message}}`` for one that could not be built."""
    from _workloads import FRAMEWORK, import_framework

    os.environ["HIGHLEVEL_BACKEND"] = backend
    import_framework(backend, threads)
    import highlevel as hl

    hl.utils.set_random_seed(0)
    x = np.random.default_rng(0).standard_normal((BATCHES * BATCH, 784)).astype(np.float32)
    reference = _b1(hl)
    weights = [np.asarray(w) for w in reference.get_weights()]
    out = {"float32": (_runner(reference, x), {"weights": weight_bytes(hl, reference), "file": file_bytes(reference)})}
    for mode in MODES:
        try:
            model = _b1(hl, weights)
            model.quantize(mode)
            out[mode] = (_runner(model, x), {"weights": weight_bytes(hl, model), "file": file_bytes(model)})
        except Exception as e:  # noqa: BLE001 - report it, keep the others
            out[mode] = {"error": f"{type(e).__name__}: {e}"[-300:]}
    if not (keras and FRAMEWORK[backend]):
        return out
    os.environ["KERAS_BACKEND"] = backend
    import keras as K

    # Keras beside ours' x64 JAX: built and run in JAX's default float32 (see ``_workloads._jax_x32``)
    scope = _x32 if backend == "jax" else contextlib.nullcontext
    for mode in MODES:
        try:
            with scope():
                model = _b1(K, weights)
                model.quantize(mode)
                sizes = {"weights": weight_bytes(K, model), "file": file_bytes(model)}
            runs = {kind: _scoped(run, scope) for kind, run in _runner(model, x).items()}
            out[f"keras-{mode}"] = (runs, sizes)
        except Exception as e:  # noqa: BLE001
            out[f"keras-{mode}"] = {"error": f"{type(e).__name__}: {e}"[-300:]}
    return out


def _x32():
    import jax

    return jax.enable_x64(False)


def _scoped(run, scope):
    def scoped():
        with scope():
            return run()

    return scoped
