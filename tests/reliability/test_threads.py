"""Threads: two models trained at once end as if trained alone, an unrelated model predicts correctly meanwhile,
and predicting with a model while another thread fits it is safe, on every backend. The cases of
:mod:`tests.reliability.thread_harness` and :mod:`tests.reliability.scope_harness` run in one subprocess per
backend, bounded in time."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import highlevel as hl

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# Both harnesses run in one child process per backend, the scopes' first (its main thread ends with every scope
# closed, which it checks): the child imports highlevel and the engine once for both. Each harness prints its
# JSON line, or a line naming the error it raised, so that one's failure does not hide the other's result.
_BOTH = """
import json, sys, traceback
from tests.reliability import scope_harness, thread_harness
for name, harness in (("scopes", scope_harness), ("threads", thread_harness)):
    print("HARNESS", name, flush=True)
    try:
        harness.main()
    except Exception:
        print(json.dumps({"harness_error": traceback.format_exc()[-3000:]}), flush=True)
    sys.stdout.flush()
"""
_RESULTS = {}


def _harness_result(backend_name, harness):
    """The JSON line ``harness`` ("scopes" or "threads") printed in the child process of ``backend_name``."""
    if backend_name not in _RESULTS:
        proc = subprocess.run(
            [sys.executable, "-c", _BOTH],
            cwd=_ROOT,
            env=dict(os.environ, HIGHLEVEL_BACKEND=backend_name),
            capture_output=True,
            text=True,
            timeout=700,
        )
        lines = {}
        for block in proc.stdout.split("HARNESS ")[1:]:
            name, _, text = block.partition("\n")
            lines[name] = text.strip().splitlines()[-1] if text.strip() else ""
        _RESULTS[backend_name] = proc, lines
    proc, lines = _RESULTS[backend_name]
    assert proc.returncode == 0 and lines.get(harness), proc.stderr[-3000:] + proc.stdout[-1000:]
    result = json.loads(lines[harness])
    assert "harness_error" not in result, result["harness_error"]
    return result


def test_threads_train_and_predict_as_if_alone(backend):
    result = _harness_result(backend.name, "threads")
    assert result["pair"]["held"], result
    assert result["predictions"]["held"] and result["predictions"]["count"] > 0, result
    assert result["same_model"]["held"] and result["same_model"]["predictions"] > 0, result


def test_scopes_opened_in_one_thread_are_not_seen_in_another(backend):
    result = _harness_result(backend.name, "scopes")
    seen, name = result["seen"], backend.name
    # in thread A every scope took effect...
    assert seen["a_inside"] == {
        "name_scope": "thread_a",
        "variable_path": "thread_a/made_here",
        "variable_value": 7.0,
        "open_stateless_scopes": 1,
        "backend": name,
        "policy": "mixed_bfloat16",
        "other_backend_scoped": True,
    }, seen
    assert seen["a_backend"] == result["other"] and seen["a_symbolic_depth"] == 2, seen
    # ...while thread B, at the same time, saw none of them
    assert seen["b"] == {
        "name_scope": "",
        "variable_path": "made_here",
        "variable_value": 1.0,
        "open_stateless_scopes": 0,
        "backend": name,
        "policy": "float32",
        "other_backend_scoped": True,
    }, seen
    assert seen["main_after"] == {"policy": "float32", "name_scope": ""}, seen


def test_compiled_steps_of_one_model_share_a_lock(backend):
    from highlevel.trainers.trainer import _step_lock

    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    other = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    assert _step_lock(model) is _step_lock(model)
    assert _step_lock(model) is not _step_lock(other)
    with _step_lock(model):  # re-entrant: a step may run another of the same model (a callback's predict)
        assert np.isfinite(model.predict(np.ones((2, 2), "float32"), verbose=0)).all()


def test_switching_the_process_backend_while_another_thread_fits_is_refused(backend, monkeypatch):
    import threading

    monkeypatch.setattr(hl.config, "_global", hl.config._global)  # restored after the test
    hl.config.set_backend(backend.name)  # the worker thread runs on the process-wide backend
    other = "native" if backend.name != "native" else "jax"
    model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    inside, release, errors = threading.Event(), threading.Event(), []

    def hold(epoch, logs=None):
        inside.set()
        release.wait(60)

    def fit():
        try:
            x = np.ones((8, 2), "float32")
            model.fit(x, x[:, :1], epochs=2, verbose=0, callbacks=[hl.callbacks.LambdaCallback(on_epoch_end=hold)])
        except Exception as e:  # reported below
            errors.append(e)

    worker = threading.Thread(target=fit, daemon=True)
    worker.start()
    try:
        while not inside.wait(1):
            assert worker.is_alive() and not errors, errors
        with pytest.raises(
            RuntimeError,
            match=rf"set_backend\('{other}'\): 1 training.*running in other threads.*"
            rf"backend_scope\('{other}'\)",
        ):
            hl.config.set_backend(other)
        assert hl.config.backend() == backend.name
        hl.config.set_backend(backend.name)  # the same engine: nothing changes under the fit, allowed
        with hl.config.backend_scope(other):  # per thread: allowed
            assert hl.config.backend() == other
    finally:
        release.set()
        worker.join(120)
    assert not errors and not worker.is_alive()
    assert np.isfinite(model.predict(np.ones((2, 2), "float32"), verbose=0)).all()
