"""A stand-in for CuPy that computes with numpy and enforces CuPy's rules (test-only).

The native engine's CuPy path (``HIGHLEVEL_DEVICE=gpu``) cannot run where there is no GPU. This module looks to
``backends/native/xp.py`` like CuPy and computes every result with numpy, but behaves like CuPy where CuPy and
numpy differ in ways that break code:

* :class:`ndarray` is its own type, not a ``numpy.ndarray`` subclass. Implicit conversion to numpy raises
  ``TypeError`` (``np.asarray(a)``, ``np.array(a)``), as ``cupy.ndarray.__array__`` does since CuPy 8
  (cupy/cupy#3421); numpy functions called on it dispatch here (``__array_function__``/``__array_ufunc__``)
  and refuse numpy arrays mixed in, as CuPy does.
* Functions and ufuncs refuse ``numpy.ndarray`` and list arguments (CuPy's ``_preprocess_args``:
  ``TypeError: Unsupported type <class 'numpy.ndarray'>``); ``asarray``/``array`` take them (the explicit
  host-to-device copy). Python and numpy scalars are accepted.
* Reductions and scalar indexing return 0-d arrays, never numpy scalars.
* ``flags`` has ``c_contiguous``, ``f_contiguous`` and ``owndata`` only (no ``writeable``).
* Every read of values on the host is a device-to-host synchronisation and is counted: ``int()``,
  ``float()``, ``bool()``, ``operator.index``, ``.item()``, ``.tolist()``, ``.get()``, ``asnumpy``,
  ``repr``/``str``, and the calls whose output size depends on values (``nonzero``, boolean-mask indexing,
  ``unique``, ...). :func:`host_reads` reads the counter, :func:`reset_host_reads` resets it; with
  ``FAKE_CUPY_TRACE=1`` each read's caller is kept in :data:`read_sites`.
* :class:`ElementwiseKernel` interprets the kernel body (statements ``out = expr;`` over the parameters with
  ``+ - * /``, comparisons, ``sqrt``/``exp``/``log``/``max``/``min`` and ``T(...)`` casts) with numpy, so the
  engine's fused kernels run here with their real source text.

Use: ``sys.modules["cupy"] = fake_cupy`` before highlevel is imported with ``HIGHLEVEL_DEVICE=gpu``.
"""

import os
import re
import sys
import traceback
import types

import numpy as np

__version__ = "13.0.0-fake"

_reads = [0]
#: (kind, "file:line") of each host read, when FAKE_CUPY_TRACE=1
read_sites = []
_TRACE = os.environ.get("FAKE_CUPY_TRACE") == "1"


def host_reads():
    """How many device-to-host reads happened since the last :func:`reset_host_reads`."""
    return _reads[0]


def reset_host_reads():
    _reads[0] = 0
    read_sites.clear()


def _read(kind):
    _reads[0] += 1
    if _TRACE:
        frames = [f for f in traceback.extract_stack()[:-2] if not f.filename.endswith("fake_cupy.py")]
        site = " <- ".join(f"{os.path.relpath(f.filename)}:{f.lineno}" for f in frames[-4:][::-1])
        read_sites.append((kind, site))


def _unsupported(x):
    raise TypeError(f"Unsupported type {type(x)}")


class _Flags:
    __slots__ = ("c_contiguous", "f_contiguous", "owndata")

    def __init__(self, a):
        self.c_contiguous = a.flags.c_contiguous
        self.f_contiguous = a.flags.f_contiguous
        self.owndata = a.flags.owndata


class ndarray:  # noqa: N801 - CuPy's name
    """A device array: a numpy array behind CuPy's interface (see the module docstring)."""

    __slots__ = ("_a", "__weakref__")
    __array_priority__ = 100  # CuPy's: an operand with a higher priority (a highlevel Tensor) gets the operator

    def __init__(self, shape, dtype=float, memptr=None, strides=None, order="C"):
        self._a = np.empty(shape, dtype, order=order)

    # ------------------------------------------------------------- metadata
    shape = property(lambda self: self._a.shape)
    dtype = property(lambda self: self._a.dtype)
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: self._a.size)
    strides = property(lambda self: self._a.strides)
    itemsize = property(lambda self: self._a.itemsize)
    nbytes = property(lambda self: self._a.nbytes)
    flags = property(lambda self: _Flags(self._a))
    T = property(lambda self: _wrap(self._a.T))
    base = property(lambda self: None if self._a.base is None else _wrap(self._a.base))

    # ----------------------------------------------------------- host reads
    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            "Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct a "
            "NumPy array explicitly."
        )

    def get(self, stream=None, order="C", out=None):
        _read("get")
        return self._a.copy()

    def item(self):
        _read("item")
        return self._a.item()

    def tolist(self):
        _read("tolist")
        return self._a.tolist()

    def __int__(self):
        _read("int")
        return int(self._a)

    def __float__(self):
        _read("float")
        return float(self._a)

    def __complex__(self):
        _read("complex")
        return complex(self._a)

    def __bool__(self):
        _read("bool")
        return bool(self._a)

    def __index__(self):
        _read("index")
        return self._a.__index__()

    def __repr__(self):
        _read("repr")
        return repr(self._a)

    def __str__(self):
        _read("str")
        return str(self._a)

    def __format__(self, spec):
        _read("format")
        return format(self._a, spec)

    # ------------------------------------------------------------ protocols
    def __len__(self):
        return len(self._a)

    def __iter__(self):
        if self._a.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (_wrap(v) for v in self._a)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # CuPy: only cupy arrays and scalars; a numpy array mixed in gives NotImplemented (a TypeError)
        for x in inputs + tuple(kwargs.get("out", ())):
            if not isinstance(x, (ndarray, int, float, complex, bool, np.generic)):
                return NotImplemented
        fn = getattr(_ufuncs_by_name(ufunc.__name__), method)
        return fn(*inputs, **kwargs)

    def __array_function__(self, func, types_, args, kwargs):
        # numpy's function on a device array runs this module's function of that name, as CuPy dispatches
        try:
            ours = globals()[func.__name__] if func.__name__ in globals() else __getattr__(func.__name__)
        except AttributeError:
            return NotImplemented  # a function CuPy lacks: numpy raises its TypeError
        return ours(*args, **kwargs)

    def __getattr__(self, name):
        if name == "_a" or name.startswith("__"):  # no __array_interface__ etc.: numpy must not see the buffer
            raise AttributeError(f"'cupy.ndarray' object has no attribute {name!r}")
        attr = getattr(self._a, name)  # AttributeError as numpy's
        if callable(attr):
            return _wrap_fn(attr, f"ndarray.{name}")
        return _wrap(attr)

    def __getitem__(self, key):
        key = _index_key(key)
        return _wrap(self._a[key])

    def __setitem__(self, key, value):
        key = _index_key(key)
        self._a[key] = _unwrap_value(value)

    def __copy__(self):
        return _wrap(self._a.copy())

    def __deepcopy__(self, memo):
        return _wrap(self._a.copy())

    def __reduce__(self):
        raise TypeError("the fake CuPy array is not picklable (a real one pickles through the host)")


def _index_key(key):
    """An index key with device arrays unwrapped; a boolean mask costs a host read (its size), as on CuPy."""
    parts = key if isinstance(key, tuple) else (key,)
    out = []
    for k in parts:
        if isinstance(k, ndarray):
            if k.dtype == np.bool_ and k.ndim > 0:
                _read("boolean mask index")
            k = k._a
        elif isinstance(k, np.ndarray) and k.dtype == np.bool_:
            _read("boolean mask index")
        out.append(k)
    return tuple(out) if isinstance(key, tuple) else out[0]


def _unwrap_value(v):
    if isinstance(v, ndarray):
        return v._a
    if isinstance(v, (list, tuple)):
        _unsupported(v)
    return v


def _binop(name, inplace=False):
    op = getattr(np.ndarray, name)

    def method(self, other):
        if isinstance(other, ndarray):
            o = other._a
        elif isinstance(other, (int, float, complex, bool, np.generic)):
            o = other
        elif isinstance(other, (np.ndarray, list, tuple)):
            _unsupported(other)  # CuPy: no implicit host-to-device copy
        else:
            return NotImplemented  # e.g. a highlevel Tensor (higher __array_priority__): its reflected operator
        if inplace:
            op(self._a, o)
            return self
        return _wrap(op(self._a, o))

    method.__name__ = name
    return method


for _n in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor", "lshift", "rshift"):
    setattr(ndarray, f"__{_n}__", _binop(f"__{_n}__"))
    setattr(ndarray, f"__r{_n}__", _binop(f"__r{_n}__"))
    setattr(ndarray, f"__i{_n}__", _binop(f"__i{_n}__", inplace=True))
for _n in ("eq", "ne", "lt", "le", "gt", "ge"):
    setattr(ndarray, f"__{_n}__", _binop(f"__{_n}__"))
for _n in ("neg", "pos", "abs", "invert"):
    setattr(ndarray, f"__{_n}__", (lambda name: lambda self: _wrap(getattr(self._a, name)()))(f"__{_n}__"))
ndarray.__hash__ = None


def _wrap(x):
    """numpy results as device arrays: arrays and numpy scalars become ndarray (0-d), containers recursively."""
    if isinstance(x, np.ndarray):
        a = ndarray.__new__(ndarray)
        a._a = x
        return a
    if isinstance(x, np.generic):
        a = ndarray.__new__(ndarray)
        a._a = np.asarray(x)
        return a
    if isinstance(x, tuple):
        return tuple(_wrap(v) for v in x)
    if isinstance(x, list):
        return [_wrap(v) for v in x]
    return x


def _unwrap_args(x, strict=True):
    """Device arrays as their numpy arrays; numpy arrays refused (CuPy does not copy to the device implicitly)."""
    if isinstance(x, ndarray):
        return x._a
    if isinstance(x, np.ndarray):
        if strict:
            _unsupported(x)
        return x
    if isinstance(x, (list, tuple)):
        return type(x)(_unwrap_args(v, strict) for v in x)
    if isinstance(x, dict):
        return {k: _unwrap_args(v, strict) for k, v in x.items()}
    return x


def _wrap_fn(fn, name, strict=True):
    def wrapper(*args, **kwargs):
        return _wrap(fn(*_unwrap_args(args, strict), **_unwrap_args(kwargs, strict)))

    wrapper.__name__ = name
    wrapper.__wrapped__ = fn
    return wrapper


# ------------------------------------------------------------------------------------------ ufuncs
class ufunc:  # noqa: N801 - CuPy's name
    """A CuPy ufunc: only device arrays and scalars as operands (no lists, no numpy arrays)."""

    def __init__(self, np_ufunc):
        self._u = np_ufunc
        self.__name__ = np_ufunc.__name__
        self.nin, self.nout = np_ufunc.nin, np_ufunc.nout

    @staticmethod
    def _operands(args):
        out = []
        for x in args:
            if isinstance(x, ndarray):
                out.append(x._a)
            elif isinstance(x, (int, float, complex, bool, np.generic)) or x is None:
                out.append(x)
            else:
                _unsupported(x)
        return out

    def _kw(self, kwargs):
        kw = dict(kwargs)
        if "out" in kw:
            o = kw["out"]
            o = o if isinstance(o, tuple) else (o,)
            kw["out"] = tuple(self._operands(o))
        return kw

    def __call__(self, *args, **kwargs):
        return _wrap(self._u(*self._operands(args), **self._kw(kwargs)))

    def reduce(self, a, *args, **kwargs):
        return _wrap(self._u.reduce(*self._operands((a,)), *args, **self._kw(kwargs)))

    def accumulate(self, a, *args, **kwargs):
        return _wrap(self._u.accumulate(*self._operands((a,)), *args, **self._kw(kwargs)))

    def outer(self, a, b, **kwargs):
        return _wrap(self._u.outer(*self._operands((a, b)), **self._kw(kwargs)))

    def at(self, a, indices, b=None):
        # CuPy's add.at runs on the device with atomics: no host read
        if not isinstance(a, ndarray):
            _unsupported(a)
        idx = _unwrap_args(indices, strict=False)
        self._u.at(a._a, idx, *([] if b is None else self._operands((b,))))


_UFUNCS = {}


def _ufuncs_by_name(name):
    u = _UFUNCS.get(name)
    if u is None:
        u = _UFUNCS[name] = ufunc(getattr(np, name))
    return u


# ------------------------------------------------------------------------------ module functions
def asarray(a, dtype=None, order=None, *, blocking=False):
    """The explicit host-to-device copy (numpy arrays and lists welcome); device arrays as they are."""
    if isinstance(a, ndarray):
        return a if dtype is None or a.dtype == np.dtype(dtype) else _wrap(a._a.astype(dtype))
    return _wrap(np.array(_unwrap_args(a, strict=False), dtype=dtype, order=order or "K"))


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, *, blocking=False):
    if isinstance(obj, ndarray):
        return _wrap(np.array(obj._a, dtype=dtype, copy=copy, order=order, ndmin=ndmin))
    return _wrap(np.array(_unwrap_args(obj, strict=False), dtype=dtype, order=order, ndmin=ndmin))


def ascontiguousarray(a, dtype=None):
    if not isinstance(a, ndarray):
        _unsupported(a)
    return _wrap(np.ascontiguousarray(a._a, dtype=dtype))


def asnumpy(a, stream=None, order="C", out=None, *, blocking=True):
    """The explicit device-to-host copy (a host read)."""
    if isinstance(a, ndarray):
        _read("asnumpy")
        return np.array(a._a, order=order)
    return np.asarray(a, order=order)


def get_array_module(*args):
    return sys.modules[__name__] if any(isinstance(a, ndarray) for a in args) else np


def _sized_by_values(name):
    fn = getattr(np, name)

    def wrapper(*args, **kwargs):
        _read(name)  # the output's size depends on the values: CuPy copies a count to the host
        return _wrap(fn(*_unwrap_args(args), **_unwrap_args(kwargs)))

    wrapper.__name__ = name
    return wrapper


for _n in ("nonzero", "flatnonzero", "argwhere", "unique", "extract", "compress"):
    globals()[_n] = _sized_by_values(_n)


# names CuPy lacks, so that code probing with hasattr takes its CuPy branch
_ABSENT = frozenset({"errstate", "seterr", "geterr", "object_", "str_", "bytes_"})


def __getattr__(name):
    if name.startswith("__") or name in _ABSENT:
        raise AttributeError(f"module 'cupy' (fake) has no attribute {name!r}")
    attr = getattr(np, name)  # AttributeError as numpy's
    if isinstance(attr, np.ufunc):
        value = _ufuncs_by_name(name)
    elif isinstance(attr, (type, np.dtype)) or not callable(attr):
        value = attr  # dtypes, scalar types, constants (cupy re-exports numpy's)
    else:
        value = _wrap_fn(attr, name)
    globals()[name] = value
    return value


class _StrideTricks(types.ModuleType):
    @staticmethod
    def as_strided(x, shape=None, strides=None):
        return _wrap(np.lib.stride_tricks.as_strided(x._a, shape=shape, strides=strides))


lib = types.ModuleType("cupy.lib")
lib.stride_tricks = _StrideTricks("cupy.lib.stride_tricks")


# ------------------------------------------------------------------------------------------ CUDA
class _Runtime:
    @staticmethod
    def getDeviceCount():  # noqa: N802 - CUDA's name
        return 1


class _Device:
    def __init__(self, device=0):
        self.id = device

    def synchronize(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class _MemoryPool:
    def used_bytes(self):
        return 0

    def total_bytes(self):
        return 0

    def free_all_blocks(self):
        pass


_POOL = _MemoryPool()
cuda = types.SimpleNamespace(runtime=_Runtime(), Device=_Device, is_available=lambda: True, get_device_id=lambda: 0)


def get_default_memory_pool():
    return _POOL


def get_default_pinned_memory_pool():
    return _POOL


# ------------------------------------------------------------------------------- user kernels
_C_FUNCS = {
    "sqrt": np.sqrt,
    "exp": np.exp,
    "log": np.log,
    "log1p": np.log1p,
    "expm1": np.expm1,
    "tanh": np.tanh,
    "max": np.maximum,
    "min": np.minimum,
    "fabs": np.abs,
    "abs": np.abs,
}
_STATEMENT = re.compile(r"^\s*([A-Za-z_]\w*)\s*(=|\+=|-=|\*=|/=)\s*(.+?)\s*$", re.S)
_ALLOWED = re.compile(r"^[\w\s.+\-*/()<>=!,]*$")


def _params(spec):
    """``'T x, float32 y, raw T z'`` as [(type, name)]; only plain typed parameters are supported."""
    out = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        words = part.split()
        if len(words) != 2:
            raise ValueError(f"fake ElementwiseKernel: cannot parse parameter {part!r} (no raw/const here)")
        out.append((words[0], words[1]))
    return out


class ElementwiseKernel:
    """``cupy.ElementwiseKernel`` run by numpy: the body's statements evaluated over broadcast operands.

    Type placeholders (one-letter types such as ``T``) are bound from the array arguments, which must agree;
    scalars passed for them are cast to that type first, as CuPy does. Outputs passed as arguments are written
    in place; missing outputs are allocated. Returns the output (a tuple when there are several).
    """

    def __init__(
        self,
        in_params,
        out_params,
        operation,
        name="kernel",
        reduce_dims=True,
        preamble="",
        no_return=False,
        return_tuple=False,
        **kwargs,
    ):
        unknown = set(kwargs) - {"options", "loop_prep", "after_loop"}
        if unknown:
            raise TypeError(f"ElementwiseKernel got unexpected keyword arguments {sorted(unknown)}")
        self.ins, self.outs = _params(in_params), _params(out_params)
        self.name, self.no_return, self.return_tuple = name, no_return, return_tuple
        names = [n for _, n in self.ins + self.outs]
        if len(set(names)) != len(names):
            raise ValueError(f"ElementwiseKernel {name}: repeated parameter names {names}")
        self.statements = []
        for stmt in filter(None, (s.strip() for s in operation.split(";"))):
            m = _STATEMENT.match(stmt)
            if not m or not _ALLOWED.match(m.group(3)) or "?" in stmt:
                raise ValueError(
                    f"fake ElementwiseKernel {name}: unsupported statement {stmt!r} (the fake reads "
                    "'out = expr;' statements only)"
                )
            target = m.group(1)
            if target not in {n for _, n in self.outs}:
                raise ValueError(f"ElementwiseKernel {name}: {target!r} is assigned but not an output parameter")
            used = set(re.findall(r"[A-Za-z_]\w*", m.group(3))) - set(_C_FUNCS)
            types_ = {t for t, _ in self.ins + self.outs}
            undeclared = used - set(names) - types_
            if undeclared:
                raise ValueError(f"ElementwiseKernel {name}: undeclared names {sorted(undeclared)} in {stmt!r}")
            self.statements.append((target, m.group(2), compile(m.group(3), f"<{name}>", "eval")))

    def __call__(self, *args, size=None, block_size=None, stream=None):
        n_in = len(self.ins)
        if len(args) not in (n_in, n_in + len(self.outs)):
            raise TypeError(
                f"Wrong number of arguments for {self.name!r}: {len(args)} given, {n_in} or "
                f"{n_in + len(self.outs)} expected"
            )
        params = self.ins + self.outs
        bound = {}
        for (t, n), v in zip(params, args):
            if isinstance(v, np.ndarray):
                _unsupported(v)
            if isinstance(v, ndarray) and len(t) == 1:
                if t in bound and bound[t] != v.dtype:
                    raise TypeError(f"Type is mismatched. {n} {t} {v.dtype} {bound[t]}")
                bound[t] = v.dtype
        env = dict(_C_FUNCS)
        for t, dt in bound.items():
            env[t] = dt.type
        arrays = []
        for (t, n), v in zip(self.ins, args[:n_in]):
            dt = bound.get(t) if len(t) == 1 else np.dtype(t)
            if isinstance(v, ndarray):
                env[n] = v._a
                arrays.append(v._a)
            else:
                env[n] = dt.type(v) if dt is not None else v
        shape = np.broadcast_shapes(*(a.shape for a in arrays)) if arrays else ()
        outs = []
        for i, (t, n) in enumerate(self.outs):
            if len(args) > n_in:
                o = args[n_in + i]
                if not isinstance(o, ndarray):
                    _unsupported(o)
                if np.broadcast_shapes(o.shape, shape) != o.shape:
                    raise ValueError(f"Out shape is mismatched: {o.shape} vs {shape}")
            else:
                dt = bound.get(t) if len(t) == 1 else np.dtype(t)
                o = _wrap(np.empty(shape, dt))
            outs.append(o)
            env[n] = o._a
        out_names = {n: o for (t, n), o in zip(self.outs, outs)}
        with np.errstate(all="ignore"):  # CUDA arithmetic does not warn
            for target, op, code in self.statements:
                value = eval(code, {"__builtins__": {}}, env)  # noqa: S307 - our own kernel text
                dest = out_names[target]._a
                if op == "=":
                    dest[...] = value
                else:
                    cur = dest.copy()
                    dest[...] = {"+=": cur + value, "-=": cur - value, "*=": cur * value, "/=": cur / value}[op]
                env[target] = dest
        if self.no_return:
            return None
        if len(outs) == 1 and not self.return_tuple:
            return outs[0]
        return tuple(outs)


def fuse(*args, **kwargs):
    """``cupy.fuse``: here the function runs unfused on the device arrays."""

    def decorate(fn):
        return fn

    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return decorate
