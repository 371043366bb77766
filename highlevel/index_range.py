"""Range checks of integers that index something: class labels (sparse losses and metrics) and indices
(``Embedding``, ``ops.take``), in eager execution and, when switched on, inside compiled steps.

:func:`check_index_range` is what the losses, metrics and ops call. Where the values are known now (eager execution,
``compile(run_eagerly=True)``, a loss or metric called directly on tensors) it reads their minimum and maximum on
the host (on a GPU too: one wait for the device per checked tensor, the price of never answering wrongly in eager
and debug code) and raises :class:`IndexRangeError` (a ValueError and an IndexError) with the caller's message. Inside a
compiled step (``jax.jit``, ``tf.function``, a recorded replay) it does nothing unless
``hl.config.enable_index_checks()`` is on; then the engine checks in the step itself (TensorFlow an in-graph
assertion, in a step built without XLA while the checks are on; JAX a host callback; PyTorch and native an eager
read) and the step fails before it updates a weight, with the same message. Cost when on: one min and one max per
checked tensor per step, plus, on JAX and on a GPU, a wait for the device (JAX also keeps the state buffers instead
of donating them, one extra copy of the weights per step), which is why compiled steps leave it off by default:
``fit`` and ``evaluate`` already check numpy labels and the inputs that feed an ``Embedding`` on the host, for free.

Messages are templates: ``{lo}`` and ``{hi}`` become the received minimum and maximum.

>>> import highlevel as hl
>>> labels = hl.ops.convert_to_tensor([0, 4])
>>> try:
...     check_index_range(labels, 0, 3, "labels from {lo} to {hi}, expected 0 to 2")
... except IndexRangeError as e:
...     print(e)
labels from 0 to 4, expected 0 to 2
"""

import contextlib
import threading

from highlevel.backends.contract import index_checks
from highlevel.backends.contract.index_checks import IndexRangeError, error_from

__all__ = ["IndexRangeError", "check_index_range", "error_from", "ignoring_label"]

_local = threading.local()


def check_index_range(x, low, high, template, ignore=None):
    """``x`` once its values are checked to lie in ``[low, high)`` (``ignore`` allowed too); see the module.

    Returns ``x`` or, inside a compiled step with the check on, ``x`` tied to the engine's check (use it in
    place of ``x`` so that the check runs before anything computed from it)."""
    from highlevel.config import current_backend
    from highlevel.keras_tensor import KerasTensor
    from highlevel.losses.host_values import concrete_value

    if isinstance(x, KerasTensor) or high is None:
        return x
    values = concrete_value(x, wait=True)  # eager: checked on a GPU too, at the cost of one wait
    if values is not None:
        if values.dtype.kind in "iuf":
            bad = index_checks.out_of_range(values, low, high, ignore)
            if bad is not None:
                raise IndexRangeError(index_checks.fill(template, *bad))
        return x
    if not index_checks.enabled():
        return x
    return current_backend().check_index_range(x, low, high, template, ignore=ignore)


def ignored_label():
    """The label the metrics being updated in this thread must let through (a loss's ``ignore_class``)."""
    return getattr(_local, "ignore", None)


@contextlib.contextmanager
def ignoring_label(label):
    """Within it, the sparse metrics accept ``label`` (the output's loss ignores it) besides valid classes."""
    previous = ignored_label()
    _local.ignore = label
    try:
        yield
    finally:
        _local.ignore = previous
