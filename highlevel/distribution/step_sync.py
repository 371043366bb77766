"""What the trainer does differently under a distribution: place the state, split the batches, combine replicas.

The trainer calls these few functions; each is a no-op (one dictionary look-up) when no distribution is set.

* :func:`distribute_step` wraps the Python step before it is compiled (TensorFlow: ``strategy.run``).
* :func:`distribute_function` places the step's variables once and splits each global batch before the call.
* Inside the step, :func:`value_and_grad` averages the replicas' gradients, weighted by their shares of the
  batch (so the update equals one device's on the whole batch), and
  :class:`MetricSync` adds up the replicas' metric updates (the metric variables aggregate by SUM).

Engines whose compiler sees the global batch (JAX) report one replica to combine, and nothing of the last two
runs there.
"""

from highlevel import ops
from highlevel.backends.contract import StatelessScope, tree
from highlevel.config import current_backend

from .state import distribution


def distribute_step(step):
    """The Python step as every replica runs it (before ``compile_step``); ``step`` itself without a
    distribution."""
    dist = distribution()
    if dist is None:
        return step
    return current_backend().distribute_step(step, dist)


def distribute_function(function, variables, split_batches=True):
    """Places ``variables`` for the current distribution and returns ``function`` fed with distributed batches.

    Args:
        function: the (compiled) step, taking one batch.
        variables: the state the step reads and writes.
        split_batches: False for prediction, where every replica computes the whole batch (the outputs are
            then complete in every process and need no gathering).
    """
    dist = distribution()
    if dist is None:
        return function
    backend = current_backend()
    variables = list(variables)
    backend.distribute_variables(variables, [dist.get_variable_layout(v).axes for v in variables], dist)
    if not split_batches:
        return function

    def run(batch):
        return function(backend.distribute_batch(batch, dist))

    return run


def _replicas():
    if distribution() is None:
        return 1
    return current_backend().distribution_step_replicas()


def value_and_grad(fn, variables, x):
    """``variables_value_and_grad`` of the step; under a distribution, the gradients are the global batch's.

    ``x`` is this replica's input batch (its first dimension is the replica's number of examples). The replicas'
    gradients are averaged with weights = their batch shares (the engine's ``replica_value_and_grad``:
    ``DistributedDataParallel`` on PyTorch), which is the whole batch's gradient for losses that are means over
    the examples (Keras's default ``"sum_over_batch_size"`` reduction) plus terms every replica computes alike
    (weight regularization).
    """
    backend = current_backend()
    if _replicas() == 1:
        return backend.variables_value_and_grad(fn, variables)
    return backend.replica_value_and_grad(fn, variables, _rows(x))


class MetricSync:
    """Adds up the metric updates of all replicas: ``state = before + sum over replicas of (after - before)``.

    Use it as a context manager around the step's metric updates, then take the logs from :meth:`results`.
    Inside the block the updates are recorded in a :class:`StatelessScope` instead of being written (each
    replica's own update must not reach the shared variables), and on exit every replica writes the same
    combined state. Metric states are sums and counts (as in Keras, where metric variables aggregate by SUM),
    so the result is the update on the whole global batch.
    """

    def __init__(self, model, rows=None):
        self._model = model
        self._rows = rows
        self._variables = [v for m in model.metrics for v in m.variables]
        self._scope = None

    def __enter__(self):
        before = {v: v.value for v in self._variables}
        self._before = list(before.values())
        self._scope = StatelessScope(before)
        self._scope.__enter__()
        return self

    def __exit__(self, *exc):
        scope, self._scope = self._scope, None
        scope.__exit__(*exc)
        if exc[0] is not None:
            return False
        deltas = [ops.subtract(scope.values[id(v)], b) for v, b in zip(self._variables, self._before)]
        if isinstance(self._rows, int) and self._rows == 0:
            # A replica without examples (a last batch smaller than the replica count) adds nothing; its mean
            # loss is 0/0, and NaN times its weight of 0 would still be NaN in the loss tracker's total.
            deltas = [ops.zeros_like(d) for d in deltas]
        sums = current_backend().replica_sum(deltas)
        for v, b, s in zip(self._variables, self._before, sums):
            v.assign(ops.add(b, s))
        return False

    def results(self, logs):
        """The metrics' results after the combination (``logs`` computed inside the block are per replica)."""
        return self._model.get_metrics_result()


class _NoSync:
    """The single-replica stand-in of :class:`MetricSync`: the step's own logs stand."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def results(self, logs):
        return logs


_NO_SYNC = _NoSync()


def metric_sync(model, x=None):
    """A context manager around a step's metric updates that combines the replicas' updates (see
    :class:`MetricSync`); nothing to do with one replica. ``x`` is the replica's input batch."""
    if _replicas() == 1:
        return _NO_SYNC
    return MetricSync(model, None if x is None else _rows(x))


def _rows(x):
    leaf = tree.flatten(x)[0][0]
    return ops.shape(leaf)[0]
