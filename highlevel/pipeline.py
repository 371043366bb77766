"""Layers called inside an engine's input pipeline (a ``tf.data.Dataset.map`` function), whatever the backend.

There the inputs are symbolic tensors of the pipeline's engine. :func:`owner_of` names that engine (asking the
loaded engines' :meth:`~highlevel.backends.contract.DataPipelineContract.is_pipeline_tensor`); the layer's call then
runs under :func:`pipeline_scope`, which makes it the current backend and marks the pipeline as active, so that
random layers draw from a state that lives in the pipeline (:class:`highlevel.random.SeedGenerator`) and layers
that compute on the host run there through the engine's host call (:func:`host_call`). The weights of a layer of
another engine (a Normalization's statistics, a Dense kernel) enter the pipeline as their values when the pipeline
is traced (``Dataset.map``), as constants: a pipeline mapped before training does not follow later updates.

>>> import highlevel as hl
>>> owner_of(hl.ops.convert_to_tensor([1.0])) is None, pipeline_engine() is None
(True, True)
"""

import contextlib
import contextvars

from highlevel.backends import registry
from highlevel.backends.contract import tree
from highlevel.config import backend_scope, current_backend

_active = contextvars.ContextVar("highlevel_pipeline", default=None)
_host = contextvars.ContextVar("highlevel_pipeline_host", default=None)


def _leaves(inputs):
    return tree.flatten(inputs)[0] if isinstance(inputs, (list, tuple, dict)) else [inputs]


def owner_of(inputs, include_current=False):
    """The loaded engine whose pipeline holds one of the leaves of ``inputs``, or None (the ordinary case: eager
    tensors, numpy data). The current engine is asked only with ``include_current``: its own pipeline tensors
    need no switch of backend."""
    return registry.pipeline_owner(_leaves(inputs), None if include_current else current_backend())


def route(layer, args, kwargs):
    """Runs the call ``layer(*args, **kwargs)`` in the pipeline that holds its inputs, if any; returns
    :data:`NOT_ROUTED` when the inputs belong to no other engine's pipeline (the layer then runs as usual).

    A layer that computes on the host (``supports_jit = False``) runs through :func:`host_call` also in the current
    engine's own pipeline; any other layer runs under :func:`pipeline_scope` of the owning engine."""
    host_layer = not getattr(layer, "supports_jit", True)
    if not host_layer and current_backend().is_tensor(args[0]):
        return NOT_ROUTED  # the common case, at no cost: a tensor of the engine that runs now
    owner = owner_of(args[0], include_current=host_layer)
    if owner is None:
        return NOT_ROUTED
    host_backend = _host.get() or current_backend()
    with pipeline_scope(owner, host_backend):
        if host_layer:
            return host_call(layer, owner, host_backend, args, kwargs)
        return layer(*args, **kwargs)


NOT_ROUTED = object()


def pipeline_engine():
    """The engine whose pipeline is being traced by a layer call (see :func:`pipeline_scope`), or None."""
    return _active.get()


@contextlib.contextmanager
def pipeline_scope(engine, host_backend=None):
    """Makes ``engine`` the current backend and the active pipeline engine for the block; ``host_backend`` (the
    backend current outside the pipeline, by default the current one) runs the host layers' computations."""
    tokens = _active.set(engine), _host.set(host_backend or _host.get() or current_backend())
    try:
        with backend_scope(engine):
            yield engine
    finally:
        _host.reset(tokens[1])
        _active.reset(tokens[0])


def host_call(layer, engine, host_backend, args, kwargs):
    """Runs ``layer`` (one that computes on the host: vocabulary lookups, hashing, text) inside ``engine``'s
    pipeline: the engine hands the values of the pipeline tensors in ``args`` to a host function, which calls the
    layer on them under ``host_backend`` (the backend that was current outside the pipeline) and returns numpy.

    The result's dtype and static shape come from the layer's ``compute_output_spec``."""
    from highlevel.keras_tensor import KerasTensor

    leaves, treedef = tree.flatten(args)
    slots = [i for i, leaf in enumerate(leaves) if engine.is_pipeline_tensor(leaf)]

    def spec(leaf):
        if not engine.is_pipeline_tensor(leaf):
            return leaf
        try:
            dtype = engine.dtype(leaf)
        except (TypeError, ValueError):
            dtype = "int64"  # text has no symbolic dtype; the layers' output specs do not depend on it
        # Sizes known only when the pipeline runs (a batch) are tensors in the engine's shape: None here.
        return KerasTensor(tuple(s if isinstance(s, int) else None for s in engine.shape(leaf)), dtype)

    spec_leaves = [spec(leaf) for leaf in leaves]
    spec_args = tree.unflatten(treedef, spec_leaves)
    out_spec = layer.compute_output_spec(*spec_args, **{k: v for k, v in kwargs.items() if k != "training"})
    if not isinstance(out_spec, KerasTensor):
        raise TypeError(
            f"Layer '{layer.name}' ({type(layer).__name__}) returns a structure inside a data pipeline; "
            "only layers with one tensor output can run on the host there."
        )

    def run(*arrays):
        values = list(leaves)
        for i, array in zip(slots, arrays):
            values[i] = array
        with backend_scope(host_backend):
            out = layer(*tree.unflatten(treedef, values), **kwargs)
            return host_backend.to_numpy(out)

    return engine.call_on_host(run, [leaves[i] for i in slots], out_spec.dtype, tuple(out_spec.shape))


__all__ = ["NOT_ROUTED", "host_call", "owner_of", "pipeline_engine", "pipeline_scope", "route"]
