"""The pattern language of ``hl.ops.rearrange`` (einops style): parsing a pattern into reshape and transpose steps.

``plan(shape, pattern, axes_lengths)`` returns ``(decomposed, permutation, composed)``: reshape the input to
``decomposed`` (one axis per name of the left side, groups split), transpose by ``permutation`` (the names in
the order of the right side), reshape to ``composed`` (groups of the right side merged). An unknown size is -1;
a reshape that is not needed (no group on that side) is None.

>>> plan((2, 6, 4), "b (h1 h) w -> (b h1) w h", {"h1": 2})
((2, 2, 3, 4), (0, 1, 3, 2), (4, 4, 3))
>>> plan((None, None, 5), "b ... -> ... b", {})
(None, (1, 2, 0), None)
"""

import re

_TOKEN = re.compile(r"\.\.\.|\(|\)|[A-Za-z_]\w*|\S")


def _parse(side, pattern):
    """The items of one side: names, lists of names (parenthesized groups) and ``...``."""
    items, group = [], None
    for token in _TOKEN.findall(side):
        if token == "(":
            if group is not None:
                raise ValueError(f"rearrange: parentheses cannot nest; received pattern {pattern!r}.")
            group = []
        elif token == ")":
            if group is None:
                raise ValueError(f"rearrange: a ')' without its '('; received pattern {pattern!r}.")
            items.append(group)
            group = None
        elif token == "..." or re.fullmatch(r"[A-Za-z_]\w*", token):
            (group if group is not None else items).append(token)
        else:
            raise ValueError(
                f"rearrange: {token!r} is not an axis name, '(', ')' or '...'; received pattern {pattern!r}."
            )
    if group is not None:
        raise ValueError(f"rearrange: a '(' without its ')'; received pattern {pattern!r}.")
    names = [n for item in items for n in (item if isinstance(item, list) else [item])]
    repeated = {n for n in names if names.count(n) > 1}
    if repeated:
        raise ValueError(
            f"rearrange: each axis can appear once per side; {sorted(repeated)} repeat in pattern {pattern!r}."
        )
    if any(isinstance(item, list) and "..." in item for item in items):
        raise ValueError(f"rearrange: '...' cannot be inside parentheses; received pattern {pattern!r}.")
    return items, names


def _product(sizes):
    out = 1
    for s in sizes:
        if s is None:
            return None
        out *= s
    return out


def _shape(sizes, pattern):
    if sizes.count(None) > 1:
        raise ValueError(
            f"rearrange: more than one axis of unknown size would have to be inferred in one reshape "
            f"for pattern {pattern!r}; give the input known sizes."
        )
    return tuple(-1 if s is None else s for s in sizes)


def plan(shape, pattern, axes_lengths):
    """``(decomposed, permutation, composed)`` for ``pattern`` on a tensor of ``shape`` (see the module doc)."""
    if not isinstance(pattern, str) or pattern.count("->") != 1:
        raise ValueError(f"rearrange: `pattern` must be a string 'input axes -> output axes'; received {pattern!r}.")
    left, right = pattern.split("->")
    left_items, left_names = _parse(left, pattern)
    right_items, right_names = _parse(right, pattern)
    if set(left_names) != set(right_names):
        only_left = sorted(set(left_names) - set(right_names))
        only_right = sorted(set(right_names) - set(left_names))
        raise ValueError(
            f"rearrange: both sides must name the same axes; only on the left: {only_left}, only on "
            f"the right: {only_right} (pattern {pattern!r})."
        )
    unknown = sorted(set(axes_lengths) - set(left_names))
    if unknown:
        raise ValueError(f"rearrange: the sizes given for {unknown} name no axis of pattern {pattern!r}.")
    lengths = {}
    for name, value in axes_lengths.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"rearrange: the size of axis {name!r} must be a positive int; received {value!r}.")
        lengths[name] = value
    has_ellipsis = "..." in left_items
    fixed = len(left_items) - has_ellipsis
    if len(shape) < fixed or (not has_ellipsis and len(shape) != fixed):
        raise ValueError(
            f"rearrange: the left side of {pattern!r} names {fixed} axes"
            f"{' or more' if has_ellipsis else ''}; the tensor has shape {tuple(shape)}."
        )
    rest = len(shape) - fixed
    ellipsis_names = [f"...{i}" for i in range(rest)]

    def expand(items):
        out = []
        for item in items:
            if item == "...":
                out.extend([n] for n in ellipsis_names)
            else:
                out.append(item if isinstance(item, list) else [item])
        return out

    left_groups, right_groups = expand(left_items), expand(right_items)
    size = {}
    for group, dim in zip(left_groups, shape):
        known = [lengths[n] for n in group if n in lengths]
        free = [n for n in group if n not in lengths]
        if len(free) > 1:
            raise ValueError(
                f"rearrange: the sizes of {free} in group ({' '.join(group)}) cannot be inferred; "
                f"give all but one of them as keyword arguments (pattern {pattern!r})."
            )
        part = _product(known)
        if free:
            if dim is not None and dim % part:
                raise ValueError(
                    f"rearrange: an axis of size {dim} does not split into ({' '.join(group)}) with "
                    f"sizes {[(n, lengths[n]) for n in group if n in lengths]}."
                )
            size[free[0]] = None if dim is None else dim // part
        elif dim is not None and part != dim:
            raise ValueError(
                f"rearrange: ({' '.join(group)}) has size {part}, but the axis has size {dim} (pattern {pattern!r})."
            )
        for n in group:
            if n in lengths:
                size[n] = lengths[n]
    elementary = [n for group in left_groups for n in group]
    decomposed = None
    if any(len(group) != 1 for group in left_groups):
        decomposed = _shape([size[n] for n in elementary], pattern)
    permutation = tuple(elementary.index(n) for group in right_groups for n in group)
    composed = None
    if any(len(group) != 1 for group in right_groups):
        composed = _shape([_product(size[n] for n in group) for group in right_groups], pattern)
    return decomposed, permutation, composed
