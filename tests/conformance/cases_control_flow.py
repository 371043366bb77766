"""Conformance cases: loops, conditionals and maps (``switch``, ``while_loop``, ``fori_loop``, ``map``,
``vectorized_map``, ``associative_scan``, ``scan``).

The functions these ops take are written twice: once on ``hl.ops`` (they run on the engine under test, inside its
loop or conditional construct) and once on numpy in float64 (the reference's loop). Each case runs on every
engine through ``hl.ops``, forward, first-order gradient and Hessian-vector product, like any other op.
``cond`` and ``custom_gradient`` take functions of no tensor argument (closures) or return functions, which a case
line cannot express: ``test_control_flow.py`` checks them the same ways.

JAX cannot differentiate ``lax.while_loop`` in reverse mode: the differentiated ``while_loop`` cases pass
``maximum_iterations`` (the loop then runs as a bounded ``lax.scan`` while it is differentiated); the unbounded
ones are checked forward, and ``test_control_flow.py`` checks JAX's error.
"""

import numpy as np

from highlevel import ops

from .harness import F32_64, INTS, C, const, fixed, normal, raw, uniform


# ---------------------------------------------------------------------------------------- the functions
def _branch_sin(x):
    return ops.sin(x) * 2.0


def _branch_poly(x):
    return x * x + 1.0


def _branch_exp(x):
    return ops.exp(x * 0.5)


BRANCHES = (_branch_sin, _branch_poly, _branch_exp)
REF_BRANCHES = (lambda x: np.sin(x) * 2.0, lambda x: x * x + 1.0, lambda x: np.exp(x * 0.5))


def _ref_switch(index, branches, *operands):
    i = int(np.clip(np.asarray(index), 0, len(REF_BRANCHES) - 1))
    return REF_BRANCHES[i](*operands)


def _mix_a(x, y):
    return x * y, x - y


def _mix_b(x, y):
    return ops.tanh(x) + y, y * 3.0


def _ref_switch2(index, branches, x, y):
    return (x * y, x - y) if int(np.clip(index, 0, 1)) == 0 else (np.tanh(x) + y, y * 3.0)


def _int_a(x):
    return x * 2


def _int_b(x):
    return x - 7


def _ref_switch_int(index, branches, x):
    return x * 2 if int(np.clip(index, 0, 1)) == 0 else x - 7


# while_loop: grow x until its squared norm passes a bound (a data-dependent trip count)
def _while_cond(x, y):
    return ops.sum(x * x) < 40.0


def _while_body(x, y):
    return x * 1.3 + ops.sin(y) * 0.2, y + x * 0.1


def _ref_while(cond, body, loop_vars, maximum_iterations=None):
    x, y = (np.array(v) for v in loop_vars)
    n = 0
    while (maximum_iterations is None or n < maximum_iterations) and np.sum(x * x) < 40.0:
        x, y = x * 1.3 + np.sin(y) * 0.2, y + x * 0.1
        n += 1
    return x, y


def _while_cond_single(x):
    return ops.max(ops.abs(x)) < 10.0


def _while_body_single(x):
    return x * 2.0 + 0.5  # a bare value for the one loop variable


def _ref_while_single(cond, body, loop_vars, maximum_iterations=None):
    (x,) = loop_vars
    n = 0
    while (maximum_iterations is None or n < maximum_iterations) and np.max(np.abs(x)) < 10.0:
        x = x * 2.0 + 0.5
        n += 1
    return (x,)


def _while_cond_int(i, x):
    return i < 5


def _while_body_int(i, x):
    return i + 1, x * 2 - i


def _ref_while_int(cond, body, loop_vars, maximum_iterations=None):
    i, x = (np.array(v) for v in loop_vars)
    while (maximum_iterations is None or i < maximum_iterations) and i < 5:
        i, x = i + 1, x * 2 - i
    return i, x


def _fori_body(i, v):
    return ops.sin(v) * 1.1 + ops.cast(i, ops.dtype(v)) * 0.1


def _ref_fori(lower, upper, body, v):
    for i in range(int(lower), int(upper)):
        v = np.sin(v) * 1.1 + i * 0.1
    return v


def _fori_body_pair(i, v):
    a, b = v
    return [a * b + 0.1, ops.cos(a) - b * 0.5]


def _ref_fori_pair(lower, upper, body, v):
    a, b = v
    for _ in range(int(lower), int(upper)):
        a, b = a * b + 0.1, np.cos(a) - b * 0.5
    return a, b


def _fori_body_int(i, v):
    return ops.add(ops.multiply(v, 3), i)  # (operators on TensorFlow tensors do not promote int32 to int64)


def _ref_fori_int(lower, upper, body, v):
    for i in range(lower, upper):
        v = v * 3 + i
    return v


def _map_fn(x):
    return ops.sum(ops.tanh(x) * x) + x[0]


def _ref_map(f, xs):
    return np.stack([np.sum(np.tanh(x) * x) + x[0] for x in xs])


def _map_fn_pair(xs):
    a, b = xs
    return a * b[0], ops.exp(b) * 0.5


def _ref_map_pair(f, xs):
    a, b = xs
    return a * b[:, :1], np.exp(b) * 0.5


def _map_fn_int(x):
    return x * x - 1


def _ref_map_int(f, xs):
    return xs * xs - 1


def _vmap_fn(row):
    return ops.matmul(row, ops.transpose(row)) * 0.5 + ops.sum(ops.sin(row), axis=-1)


def _ref_vmap(f, x):
    return np.stack([r @ r.T * 0.5 + np.sum(np.sin(r), axis=-1) for r in x])


def _add(a, b):
    return a + b


def _ref_cumsum(f, x, reverse=False, axis=0):
    if reverse:
        return np.flip(np.cumsum(np.flip(x, axis), axis=axis), axis)
    return np.cumsum(x, axis=axis)


def _affine(p, q):
    # the composition of x -> a1 x + b1 and then x -> a2 x + b2: a linear recurrence, associative
    a1, b1 = p
    a2, b2 = q
    return [a1 * a2, a2 * b1 + b2]


def _ref_affine(f, elems, reverse=False, axis=0):
    a, b = (np.moveaxis(np.array(e), axis, 0) for e in elems)
    if reverse:
        a, b = a[::-1], b[::-1]
    outs_a, outs_b = [a[0]], [b[0]]
    for k in range(1, len(a)):
        outs_a.append(outs_a[-1] * a[k])
        outs_b.append(a[k] * outs_b[-1] + b[k])
    outs_a, outs_b = np.stack(outs_a), np.stack(outs_b)
    if reverse:
        outs_a, outs_b = outs_a[::-1], outs_b[::-1]
    return np.moveaxis(outs_a, 0, axis), np.moveaxis(outs_b, 0, axis)


def _maximum(a, b):
    return ops.maximum(a, b)


def _ref_cummax(f, x, reverse=False, axis=0):
    if reverse:
        return np.flip(np.maximum.accumulate(np.flip(x, axis), axis=axis), axis)
    return np.maximum.accumulate(x, axis=axis)


def _scan_step(c, x):
    c = ops.tanh(c * 0.9 + x)
    return c, c * x


def _ref_scan(f, init, xs, length=None, reverse=False, unroll=1):
    c, ys = init, [None] * len(xs)
    steps = range(len(xs) - 1, -1, -1) if reverse else range(len(xs))
    for i in steps:
        c = np.tanh(c * 0.9 + xs[i])
        ys[i] = c * xs[i]
    return c, (np.stack(ys) if ys else np.zeros((0,) + np.shape(init)))


def _scan_counter(c, x):
    return c * 1.5 + 0.25, ops.sin(c)


def _ref_scan_counter(f, init, xs, length=None, reverse=False, unroll=1):
    c, ys = init, []
    for _ in range(length):
        ys.append(np.sin(c))
        c = c * 1.5 + 0.25
    return c, np.stack(ys)


CASES = [
    # switch: the index clamps, as lax.switch does (TensorFlow's switch_case alone would run the last branch for
    # a negative index: the front clamps first)
    C("switch", "index0", (fixed(0), raw(BRANCHES), normal(3, 4)), _ref_switch, dtypes=F32_64, grad=(2,)),
    C("switch", "index1", (fixed(1), raw(BRANCHES), normal(3, 4)), _ref_switch, grad=(2,)),
    C("switch", "tensor-index", (fixed(np.array(2, np.int32)), raw(BRANCHES), normal(5)), _ref_switch, grad=(2,)),
    C("switch", "clamp-high", (fixed(np.array(9, np.int64)), raw(BRANCHES), normal(2, 3)), _ref_switch, grad=(2,)),
    C("switch", "clamp-low", (fixed(-3), raw(BRANCHES), normal(2, 3)), _ref_switch, grad=(2,)),
    C(
        "switch",
        "two-operands",
        (fixed(1), raw((_mix_a, _mix_b)), normal(4), normal(4)),
        _ref_switch2,
        dtypes=F32_64,
        grad=(2, 3),
    ),
    C("switch", "int", (fixed(1), raw((_int_a, _int_b)), const([3, -2, 5])), _ref_switch_int, dtypes=INTS),
    # while_loop: a data-dependent number of iterations
    C(
        "while_loop",
        "two-vars",
        (raw(_while_cond), raw(_while_body), [normal(3), normal(3)]),
        _ref_while,
        dtypes=F32_64,
    ),
    C(
        "while_loop",
        "bounded",
        (raw(_while_cond), raw(_while_body), [normal(3), normal(3)]),
        _ref_while,
        dtypes=F32_64,
        grad=(2,),
        maximum_iterations=20,
    ),
    C(
        "while_loop",
        "bound-stops-it",
        (raw(_while_cond), raw(_while_body), [normal(3), normal(3)]),
        _ref_while,
        grad=(2,),
        maximum_iterations=2,
    ),
    C(
        "while_loop",
        "zero-iterations",
        (raw(_while_cond), raw(_while_body), [normal(3), normal(3)]),
        _ref_while,
        grad=(2,),
        maximum_iterations=0,
    ),
    C(
        "while_loop",
        "one-var",
        (raw(_while_cond_single), raw(_while_body_single), [uniform(2, 2)]),
        _ref_while_single,
        grad=(2,),
        maximum_iterations=10,
    ),
    C(
        "while_loop",
        "int-counter",
        (raw(_while_cond_int), raw(_while_body_int), [const(0), const([1, 2, 3])]),
        _ref_while_int,
        dtypes=INTS,
    ),
    # fori_loop
    C("fori_loop", "basic", (0, 4, raw(_fori_body), normal(3, 2)), _ref_fori, dtypes=F32_64, grad=(3,)),
    C(
        "fori_loop",
        "tensor-bounds",
        (fixed(np.array(1, np.int32)), fixed(np.array(4, np.int32)), raw(_fori_body), normal(5)),
        _ref_fori,
        grad=(3,),
    ),
    C("fori_loop", "empty-range", (3, 3, raw(_fori_body), normal(4)), _ref_fori, grad=(3,)),
    C("fori_loop", "pair", (0, 3, raw(_fori_body_pair), [normal(3), normal(3)]), _ref_fori_pair, grad=(3,)),
    C("fori_loop", "int", (0, 4, raw(_fori_body_int), const([1, -2, 3])), _ref_fori_int, dtypes=INTS),
    # map and vectorized_map
    C("map", "basic", (raw(_map_fn), normal(5, 3)), _ref_map, dtypes=F32_64, grad=(1,)),
    C("map", "pair", (raw(_map_fn_pair), [normal(4, 3), normal(4, 2)]), _ref_map_pair, grad=(1,)),
    C("map", "int", (raw(_map_fn_int), const([[1, 2], [3, -4], [5, 6]])), _ref_map_int, dtypes=INTS),
    C("vectorized_map", "basic", (raw(_vmap_fn), normal(4, 2, 3)), _ref_vmap, dtypes=F32_64, grad=(1,)),
    C("vectorized_map", "pair", (raw(_map_fn_pair), [normal(4, 3), normal(4, 2)]), _ref_map_pair, grad=(1,)),
    C("vectorized_map", "int", (raw(_map_fn_int), const([[1, 2], [3, -4], [5, 6]])), _ref_map_int, dtypes=INTS),
    # associative_scan: odd and even lengths exercise both halves of the parallel prefix algorithm
    C("associative_scan", "sum7", (raw(_add), normal(7, 3)), _ref_cumsum, dtypes=F32_64, grad=(1,)),
    C("associative_scan", "sum8-axis1", (raw(_add), normal(2, 8)), _ref_cumsum, grad=(1,), axis=1),
    C("associative_scan", "sum-reverse", (raw(_add), normal(3, 5)), _ref_cumsum, grad=(1,), axis=-1, reverse=True),
    C("associative_scan", "len1", (raw(_add), normal(1, 4)), _ref_cumsum, grad=(1,)),
    C("associative_scan", "int", (raw(_add), const([3, -1, 4, 1, -5, 9])), _ref_cumsum, dtypes=INTS),
    C(
        "associative_scan",
        "affine",
        (raw(_affine), [uniform(6, 2, low=0.5, high=1.5), normal(6, 2)]),
        _ref_affine,
        dtypes=F32_64,
        grad=(1,),
    ),
    C(
        "associative_scan",
        "affine-reverse",
        (raw(_affine), [uniform(2, 5, low=0.5, high=1.5), normal(2, 5)]),
        _ref_affine,
        grad=(1,),
        axis=1,
        reverse=True,
    ),
    C("associative_scan", "max", (raw(_maximum), normal(9, 2)), _ref_cummax, grad=(1,)),
    # scan (Keras's signature: f, init, xs=None, length=None, reverse=False, unroll=1)
    C("scan", "basic", (raw(_scan_step), normal(3), normal(6, 3)), _ref_scan, dtypes=F32_64, grad=(1, 2)),
    C(
        "scan",
        "reverse-unroll",
        (raw(_scan_step), normal(2), normal(5, 2)),
        _ref_scan,
        grad=(1, 2),
        reverse=True,
        unroll=2,
    ),
    C("scan", "unroll-all", (raw(_scan_step), normal(2), normal(4, 2)), _ref_scan, grad=(1, 2), unroll=True),
    C("scan", "length-no-xs", (raw(_scan_counter), normal(3), None), _ref_scan_counter, grad=(1,), length=4),
    C("scan", "no-steps", (raw(_scan_step), normal(3), normal(0, 3)), _ref_scan, grad=(1,)),
]
