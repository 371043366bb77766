"""A griffe extension that reads the package's docstrings as the doctest suite and ``help()`` do.

Two habits of the docstrings need help before mkdocstrings renders them as Markdown:

- ``>>>`` examples may stand on their own, without an ``Examples:`` section; Markdown would read their output
  (``[[1, 3], [2, 4]]``) as link references. Each such run of lines becomes a fenced ``pycon`` block.
- An ``Args:`` entry may name several arguments that share a description (``a, b, c: as in X``), over several
  lines; it becomes one entry per argument.
- Sphinx roles (``:class:`~highlevel.callbacks.History```) would show as written; each becomes inline code of
  the name (``History`` for a ``~`` path, the whole path otherwise).
"""

import re

import griffe

_SECTION = re.compile(r"^(\s*)(\w[\w ]*):\s*$")
_EXAMPLES = ("Example", "Examples")
_ARGS = ("Args", "Arguments")
_ROLE = re.compile(r":(?:class|meth|func|attr|mod|obj|data|exc|py:\w+):`(~?)([^`]+)`")
_NAME = r"\**\w+(?:\s*\([^)]*\))?"  # a name, with an optional remark in parentheses: "reset_after (default True)"
_GROUP = re.compile(rf"^(\s*)({_NAME}(?:\s*,\s*{_NAME})+)\s*:(.*)$")


def _roles_as_code(text):
    return _ROLE.sub(lambda m: f"`{m.group(2).rsplit('.', 1)[-1] if m.group(1) else m.group(2)}`", text)


def _fence_doctests(lines):
    out, i, section = [], 0, None
    while i < len(lines):
        line = lines[i]
        m = _SECTION.match(line)
        if m:
            section = m.group(2)
        elif line.strip() and not line.startswith((" ", "\t")) and not line.lstrip().startswith(">>>"):
            section = None
        if line.lstrip().startswith(">>>") and section not in _EXAMPLES:
            indent = line[: len(line) - len(line.lstrip())]
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i].lstrip())
                i += 1
            out += [f"{indent}```pycon"] + [indent + b for b in block] + [f"{indent}```"]
            continue
        out.append(line)
        i += 1
    return out


def _split_grouped_args(lines):
    out, i, section = [], 0, None
    while i < len(lines):
        line = lines[i]
        m = _SECTION.match(line)
        if m:
            section = m.group(2)
            out.append(line)
            i += 1
            continue
        if section in _ARGS and line.rstrip().endswith(","):
            # A list of names that goes on over several lines: join it up to the line with the colon.
            joined, j = line.rstrip(), i + 1
            while j < len(lines) and joined.endswith(",") and ":" not in joined:
                joined += " " + lines[j].strip()
                j += 1
            if _GROUP.match(joined):
                line, i = joined, j - 1
        g = _GROUP.match(line) if section in _ARGS else None
        if g:
            indent, names, rest = g.groups()
            # A description that goes on at the entry's own indent (not deeper) still belongs to it.
            while i + 1 < len(lines) and lines[i + 1].startswith(indent) and lines[i + 1].strip():
                nxt = lines[i + 1].strip()
                if lines[i + 1][len(indent)] in " \t" or re.match(rf"{_NAME}[:,]", nxt):
                    break
                rest += " " + nxt
                i += 1
            for name in re.findall(_NAME, names):
                bare = name.split("(")[0].strip()
                remark = name[len(bare) :].strip()
                out.append(f"{indent}{bare}:{rest}" + (f" {remark}" if remark else ""))
        else:
            out.append(line)
        i += 1
    return out


class DocstringHabits(griffe.Extension):
    """Rewrites each docstring's text before it is parsed (see the module's docstring)."""

    def on_object(self, *, obj, **kwargs):
        if obj.docstring is not None:
            lines = _roles_as_code(obj.docstring.value).split("\n")
            obj.docstring.value = "\n".join(_fence_doctests(_split_grouped_args(lines)))
