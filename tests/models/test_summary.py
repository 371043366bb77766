"""model.summary(): a rich table printed to stdout, handed to print_fn, or returned as a string; parameter
totals split into trainable and non-trainable; a "Connected to" column for functional models. Every test
runs on every backend."""

import re

import numpy as np
import pytest

import highlevel as hl

L = hl.layers


def _sequential():
    return hl.Sequential(
        [hl.Input((3,)), L.Dense(4, name="hidden"), L.BatchNormalization(name="bn"), L.Dense(2, name="out")], name="seq"
    )


def _totals(text):
    found = {}
    for key in ("Total", "Trainable", "Non-trainable"):
        m = re.search(rf"^\s*{key} params: ([\d,]+)", text, re.MULTILINE)
        assert m, f"no '{key} params' line in:\n{text}"
        found[key] = int(m.group(1).replace(",", ""))
    return found


def test_sequential_summary_as_string(backend):
    text = _sequential().summary(return_string=True)
    assert 'Model: "seq"' in text
    for cell in (
        "Layer (type)",
        "Output Shape",
        "Param #",
        "hidden (Dense)",
        "bn (BatchNormalization)",
        "out (Dense)",
        "(None, 4)",
        "(None, 2)",
    ):
        assert cell in text, f"{cell!r} missing from:\n{text}"
    assert "Connected to" not in text
    assert "╭" in text or "┏" in text  # a rich box, not plain text
    # Dense(3->4): 16, BN(4): gamma, beta (8 trainable) + moving mean/variance (8), Dense(4->2): 10
    assert _totals(text) == {"Total": 42, "Trainable": 34, "Non-trainable": 8}
    row = next(line for line in text.splitlines() if "bn (BatchNormalization)" in line)
    assert re.search(r"\b16\b", row), row


def test_summary_printed(backend, capsys):
    model = _sequential()
    assert model.summary() is None
    out = capsys.readouterr().out
    assert "hidden (Dense)" in out and "Total params: 42" in out


def test_summary_print_fn(backend, capsys):
    lines = []
    assert _sequential().summary(print_fn=lines.append) is None
    text = "".join(lines)
    assert "out (Dense)" in text and "Trainable params: 34" in text
    assert capsys.readouterr().out == ""


def test_summary_as_string_inside_a_notebook(backend, monkeypatch, capsys):
    # In a Jupyter kernel rich displays what it prints unless told not to: the string came back empty there.
    rich_console = pytest.importorskip("rich.console")
    monkeypatch.setattr(rich_console, "_is_jupyter", lambda: True)
    text = _sequential().summary(return_string=True)
    assert "hidden (Dense)" in text and "Total params: 42" in text
    lines = []
    _sequential().summary(print_fn=lines.append)
    assert "out (Dense)" in "".join(lines)
    assert capsys.readouterr().out == ""


def test_functional_summary_connected_to(backend):
    a, b = hl.Input((3,), name="a"), hl.Input((2,), name="b")
    shared = L.Dense(2, name="shared")
    merged = L.Concatenate(name="merge")([shared(a), b])
    model = hl.Model([a, b], L.Dense(1, name="head")(merged), name="two_inputs")
    text = model.summary(return_string=True, line_length=120)
    assert "Connected to" in text and 'Model: "two_inputs"' in text
    assert "a (InputLayer)" in text and "b (InputLayer)" in text
    merge_row = next(line for line in text.splitlines() if "merge (Concatenate)" in line)
    assert "shared[0][0]" in merge_row and "b[0][0]" in merge_row
    head_row = next(line for line in text.splitlines() if "head (Dense)" in line)
    assert "merge[0][0]" in head_row and "(None, 1)" in head_row
    assert _totals(text) == {"Total": 8 + 5, "Trainable": 13, "Non-trainable": 0}


def test_summary_frozen_layers_and_show_trainable(backend):
    model = _sequential()
    model.get_layer("hidden").trainable = False
    text = model.summary(return_string=True, show_trainable=True)
    assert "Trainable" in text.splitlines()[1] or "Trainable" in text
    assert _totals(text) == {"Total": 42, "Trainable": 18, "Non-trainable": 24}
    hidden_row = next(line for line in text.splitlines() if "hidden (Dense)" in line)
    assert re.search(r"\bN\b", hidden_row), hidden_row


def _marks(text):
    """{layer name: the Trainable cell} from a summary drawn with show_trainable=True."""
    marks = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip("│ ").split("│")]
        if len(cells) >= 4 and "(" in cells[0] and not cells[0].startswith("Layer (type)"):
            marks[cells[0].split(" (")[0]] = cells[-1]
    return marks


def test_show_trainable_marks_layers_without_weights_with_a_dash_as_keras_does(backend):
    # Keras 3.15 prints Y/N only for layers that have weights, and "-" for the others whatever their flag.
    model = hl.Sequential(
        [
            hl.Input((4,)),
            L.Dense(3, name="d1"),
            L.Dropout(0.1, name="drop"),
            L.Flatten(name="flat"),
            L.Dense(2, name="d2"),
        ]
    )
    model.get_layer("d1").trainable = False
    model.get_layer("drop").trainable = False
    marks = _marks(model.summary(return_string=True, show_trainable=True))
    assert marks == {"d1": "N", "drop": "-", "flat": "-", "d2": "Y"}, marks

    inputs = hl.Input((4,), name="x")
    hidden = L.Dropout(0.1, name="drop")(L.Dense(3, name="d1")(inputs))
    functional = hl.Model(inputs, L.Dense(2, name="d2")(hidden))
    functional.get_layer("d2").trainable = False
    marks = _marks(functional.summary(return_string=True, show_trainable=True))
    assert marks == {"x": "-", "d1": "Y", "drop": "-", "d2": "N"}, marks


def test_subclassed_summary_after_call(backend):
    class Net(hl.Model):
        def __init__(self):
            super().__init__(name="net")
            self.a = L.Dense(3)
            self.b = L.Dense(1)

        def call(self, x):
            return self.b(self.a(x))

    model = Net()
    unbuilt = model.summary(return_string=True)  # as Keras: the layers with "?" and "0 (unbuilt)"
    assert unbuilt.count("0 (unbuilt)") == 2 and "?" in unbuilt
    model(np.ones((2, 5), "float32"))
    text = model.summary(return_string=True)
    assert 'Model: "net"' in text and _totals(text)["Total"] == 5 * 3 + 3 + 3 + 1


def test_summary_layer_range(backend):
    x = hl.Input((3,))
    h = L.Dense(2, name="first")(x)
    h = L.Dense(2, name="second")(h)
    out = L.Dense(1, name="third")(h)
    text = hl.Model(x, out).summary(return_string=True, layer_range=["first", "second"])
    assert "first (Dense)" in text and "second (Dense)" in text and "third" not in text
    with pytest.raises(ValueError, match="no layer named 'nope'"):
        hl.Model(x, out).summary(layer_range=["first", "nope"])
