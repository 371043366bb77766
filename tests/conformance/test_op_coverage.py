"""Every op of ``hl.ops`` (and of its ``nn``, ``numpy``, ``linalg`` and ``image`` namespaces) has a line in the
conformance tables, or is listed here with the tests that check it instead (aliases of an op that has lines,
functions about a tensor rather than of its values, and ops checked against Keras in their own tests)."""

import inspect

import highlevel as hl

from .cases import ALL

#: name -> where it is checked instead of a conformance line.
ELSEWHERE = {
    # aliases: the same function object or a one-line rename of an op with lines
    "absolute": "alias of abs",
    "amax": "alias of max",
    "amin": "alias of min",
    "concat": "alias of concatenate",
    "true_divide": "alias of divide",
    "swish": "alias of silu",
    "hard_swish": "alias of hard_silu",
    # about a tensor, not a function of its values
    "convert_to_numpy": "tests/ops: every case reads its results through it",
    "dtype": "tests/conformance/test_conventions.py and the dtype checks of every case",
    "is_tensor": "tests/ops/test_core_queries.py",
    "ndim": "tests/ops/test_core_queries.py",
    "shape": "tests/ops/test_core_queries.py and the shape checks of every case",
    "size": "tests/ops/test_core_queries.py",
    # functions of functions
    "cond": "tests/conformance/test_control_flow.py (traced and eager, every engine)",
    "custom_gradient": "tests/conformance/test_control_flow.py and tests/ops/test_control_flow.py",
    "vectorize": "tests/ops/test_numpy_array.py",
    "grad": "tests/conformance/test_second_order.py",
    "value_and_grad": "tests/conformance/test_second_order.py and test_gradients.py",
    # integer kernels, checked bit for bit against numpy's int64 product
    "int8_matmul": "tests/backends/contract/test_fused.py (every engine, exact, float32's exact range crossed)",
    # image ops compared with Keras's own outputs
    "resize": "tests/ops/test_image.py, against Keras for every interpolation and antialias",
    "affine_transform": "tests/ops/test_image.py, against Keras",
}


def _op_names():
    names = set()
    for ns in ("", "nn", "numpy", "linalg", "image"):
        mod = hl.ops if not ns else getattr(hl.ops, ns)
        for name in mod.__all__:
            obj = getattr(mod, name)
            if not name.startswith("_") and not inspect.ismodule(obj) and not inspect.isclass(obj):
                names.add(name)
    return names


def test_every_op_has_a_conformance_line_or_says_where_it_is_checked():
    covered = {c.op.rsplit(".", 1)[-1] for c in ALL}
    names = _op_names()
    missing = sorted(names - covered - set(ELSEWHERE))
    assert not missing, f"ops with no conformance line: {missing}"
    stale = sorted(n for n in ELSEWHERE if n in covered or n not in names)
    assert not stale, f"ELSEWHERE lists ops that now have lines, or are not ops: {stale}"
    assert len(names) > 340
