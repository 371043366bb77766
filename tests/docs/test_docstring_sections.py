"""Every public function and class documents itself: a summary, its arguments, what it returns, what it raises
and a short example (the examples run in tests/test_docstrings.py).

The rules, per public object reached from a namespace of the package:

- a summary sentence of at least three words;
- an ``Args:`` section when the callable takes parameters (for a class: its constructor's), naming each one
  (``*args``/``**kwargs`` excepted);
- a ``Returns:`` (or ``Yields:``) section for a function;
- a ``Raises:`` section when the function's own body raises;
- a ``>>>`` example.

Objects that do not follow them yet are listed in ``docstring_pending.txt`` (``namespace.name  rule,...``). The
list must stay true both ways: an entry that now follows its rules fails the test too, so the list only shrinks.
"""

import inspect
import pathlib
import re
import textwrap

import pytest

from highlevel._public_api import public_objects

PENDING_FILE = pathlib.Path(__file__).with_name("docstring_pending.txt")

_SECTION = re.compile(r"^\s*(Args|Arguments|Returns|Yields|Raises|Example|Examples):\s*$", re.M)


def _parameters(obj):
    target = obj.__init__ if inspect.isclass(obj) else obj
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return []
    skip = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [p.name for p in sig.parameters.values() if p.name not in ("self", "cls") and p.kind not in skip]


def _own_source(obj):
    target = obj.__init__ if inspect.isclass(obj) else obj
    try:
        return textwrap.dedent(inspect.getsource(target))
    except (OSError, TypeError):
        return ""


def broken_rules(obj):
    """The rules ``obj``'s docstring breaks (an empty list when it follows all of them)."""
    doc = inspect.getdoc(obj) or ""
    if inspect.isclass(obj) and obj.__init__ is not object.__init__:
        # A class may document its arguments on ``__init__`` instead (both places are read by the docs site).
        init_doc = inspect.getdoc(obj.__init__) or ""
        if init_doc and init_doc != inspect.getdoc(object.__init__):
            doc = doc + "\n" + init_doc
    broken = []
    summary = _SECTION.split(doc)[0].strip().split("\n\n")[0]
    if len(summary.split()) < 3:
        broken.append("summary")
    params = _parameters(obj)
    if params:
        m = re.search(r"^\s*(Args|Arguments):\s*$(.*?)(?=^\s*\w[\w ]*:\s*$|\Z)", doc, re.M | re.S)
        if m is None or any(not re.search(rf"^\s*\**{re.escape(p)}\b", m.group(2), re.M) for p in params):
            broken.append("args")
    if not inspect.isclass(obj) and not re.search(r"^\s*(Returns|Yields):", doc, re.M):
        broken.append("returns")
    source = _own_source(obj)
    body = source.split('"""', 2)[-1] if source.count('"""') >= 2 else source
    if re.search(r"^\s*raise\s+\w", body, re.M) and not re.search(r"^\s*Raises:", doc, re.M):
        broken.append("raises")
    if ">>>" not in doc:
        broken.append("example")
    return broken


def _pending():
    out = {}
    if PENDING_FILE.exists():
        for line in PENDING_FILE.read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                name, rules = line.split()
                out[name] = set(rules.split(","))
    return out


def test_public_docstrings_follow_the_rules():
    pending = _pending()
    objects = public_objects()
    newly_broken, now_fine = [], []
    for name, obj in objects.items():
        broken = set(broken_rules(obj))
        allowed = pending.get(name, set())
        if broken - allowed:
            newly_broken.append(f"{name}: {', '.join(sorted(broken - allowed))}")
        if allowed - broken:
            now_fine.append(f"{name}: {', '.join(sorted(allowed - broken))}")
    gone = sorted(set(pending) - set(objects))
    assert not newly_broken, "docstrings missing sections:\n" + "\n".join(newly_broken)
    assert not now_fine, f"now documented: remove from {PENDING_FILE.name}:\n" + "\n".join(now_fine)
    assert not gone, f"no longer public: remove from {PENDING_FILE.name}: {gone}"


@pytest.mark.parametrize(
    "doc, expected",
    [
        ("Adds.", {"summary", "args", "returns", "example"}),
        (
            "Adds two numbers together.\n\nArgs:\n    a: one.\n    b: other.\n\nReturns:\n    The sum.\n\n>>> 1 + 1\n2",
            set(),
        ),
        ("Adds two numbers together.\n\nArgs:\n    a: one.\n\nReturns:\n    The sum.\n\n>>> 1\n1", {"args"}),
    ],
)
def test_the_rules_catch_what_they_describe(doc, expected):
    def add(a, b):
        return a + b

    add.__doc__ = doc
    assert set(broken_rules(add)) == expected


def test_raises_rule_reads_the_body():
    def check(x):
        """Checks a value is positive.

        Args:
            x: the value.

        Returns:
            ``x``.

        >>> check(1)
        1
        """
        if x <= 0:
            raise ValueError("x must be positive")
        return x

    assert broken_rules(check) == ["raises"]
