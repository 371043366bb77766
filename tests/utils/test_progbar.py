"""``hl.utils.Progbar``: what it prints, and its running means, against ``keras.utils.Progbar``'s."""

import re

import numpy as np
import pytest

import highlevel as hl


def _numbers(text, name):
    return [float(v) for v in re.findall(rf"{name}: ([-0-9.e+]+)", text)]


def test_averages_match_keras(keras, capsys):
    values = [0.9, 0.5, 0.4, 0.2]
    shown = {}
    for lib in (hl, keras):
        hl.utils.disable_interactive_logging() if lib is hl else keras.config.disable_interactive_logging()
        bar = lib.utils.Progbar(5, verbose=1, interval=0.0, stateful_metrics=["acc"])
        for step, v in enumerate(values, start=1):
            bar.update(step, [("loss", v), ("acc", v / 2)])
        bar.update(5, [("loss", 0.1), ("acc", 0.05)])  # the last update shows what it is given, in both
        shown[lib.__name__] = bar._values
        hl.utils.enable_interactive_logging() if lib is hl else keras.config.enable_interactive_logging()
    capsys.readouterr()
    for name in ("loss", "acc"):
        ours, theirs = shown["highlevel"][name], shown["keras"][name]
        assert ours[0] / ours[1] == pytest.approx(theirs[0] / theirs[1])


def test_running_mean_is_printed(capsys):
    hl.utils.disable_interactive_logging()  # plain lines, whatever the terminal
    try:
        bar = hl.utils.Progbar(4, verbose=1)
        for step in range(1, 4):
            bar.update(step, [("loss", float(step))])
        assert capsys.readouterr().out == ""  # not live: nothing until the end
        bar.add(1, [("loss", 10.0)])
    finally:
        hl.utils.enable_interactive_logging()
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith("4/4 [====================]")
    assert _numbers(out, "loss") == [10.0]


def test_weighted_by_steps_covered(capsys):
    bar = hl.utils.Progbar(10, verbose=2)
    bar.update(2, [("loss", 1.0)])  # covers 2 steps
    bar.update(8, [("loss", 4.0)])  # covers 6 steps
    total, weight = bar._values["loss"]
    assert total / weight == pytest.approx((2 * 1.0 + 6 * 4.0) / 8)
    assert capsys.readouterr().out == ""
    bar.update(10, finalize=True)
    out = capsys.readouterr().out
    assert out.startswith("10/10 - ") and _numbers(out, "loss") == [pytest.approx(3.25)]


def test_live_display_redraws_in_place(monkeypatch, capsys):
    monkeypatch.setattr(hl.utils.Progbar, "_live", lambda self: True)
    bar = hl.utils.Progbar(None, verbose=1, interval=0.0, unit_name="sample")
    bar.update(3, [("acc", np.float32(0.5))])
    bar.update(6, [("acc", np.float32(1.0))], finalize=True)
    out = capsys.readouterr().out
    assert out.count("\r") == 2 and out.endswith("\n") and "/Unknown" in out and "sample" in out


def test_silent_and_errors(capsys):
    bar = hl.utils.Progbar(3, verbose=0)
    for step in range(1, 4):
        bar.update(step, [("loss", 1.0)])
    assert capsys.readouterr().out == ""
    with pytest.raises(ValueError, match="not both"):
        hl.utils.Progbar(3, stateful_metrics=["a"], stateless_metrics=["b"])
    with pytest.raises(ValueError, match="verbose"):
        hl.utils.Progbar(3, verbose=3)
    with pytest.raises(ValueError, match="target"):
        hl.utils.Progbar(-1)


def test_stateless_metrics_list():
    bar = hl.utils.Progbar(4, verbose=0, stateless_metrics=["loss"])
    bar.update(1, [("loss", 1.0), ("lr", 0.1)])
    bar.update(2, [("loss", 3.0), ("lr", 0.2)])
    assert bar._values["loss"][0] / bar._values["loss"][1] == 2.0
    assert bar._values["lr"] == [0.2, 1]
