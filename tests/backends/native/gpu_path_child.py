"""Child process of test_gpu_path.py: runs small models on the native engine and prints one JSON line.

``python gpu_path_child.py OUT_DIR`` on numpy; with ``HIGHLEVEL_DEVICE=gpu`` and ``FAKE_CUPY=1`` the fake CuPy
(fake_cupy.py) is installed as ``cupy`` first, so the engine runs its CuPy path on numpy with CuPy's rules and
counts host reads. Final weights go to ``OUT_DIR/<case>.npz``; the JSON line carries host-read counts (None on
numpy), losses and the out-of-range-label results.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if os.environ.get("FAKE_CUPY") == "1":
    sys.path.insert(0, HERE)
    import fake_cupy

    sys.modules["cupy"] = fake_cupy
else:
    fake_cupy = None

import numpy as np  # noqa: E402

import highlevel as hl  # noqa: E402


def reads():
    return None if fake_cupy is None else fake_cupy.host_reads()


class StepReads(hl.callbacks.Callback):
    """Host reads between consecutive batch begins: the reads of one training step (no per-batch logs)."""

    def __init__(self):
        super().__init__()
        self.marks = []

    def on_train_batch_begin(self, batch, logs=None):
        self.marks.append(reads())


def per_step(marks):
    if marks[0] is None:
        return None
    return [b - a for a, b in zip(marks, marks[1:])]


def data(n, shape, classes, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n,) + shape).astype("float32")
    y = rng.integers(0, classes, size=(n,)).astype("int64")
    return x, y


def mlp():
    """B1's shape, small: Dense+ReLU twice, logits, sparse categorical cross-entropy from logits, Adam."""
    layers = [
        hl.Input((20,)),
        hl.layers.Dense(32, activation="relu"),
        hl.layers.Dense(32, activation="relu"),
        hl.layers.Dense(5),
    ]
    return hl.Sequential(layers)


def cnn():
    layers = [
        hl.Input((8, 8, 2)),
        hl.layers.Conv2D(4, 3, activation="relu"),
        hl.layers.MaxPooling2D(2),
        hl.layers.Flatten(),
        hl.layers.Dense(5),
    ]
    return hl.Sequential(layers)


def compile_model(model, metrics=()):
    model.compile(
        optimizer=hl.optimizers.Adam(1e-2),
        loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=list(metrics),
    )
    return model


def save_weights(model, path):
    np.savez(path, *[hl.ops.convert_to_numpy(w) for w in model.weights])


def main(out):
    out_dir = out  # (`out` names other values further down)
    hl.config.set_backend("native")
    result = {"device": hl.config.current_backend().default_device() if hasattr(hl.config, "current_backend") else None}

    # the B1-shaped MLP: a warm-up epoch (recording the step), then one epoch measured step by step
    hl.utils.set_random_seed(0)
    x, y = data(256, (20,), 5)
    model = compile_model(mlp())
    model.fit(x, y, batch_size=32, epochs=1, verbose=0, shuffle=False)
    probe = StepReads()
    start = reads()
    hist = model.fit(x, y, batch_size=32, epochs=1, verbose=0, shuffle=False, callbacks=[probe])
    result["mlp_step_reads"] = per_step(probe.marks)
    result["mlp_fit_reads"] = None if start is None else reads() - start
    result["mlp_loss"] = hist.history["loss"][-1]
    save_weights(model, os.path.join(out, "mlp.npz"))

    # the same model with eager steps (jit_compile=False): the front end's optional host reads (Adam's step count)
    # are skipped where reading waits for the device; the label range check still reads, once per step
    hl.utils.set_random_seed(0)
    eager = compile_model(mlp())
    eager.compile(
        optimizer=hl.optimizers.Adam(1e-2),
        loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True),
        jit_compile=False,
    )
    eager.fit(x, y, batch_size=32, epochs=1, verbose=0, shuffle=False)
    probe = StepReads()
    eager.fit(x, y, batch_size=32, epochs=1, verbose=0, shuffle=False, callbacks=[probe])
    result["eager_step_reads"] = per_step(probe.marks)
    save_weights(eager, os.path.join(out, "mlp_eager.npz"))

    # evaluate and predict: reads per call (8 batches each)
    start = reads()
    result["mlp_evaluate"] = model.evaluate(x, y, batch_size=32, verbose=0)
    result["evaluate_reads"] = None if start is None else reads() - start
    start = reads()
    pred = model.predict(x, batch_size=32, verbose=0)
    result["predict_reads"] = None if start is None else reads() - start
    np.save(os.path.join(out, "mlp_predict.npy"), pred)

    # save and load
    path = os.path.join(out, "mlp.hl.zip")
    model.save(path)
    again = hl.saving.load_model(path)
    result["load_predict_equal"] = bool(
        np.array_equal(again.predict(x[:16], verbose=0), model.predict(x[:16], verbose=0))
    )
    again.fit(x, y, batch_size=32, epochs=1, verbose=0, shuffle=False)  # the loaded optimizer state trains on
    save_weights(again, os.path.join(out, "mlp_loaded.npz"))

    # a small CNN with an accuracy metric
    hl.utils.set_random_seed(1)
    xc, yc = data(64, (8, 8, 2), 5, seed=1)
    conv = compile_model(cnn(), metrics=["accuracy"])
    conv.fit(xc, yc, batch_size=16, epochs=1, verbose=0, shuffle=False)
    probe = StepReads()
    conv.fit(xc, yc, batch_size=16, epochs=1, verbose=0, shuffle=False, callbacks=[probe])
    result["cnn_step_reads"] = per_step(probe.marks)
    save_weights(conv, os.path.join(out, "cnn.npz"))

    # labels outside [0, classes): the engine's fused loss op with its gradient, then a training step (a
    # replayed step runs the engine's op only; the eager loss function of highlevel.losses checks on the host)
    backend = hl.config.current_backend()
    logits = backend.convert_to_tensor(np.zeros((3, 4), np.float32))
    labels = backend.convert_to_tensor(np.array([0, 4, -1], np.int32))
    try:
        value, grad = backend.value_and_grad(lambda z: backend.sum(backend.sparse_softmax_cross_entropy(labels, z)))(
            logits
        )
        loss = backend.to_numpy(backend.sparse_softmax_cross_entropy(labels, logits))
        grad = backend.to_numpy(grad)
        result["bad_labels"] = {
            "loss": [None if np.isnan(v) else float(v) for v in loss.tolist()],
            "grad_nan_rows": np.isnan(grad).all(axis=1).tolist(),
            "grad_row0": grad[0].tolist(),
        }
    except ValueError as e:
        result["bad_labels"] = {"error": str(e)}
    y_bad = y.copy()
    y_bad[3] = 7
    try:
        h = model.fit(x[:32], y_bad[:32], batch_size=32, epochs=1, verbose=0, shuffle=False)
        result["bad_labels_fit"] = {"loss_is_nan": bool(np.isnan(h.history["loss"][-1]))}
    except ValueError as e:
        result["bad_labels_fit"] = {"error": str(e)}

    # gathers with out-of-range indices (an Embedding's ids): jax.numpy.take's fill on the GPU, IndexError on the CPU
    table = backend.convert_to_tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    ids = backend.convert_to_tensor(np.array([2, 3, -4, -1], np.int32))
    start = reads()
    try:
        value, grad = backend.value_and_grad(lambda t: backend.sum(backend.take(t, ids, axis=0) * 1.0))(table)
        out = backend.to_numpy(backend.take(table, ids, axis=0))
        result["bad_take"] = {
            "nan_rows": np.isnan(out).all(axis=1).tolist(),
            "row0": out[0].tolist(),
            "grad": backend.to_numpy(grad).tolist(),
        }
    except IndexError as e:
        result["bad_take"] = {"error": str(e)}
    # integer powers with negative exponents (JAX's rule), computed without reading the exponents on the host
    p = backend.power(
        backend.convert_to_tensor(np.array([2, 1, -1, 3], np.int32)),
        backend.convert_to_tensor(np.array([-1, -2, -3, 2], np.int32)),
    )
    result["int_power"] = backend.to_numpy(p).tolist()
    result["op_reads"] = None if start is None else reads() - start  # the to_numpy calls above only

    # draws seeded by a tensor (a SeedGenerator's state inside a step): on the GPU made on the device, unread
    start = reads()
    seed = backend.convert_to_tensor(np.array([1234, 5], np.int32))
    other = backend.convert_to_tensor(np.array([1234, 6], np.int32))
    draws = {
        "uniform": backend.random_uniform((10000,), -2.0, 3.0, seed=seed),
        "normal": backend.random_normal((10000,), 2.0, 3.0, seed=seed),
        "normal64": backend.random_normal((10000,), 0.0, 1.0, dtype="float64", seed=seed),
        "randint": backend.random_randint((10000,), 3, 9, seed=seed),
        "shuffle": backend.random_shuffle(backend.arange(1000), seed=seed),
    }
    again = backend.random_uniform((10000,), -2.0, 3.0, seed=seed)
    changed = backend.random_uniform((10000,), -2.0, 3.0, seed=other)
    result["draw_reads"] = None if start is None else reads() - start
    stats = {}
    for name, t in draws.items():
        v = backend.to_numpy(t).astype(np.float64)
        stats[name] = {
            "dtype": backend.dtype(t),
            "mean": v.mean(),
            "std": v.std(),
            "min": v.min(),
            "max": v.max(),
            "sorted_is_range": bool(np.array_equal(np.sort(v), np.arange(v.size))),
        }
    stats["same_seed_same_draw"] = bool(np.array_equal(backend.to_numpy(again), backend.to_numpy(draws["uniform"])))
    stats["new_counter_new_draw"] = not np.array_equal(backend.to_numpy(changed), backend.to_numpy(draws["uniform"]))
    result["draws"] = stats

    # dropout and an embedding inside a training step
    hl.utils.set_random_seed(2)
    xi = np.random.default_rng(2).integers(0, 50, size=(128, 6))
    drop = hl.Sequential(
        [
            hl.Input((6,), dtype="int32"),
            hl.layers.Embedding(50, 8),
            hl.layers.Flatten(),
            hl.layers.Dropout(0.3),
            hl.layers.Dense(16, activation="relu"),
            hl.layers.Dense(5),
        ]
    )
    compile_model(drop)
    drop.fit(xi, y[:128], batch_size=32, epochs=1, verbose=0)
    probe = StepReads()
    hist = drop.fit(xi, y[:128], batch_size=32, epochs=1, verbose=0, callbacks=[probe])
    result["dropout_step_reads"] = per_step(probe.marks)
    result["dropout_loss_finite"] = bool(np.isfinite(hist.history["loss"][-1]))

    # the fused kernels of the heavier workloads: an LSTM time loop, attention's batched einsums, batch norm
    hl.utils.set_random_seed(3)
    xs, ys = data(64, (5, 4), 5, seed=3)
    tokens = hl.Input((5, 4))
    h = hl.layers.LSTM(6, return_sequences=True)(tokens)
    h = hl.layers.MultiHeadAttention(2, 3)(h, h)
    h = hl.layers.BatchNormalization()(h)
    heavy = compile_model(hl.Model(tokens, hl.layers.Dense(5)(hl.layers.GlobalAveragePooling1D()(h))))
    heavy.fit(xs, ys, batch_size=16, epochs=1, verbose=0, shuffle=False)
    probe = StepReads()
    heavy.fit(xs, ys, batch_size=16, epochs=1, verbose=0, shuffle=False, callbacks=[probe])
    result["heavy_step_reads"] = per_step(probe.marks)
    save_weights(heavy, os.path.join(out_dir, "heavy.npz"))

    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1])
