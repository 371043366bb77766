"""``model_to_dot`` / ``plot_model``: the dot text of a model's graph when pydot is installed, and messages
that say what to install when pydot or Graphviz is missing."""

import shutil
import sys

import pytest

import highlevel as hl


def _model():
    a, b = hl.Input((4,), name="a"), hl.Input((4,), name="b")
    shared = hl.layers.Dense(3, activation="relu", name="shared")
    inner = hl.Sequential(
        [hl.Input((6,)), hl.layers.Dense(2, name="inner_1"), hl.layers.Dense(1, name="inner_2")], name="inner"
    )
    joined = hl.layers.Concatenate(name="joined")([shared(a), shared(b)])
    return hl.Model([a, b], inner(joined * 2.0), name="net")


def _edges(dot):
    names = {node.get_name(): node.get("label") for node in dot.get_nodes() if node.get_name() != "node"}
    for sub in dot.get_subgraphs():
        names.update({node.get_name(): node.get("label") for node in sub.get_nodes()})

    def short(node_id):
        label = names[node_id]
        return label.split("<b>")[1].split("</b>")[0]

    edges = list(dot.get_edges()) + [e for sub in dot.get_subgraphs() for e in sub.get_edges()]
    return sorted((short(e.get_source()), short(e.get_destination())) for e in edges)


def test_functional_graph():
    pytest.importorskip("pydot")
    dot = hl.utils.model_to_dot(_model())
    assert _edges(dot) == [
        ("a", "shared"),
        ("b", "shared"),
        ("joined", "multiply"),
        ("multiply", "inner"),
        ("shared", "joined"),
    ]
    text = dot.to_string()
    assert "rankdir=TB" in text and "dpi=200" in text and "splines=ortho" in text
    assert "(Dense)" in text and "(Operation)" in text and "(Sequential)" in text


def test_options_show_shapes_dtypes_activations_and_trainable():
    pytest.importorskip("pydot")
    model = _model()
    model.get_layer("joined").trainable = False
    text = hl.utils.model_to_dot(
        model,
        show_shapes=True,
        show_dtype=True,
        show_layer_activations=True,
        show_trainable=True,
        rankdir="LR",
        dpi=96,
        splines="curved",
    ).to_string()
    assert "Input shape: <b>[(None, 3), (None, 3)]</b>" in text and "Output shape: <b>(None, 6)</b>" in text
    assert "Output dtype: <b>float32</b>" in text and "Activation: <b>relu</b>" in text
    assert "Trainable" in text and "rankdir=LR" in text and "dpi=96" in text and "splines=curved" in text
    plain = hl.utils.model_to_dot(model, show_layer_names=False).to_string()
    assert "<b>Dense</b>" in plain and "shared" not in plain


def test_expand_nested_draws_the_inner_layers_in_a_cluster():
    pydot = pytest.importorskip("pydot")
    dot = hl.utils.model_to_dot(_model(), expand_nested=True)
    clusters = dot.get_subgraphs()
    assert len(clusters) == 1 and isinstance(clusters[0], pydot.Subgraph)
    assert clusters[0].get_name().startswith("cluster_") and clusters[0].get("style") == "dashed"
    assert ("multiply", "inner_1") in _edges(dot) and ("inner_1", "inner_2") in _edges(dot)


def test_sequential_and_subclassed():
    pytest.importorskip("pydot")
    seq = hl.Sequential([hl.Input((3,)), hl.layers.Dense(2, name="h"), hl.layers.Dense(1, name="o")])
    assert _edges(hl.utils.model_to_dot(seq)) == [("h", "o")]

    class Net(hl.Model):
        def __init__(self):
            super().__init__(name="net")
            self.dense = hl.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    net = Net()
    net(hl.ops.ones((1, 2)))
    dot = hl.utils.model_to_dot(net)
    assert len([n for n in dot.get_nodes() if n.get_name() not in ("node", "edge")]) == 1
    assert "net" in dot.to_string()
    cluster = hl.utils.model_to_dot(seq, subgraph=True)
    assert type(cluster).__name__ == "Cluster"


def test_plot_model_writes_dot_text_without_graphviz(tmp_path):
    pytest.importorskip("pydot")
    target = tmp_path / "sub" / "model.dot"
    assert hl.utils.plot_model(_model(), to_file=target, show_shapes=True) is None
    text = target.read_text()
    assert text.startswith("digraph") and "shared" not in text  # plot_model hides layer names by default
    assert list(target.parent.iterdir()) == [target]


def test_plot_model_renders_png_with_graphviz(tmp_path):
    pytest.importorskip("pydot")
    if shutil.which("dot") is None:
        with pytest.raises(ImportError, match="apt-get install graphviz"):
            hl.utils.plot_model(_model(), to_file=tmp_path / "model.png")
        assert not list(tmp_path.iterdir())
        return
    hl.utils.plot_model(_model(), to_file=tmp_path / "model.png")
    assert (tmp_path / "model.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_missing_pydot_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "pydot", None)
    for call in (lambda: hl.utils.model_to_dot(_model()), lambda: hl.utils.plot_model(_model(), tmp_path / "m.png")):
        with pytest.raises(ImportError, match=r"pip install pydot.*graphviz"):
            call()
    monkeypatch.setitem(sys.modules, "IPython.core.magics.namespace", object())  # in a notebook: a message
    assert hl.utils.plot_model(_model(), tmp_path / "m.png") is None


def test_errors():
    with pytest.raises(ValueError, match="not been built"):
        hl.utils.model_to_dot(hl.Sequential([hl.layers.Dense(1)]))
    with pytest.raises(ValueError, match="layer_range"):
        hl.utils.plot_model(_model(), layer_range=["a", "b"])
    with pytest.raises(ValueError, match="unexpected keyword"):
        hl.utils.model_to_dot(_model(), colour=True)
    with pytest.raises(ValueError, match="rankdir"):
        hl.utils.model_to_dot(_model(), rankdir="up")
