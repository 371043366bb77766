"""The backend contract, part 2c: building arrays, indexing and searching (``keras.ops.numpy`` names).

Every method here has a generic definition written on the contract's other methods, with the canonical
arguments the front door hands over (see ``highlevel/ops/_args.py``): an engine needs nothing to support them,
and overrides one only where its own kernel is faster (``searchsorted``: a binary search instead of counting
comparisons). The conformance suite holds each override to the same numbers as the definition.

A few ops have an output whose *shape* depends on the input's values (``unique`` without ``size``,
``nonzero``, ``bincount``). They read those values on the host (:meth:`NumpyArrayContract._host_values`); inside a
compiled step (``jax.jit``, ``tf.function``) that is impossible and they raise an error that says so, and what
to pass instead where Keras offers it (``unique(..., size=n)``).

>>> import highlevel as hl
>>> b = hl.config.current_backend()
>>> b.to_numpy(b.roll(b.convert_to_tensor([1, 2, 3]), (1,), (0,))).tolist()
[3, 1, 2]
"""

import numpy as np

from . import dtypes


class NumpyArrayContract:
    """Array building, indexing and search ops defined from the primitives of
    :class:`~highlevel.backends.contract.NumpyContract`."""

    # ------------------------------------------------------------------ helpers
    def _host_values(self, x, op, hint):
        """The values of ``x`` as a numpy array, for an op whose output shape depends on them.

        Raises ValueError inside a compiled step (traced or graph tensors have no values yet); ``hint`` says
        what the caller can do instead. A step being recorded for replay by an eager engine is not refused
        here: the whole op is replayed, so it reads the new values each time.
        """
        from .replay import NotReplayable

        try:
            return self._known_values(x)
        except NotReplayable:
            raise
        except Exception as e:  # noqa: BLE001 - tracers and graph tensors refuse conversion, each in its own way
            raise ValueError(
                f"{op}: the shape of the result depends on the values of the input, which are not "
                f"known inside a compiled step (jax.jit, tf.function, a compiled train step). "
                f"{hint} ({type(e).__name__})"
            ) from None

    def _known_values(self, x):
        """The values of ``x`` as a numpy array; raises when they are not known yet (a traced tensor). An engine
        whose differentiation traces eagerly known values (JAX's ``grad`` outside ``jit``) overrides it to read
        them there too."""
        return np.asarray(self.to_numpy(x))

    def _axis_range(self, x, axis, start, stop, step=None):
        """``x[..., start:stop:step, ...]`` on ``axis`` (a non-negative int)."""
        key = [slice(None)] * len(self.shape(x))
        key[axis] = slice(start, stop, step)
        return self.getitem(x, tuple(key))

    def _float_of(self, *xs):
        """The float dtype computations on ``xs`` run in: their promoted dtype, floatx for ints and bools."""
        dt = dtypes.result_type(*[self._dtype_of(x) for x in xs])
        return dt if dt in dtypes.FLOAT_DTYPES else dtypes.floatx()

    def _dtype_of(self, x):
        """The dtype of ``x`` for promotion: Python scalars stay weak (the scalar itself)."""
        if isinstance(x, (bool, int, float, np.generic)):
            return x
        return self.dtype(self.convert_to_tensor(x))

    def _wide(self):
        """The widest float dtype of the engine (for creation ops computed once and cast)."""
        return "float64" if self.capabilities.supports_float64 else "float32"

    # ------------------------------------------------------------ joining, splitting
    def append(self, x1, x2, axis=None):
        """``x2`` appended to ``x1`` along ``axis`` (both flattened when None); the dtypes promote."""
        x1, x2 = self.convert_to_tensor(x1), self.convert_to_tensor(x2)
        if axis is None:
            x1, x2, axis = self.reshape(x1, (-1,)), self.reshape(x2, (-1,)), 0
        dt = dtypes.result_type(self.dtype(x1), self.dtype(x2))
        return self.concatenate([self.cast(x1, dt), self.cast(x2, dt)], axis=axis)

    def array_split(self, x, indices_or_sections, axis=0):
        """Like :meth:`split`, but a number of sections need not divide the axis: the first ``size %
        sections`` parts get one element more."""
        if isinstance(indices_or_sections, int):
            size = self.shape(x)[axis]
            each, extra = divmod(size, indices_or_sections)
            sizes = [each + 1] * extra + [each] * (indices_or_sections - extra)
            indices_or_sections = list(np.cumsum(sizes[:-1]).astype(int).tolist())
        return self.split(x, indices_or_sections, axis=axis)

    def hsplit(self, x, indices_or_sections):
        """:meth:`split` along axis 1 (axis 0 of a 1-D tensor)."""
        return self.split(x, indices_or_sections, axis=1 if len(self.shape(x)) > 1 else 0)

    def vsplit(self, x, indices_or_sections):
        """:meth:`split` along axis 0."""
        return self.split(x, indices_or_sections, axis=0)

    def dsplit(self, x, indices_or_sections):
        """:meth:`split` along axis 2."""
        return self.split(x, indices_or_sections, axis=2)

    def _at_least(self, x, n, where):
        """``x`` with size-1 axes added up to rank ``n``: ``where[rank]`` gives the new shape from the old."""
        x = self.convert_to_tensor(x)
        shape = self.shape(x)
        return x if len(shape) >= n else self.reshape(x, where[len(shape)](shape))

    def _joined(self, xs, axis):
        dt = dtypes.result_type(*[self.dtype(x) for x in xs])
        return self.concatenate([self.cast(x, dt) for x in xs], axis=axis)

    def hstack(self, xs):
        """The tensors joined along their second axis (the first for 1-D tensors)."""
        xs = [self._at_least(x, 1, {0: lambda s: (1,)}) for x in xs]
        return self._joined(xs, 0 if len(self.shape(xs[0])) == 1 else 1)

    def vstack(self, xs):
        """The tensors joined along their first axis, 1-D tensors taken as rows."""
        xs = [self._at_least(x, 2, {0: lambda s: (1, 1), 1: lambda s: (1,) + s}) for x in xs]
        return self._joined(xs, 0)

    def dstack(self, xs):
        """The tensors joined along their third axis (depth), after making them at least 3-D."""
        xs = [
            self._at_least(x, 3, {0: lambda s: (1, 1, 1), 1: lambda s: (1,) + s + (1,), 2: lambda s: s + (1,)})
            for x in xs
        ]
        return self._joined(xs, 2)

    def unstack(self, x, num=None, axis=0):
        """The slices of ``x`` along ``axis``, each without that axis, as a list."""
        x = self.convert_to_tensor(x)
        shape = self.shape(x)
        rest = shape[:axis] + shape[axis + 1 :]
        return [self.reshape(self._axis_range(x, axis, i, i + 1), rest) for i in range(shape[axis])]

    # --------------------------------------------------------- flips, rotations, shifts
    def fliplr(self, x):
        """``x`` reversed along axis 1."""
        return self.flip(x, axis=(1,))

    def flipud(self, x):
        """``x`` reversed along axis 0."""
        return self.flip(x, axis=(0,))

    def rot90(self, array, k=1, axes=(0, 1)):
        """``array`` rotated by ``k`` quarter turns in the plane of ``axes``, from the first axis towards the
        second."""
        a0, a1 = axes
        k %= 4
        if k == 0:
            return self.copy(array)
        if k == 2:
            return self.flip(array, axis=tuple(sorted((a0, a1))))
        perm = list(range(len(self.shape(array))))
        perm[a0], perm[a1] = perm[a1], perm[a0]
        if k == 1:
            return self.transpose(self.flip(array, axis=(a1,)), tuple(perm))
        return self.flip(self.transpose(array, tuple(perm)), axis=(a1,))

    def roll(self, x, shift, axis=None):
        """``x`` shifted cyclically by ``shift[i]`` along ``axis[i]`` (canonical: tuples of ints; ``axis=None``:
        one shift of the flattened tensor, reshaped back)."""
        x = self.convert_to_tensor(x)
        if axis is None:
            return self.reshape(self.roll(self.reshape(x, (-1,)), (sum(shift),), (0,)), self.shape(x))
        for s, a in zip(shift, axis):
            n = self.shape(x)[a]
            s = s % n if n else 0
            if s:
                x = self.concatenate([self._axis_range(x, a, n - s, n), self._axis_range(x, a, 0, n - s)], axis=a)
        return x

    # ------------------------------------------------------------------- diagonals
    def diagonal(self, x, offset=0, axis1=0, axis2=1):
        """The ``offset``-th diagonal of the matrices in the plane of ``axis1`` and ``axis2``, as the last axis
        of the result (the other axes keep their order)."""
        x = self.moveaxis(self.convert_to_tensor(x), (axis1, axis2), (-2, -1))
        shape = self.shape(x)
        rows, cols = shape[-2], shape[-1]
        if offset >= 0:
            x, cols = self._axis_range(x, len(shape) - 1, offset, None), max(cols - offset, 0)
        else:
            x, rows = self._axis_range(x, len(shape) - 2, -offset, None), max(rows + offset, 0)
        n = min(rows, cols)
        x = self._axis_range(self._axis_range(x, len(shape) - 2, 0, n), len(shape) - 1, 0, n)
        flat = self.reshape(x, shape[:-2] + (n * n,))
        return self._axis_range(flat, len(shape) - 2, None, None, n + 1)

    def diag(self, x, k=0):
        """A 1-D ``x`` placed on the ``k``-th diagonal of a square matrix, or the ``k``-th diagonal of a 2-D
        ``x``."""
        x = self.convert_to_tensor(x)
        if len(self.shape(x)) == 2:
            return self.diagonal(x, offset=k, axis1=0, axis2=1)
        n = self.shape(x)[0] + abs(k)
        row_values = self.pad(x, ((0, abs(k)),) if k >= 0 else ((abs(k), 0),))
        rows = self.expand_dims(self.arange(n, dtype="int32"), 1)
        cols = self.expand_dims(self.arange(n, dtype="int32"), 0)
        on_diagonal = self.equal(self.subtract(cols, rows), k)
        return self.where(on_diagonal, self.expand_dims(row_values, 1), self.zeros((), self.dtype(x)))

    def diagflat(self, x, k=0):
        """The flattened ``x`` placed on the ``k``-th diagonal of a square matrix."""
        return self.diag(self.reshape(x, (-1,)), k=k)

    def trace(self, x, offset=0, axis1=0, axis2=1):
        """The sum of the ``offset``-th diagonal in the plane of ``axis1`` and ``axis2``; bool, int8 and int16
        sum in int32, uint8 and uint16 in uint32."""
        x = self.convert_to_tensor(x)
        dt = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32", "uint16": "uint32"}.get(
            self.dtype(x)
        )
        if dt is not None:
            x = self.cast(x, dt)
        return self.sum(self.diagonal(x, offset=offset, axis1=axis1, axis2=axis2), axis=(len(self.shape(x)) - 2,))

    def tri(self, N, M=None, k=0, dtype=None):
        """An ``N`` by ``M`` matrix with ones at and below the ``k``-th diagonal (floatx by default)."""
        M = N if M is None else M
        rows = self.expand_dims(self.arange(N, dtype="int32"), 1)
        cols = self.expand_dims(self.arange(M, dtype="int32"), 0)
        return self.cast(self.less_equal(self.subtract(cols, rows), k), dtype if dtype is not None else dtypes.floatx())

    def vander(self, x, N=None, increasing=False):
        """The Vandermonde matrix of the 1-D ``x``: column ``j`` is ``x ** (N - 1 - j)`` (``x ** j`` when
        ``increasing``), built by repeated products, so it keeps the dtype of ``x`` and its gradient is
        finite at 0."""
        x = self.convert_to_tensor(x)
        n = self.shape(x)[0]
        N = n if N is None else N
        if N == 0:
            return self.zeros((n, 0), self.dtype(x))
        columns = [self.ones_like(x)]
        for _ in range(N - 1):
            columns.append(self.multiply(columns[-1], x))
        if not increasing:
            columns.reverse()
        return self.stack(columns, axis=1)

    # -------------------------------------------------------------------- grids
    def meshgrid(self, *x, indexing="xy"):
        """Coordinate tensors of the grid spanned by the flattened ``x``: ``"ij"`` indexing gives shape
        ``(len(x[0]), len(x[1]), ...)``, ``"xy"`` swaps the first two axes."""
        xs = [self.reshape(self.convert_to_tensor(v), (-1,)) for v in x]
        sizes = [self.shape(v)[0] for v in xs]
        axes = list(range(len(xs)))
        if indexing == "xy" and len(xs) > 1:
            axes[0], axes[1] = 1, 0
        shape = [0] * len(xs)
        for i, a in enumerate(axes):
            shape[a] = sizes[i]
        out = []
        for i, v in enumerate(xs):
            view = [1] * len(xs)
            view[axes[i]] = sizes[i]
            out.append(self.broadcast_to(self.reshape(v, tuple(view)), tuple(shape)))
        return out

    def _spaced(self, start, stop, num, endpoint, axis, work):
        """``num`` evenly spaced values from ``start`` to ``stop`` (tensors that broadcast), on a new ``axis``,
        in ``work``; the last value is ``stop`` exactly when ``endpoint``."""
        start, stop = self.cast(start, work), self.cast(stop, work)
        base = tuple(np.broadcast_shapes(tuple(self.shape(start)), tuple(self.shape(stop))))
        start, stop = self.broadcast_to(start, base), self.broadcast_to(stop, base)
        div = (num - 1) if endpoint else num
        step_shape = [1] * len(base)
        step_shape.insert(axis, num)
        steps = self.reshape(self.cast(self.arange(num, dtype="int32"), work), tuple(step_shape))
        start, stop = self.expand_dims(start, axis), self.expand_dims(stop, axis)
        values = self.add(start, self.multiply(steps, self.divide(self.subtract(stop, start), max(div, 1))))
        if endpoint and num > 1:
            values = self.where(self.equal(steps, num - 1), stop, values)
        return values

    def logspace(self, start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
        """``base ** linspace(start, stop)``: ``num`` values spaced evenly on a log scale (``start`` and
        ``stop`` may be tensors that broadcast; the values go on the new ``axis``)."""
        out = dtype if dtype is not None else self._float_of(start, stop)
        y = self._spaced(start, stop, num, endpoint, axis, self._work_for(out))
        return self.cast(self.power(self.cast(base, self.dtype(y)), y), out)

    def geomspace(self, start, stop, num=50, endpoint=True, dtype=None, axis=0):
        """``num`` values from ``start`` to ``stop`` spaced evenly on a log scale (a geometric progression);
        ``start`` and ``stop`` must have the same sign; the end points are exact."""
        out = dtype if dtype is not None else self._float_of(start, stop)
        work = self._work_for(out)
        start, stop = self.cast(start, work), self.cast(stop, work)
        sign = self.where(self.less(start, 0), self.full((), -1, work), self.full((), 1, work))
        first, last = self.multiply(start, sign), self.multiply(stop, sign)
        y = self._spaced(self.log(first), self.log(last), num, endpoint, axis, work)
        values = self.exp(y)
        steps_shape = [1] * len(self.shape(values))
        steps_shape[axis] = num
        steps = self.reshape(self.arange(num, dtype="int32"), tuple(steps_shape))
        if num > 0:
            values = self.where(self.equal(steps, 0), self.expand_dims(first, axis), values)
        if num > 1 and endpoint:
            values = self.where(self.equal(steps, num - 1), self.expand_dims(last, axis), values)
        return self.cast(self.multiply(values, self.expand_dims(sign, axis)), out)

    def _work_for(self, out):
        return self._wide() if out in ("float16", "bfloat16", "float32") or out not in dtypes.FLOAT_DTYPES else out

    # ------------------------------------------------------------------- products
    def kron(self, x1, x2):
        """The Kronecker product: every entry of ``x1`` times the whole of ``x2``, as blocks."""
        x1, x2 = self.convert_to_tensor(x1), self.convert_to_tensor(x2)
        s1, s2 = self.shape(x1), self.shape(x2)
        n = max(len(s1), len(s2))
        s1, s2 = (1,) * (n - len(s1)) + tuple(s1), (1,) * (n - len(s2)) + tuple(s2)
        a = self.reshape(x1, tuple(d for pair in zip(s1, (1,) * n) for d in pair))
        b = self.reshape(x2, tuple(d for pair in zip((1,) * n, s2) for d in pair))
        return self.reshape(self.multiply(a, b), tuple(p * q for p, q in zip(s1, s2)))

    def cross(self, x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
        """The cross product of the 2- or 3-vectors on ``axisa`` of ``x1`` and ``axisb`` of ``x2``, placed on
        ``axisc`` of the result; two 2-vectors give the scalar z component."""
        if axis is not None:
            axisa = axisb = axisc = axis
        x1, x2 = self.convert_to_tensor(x1), self.convert_to_tensor(x2)
        a = self.moveaxis(x1, axisa % len(self.shape(x1)), -1)
        b = self.moveaxis(x2, axisb % len(self.shape(x2)), -1)
        na, nb = self.shape(a)[-1], self.shape(b)[-1]
        a0, a1 = self.getitem(a, (Ellipsis, 0)), self.getitem(a, (Ellipsis, 1))
        b0, b1 = self.getitem(b, (Ellipsis, 0)), self.getitem(b, (Ellipsis, 1))
        z = self.subtract(self.multiply(a0, b1), self.multiply(a1, b0))
        if na == 2 and nb == 2:
            return z
        if na == 3 and nb == 3:
            a2, b2 = self.getitem(a, (Ellipsis, 2)), self.getitem(b, (Ellipsis, 2))
            x = self.subtract(self.multiply(a1, b2), self.multiply(a2, b1))
            y = self.subtract(self.multiply(a2, b0), self.multiply(a0, b2))
        elif na == 2:  # a2 = 0
            b2 = self.getitem(b, (Ellipsis, 2))
            x, y = self.multiply(a1, b2), self.negative(self.multiply(a0, b2))
        else:  # b2 = 0
            a2 = self.getitem(a, (Ellipsis, 2))
            x, y = self.negative(self.multiply(a2, b1)), self.multiply(a2, b0)
        out = self.stack([x, y, z], axis=-1)
        return self.moveaxis(out, -1, axisc % len(self.shape(out)))

    def dot(self, x1, x2):
        """The dot product: a product with a scalar, a matrix product, or a sum over the last axis of ``x1``
        and the second-to-last of ``x2``."""
        x1, x2 = self.convert_to_tensor(x1), self.convert_to_tensor(x2)
        n1, n2 = len(self.shape(x1)), len(self.shape(x2))
        if n1 == 0 or n2 == 0:
            return self.multiply(x1, x2)
        if n2 == 1 or n1 == 1 or (n1 == 2 and n2 == 2):
            return self.matmul(x1, x2)
        return self.tensordot(x1, x2, axes=((n1 - 1,), (n2 - 2,)))

    def inner(self, x1, x2):
        """The sum over the last axes of ``x1`` and ``x2`` of their product (a product with a scalar)."""
        x1, x2 = self.convert_to_tensor(x1), self.convert_to_tensor(x2)
        n1, n2 = len(self.shape(x1)), len(self.shape(x2))
        if n1 == 0 or n2 == 0:
            return self.multiply(x1, x2)
        if n1 == 1 and n2 == 1:
            return self.matmul(x1, x2)
        return self.tensordot(x1, x2, axes=((n1 - 1,), (n2 - 1,)))

    def vdot(self, x1, x2):
        """The dot product of the flattened ``x1`` and ``x2`` (real tensors)."""
        return self.matmul(self.reshape(x1, (-1,)), self.reshape(x2, (-1,)))

    # ------------------------------------------------------------------ indexing
    def unravel_index(self, indices, shape):
        """The coordinates (a tuple, one tensor per axis of ``shape``, in the dtype of ``indices``) of the flat
        ``indices`` in a row-major tensor of ``shape``."""
        indices = self.convert_to_tensor(indices)
        out = []
        for d in reversed(shape):
            out.append(self.mod(indices, d))
            indices = self.floor_divide(indices, d)
        return tuple(reversed(out))

    def select(self, condlist, choicelist, default=0):
        """``choicelist[i]`` where ``condlist[i]`` holds first (in list order), ``default`` where none does."""
        out = default
        for cond, choice in reversed(list(zip(condlist, choicelist))):
            out = self.where(cond, choice, out)
        return self.convert_to_tensor(out)

    def isin(self, x1, x2, assume_unique=False, invert=False):
        """Whether each entry of ``x1`` occurs in ``x2`` (bool, of the shape of ``x1``); ``invert`` negates."""
        x1, x2 = self.convert_to_tensor(x1), self.convert_to_tensor(x2)
        dt = dtypes.result_type(self.dtype(x1), self.dtype(x2))
        x1, x2 = self.cast(x1, dt), self.sort(self.cast(self.reshape(x2, (-1,)), dt), axis=0)
        m = self.shape(x2)[0]
        if m == 0:
            found = self.full(self.shape(x1), False, "bool")
        else:
            at = self.minimum(self.searchsorted(x2, x1, side="left"), m - 1)
            found = self.equal(self.take(x2, at, axis=0), x1)
        return self.logical_not(found) if invert else found

    def searchsorted(self, sorted_sequence, values, side="left"):
        """Where each of ``values`` would go in the ascending 1-D ``sorted_sequence`` to keep it sorted (int32):
        before equal entries with ``side="left"``, after them with ``"right"``.

        Counts the entries below each value; engines override it with a binary search."""
        a, v = self.convert_to_tensor(sorted_sequence), self.convert_to_tensor(values)
        dt = dtypes.result_type(self.dtype(a), self.dtype(v))
        a, v = self.cast(a, dt), self.cast(v, dt)
        below = self.less(a, self.expand_dims(v, -1)) if side == "left" else self.less_equal(a, self.expand_dims(v, -1))
        return self.sum(self.cast(below, "int32"), axis=(len(self.shape(v)),))

    def digitize(self, x, bins):
        """The index (int32) of the bin of the 1-D monotonic ``bins`` each entry of ``x`` falls in: ``i`` with
        ``bins[i-1] <= x < bins[i]`` for increasing bins, ``bins[i-1] > x >= bins[i]`` for decreasing ones."""
        bins = self.convert_to_tensor(bins)
        n = self.shape(bins)[0]
        rising = self.searchsorted(bins, x, side="right")
        if n < 2:
            return rising
        falling = self.subtract(n, self.searchsorted(self.flip(bins, axis=(0,)), x, side="right"))
        decreasing = self.less(self.getitem(bins, -1), self.getitem(bins, 0))
        return self.where(decreasing, falling, rising)

    def argpartition(self, x, kth, axis=-1):
        """Indices (int32) that partition ``x`` along ``axis`` around its ``kth`` smallest entry: the indices of
        a stable sort, which is a valid partition for every ``kth`` and the same on every engine.
        ``axis=None`` flattens first."""
        if axis is None:
            return self.argsort(self.reshape(x, (-1,)), axis=0)
        return self.argsort(x, axis=axis)

    def count_nonzero(self, x, axis=None):
        """The number (int32) of non-zero entries over ``axis`` (a tuple, or None for all)."""
        return self.sum(self.cast(self.not_equal(x, 0), "int32"), axis=axis)

    def nonzero(self, x):
        """The indices of the non-zero entries of ``x``: a tuple of int32 tensors, one per axis. Their length
        depends on the values, so it needs concrete values (not inside a compiled step)."""
        values = self._host_values(x, "nonzero", "Use where(condition, x, y) to keep a static shape.")
        return tuple(self.convert_to_tensor(i.astype(np.int32)) for i in np.nonzero(values))

    # -------------------------------------------------------------------- unique
    def unique(
        self,
        x,
        sorted=True,
        return_index=False,
        return_inverse=False,
        return_counts=False,
        axis=None,
        size=None,
        fill_value=None,
    ):
        """The distinct entries of ``x`` (or distinct slices along ``axis``), sorted, or in the order they first
        appear when ``sorted`` is False; with the index of each one's first occurrence, the inverse (which
        entry of the result each element of ``x`` is) and the counts, as asked (all int32).

        With ``size`` the result has exactly ``size`` entries along its first axis (``axis``): cut, or padded
        with ``fill_value`` (0 when None), padded indices 0 and counts 0; that needs no host read, so it works
        inside a compiled step. Without ``size`` the values are read on the host (the number of distinct entries
        depends on them). NaNs are each distinct (no NaN equals another).
        """
        x = self.convert_to_tensor(x)
        shape = self.shape(x)
        if axis is None:
            rows = self.reshape(x, (-1, 1))
        else:
            moved = self.moveaxis(x, axis, 0)
            rows = self.reshape(moved, (shape[axis], -1))
        if size is None:
            index, inverse, counts = self._unique_on_host(rows, sorted)
            n_out = len(index)
            index = self.convert_to_tensor(index.astype(np.int32))
            inverse = self.convert_to_tensor(inverse.astype(np.int32))
            counts = self.convert_to_tensor(counts.astype(np.int32))
            valid = None
        else:
            index, inverse, counts, valid = self._unique_traced(rows, sorted, size)
            n_out = size
        if self.size(x) == 0 and n_out:  # nothing to gather: every entry is padding
            values_shape = list(shape) if axis is not None else [0]
            values_shape[0 if axis is None else axis] = n_out
            values = self.zeros(tuple(values_shape), self.dtype(x))
        elif axis is None:
            values = self.take(self.reshape(x, (-1,)), index, axis=0)
        else:
            values = self.take(x, index, axis=axis)
        if valid is not None:
            fill = self.cast(0 if fill_value is None else fill_value, self.dtype(x))
            view = [1] * len(self.shape(values))
            view[0 if axis is None else axis] = n_out
            values = self.where(self.reshape(valid, tuple(view)), values, fill)
        if axis is None:
            inverse = self.reshape(inverse, shape)
        out = [values]
        if return_index:
            out.append(index)
        if return_inverse:
            out.append(inverse)
        if return_counts:
            out.append(counts)
        return out[0] if len(out) == 1 else tuple(out)

    def _unique_on_host(self, rows, sorted_=True):
        """``(first_index, inverse, counts)`` of the distinct rows, in sorted order, as numpy arrays."""
        values = self._host_values(
            rows,
            "unique",
            "Pass size=... (the number of entries to return; the rest is cut or padded with "
            "fill_value) to give the result a static shape.",
        )
        n = values.shape[0]
        if n == 0:
            empty = np.zeros((0,), np.int64)
            return empty, empty, empty
        order = np.lexsort(values.T[::-1]) if values.shape[1] else np.arange(n)
        s = values[order]
        new = np.ones(n, bool)
        new[1:] = np.any(s[1:] != s[:-1], axis=1)
        group = np.cumsum(new) - 1
        starts = np.flatnonzero(new)
        counts = np.diff(np.append(starts, n))
        inverse = np.empty(n, np.int64)
        inverse[order] = group
        index = order[starts]
        if not sorted_:  # the groups in the order of their first occurrence
            by_first = np.argsort(index, kind="stable")
            rank = np.empty_like(by_first)
            rank[by_first] = np.arange(len(by_first))
            index, counts, inverse = index[by_first], counts[by_first], rank[inverse]
        return index, inverse, counts

    def _unique_traced(self, rows, sorted_, size):
        """``(first_index, inverse, counts, valid)`` of the distinct rows with a static ``size``, from sorts and
        searches only (no host read): ``valid`` marks the entries that are not padding."""
        n, width = self.shape(rows)
        if n == 0:
            zeros = self.zeros((size,), "int32")
            return zeros, self.zeros((0,), "int32"), zeros, self.full((size,), False, "bool")
        order = self.arange(n, dtype="int32")
        for j in reversed(range(width)):  # a lexicographic sort: stable sorts from the last column to the first
            column = self.take(self.getitem(rows, (slice(None), j)), order, axis=0)
            order = self.take(order, self.argsort(column, axis=0), axis=0)
        s = self.take(rows, order, axis=0)
        differs = self.any(self.not_equal(self.getitem(s, slice(1, None)), self.getitem(s, slice(None, -1))), axis=(1,))
        new = self.concatenate([self.full((1,), True, "bool"), differs], axis=0)
        group = self.subtract(self.cumsum(self.cast(new, "int32"), axis=0), 1)  # sorted position -> group
        inverse = self.take(group, self.argsort(order, axis=0), axis=0)  # element -> group
        k = size if sorted_ else n  # first appearance needs every group before cutting
        groups = self.arange(k, dtype="int32")
        starts = self.searchsorted(group, groups, side="left")
        counts = self.subtract(self.searchsorted(group, groups, side="right"), starts)
        valid = self.greater(counts, 0)
        index = self.where(valid, self.take(order, self.minimum(starts, n - 1), axis=0), 0)
        if not sorted_:  # groups by their first index; padding (index n + g) after every real group
            by_first = self.argsort(self.where(valid, index, self.add(groups, n)), axis=0)
            rank = self.argsort(by_first, axis=0)
            inverse = self.take(rank, inverse, axis=0)
            index, counts, valid = (self.take(t, by_first, axis=0) for t in (index, counts, valid))
            if size <= n:
                index, counts, valid = (self.getitem(t, slice(0, size)) for t in (index, counts, valid))
            else:
                pad = ((0, size - n),)
                index, counts = self.pad(index, pad), self.pad(counts, pad)
                valid = self.greater(counts, 0)
        return index, inverse, counts, valid

    # ---------------------------------------------------------------- counting
    def _bincount_length(self, x, minlength):
        """``max(max(x) + 1, minlength)``, read on the host; raises for negative entries."""
        values = self._host_values(x, "bincount", "bincount's output length is max(x) + 1 (at least minlength).")
        if values.size and values.min() < 0:
            raise ValueError(f"bincount: `x` must be non-negative; received a minimum of {values.min()}.")
        return max(int(minlength), int(values.max()) + 1 if values.size else 0)

    def bincount(self, x, weights=None, minlength=0, sparse=False):
        """For each ``i`` in ``[0, max(max(x) + 1, minlength))``, how many times it occurs in the non-negative
        integer ``x`` (int32), or the sum of ``weights`` where it occurs; a 2-D ``x`` counts each row.

        The length depends on ``max(x)``, so it needs concrete values (not inside a compiled step). This
        definition compares every entry with every bin; engines override it with a scatter-add."""
        x = self.convert_to_tensor(x)
        length = self._bincount_length(x, minlength)
        hit = self.equal(self.expand_dims(x, -1), self.arange(length, dtype=self.dtype(x)))
        if weights is None:
            return self.sum(self.cast(hit, "int32"), axis=(len(self.shape(x)) - 1,))
        weights = self.convert_to_tensor(weights)
        dt = dtypes.result_type(self.dtype(x), self.dtype(weights))
        w = self.expand_dims(self.cast(weights, dt), -1)
        return self.sum(self.where(hit, w, self.zeros((), dt)), axis=(len(self.shape(x)) - 1,))

    def histogram(self, x, bins=10, range=None):
        """``(counts, edges)`` of the 1-D ``x`` over ``bins`` equal bins spanning ``range`` (default: the
        minimum to the maximum of ``x``); each bin holds ``edges[i] <= x < edges[i + 1]``, the last one its
        right edge too. Both in the float dtype of ``x`` (floatx for integers)."""
        x = self.convert_to_tensor(x)
        dt = self._float_of(x)
        x = self.cast(x, dt)
        if range is None:
            if self.shape(x)[0] == 0:
                lo, hi = self.full((), 0, dt), self.full((), 1, dt)
            else:
                lo, hi = self.min(x), self.max(x)
        else:
            lo, hi = self.full((), range[0], dt), self.full((), range[1], dt)
        same = self.equal(lo, hi)
        lo, hi = self.where(same, self.subtract(lo, 0.5), lo), self.where(same, self.add(hi, 0.5), hi)
        edges = self.cast(self._spaced(lo, hi, bins + 1, True, 0, self._work_for(dt)), dt)
        s = self.sort(x, axis=0)
        below = self.searchsorted(s, self.getitem(edges, slice(0, bins)), side="left")
        top = self.searchsorted(s, self.getitem(edges, slice(bins, None)), side="right")
        counts = self.subtract(self.concatenate([self.getitem(below, slice(1, None)), top], axis=0), below)
        return self.cast(counts, dt), edges

    # ------------------------------------------------------------- differences
    def diff(self, a, n=1, axis=-1):
        """The ``n``-th discrete difference along ``axis``: ``a[1:] - a[:-1]``, ``n`` times (``!=`` for bool)."""
        a = self.convert_to_tensor(a)
        axis %= max(len(self.shape(a)), 1)
        for _ in builtins_range(n):
            hi, lo = self._axis_range(a, axis, 1, None), self._axis_range(a, axis, None, -1)
            a = self.not_equal(hi, lo) if self.dtype(a) == "bool" else self.subtract(hi, lo)
        return a

    def trapezoid(self, y, x=None, dx=1.0, axis=-1):
        """The integral of ``y`` along ``axis`` by the trapezoidal rule, at sample points ``x`` (1-D along
        ``axis``, or of the shape of ``y``) or spaced ``dx`` apart; integers compute in floatx."""
        y = self.convert_to_tensor(y)
        y = self.cast(y, self._float_of(y))
        nd = len(self.shape(y))
        axis %= nd
        if x is None:
            d = dx
        else:
            x = self.convert_to_tensor(x)
            if len(self.shape(x)) == 1:
                view = [1] * nd
                view[axis] = self.shape(x)[0] - 1
                d = self.reshape(self.diff(x, 1, 0), tuple(view))
            else:
                d = self.diff(x, 1, axis)
        pairs = self.add(self._axis_range(y, axis, 1, None), self._axis_range(y, axis, None, -1))
        return self.sum(self.divide(self.multiply(d, pairs), 2.0), axis=(axis,))

    # ---------------------------------------------------------------- statistics
    def correlate(self, x1, x2, mode="valid"):
        """The cross-correlation of the 1-D ``x1`` and ``x2``: ``c[k] = sum_n x1[n + k] * x2[n]``, for the
        shifts of ``mode`` (``"valid"``, ``"same"`` or ``"full"``). int64 computes in float64, other integers
        in float32."""
        x1, x2 = self.convert_to_tensor(x1), self.convert_to_tensor(x2)
        dt = dtypes.result_type(self.dtype(x1), self.dtype(x2))
        dt = "float64" if dt == "int64" else dt if dt in ("bfloat16", "float16", "float64") else "float32"
        a, v = self.cast(x1, dt), self.cast(x2, dt)
        n, m = self.shape(a)[0], self.shape(v)[0]
        length = n + m - 1
        padded = self.pad(a, ((m - 1, m - 1),))
        windows = np.arange(length)[:, None] + np.arange(m)[None, :]
        full = self.matmul(self.take(padded, self.convert_to_tensor(windows.astype(np.int32)), axis=0), v)
        short, long = min(n, m), max(n, m)
        if mode == "full":
            return full
        if mode == "same":  # centred; numpy rounds the other way when x2 is the longer one
            start, count = ((m - 1) // 2 if n >= m else (n - 1) - (n - 1) // 2), long
        else:
            start, count = short - 1, long - short + 1
        return self._axis_range(full, 0, start, start + count)

    def corrcoef(self, x):
        """The Pearson correlation coefficients of the rows of ``x`` (variables; columns are observations),
        clipped to ``[-1, 1]``; a 1-D ``x`` gives a scalar. int64 computes in float64, other integers in
        floatx."""
        x = self.convert_to_tensor(x)
        dt = "float64" if self.dtype(x) == "int64" else self._float_of(x)
        x = self.cast(x, dt)
        one = len(self.shape(x)) == 1
        if one:
            x = self.reshape(x, (1, -1))
        centred = self.subtract(x, self.mean(x, axis=(1,), keepdims=True))
        cov = self.matmul(centred, self.transpose(centred))
        std = self.sqrt(self.diagonal(cov))
        c = self.divide(self.divide(cov, self.expand_dims(std, 1)), self.expand_dims(std, 0))
        c = self.clip(c, -1.0, 1.0)
        return self.reshape(c, ()) if one else c


builtins_range = range

__all__ = ["NumpyArrayContract"]
