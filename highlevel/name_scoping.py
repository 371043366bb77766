"""``hl.name_scope``: a prefix for the paths of the variables and layers created inside a ``with`` block.

>>> import highlevel as hl
>>> with hl.name_scope("encoder"):
...     layer = hl.layers.Dense(2, name="proj")
...     layer.build((None, 3))
>>> layer.name, layer.path, layer.kernel.path
('proj', 'encoder/proj', 'encoder/proj/kernel')
"""

import threading


class _Stack(threading.local):
    def __init__(self):
        self.names = []


_stack = _Stack()


def current_path():
    """The ``"outer/inner"`` path of the enclosing :class:`name_scope` blocks ("" outside any)."""
    return "/".join(_stack.names)


def prefixed(name):
    """``name`` under the current scope's path (``name`` itself outside any scope)."""
    path = current_path()
    return f"{path}/{name}" if path else name


class name_scope:  # noqa: N801 (Keras's spelling: it is used like a function)
    """A ``with`` block whose variables and layers get ``"<name>/"`` in front of their ``path``.

    Scopes nest (``"outer/inner/..."``); a layer's own name is not changed, only its path and the paths of the
    variables it creates (weights created inside the block, by a layer built there, get the prefix).

    Args:
        name: the scope's name: a non-empty string without ``"/"`` at its ends.
        caller: the object opening the scope (used by ``deduplicate``).
        deduplicate: when the enclosing block has the same ``caller`` and ``name``, do not open a second level.
        override_parent: a path that replaces the enclosing scopes' path.

    Raises:
        ValueError: ``name`` is not a non-empty string.

    Example:

    >>> import highlevel as hl
    >>> with hl.name_scope("a"), hl.name_scope("b"):
    ...     hl.Variable(1.0, name="v").path
    'a/b/v'
    """

    def __init__(self, name, caller=None, deduplicate=True, override_parent=None):
        if not isinstance(name, str) or not name.strip("/"):
            raise ValueError(f"name_scope needs a non-empty string name; received {name!r}.")
        self.name = name.strip("/")
        self.caller = caller
        self.deduplicate = deduplicate
        self.override_parent = override_parent
        self._saved = None

    def __enter__(self):
        self._saved = list(_stack.names)
        if self.override_parent is not None:
            _stack.names = [p for p in str(self.override_parent).split("/") if p]
        top = getattr(_stack, "top", None)
        if (
            self.deduplicate
            and self.caller is not None
            and top is not None
            and top.caller is self.caller
            and top.name == self.name
            and _stack.names
            and _stack.names[-1] == self.name
        ):
            self._previous_top = top
            return self
        _stack.names = _stack.names + self.name.split("/")
        self._previous_top = top
        _stack.top = self
        return self

    def __exit__(self, *exc):
        _stack.names = self._saved
        _stack.top = self._previous_top
        return False
