"""JAX's control flow: each loop and conditional is one ``jax.lax`` construct, so it traces its functions once and
compiles to one XLA ``while`` / ``conditional`` under ``jax.jit``.

* ``scan``, ``map``, ``associative_scan``, ``cond``, ``switch``: ``lax.scan``, ``lax.map``,
  ``lax.associative_scan``, ``lax.cond``, ``lax.switch``; ``vectorized_map`` is ``jax.vmap``.
* ``fori_loop``: ``lax.fori_loop``, which is a ``lax.scan`` (reverse-differentiable) when the bounds are Python
  ints and a ``lax.while_loop`` otherwise.
* ``while_loop``: ``lax.while_loop``, which JAX can differentiate in forward mode only. While a function is
  being differentiated by this backend's ``value_and_grad`` (a training step's loss, say), a ``while_loop`` with
  ``maximum_iterations`` becomes a ``lax.scan`` of that many steps, each running the body under a ``lax.cond``
  while ``cond`` holds: the same values, and reverse-mode gradients, at the price of visiting every one of the
  ``maximum_iterations`` steps. Without ``maximum_iterations`` reverse-mode differentiation through the loop
  raises JAX's error.
* ``custom_gradient``: ``jax.custom_vjp``. The gradient function becomes a jaxpr whose closed-over values are the
  residuals (what ``jax.custom_gradient`` does), and values the function closes over from an enclosing
  transformation are hoisted into explicit arguments with ``jax.closure_convert`` (``jax.custom_gradient`` itself
  refuses them: a layer's weights under ``jax.grad``); they get no gradient through the function.
"""

import threading

import jax
import jax.numpy as jnp
import numpy as np

from highlevel.backends.contract import tree
from highlevel.backends.contract.control_flow import _loop_output, _specs, call_grad_fn, scan_length

from . import conversion as cv


def _as_array(v):
    return None if v is None else cv.convert(v)


class _Differentiations(threading.local):
    depth = 0


_DIFFERENTIATIONS = _Differentiations()


class differentiation:  # noqa: N801 - a context manager
    """Marks the forward pass of a function that this backend's ``value_and_grad`` differentiates (the loops
    choose their reverse-differentiable form inside it)."""

    def __enter__(self):
        _DIFFERENTIATIONS.depth += 1
        return self

    def __exit__(self, *exc):
        _DIFFERENTIATIONS.depth -= 1
        return False


def _pred(p):
    p = cv.convert(p)
    if p.shape != ():
        p = p.reshape(())
    return p if p.dtype == jnp.bool_ else p.astype(jnp.bool_)


class ControlFlowOps:
    """Control flow and custom gradients for :class:`~.backend.JaxBackend`."""

    def scan(self, f, init, xs=None, length=None, reverse=False, unroll=1):
        init = tree.map_structure(_as_array, init)
        if xs is not None:
            xs = tree.map_structure(_as_array, xs)
        n = scan_length(self.shape, xs, length)
        # Our nests are plain lists/tuples/dicts, which are JAX pytrees too; the carry that comes back must
        # keep init's dtypes, which lax.scan checks (a clear error names the leaf that changed). A scan of no
        # steps gives ys with a leading size of 0, shaped by tracing f.
        return jax.lax.scan(f, init, xs, length=n, reverse=bool(reverse), unroll=unroll)

    def cond(self, pred, true_fn, false_fn):
        return jax.lax.cond(_pred(pred), true_fn, false_fn)

    def switch(self, index, branches, *operands):
        index = cv.convert(index)
        if not cv.is_int(index):
            index = index.astype(jnp.int32)
        return jax.lax.switch(index.reshape(()), list(branches), *operands)  # lax.switch clamps the index

    def while_loop(self, cond, body, loop_vars, maximum_iterations=None):
        loop_vars = tuple(tree.map_structure(_as_array, v) for v in loop_vars)
        specs = _specs(self, loop_vars)

        def step(v):
            return _loop_output(self, body(*v), specs, "while_loop", "body")

        if maximum_iterations is not None and _DIFFERENTIATIONS.depth > 0:

            def bounded(v, _):
                return jax.lax.cond(_pred(cond(*v)), step, lambda u: u, v), None

            return jax.lax.scan(bounded, loop_vars, None, length=int(maximum_iterations))[0]
        if maximum_iterations is not None:
            limit = int(maximum_iterations)
            out = jax.lax.while_loop(
                lambda c: jnp.logical_and(c[1] < limit, _pred(cond(*c[0]))),
                lambda c: (step(c[0]), c[1] + 1),
                (loop_vars, jnp.asarray(0, jnp.int32)),
            )
            return out[0]
        return jax.lax.while_loop(lambda v: _pred(cond(*v)), step, loop_vars)

    def fori_loop(self, lower, upper, body_fun, init_val):
        init_val = tree.map_structure(_as_array, init_val)
        static = all(isinstance(b, (int, np.integer)) and not isinstance(b, bool) for b in (lower, upper))
        if static:  # int32 bounds (with 64-bit mode on, Python ints would give an int64 index)
            lower, upper = np.int32(lower), np.int32(upper)
        else:
            lower, upper = cv.convert(lower), cv.convert(upper)
            if lower.dtype != upper.dtype:
                lower, upper = cv.promote(lower, upper)
        return jax.lax.fori_loop(lower, upper, body_fun, init_val)

    def map(self, f, xs):
        return jax.lax.map(f, tree.map_structure(_as_array, xs))

    def vectorized_map(self, function, elements):
        return jax.vmap(function)(tree.map_structure(_as_array, elements))

    def associative_scan(self, f, elems, reverse=False, axis=0):
        return jax.lax.associative_scan(f, tree.map_structure(_as_array, elems), reverse=bool(reverse), axis=axis)

    # ------------------------------------------------------------------------------ custom gradients
    def custom_gradient(self, f, *args):
        args = tree.map_structure(_as_array, args)
        leaves, treedef = tree.flatten(args)
        inexact = [jnp.issubdtype(x.dtype, jnp.inexact) for x in leaves]
        slot = {}

        def forward(*flat):
            out, grad_fn = f(*tree.unflatten(treedef, list(flat)))
            out = tree.map_structure(_as_array, out)

            def rule(ct):
                grads = call_grad_fn(grad_fn, tree.unflatten(treedef, list(flat)), ct, len(flat))
                return tuple(_cotangent(g, x) for g, x, keep in zip(grads, flat, inexact) if keep)

            # the gradient function as a function of the output's cotangent, with what it closes over (the
            # forward pass's intermediates) hoisted into explicit arguments: the residuals
            slot["rule"], residuals = jax.closure_convert(rule, out)
            return out, residuals

        # hoist what f closes over from enclosing transformations (a layer's weights under jax.grad):
        # custom_vjp cannot close over another transformation's values
        primal, consts = jax.closure_convert(forward, *leaves)

        @jax.custom_vjp
        def call(flat, consts):
            return primal(*flat, *consts)[0]

        def fwd(flat, consts):
            out, residuals = primal(*flat, *consts)
            return out, (residuals, consts)

        def bwd(saved, ct):
            residuals, consts = saved
            grads = iter(slot["rule"](ct, *residuals))
            return (
                tuple(next(grads) if keep else None for keep in inexact),
                tuple(jnp.zeros_like(c) if jnp.issubdtype(c.dtype, jnp.inexact) else None for c in consts),
            )

        call.defvjp(fwd, bwd)
        return call(tuple(leaves), tuple(consts))


def _cotangent(g, x):
    """The gradient ``g`` for the leaf ``x`` as JAX wants it: an array of ``x``'s shape and dtype (zeros for None)."""
    if g is None:
        return jnp.zeros_like(x)
    g = cv.convert(g)
    if g.shape != x.shape:
        g = jnp.broadcast_to(g, x.shape)
    return g.astype(x.dtype)
