"""Minimal pytree helpers (nested lists, tuples and dicts of leaves) shared by the backends.

>>> leaves, treedef = flatten({"a": [1, 2], "b": 3})
>>> leaves
[1, 2, 3]
>>> unflatten(treedef, [10, 20, 30])
{'a': [10, 20], 'b': 30}
"""


def flatten(tree):
    """Returns ``(leaves, treedef)``; dict keys are visited in sorted order."""
    leaves = []

    def walk(node):
        if isinstance(node, (list, tuple)):
            return (type(node), [walk(n) for n in node])
        if isinstance(node, dict):
            keys = sorted(node)
            return (dict, keys, [walk(node[k]) for k in keys])
        leaves.append(node)
        return None

    return leaves, walk(tree)


def unflatten(treedef, leaves):
    """Rebuilds the structure described by ``treedef`` from ``leaves``."""
    it = iter(leaves)

    def build(d):
        if d is None:
            return next(it)
        if d[0] is dict:
            return {k: build(c) for k, c in zip(d[1], d[2])}
        kind, children = d
        out = [build(c) for c in children]
        return tuple(out) if kind is tuple else out

    return build(treedef)


def map_structure(fn, tree):
    """Applies ``fn`` to every leaf and keeps the structure."""
    leaves, treedef = flatten(tree)
    return unflatten(treedef, [fn(x) for x in leaves])
