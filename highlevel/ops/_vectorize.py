"""``hl.ops.vectorize``: a function of tensors mapped over extra leading axes, written on ``hl.ops``.

The wrapper broadcasts the leading ("loop") axes of the vectorized arguments, calls the function once per
position on each argument's core (its trailing axes named by the generalized ufunc signature, none by default)
and stacks the results. Being plain ``hl.ops`` calls, it runs on every engine and is differentiable.

>>> parse_signature("(m,n),(n)->(m)")
([('m', 'n'), ('n',)], [('m',)])
>>> parse_signature("(),()->()")
([(), ()], [()])
"""

import re

_NAME = r"\w+"
_CORE = rf"\((?:{_NAME}(?:,{_NAME})*)?\)"
_LIST = rf"{_CORE}(?:,{_CORE})*"
_SIGNATURE = re.compile(rf"^{_LIST}->{_LIST}$")


def parse_signature(signature):
    """The core axis names of each input and output of a signature like ``"(m,n),(n)->(m)"``."""
    text = re.sub(r"\s+", "", signature)
    if not _SIGNATURE.match(text):
        raise ValueError(
            f"vectorize: `signature` must look like '(m,n),(n)->(m)' (a generalized ufunc "
            f"signature); received {signature!r}."
        )
    inputs, outputs = text.split("->")

    def cores(part):
        return [tuple(n for n in group.split(",") if n) for group in re.findall(r"\(([^)]*)\)", part)]

    return cores(inputs), cores(outputs)


def _broadcast(shapes):
    out = ()
    for shape in shapes:
        n = max(len(out), len(shape))
        a, b = (1,) * (n - len(out)) + tuple(out), (1,) * (n - len(shape)) + tuple(shape)
        merged = []
        for p, q in zip(a, b):
            if p != q and 1 not in (p, q):
                raise ValueError(
                    f"vectorize: the loop axes of the arguments do not broadcast together; received "
                    f"loop shapes {[tuple(s) for s in shapes]}."
                )
            merged.append(q if p == 1 else p)
        out = tuple(merged)
    return out


def vectorized(pyfunc, excluded=None, signature=None):
    """The vectorized ``pyfunc`` (see :func:`highlevel.ops.numpy.vectorize`)."""
    excluded = frozenset(excluded or ())
    for e in excluded:
        if not isinstance(e, (int, str)) or isinstance(e, bool):
            raise TypeError(
                f"vectorize: `excluded` holds argument positions (ints) or names (strings); received {e!r}."
            )
    in_cores, out_cores = parse_signature(signature) if signature is not None else (None, [()])

    def wrapper(*args, **kwargs):
        from highlevel import ops

        keys = [i for i in range(len(args)) if i not in excluded] + [k for k in kwargs if k not in excluded]
        if in_cores is not None and len(in_cores) != len(keys):
            raise ValueError(
                f"vectorize: the signature {signature!r} has {len(in_cores)} inputs, but the function "
                f"was called with {len(keys)} vectorized arguments."
            )
        values = {k: ops.convert_to_tensor(args[k] if isinstance(k, int) else kwargs[k]) for k in keys}
        cores, sizes = {}, {}
        for j, k in enumerate(keys):
            shape = tuple(ops.shape(values[k]))
            names = in_cores[j] if in_cores is not None else ()
            if len(shape) < len(names):
                raise ValueError(
                    f"vectorize: argument {k!r} needs at least {len(names)} axes for its core "
                    f"{names} of the signature {signature!r}; received shape {shape}."
                )
            core = shape[len(shape) - len(names) :]
            for name, d in zip(names, core):
                if sizes.setdefault(name, d) != d:
                    raise ValueError(
                        f"vectorize: core axis {name!r} of the signature {signature!r} has size "
                        f"{sizes[name]} in one argument and {d} in another."
                    )
            cores[k] = core
        loops = [tuple(ops.shape(values[k]))[: len(ops.shape(values[k])) - len(cores[k])] for k in keys]
        loop = _broadcast(loops)
        if None in loop:
            raise ValueError(f"vectorize: the loop axes must have known sizes; received loop shape {loop}.")
        count = 1
        for d in loop:
            count *= d
        if count == 0:
            raise ValueError(
                "vectorize: the loop axes have no entries, so the function cannot be called to learn "
                "the result's shape."
            )
        flat = {k: ops.reshape(ops.broadcast_to(values[k], loop + cores[k]), (count,) + cores[k]) for k in keys}
        results, several = [], False
        for i in range(count):
            call_args = [ops.getitem(flat[j], i) if j in flat else a for j, a in enumerate(args)]
            call_kwargs = {k: ops.getitem(flat[k], i) if k in flat else v for k, v in kwargs.items()}
            out = pyfunc(*call_args, **call_kwargs)
            several = isinstance(out, (tuple, list))
            results.append(tuple(out) if several else (out,))
        n_out = len(results[0])
        if signature is not None and n_out != len(out_cores):
            raise ValueError(
                f"vectorize: the signature {signature!r} has {len(out_cores)} outputs; the function returned {n_out}."
            )
        stacked = []
        for o in range(n_out):
            parts = [ops.convert_to_tensor(r[o]) for r in results]
            core = tuple(ops.shape(parts[0]))
            stacked.append(ops.reshape(ops.stack(parts, axis=0), loop + core))
        return tuple(stacked) if several else stacked[0]

    wrapper.__name__ = getattr(pyfunc, "__name__", "vectorized")
    wrapper.__doc__ = getattr(pyfunc, "__doc__", None)
    return wrapper
