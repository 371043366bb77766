"""The docs site's docstring rewrites (docs/hooks/griffe_docstrings.py) keep the text and fix only the form."""

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _extension():
    spec = importlib.util.spec_from_file_location("griffe_docstrings", ROOT / "docs" / "hooks" / "griffe_docstrings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_bare_doctest_becomes_a_fenced_block():
    ext = _extension()
    text = ["Splits x.", "", "Returns:", "    A list.", "", ">>> f([[1, 2]])", "[[1, 2]]", "", "After."]
    assert ext._fence_doctests(text) == [
        "Splits x.",
        "",
        "Returns:",
        "    A list.",
        "",
        "```pycon",
        ">>> f([[1, 2]])",
        "[[1, 2]]",
        "```",
        "",
        "After.",
    ]


def test_an_examples_section_is_left_to_the_google_parser():
    ext = _extension()
    text = ["Summary.", "", "Examples:", "    >>> 1 + 1", "    2"]
    assert ext._fence_doctests(text) == text


def test_grouped_arguments_become_one_entry_each():
    ext = _extension()
    text = [
        "Args:",
        "    units: the output size.",
        "    activation, use_bias,",
        "    reset_after (default True), seed: as",
        "    in GRUCell.",
        "    **kwargs: base layer arguments.",
    ]
    assert ext._split_grouped_args(text) == [
        "Args:",
        "    units: the output size.",
        "    activation: as in GRUCell.",
        "    use_bias: as in GRUCell.",
        "    reset_after: as in GRUCell. (default True)",
        "    seed: as in GRUCell.",
        "    **kwargs: base layer arguments.",
    ]


def test_commas_outside_args_are_left_alone():
    ext = _extension()
    text = ["Returns:", "    a, b: the two halves."]
    assert ext._split_grouped_args(text) == text


def test_sphinx_roles_become_inline_code():
    ext = _extension()
    text = "returns a :class:`~highlevel.callbacks.History`; see :meth:`compile` and :func:`highlevel.ops.sum`."
    assert ext._roles_as_code(text) == "returns a `History`; see `compile` and `highlevel.ops.sum`."
