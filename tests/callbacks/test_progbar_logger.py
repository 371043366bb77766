"""The progress display of fit/evaluate/predict in its three places: a pipe, a terminal, a Jupyter kernel."""

import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import highlevel as hl
from highlevel.callbacks.progress_display import format_duration, format_per_step, progress_text

SCRIPT = textwrap.dedent(
    """
    import numpy as np
    import highlevel as hl

    rng = np.random.default_rng(0)
    x = rng.normal(size=(96, 4)).astype("float32")
    y = (x.sum(axis=1) > 0).astype("int32")
    model = hl.Sequential([hl.layers.Input((4,)), hl.layers.Dense(8, activation="relu"),
                           hl.layers.Dense(2, activation="softmax")])
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    model.fit(x, y, epochs=3, batch_size=8, validation_split=0.25)
    """
)
EVALUATE = "model.evaluate(x, y, batch_size=16)\n"


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype("float32")
    return x, (x.sum(axis=1) > 0).astype("int32")


def _model():
    model = hl.Sequential([hl.layers.Input((4,)), hl.layers.Dense(2, activation="softmax")])
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


def test_durations_and_step_times_read_as_a_person_reads_them():
    assert [format_duration(s) for s in (0.0004, 0.25, 2.06, 14.4, 75, 7380)] == [
        "0ms",
        "250ms",
        "2.1s",
        "14s",
        "1m 15s",
        "2h 03m",
    ]
    assert format_per_step(2.0, 160) == "12ms/step"
    assert format_per_step(0.01, 100) == "100us/step"
    assert format_per_step(6.0, 3) == "2s/step"
    assert format_per_step(1.0, 0) == ""


def test_a_line_has_the_count_the_bar_the_time_and_the_metrics():
    done = progress_text("Epoch 2/5", 10, 10, 0.5, {"loss": 0.25, "outputs": None}, final=True)
    assert done == "Epoch 2/5 10/10 " + "━" * 20 + " 500ms 50ms/step - loss: 0.2500"
    running = progress_text("Epoch 2/5", 5, 10, 0.5, {"loss": 0.25}, final=False)
    assert running == "Epoch 2/5 5/10 " + "━" * 10 + "─" * 10 + " eta 500ms - loss: 0.2500"
    assert "eta" not in progress_text("Epoch 2/5", 10, 10, 0.5, {}, final=False)  # all steps done: the time taken
    unknown = progress_text("evaluate", 7, None, 0.07, {}, final=False, bar=False)
    assert unknown == "evaluate 7 steps 70ms 10ms/step"


def test_in_a_pipe_each_epoch_and_evaluate_print_one_clean_line(backend, capsys):
    x, y = _data()
    model = _model()
    model.fit(x, y, epochs=2, batch_size=16, validation_split=0.25)
    model.evaluate(x, y, batch_size=32)
    model.fit(x, y, epochs=1, batch_size=16, verbose=2)
    out = capsys.readouterr().out
    assert "\r" not in out and "━" not in out, out
    lines = out.splitlines()
    assert len(lines) == 4, out
    for epoch, line in zip((1, 2), lines):
        assert re.fullmatch(
            # any duration format_duration writes: a loaded machine can take seconds over a first epoch
            rf"Epoch {epoch}/2 3/3 (\d+(ms|\.\ds|s)|\d+m \d\ds) \d+(us|ms|s)/step - loss: [\d.]+ - accuracy: [\d.]+"
            r" - val_loss: [\d.]+ - val_accuracy: [\d.]+",
            line,
        ), line
    assert re.fullmatch(r"evaluate 2/2 \S+ \S+/step - loss: [\d.]+ - accuracy: [\d.]+", lines[2]), lines[2]
    assert lines[3].startswith("Epoch 1/1 4/4 "), lines[3]


def test_verbose_0_prints_nothing(backend, capsys):
    x, y = _data()
    model = _model()
    model.fit(x, y, epochs=1, batch_size=16, verbose=0)
    model.evaluate(x, y, verbose=0)
    model.predict(x, verbose=0)
    assert capsys.readouterr().out == ""


def _run(args, env_extra, **kw):
    env = {**os.environ, "HIGHLEVEL_BACKEND": "native", **env_extra}
    return subprocess.run([sys.executable, "-c", SCRIPT + EVALUATE], env=env, timeout=240, **kw)


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo terminal")
def test_in_a_terminal_each_epoch_is_one_line_redrawn_in_place_ending_with_its_times():
    master, slave = os.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-c", SCRIPT + EVALUATE],
            stdout=slave,
            stderr=subprocess.PIPE,
            env={**os.environ, "HIGHLEVEL_BACKEND": "native", "COLUMNS": "300"},
        )
        os.close(slave)
        raw = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            raw += chunk
        assert proc.wait(timeout=240) == 0, proc.stderr.read().decode()
    finally:
        os.close(master)
    out = raw.decode().replace("\r\n", "\n")  # the terminal turns "\n" into "\r\n"
    lines = out.split("\n")
    assert lines[-1] == "" and len(lines) == 5, out  # three epochs, evaluate, nothing more
    for epoch, line in zip((1, 2, 3), lines):
        frames = [f.rstrip() for f in line.split("\r") if f]
        assert all(f.startswith(f"Epoch {epoch}/3 ") for f in frames), frames  # redrawn on its own line
        assert re.fullmatch(
            rf"Epoch {epoch}/3 9/9 ━{{20}} \d+(ms|\.\ds) \d+(us|ms)/step - loss: [\d.]+ - accuracy: [\d.]+"
            r" - val_loss: [\d.]+ - val_accuracy: [\d.]+",
            frames[-1],
        ), frames[-1]
    assert re.fullmatch(
        r"evaluate 6/6 ━{20} \S+ \S+/step - loss: [\d.]+ - accuracy: [\d.]+", lines[3].split("\r")[-1].rstrip()
    ), lines[3]


@pytest.mark.parametrize("widgets", [True, False], ids=["ipywidgets", "no-ipywidgets"])
def test_in_jupyter_the_saved_outputs_show_every_epoch_and_evaluate_as_text(widgets, tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    if widgets:
        pytest.importorskip("ipywidgets")
    from tests.notebooks.kernel import kernel_env, progress_problems

    kernel = kernel_env(tmp_path, monkeypatch, widgets=widgets)
    monkeypatch.setenv("HIGHLEVEL_BACKEND", "native")
    probe = "import importlib.util\nprint('ipywidgets importable:', importlib.util.find_spec('ipywidgets') is not None)"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in (probe, SCRIPT, EVALUATE)])
    nbclient.NotebookClient(nb, kernel_name=kernel, timeout=240).execute()
    assert f"ipywidgets importable: {widgets}" in nb.cells[0].outputs[0]["text"]
    assert progress_problems(nb) == []
    fit_outputs = [o for o in nb.cells[1].outputs if o["output_type"] != "execute_result"]  # not the History
    shown = [o["data"]["text/plain"] for o in fit_outputs]
    assert len(shown) == 3 and all(o["output_type"] == "display_data" for o in fit_outputs), fit_outputs
    for epoch, (out, text) in enumerate(zip(fit_outputs, shown), 1):
        assert re.fullmatch(rf"Epoch {epoch}/3 9/9 ━{{20}} \S+ \S+/step - loss: .* - val_accuracy: [\d.]+", text), text
        assert text in out["data"]["text/html"]
    evaluate_texts = [o["data"]["text/plain"] for o in nb.cells[2].outputs]
    assert re.fullmatch(r"evaluate 6/6 ━{20} \S+ \S+/step - loss: [\d.]+ - accuracy: [\d.]+", evaluate_texts[0])
    assert evaluate_texts[1].startswith("[")  # the cell's value: evaluate's results
