"""Trains and predicts from several threads at once and compares with the same work done alone.

Run as ``python -m tests.reliability.thread_harness`` with ``HIGHLEVEL_BACKEND`` set. Three cases:

* ``pair``: two models (with dropout) trained at the same time in two threads (while a third thread predicts
  with an unrelated model) must end with the weights each gets when trained alone;
* ``same_model``: predicting with a model from the main thread while another thread fits it must not fail,
  must give finite predictions, and the fit must end as it does alone;
* ``predictions``: the third thread's predictions equal those made alone.

Prints one JSON line: per case, whether it held, and any error.
"""

import json
import threading

import numpy as np

import highlevel as hl

EPOCHS = 4


def _data(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(64, 4)).astype("float32")
    return x, (x @ rng.normal(size=(4, 1))).astype("float32")


def _model(seed):
    hl.utils.set_random_seed(seed)
    # Dropout: each model's random draws (its own seed generator) must not depend on the other thread's.
    model = hl.Sequential(
        [hl.Input((4,)), hl.layers.Dense(16, activation="tanh"), hl.layers.Dropout(0.3), hl.layers.Dense(1)]
    )
    model.compile(optimizer=hl.optimizers.Adam(0.01), loss="mse")
    return model


def _fit(model, seed):
    x, y = _data(seed)
    model.fit(x, y, batch_size=8, epochs=EPOCHS, shuffle=False, verbose=0)
    return model.get_weights()


def _same(a, b):
    return all(np.allclose(u, v, rtol=0, atol=1e-6) for u, v in zip(a, b))


def _run_threads(targets):
    errors = []

    def guard(fn):
        def run():
            try:
                fn()
            except Exception as e:  # reported, not lost in the thread
                errors.append(f"{type(e).__name__}: {e}"[:300])

        return run

    threads = [threading.Thread(target=guard(fn), daemon=True) for fn in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    if any(t.is_alive() for t in threads):
        errors.append("a thread did not finish within 300 s")
    return errors


def main():
    out = {}
    probe_x = _data(9)[0]
    alone = {1: _fit(_model(1), 1), 2: _fit(_model(2), 2)}
    reference = _model(3)
    reference_pred = reference.predict(probe_x, verbose=0)

    # pair: two models in two threads, a third predicting with an unrelated model
    models = {1: _model(1), 2: _model(2)}
    predictor = _model(3)
    results, preds, stop = {}, [], threading.Event()

    def predict_loop():
        while not stop.is_set():
            preds.append(predictor.predict(probe_x, verbose=0))

    def train(k):
        def run():
            results[k] = _fit(models[k], k)

        return run

    predicting = threading.Thread(target=predict_loop, daemon=True)
    predicting.start()
    errors = _run_threads([train(1), train(2)])
    stop.set()
    predicting.join(timeout=60)
    out["pair"] = {
        "held": not errors and all(k in results and _same(results[k], alone[k]) for k in (1, 2)),
        "errors": errors,
    }
    out["predictions"] = {
        "held": bool(preds) and all(np.allclose(p, reference_pred, atol=1e-6) for p in preds),
        "count": len(preds),
    }

    # same_model: predict from the main thread while another thread fits that model
    model = _model(1)
    model.predict(probe_x, verbose=0)
    fitted = {}
    finite, errors_main = True, []

    def fit_it():
        fitted["w"] = _fit(model, 1)

    thread_errors = []
    worker = threading.Thread(target=lambda: _capture(fit_it, thread_errors), daemon=True)
    worker.start()
    count = 0
    while worker.is_alive() or count == 0:
        try:
            finite = finite and bool(np.isfinite(model.predict(probe_x, verbose=0)).all())
        except Exception as e:
            errors_main.append(f"{type(e).__name__}: {e}"[:300])
            break
        count += 1
    worker.join(timeout=300)
    out["same_model"] = {
        "held": not errors_main and not thread_errors and finite and _same(fitted.get("w", []), alone[1]),
        "errors": errors_main + thread_errors,
        "predictions": count,
    }
    print(json.dumps(out))


def _capture(fn, errors):
    try:
        fn()
    except Exception as e:
        errors.append(f"{type(e).__name__}: {e}"[:300])


if __name__ == "__main__":
    main()
