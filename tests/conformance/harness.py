"""The machinery of the conformance suite: cases, input generators, running an op, comparing results.

A :class:`Case` is one line of a ``cases_*.py`` table, in the spirit of tinygrad's ``helper_test_op``::

    C("add", "broadcast", (normal(3, 1, 4), normal(5, 4)), grad=(0, 1))

says: call ``backend.add(x, y)`` with a (3, 1, 4) and a (5, 4) standard-normal input drawn from a numpy
generator seeded by the case id, compare with ``numpy.add`` in float64, check the result dtype with the
promotion table, and differentiate with respect to both arguments.

Inputs are float64 *master copies*: each is cast to the run dtype (float32 unless the case says
otherwise) before it reaches a backend, and the reference sees the cast values widened back to float64,
so the rounding of the inputs is not counted as the op's error. Values wrapped in :func:`fixed` (integer
indices, bool masks, float64 arrays of a promotion case) reach both sides unchanged; Python scalars,
strings and tuples pass through too (Python scalars are weak in the promotion table).
"""

import dataclasses
import zlib

import numpy as np

from highlevel.backends.contract import dtypes as D

try:  # ml_dtypes ships with jax and tensorflow; without it bfloat16 cases are skipped
    import ml_dtypes

    BFLOAT16 = ml_dtypes.bfloat16
except ImportError:  # pragma: no cover
    BFLOAT16 = None

SHORT = {
    "float64": "f64",
    "float32": "f32",
    "float16": "f16",
    "bfloat16": "bf16",
    "int64": "i64",
    "int32": "i32",
    "int16": "i16",
    "int8": "i8",
    "uint8": "u8",
    "uint16": "u16",
    "uint32": "u32",
    "uint64": "u64",
    "bool": "bool",
    "complex64": "c64",
    "complex128": "c128",
}

#: the run "dtype" of cases without master inputs (creation ops): no suffix in the test id
NONE = "-"
F32 = ("float32",)
F32_64 = ("float32", "float64")
FLOATS = ("float32", "float64", "float16", "bfloat16")
INTS = ("int32", "int64")


# --------------------------------------------------------------------------------- input generators
class Fixed:
    """A value passed to backend and reference unchanged (not cast to the run dtype)."""

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"fixed({self.value!r})"


class Gen:
    """Draws one float64 master array from the case's numpy generator."""

    def __init__(self, fn, text):
        self.fn, self.text = fn, text

    def __call__(self, rng):
        v = self.fn(rng)
        return v if isinstance(v, Fixed) else np.asarray(v, dtype=np.float64)  # 0-d stays an array

    def __repr__(self):
        return self.text


def _away(values, kinks, margin):
    """Moves entries within ``margin`` of a kink outward, so finite differences do not straddle it."""
    for k in kinks:
        close = np.abs(values - k) < margin
        values = np.where(close, k + np.where(values >= k, margin, -margin) + (values - k), values)
    return values


def normal(*shape, scale=1.0, shift=0.0, away=None, margin=0.1):
    """Standard normal draws times ``scale`` plus ``shift``; ``away``: kinks to keep ``margin`` from."""

    def fn(rng):
        v = rng.standard_normal(shape) * scale + shift
        return _away(v, away, margin) if away is not None else v

    return Gen(fn, f"normal{shape}")


def uniform(*shape, low=-1.0, high=1.0, away=None, margin=0.05):
    """Uniform draws in ``[low, high)``; ``away``: kinks to keep ``margin`` from."""

    def fn(rng):
        v = rng.uniform(low, high, shape)
        return _away(v, away, margin) if away is not None else v

    return Gen(fn, f"uniform{shape}[{low},{high})")


def positive(*shape, low=0.5, high=3.0):
    """Uniform draws in ``[low, high)``, for log, sqrt, reciprocal, ..."""
    return uniform(*shape, low=low, high=high)


def ints(*shape, low=-5, high=6):
    """Integer-valued float64 masters in ``[low, high)``: cast to int dtypes they are exact."""
    return Gen(lambda rng: rng.integers(low, high, shape).astype(np.float64), f"ints{shape}[{low},{high})")


def distinct(*shape, spacing=0.25, jitter=0.05):
    """A random permutation of well-separated values (no ties: sort, top_k, max have clean gradients).

    With ``spacing=1, jitter=0`` the values are distinct integers (for integer-dtype runs).
    """

    def fn(rng):
        n = int(np.prod(shape))
        return (rng.permutation(n) - n // 2).reshape(shape) * spacing + rng.uniform(0, jitter, shape)

    return Gen(fn, f"distinct{shape}")


def const(value):
    """A literal master array (cast to the run dtype like the random ones)."""
    arr = np.asarray(value, dtype=np.float64)
    return Gen(lambda rng: arr.copy(), f"const({value!r})")


def fixed(value):
    """A value reaching backend and reference unchanged (indices, masks, float64 promotion inputs)."""
    return Fixed(value)


class Raw(Fixed):
    """A value passed to the backend as it is (not even converted to a tensor): numpy inputs, keys."""


def raw(value):
    """A value passed to backend and reference exactly as it is (no cast, no convert_to_tensor)."""
    return Raw(value)


def mask(*shape, p=0.5):
    """A random bool array, passed unchanged (``where`` conditions)."""
    return Gen(lambda rng: Fixed(rng.random(shape) < p), f"mask{shape}")


# ------------------------------------------------------------------------------- dtype expectations
def _participants(cast_args):
    """The dtypes and weak Python scalars that promotion sees: cast masters and top-level scalars."""
    out = []
    for a in cast_args:
        if isinstance(a, _Master):
            out.append(a.dtype)
        elif isinstance(a, (list, tuple)) and a and all(isinstance(e, _Master) for e in a):
            out.extend(e.dtype for e in a)
        elif isinstance(a, (bool, int, float)) and not isinstance(a, np.generic):
            out.append(a)
        elif isinstance(a, Fixed) and isinstance(a.value, np.ndarray) and a.value.dtype.kind == "f":
            out.append(a.value.dtype.name)  # float promotion inputs passed as fixed arrays
        elif isinstance(a, Fixed) and isinstance(a.value, np.generic):
            out.append(a.value.dtype.name)  # numpy scalars are strong
    return out


def PROMOTE(p):
    """The promotion table's result of all inputs (Python scalars weak)."""
    return D.result_type(*p)


def FLOAT(p):
    """Like PROMOTE, but integer and bool results compute in floatx (float math on ints)."""
    r = D.result_type(*p)
    return r if r in D.FLOAT_DTYPES else D.floatx()


def SAME(p):
    """The dtype of the first input."""
    return D.result_type(p[0])


def SUM(p):
    """sum/prod/cumsum: bool counts in int32; every other dtype is kept."""
    r = D.result_type(p[0])
    return "int32" if r == "bool" else r


def fixed_dtype(name):
    """A rule that always gives ``name``."""

    def rule(p):
        return name

    rule.__doc__ = f"always {name}"
    return rule


BOOL = fixed_dtype("bool")
INT32 = fixed_dtype("int32")


# ------------------------------------------------------------------------------------------- cases
@dataclasses.dataclass(repr=False)
class Case:
    """One row of a case table. See the module docstring; build with :func:`C`."""

    op: str
    label: str
    args: tuple
    kwargs: dict
    ref: object
    dtypes: tuple
    grad: tuple
    out: object
    finite: bool
    tol_op: str
    grad_dtype: str

    @property
    def id(self):
        return f"{self.op}-{self.label}"

    def __repr__(self):
        return f"<case {self.id}>"

    def runs(self):
        """``(id, dtype_spec)`` for each dtype the case runs in."""
        for spec in self.dtypes:
            if spec == NONE:
                yield self.id, spec
                continue
            tag = SHORT[spec] if isinstance(spec, str) else "+".join(SHORT[s] for s in spec)
            yield f"{self.id}-{tag}", spec


def C(
    op,
    label,
    args,
    ref=None,
    *,
    dtypes=F32,
    grad=(),
    out=PROMOTE,
    finite=False,
    tol_op=None,
    grad_dtype="float32",
    **kwargs,
):
    """Builds a :class:`Case`.

    Args:
        op: the ``hl.ops`` function to call; a dotted name reaches into a namespace (``"image.resize"``).
        label: a short readable name of the case (unique per op).
        args: positional arguments: generators (:func:`normal`, ...), :func:`fixed` values, Python
            scalars, tuples, or lists of generators (``concatenate``).
        ref: the float64 numpy reference ``ref(*args, **kwargs)``; default ``getattr(numpy, op)``.
        dtypes: the dtypes to run in: names (every master cast to it) or tuples of names (one per master).
        grad: positions of the differentiable arguments (empty: not differentiated).
        out: the result dtype rule (:data:`PROMOTE`, :data:`FLOAT`, :data:`BOOL`, ...) or a dtype name.
        finite: also assert that every result entry is finite.
        tol_op: the op name to look tolerances up under (default ``op``).
        grad_dtype: the dtype the gradient-vs-native check runs in.
        **kwargs: keyword arguments of the op (and of the reference).
    """
    if ref is None:
        ref = getattr(np, op)
    if isinstance(out, str):
        out = fixed_dtype(out)
    return Case(op, label, tuple(args), kwargs, ref, tuple(dtypes), tuple(grad), out, finite, tol_op or op, grad_dtype)


def collect(*tables):
    """Flattens case tables and checks that ids are unique."""
    cases, seen = [], set()
    for table in tables:
        for c in table:
            if c.id in seen:
                raise ValueError(f"duplicate conformance case id {c.id!r}")
            seen.add(c.id)
            cases.append(c)
    return cases


# ------------------------------------------------------------------------------ materialising inputs
class _Master:
    """A master array cast to its run dtype: ``value`` has that dtype (float32 stand-in for bfloat16)."""

    def __init__(self, value, dtype):
        self.value, self.dtype = value, dtype

    @property
    def shape(self):
        return self.value.shape


def seed_of(text):
    return zlib.crc32(text.encode())


def draw(case, salt=""):
    """The case's master arguments: generators drawn from a generator seeded by the case id."""
    rng = np.random.default_rng(seed_of(case.id + salt))

    def go(a):
        if isinstance(a, Gen):
            return a(rng)
        if isinstance(a, list):
            return [go(e) for e in a]
        return a

    return [go(a) for a in case.args]


def cast_masters(args, spec):
    """Casts every float64 master (a plain ndarray) to ``spec`` (one name or one name per master)."""
    counter = [0]

    def dtype_for():
        i = counter[0]
        counter[0] += 1
        return spec if isinstance(spec, str) else spec[i]

    def go(a):
        if isinstance(a, np.ndarray):
            dt = dtype_for()
            return _Master(round_to(a, dt), dt)
        if isinstance(a, list):
            return [go(e) for e in a]
        return a

    return [go(a) for a in args]


def round_to(a, dtype):
    """``a`` in ``dtype`` (bfloat16: float32 values rounded to bfloat16)."""
    if dtype == "bfloat16":
        if BFLOAT16 is None:
            raise RuntimeError("bfloat16 cases need ml_dtypes")
        return a.astype(BFLOAT16).astype(np.float32)
    if dtype == "bool":
        return a != 0
    return a.astype(dtype)


def reference_args(cast_args, widen_ints=False):
    """What the numpy reference sees: floats widened to float64, ints and bools as they are.

    With ``widen_ints`` (ops whose integer inputs compute in floatx) ints become int64, so that numpy
    does not compute ``sqrt(uint8)`` in float16.
    """

    def go(a):
        if isinstance(a, _Master):
            if a.value.dtype.kind == "f":
                return a.value.astype(np.float64)
            return a.value.astype(np.int64) if widen_ints and a.value.dtype.kind in "iu" else a.value
        if isinstance(a, list):
            return [go(e) for e in a]
        if isinstance(a, Fixed):
            return a.value
        return a

    return [go(a) for a in cast_args]


def to_backend(b, a):
    """One master (or fixed value, or list of them) as backend input; anything else unchanged."""
    if isinstance(a, _Master):
        if a.dtype == "bfloat16":
            return b.cast(b.convert_to_tensor(a.value), "bfloat16")
        return b.convert_to_tensor(a.value)
    if isinstance(a, list):
        return [to_backend(b, e) for e in a]
    if isinstance(a, Fixed):
        v = a.value
        if isinstance(a, Raw):
            return v
        return b.convert_to_tensor(v) if isinstance(v, np.ndarray) else v
    return a


def to_numpy(b, x):
    """A backend result as a numpy array (bfloat16 widened to float32)."""
    arr = np.asarray(b.to_numpy(x))
    if arr.dtype.name == "bfloat16":
        arr = arr.astype(np.float32)
    return arr


def describe_args(cast_args, kwargs):
    """A one-line description of the inputs, for failure messages."""
    parts = []
    for i, a in enumerate(cast_args):
        if isinstance(a, _Master):
            parts.append(f"x{i}: {a.dtype}{list(a.shape)}")
        elif isinstance(a, list) and a and isinstance(a[0], _Master):
            parts.append(f"x{i}: [" + ", ".join(f"{e.dtype}{list(e.shape)}" for e in a) + "]")
        elif isinstance(a, Fixed) and isinstance(a.value, np.ndarray):
            parts.append(f"x{i}: fixed {a.value.dtype}{list(a.value.shape)}")
        else:
            parts.append(f"x{i}: {a!r}")
    if kwargs:
        parts.append("kwargs " + ", ".join(f"{k}={v!r}" for k, v in kwargs.items()))
    return "; ".join(parts)


# -------------------------------------------------------------------------------------- comparison
def as_list(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


def compare(got, want, rtol, atol, what):
    """Asserts ``got`` matches ``want`` (shape, NaN/inf placement, then values); readable message."""
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape}, expected {want.shape}"
    if np.iscomplexobj(want) or np.iscomplexobj(got):
        _compare_complex(got.astype(np.complex128), want.astype(np.complex128), rtol, atol, what)
        return
    if want.dtype.kind == "b" or (want.dtype.kind in "iu" and got.dtype.kind in "iub"):
        bad = got != want
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            raise AssertionError(
                f"{what}: {int(bad.sum())} of {want.size} entries differ (exact match required); first at "
                f"index {idx}: got {got[idx]!r}, expected {want[idx]!r}\n  got:      {_brief(got)}\n"
                f"  expected: {_brief(want)}"
            )
        return
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    nan_g, nan_w = np.isnan(g), np.isnan(w)
    if (nan_g != nan_w).any():
        idx = tuple(int(i) for i in np.argwhere(nan_g != nan_w)[0])
        raise AssertionError(
            f"{what}: NaN placement differs; first at index {idx}: got {g[idx]!r}, "
            f"expected {w[idx]!r}\n  got:      {_brief(g)}\n  expected: {_brief(w)}"
        )
    inf_g, inf_w = np.isinf(g), np.isinf(w)
    if (inf_g != inf_w).any() or (g[inf_w] != w[inf_w]).any():
        idx = tuple(int(i) for i in np.argwhere((inf_g != inf_w) | (inf_w & (g != w)))[0])
        raise AssertionError(
            f"{what}: infinities differ; first at index {idx}: got {g[idx]!r}, "
            f"expected {w[idx]!r}\n  got:      {_brief(g)}\n  expected: {_brief(w)}"
        )
    ok = nan_w | inf_w
    err = np.where(ok, 0.0, np.abs(g - w))
    bound = atol + rtol * np.abs(np.where(ok, 0.0, w))
    bad = err > bound
    if bad.any():
        idx = tuple(int(i) for i in np.unravel_index(np.argmax(err - bound), err.shape))
        rel = err[idx] / max(abs(w[idx]), 1e-300)
        raise AssertionError(
            f"{what}: {int(bad.sum())} of {w.size} entries out of tolerance (rtol={rtol:g}, atol={atol:g}); "
            f"worst at index {idx}: got {g[idx]!r}, expected {w[idx]!r} (abs err {err[idx]:.3g}, rel err "
            f"{rel:.3g}); max abs err {err.max():.3g}\n  got:      {_brief(g)}\n  expected: {_brief(w)}"
        )


def _compare_complex(got, want, rtol, atol, what):
    """:func:`compare` for complex values: the modulus of the difference against ``atol + rtol * |want|``."""
    nan_g, nan_w = np.isnan(got), np.isnan(want)
    if (nan_g != nan_w).any():
        idx = tuple(int(i) for i in np.argwhere(nan_g != nan_w)[0])
        raise AssertionError(
            f"{what}: NaN placement differs; first at index {idx}: got {got[idx]!r}, expected {want[idx]!r}"
        )
    err = np.where(nan_w, 0.0, np.abs(np.where(nan_w, 0, got - want)))
    bound = atol + rtol * np.abs(np.where(nan_w, 0, want))
    bad = err > bound
    if bad.any():
        idx = tuple(int(i) for i in np.unravel_index(np.argmax(err - bound), err.shape))
        raise AssertionError(
            f"{what}: {int(bad.sum())} of {want.size} entries out of tolerance (rtol={rtol:g}, atol={atol:g}); "
            f"worst at index {idx}: got {got[idx]!r}, expected {want[idx]!r} (abs err {err[idx]:.3g}); max abs err "
            f"{err.max():.3g}\n  got:      {_brief(got)}\n  expected: {_brief(want)}"
        )


def _brief(a, n=8):
    flat = np.asarray(a).reshape(-1)
    text = np.array2string(flat[:n], precision=7, separator=", ")
    return text + (f" ... ({flat.size} entries)" if flat.size > n else "")
