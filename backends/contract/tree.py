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
    return leaves, _walk(tree, leaves)


# Module-level recursion, not nested closures: a nested function that calls itself sits in a reference cycle
# with its closure, which would keep the leaves (whole batches) alive until the garbage collector runs.
def _walk(node, leaves):
    if isinstance(node, (list, tuple)):
        return (type(node), [_walk(n, leaves) for n in node])
    if isinstance(node, dict):
        keys = sorted(node)
        return (dict, keys, [_walk(node[k], leaves) for k in keys])
    leaves.append(node)
    return None


def unflatten(treedef, leaves):
    """Rebuilds the structure described by ``treedef`` from ``leaves``."""
    return _build(treedef, iter(leaves))


def _build(d, it):
    if d is None:
        return next(it)
    if d[0] is dict:
        return {k: _build(c, it) for k, c in zip(d[1], d[2])}
    kind, children = d
    out = [_build(c, it) for c in children]
    return tuple(out) if kind is tuple else out


def map_structure(fn, tree):
    """Applies ``fn`` to every leaf and keeps the structure."""
    leaves, treedef = flatten(tree)
    return unflatten(treedef, [fn(x) for x in leaves])
