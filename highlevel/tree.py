"""``hl.tree``: utilities for nested structures (``keras.tree``'s names and semantics).

A *structure* is a leaf or a container of structures. Containers are lists, tuples, namedtuples, ``deque``s and
dicts (``dict``, ``defaultdict`` and ``OrderedDict``); anything else, ``None`` included, is a leaf. A plain dict is
walked in sorted key order, an ``OrderedDict`` in its own order, as Keras does.

>>> import highlevel as hl
>>> hl.tree.flatten({"b": [1, (2, 3)], "a": 0})
[0, 1, 2, 3]
>>> hl.tree.map_structure(lambda x: x * 10, {"b": [1, (2, 3)], "a": 0})
{'b': [10, (20, 30)], 'a': 0}
>>> hl.tree.flatten_with_path([4, {"k": 5}])
[((0,), 4), ((1, 'k'), 5)]
"""

import collections

__all__ = [
    "MAP_TO_NONE",
    "assert_same_paths",
    "assert_same_structure",
    "flatten",
    "flatten_with_path",
    "is_nested",
    "lists_to_tuples",
    "map_shape_structure",
    "map_structure",
    "map_structure_up_to",
    "pack_sequence_as",
    "traverse",
]


class MAP_TO_NONE:  # noqa: N801 - Keras's name; a class, as in Keras, so code that checks its type works here too
    """The value :func:`traverse`'s function returns to replace a sub-structure with ``None`` (the class itself
    is the marker: return ``hl.tree.MAP_TO_NONE``, not an instance).

    >>> import highlevel as hl
    >>> hl.tree.traverse(lambda s: hl.tree.MAP_TO_NONE if s == "drop" else None, ["keep", "drop"])
    ['keep', None]
    """


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def is_nested(structure):
    """Whether ``structure`` is a container (list, tuple, namedtuple, deque or dict) rather than a leaf.

    Args:
        structure: any object.

    Returns:
        True for a list, tuple, namedtuple, deque or dict (even an empty one); False otherwise.

    >>> import highlevel as hl
    >>> hl.tree.is_nested([1]), hl.tree.is_nested(1), hl.tree.is_nested(None)
    (True, False, False)
    """
    return isinstance(structure, (list, tuple, dict, collections.deque))


def _keys(node):
    """The keys of a dict node in walking order: insertion order for an OrderedDict, sorted otherwise."""
    if isinstance(node, collections.OrderedDict):
        return list(node)
    try:
        return sorted(node)
    except TypeError:  # keys of mixed types: sorted by their representation, deterministic too
        return sorted(node, key=repr)


def _children(node):
    """``[(key, child), ...]`` of a container, in walking order."""
    if isinstance(node, dict):
        return [(k, node[k]) for k in _keys(node)]
    return list(enumerate(node))


def _rebuild(node, values):
    """A container of the type of ``node`` holding ``values`` (in ``_children`` order)."""
    if isinstance(node, dict):
        keys = _keys(node)
        if isinstance(node, collections.defaultdict):
            out = collections.defaultdict(node.default_factory)
            for k in node:  # keep the original insertion order
                out[k] = values[keys.index(k)]
            return out
        if isinstance(node, collections.OrderedDict):
            return collections.OrderedDict(zip(keys, values))
        mapped = dict(zip(keys, values))
        return type(node)((k, mapped[k]) for k in node) if type(node) is not dict else {k: mapped[k] for k in node}
    if _is_namedtuple(node):
        return type(node)(*values)
    if isinstance(node, collections.deque):
        return collections.deque(values, maxlen=node.maxlen)
    return type(node)(values)


def flatten(structure):
    """The leaves of ``structure``, depth first.

    Dicts are walked in sorted key order, as in Keras; None is a leaf.

    Args:
        structure: a leaf, or a nest of lists, tuples, namedtuples, deques and dicts.

    Returns:
        A list of the leaves.

    >>> import highlevel as hl
    >>> hl.tree.flatten([1, None, {"x": 2}])
    [1, None, 2]
    """
    out = []
    stack = [structure]
    while stack:
        node = stack.pop()
        if is_nested(node):
            stack.extend(child for _, child in reversed(_children(node)))
        else:
            out.append(node)
    return out


def flatten_with_path(structure):
    """``[(path, leaf), ...]``: each leaf with the tuple of keys and indices that lead to it.

    Args:
        structure: a leaf, or a nest of lists, tuples, namedtuples, deques and dicts.

    Returns:
        A list of ``(path, leaf)`` pairs in :func:`flatten`'s order; a path is a tuple of dict keys and sequence
        indices.

    >>> import highlevel as hl
    >>> hl.tree.flatten_with_path({"a": [7, 8]})
    [(('a', 0), 7), (('a', 1), 8)]
    """
    out = []
    stack = [((), structure)]
    while stack:
        path, node = stack.pop()
        if is_nested(node):
            stack.extend((path + (k,), child) for k, child in reversed(_children(node)))
        else:
            out.append((path, node))
    return out


def _assert_same(a, b, path=()):
    if is_nested(a) != is_nested(b):
        raise ValueError(
            f"The two structures don't have the same nested structure: at {path or 'the top'}, one is "
            f"a {type(a).__name__} and the other a {type(b).__name__}.\n  a: {a!r}\n  b: {b!r}"
        )
    if not is_nested(a):
        return
    if isinstance(a, dict) != isinstance(b, dict) or (not isinstance(a, dict) and type(a) is not type(b)):
        raise ValueError(
            f"The two structures don't have the same nested structure: at {path or 'the top'}, a "
            f"{type(a).__name__} against a {type(b).__name__}."
        )
    if isinstance(a, dict):
        if set(a) != set(b):
            raise ValueError(
                f"The two structures don't have the same nested structure: at {path or 'the top'}, "
                f"dict keys {sorted(map(repr, a))} against {sorted(map(repr, b))}."
            )
        for k in _keys(a):
            _assert_same(a[k], b[k], path + (k,))
        return
    if len(a) != len(b):
        raise ValueError(
            f"The two structures don't have the same nested structure: at {path or 'the top'}, "
            f"{len(a)} elements against {len(b)}."
        )
    for i, (x, y) in enumerate(zip(a, b)):
        _assert_same(x, y, path + (i,))


def assert_same_structure(a, b, check_types=None):
    """Checks that two structures are nested the same way (same container types and sizes).

    Any dict matches any dict with the same keys; a list does not match a tuple (see :func:`assert_same_paths` for
    the looser check).

    Args:
        a: the first structure.
        b: the second structure.
        check_types: accepted for compatibility; it has no effect (as in Keras 3).

    Returns:
        None when the structures agree.

    Raises:
        ValueError: the structures differ.

    >>> import highlevel as hl
    >>> hl.tree.assert_same_structure([(0, 1)], [(2, 3)])
    >>> try:
    ...     hl.tree.assert_same_structure([0, 1], [0])
    ... except ValueError:
    ...     print("different")
    different
    """
    del check_types
    _assert_same(a, b)


def assert_same_paths(a, b):
    """Raises ``ValueError`` unless ``a`` and ``b`` have the same leaf paths (container types may differ).

    Args:
        a: the first structure.
        b: the second structure.

    Returns:
        None when the paths agree.

    Raises:
        ValueError: the leaf paths differ; the message shows both sets of paths.

    >>> import highlevel as hl
    >>> hl.tree.assert_same_paths([1, 2], (3, 4))
    """
    pa = {p for p, _ in flatten_with_path(a)}
    pb = {p for p, _ in flatten_with_path(b)}
    if pa != pb:
        raise ValueError(
            "`a` and `b` don't have the same paths.\n"
            f"Paths in `a` missing in `b`:\n{pa - pb}\nPaths in `b` missing in `a`:\n{pb - pa}"
        )


def pack_sequence_as(structure, flat_sequence):
    """The leaves of ``flat_sequence`` placed in the shape of ``structure``.

    Dict entries are filled in sorted key order, as :func:`flatten` lists them.

    Args:
        structure: the structure whose shape the result takes (its leaves are ignored).
        flat_sequence: a flat list of as many leaves as ``structure`` has.

    Returns:
        A structure like ``structure`` holding the leaves of ``flat_sequence``.

    Raises:
        ValueError: ``flat_sequence`` has more or fewer entries than ``structure`` has leaves.

    >>> import highlevel as hl
    >>> hl.tree.pack_sequence_as({"b": [0, 0], "a": 0}, [1, 2, 3])
    {'b': [2, 3], 'a': 1}
    """
    flat = list(flat_sequence)
    n = len(flatten(structure))
    if n != len(flat):
        raise ValueError(
            f"pack_sequence_as: the structure has {n} leaves but flat_sequence has {len(flat)} "
            f"entries.\n  structure: {structure!r}"
        )
    it = iter(flat)

    def build(node):
        if not is_nested(node):
            return next(it)
        return _rebuild(node, [build(child) for _, child in _children(node)])

    return build(structure)


def map_structure(func, *structures, none_is_leaf=True):
    """``func`` applied to the leaves of one or more structures of the same shape; the result has that shape.

    Args:
        func: called with one leaf of each structure.
        *structures: structures of the same nesting.
        none_is_leaf: when False, ``None`` leaves are kept as ``None`` without calling ``func``.

    Returns:
        A structure like the first one holding ``func``'s results.

    Raises:
        ValueError: the structures are not nested the same way.

    >>> import highlevel as hl
    >>> hl.tree.map_structure(lambda a, b: a + b, [1, (2,)], [10, (20,)])
    [11, (22,)]
    """
    if not structures:
        raise ValueError("map_structure needs at least one structure.")
    first = structures[0]
    for other in structures[1:]:
        _assert_same(first, other)
    columns = [flatten(s) for s in structures]
    if none_is_leaf:
        values = [func(*leaves) for leaves in zip(*columns)]
    else:
        values = [None if leaves[0] is None else func(*leaves) for leaves in zip(*columns)]
    return pack_sequence_as(first, values)


def map_structure_up_to(shallow_structure, func, *structures):
    """Like :func:`map_structure`, but only down to the depth of ``shallow_structure``: what lies below a leaf of
    it is handed to ``func`` whole.

    Args:
        shallow_structure: a structure whose nesting sets the depth; its leaves may be anything.
        func: called with the sub-structures of ``structures`` found at each leaf of ``shallow_structure``.
        *structures: one or more structures at least as deep as ``shallow_structure``.

    Returns:
        A structure like ``shallow_structure`` holding ``func``'s results.

    Raises:
        ValueError: a structure is shallower than ``shallow_structure`` or nested differently.

    >>> import highlevel as hl
    >>> hl.tree.map_structure_up_to([0, 0], len, [[1, 2], [3]])
    [2, 1]
    """

    def walk(shallow, nodes):
        if not is_nested(shallow):
            return func(*nodes)
        for node in nodes:
            if not is_nested(node) or (len(node) != len(shallow)):
                raise ValueError(f"map_structure_up_to: {node!r} does not match the shallow structure {shallow!r}.")
        children = [_children(n) for n in nodes]
        return _rebuild(
            shallow, [walk(child, [c[i][1] for c in children]) for i, (_, child) in enumerate(_children(shallow))]
        )

    return walk(shallow_structure, structures)


def _is_shape(x):
    return isinstance(x, (list, tuple)) and all(d is None or isinstance(d, int) for d in x) and not _is_namedtuple(x)


def map_shape_structure(func, structure):
    """:func:`map_structure` where a tuple or list of ints/None (a shape) counts as one leaf.

    Args:
        func: called with each shape (or other leaf).
        structure: a nest whose shapes are tuples or lists of ints and None.

    Returns:
        A structure like ``structure`` holding ``func``'s results.

    >>> import highlevel as hl
    >>> hl.tree.map_shape_structure(len, {"a": (1, 2), "b": [(3,), (None, 4)]})
    {'a': 2, 'b': [1, 2]}
    """
    if _is_shape(structure) and (structure or not is_nested(structure)):
        return func(structure)
    if not is_nested(structure):
        return func(structure)
    return _rebuild(structure, [map_shape_structure(func, child) for _, child in _children(structure)])


def lists_to_tuples(structure):
    """``structure`` with every list turned into a tuple (recursively).

    Args:
        structure: a nest of containers.

    Returns:
        A new structure with the same leaves, lists replaced by tuples (dicts and other containers kept).

    >>> import highlevel as hl
    >>> hl.tree.lists_to_tuples([1, [2, {"a": [3]}]])
    (1, (2, {'a': (3,)}))
    """
    if not is_nested(structure):
        return structure
    values = [lists_to_tuples(child) for _, child in _children(structure)]
    if isinstance(structure, list):
        return tuple(values)
    return _rebuild(structure, values)


def traverse(func, structure, top_down=True):
    """Applies ``func`` to every sub-structure (containers and leaves), depth first.

    Top down, a sub-structure for which ``func`` returns something other than ``None`` is replaced by that value
    and not walked into; bottom up, every sub-structure is visited after its children and replaced by ``func``'s
    value when it is not ``None``. Return :data:`MAP_TO_NONE` to replace a sub-structure by ``None``.

    Args:
        func: called with each sub-structure; returns None to keep it (top down: and walk into it), another value
            to replace it, or :data:`MAP_TO_NONE` to replace it with None.
        structure: the structure to walk.
        top_down: whether to visit a container before its children (default True) or after them.

    Returns:
        The structure with the replacements made.

    >>> import highlevel as hl
    >>> seen = []
    >>> hl.tree.traverse(seen.append, [1, (2,)])
    [1, (2,)]
    >>> seen
    [[1, (2,)], 1, (2,), 2]
    """

    def fix(value):
        return None if value is MAP_TO_NONE else value

    def down(node):
        out = func(node)
        if out is not None:
            return fix(out)
        if not is_nested(node):
            return node
        return _rebuild(node, [down(child) for _, child in _children(node)])

    def up(node):
        if is_nested(node):
            node = _rebuild(node, [up(child) for _, child in _children(node)])
        out = func(node)
        return node if out is None else fix(out)

    return down(structure) if top_down else up(structure)
