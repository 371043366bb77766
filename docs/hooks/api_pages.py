"""Writes the API reference pages while the site builds: one page per public namespace, one entry per name.

The pages are not kept in the repository. When the site builds, this hook imports ``highlevel``, lists the public
functions and classes of each namespace and hands MkDocs one generated page per namespace, whose entries
mkdocstrings fills from the docstrings. A name added to a namespace therefore appears on its page with no edit
here. An object reachable under several names is documented once, at its first path in ``NAMESPACES`` order;
its other names link there.
"""

import inspect
import pathlib
import tempfile
import types

from mkdocs.plugins import event_priority

from highlevel._public_api import NAMESPACES, public_names
from highlevel._public_api import namespace as _module

_STAGE = None  # the temporary folder of staged_package, kept for the build


def _inherited_from_private_bases(cls, public):
    """The public methods ``cls`` inherits from highlevel classes that have no entry of their own.

    ``Model.fit`` is defined on an internal base class (the trainer): it is shown on ``Model``'s entry, while
    what a layer inherits from the public ``Layer`` stays on ``Layer``'s entry.
    """
    if not inspect.isclass(cls):
        return set()
    names = set()
    for base in cls.__mro__[1:]:
        if id(base) in public:
            break
        if not (base.__module__ or "").startswith("highlevel"):
            continue
        names |= {n for n, v in vars(base).items() if not n.startswith("_") and n not in vars(cls) and callable(v)}
    return names


def page_name(path):
    """The file name of a namespace's page under ``api/``."""
    return f"api/{path or 'highlevel'}.md"


def _dotted(path, name):
    return f"highlevel.{path}.{name}" if path else f"highlevel.{name}"


def build_pages():
    """``{file name: markdown}`` for every namespace's page."""
    first = {}  # id(object) -> (namespace, name) where it is documented
    pages = {}
    public = {id(obj) for path in NAMESPACES for _, obj in public_names(path)}
    for path in NAMESPACES:
        title = f"highlevel.{path}" if path else "highlevel"
        mod = _module(path)
        summary = (inspect.getdoc(mod) or "").split("\n\n")[0].strip()
        lines = [f"# `{title}`", ""]
        if summary:
            lines += [summary, ""]
        entries = public_names(path)
        lines += [f"{len(entries)} public functions and classes.", ""]
        for name, obj in entries:
            if id(obj) in first:
                where_path, where_name = first[id(obj)]
                target = page_name(where_path)[len("api/") :]
                anchor = _dotted(where_path, where_name)
                lines += [
                    f"## `{name}` {{ #{_dotted(path, name)} }}",
                    "",
                    f"The same object as [`{anchor}`]({target}#{anchor}).",
                    "",
                ]
                continue
            first[id(obj)] = (path, name)
            lines += [f"::: {_dotted(path, name)}", ""]
            inherited = _inherited_from_private_bases(obj, public)
            if inherited:
                lines[-1:] = ["    options:", f"      inherited_members: {sorted(inherited)}", ""]
        pages[page_name(path)] = "\n".join(lines)
    return pages


def staged_package(root):
    """Lays the package out as one tree under ``root`` (symbolic links) and returns ``root``.

    ``highlevel.backends``, ``highlevel.layers`` and ``highlevel.callbacks`` live beside ``highlevel/`` in a
    checkout (pyproject.toml maps them into the package), but mkdocstrings finds modules by walking one folder.
    """
    import highlevel

    top = pathlib.Path(highlevel.__file__).parent
    staged = pathlib.Path(root) / "highlevel"
    staged.mkdir(parents=True, exist_ok=True)
    for child in top.iterdir():
        if child.name != "__pycache__":
            (staged / child.name).symlink_to(child)
    for name in dir(highlevel):
        sub = getattr(highlevel, name)
        if not isinstance(sub, types.ModuleType) or not sub.__name__.startswith("highlevel."):
            continue
        folder = pathlib.Path(sub.__file__).parent
        if sub.__name__.count(".") == 1 and folder.name == sub.__name__.split(".")[1] and top not in folder.parents:
            link = staged / folder.name
            if link.is_symlink():
                link.unlink()
            link.symlink_to(folder)
    return root


@event_priority(100)  # before mkdocstrings reads its handlers' settings
def on_config(config):
    """Adds the API pages to the navigation, after the hand-written pages, and shows mkdocstrings the package."""
    global _STAGE
    _STAGE = tempfile.TemporaryDirectory(prefix="highlevel-docs-")
    python = config["plugins"]["mkdocstrings"].config["handlers"].setdefault("python", {})
    python["paths"] = [staged_package(_STAGE.name)]
    api = [{(f"highlevel.{p}" if p else "highlevel"): page_name(p)} for p in NAMESPACES]
    config["nav"] = list(config["nav"] or []) + [{"API reference": api}]
    return config


def on_files(files, config):
    """Hands MkDocs the generated API pages."""
    from mkdocs.structure.files import File

    for name, text in build_pages().items():
        files.append(File.generated(config, name, content=text))
    return files
