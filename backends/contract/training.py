"""The backend contract, part 4: how a training step gets its gradients and how it is compiled.

Both methods have generic implementations that work on every engine (through :class:`StatelessScope`);
an engine overrides them where it has a faster or compiled way.
"""

import contextlib

import numpy as np

from . import index_checks
from .variable import StatelessScope


class TrainingContract:
    """Gradients with respect to variables, and compiling a step function that changes variables."""

    def variables_value_and_grad(self, fn, variables):
        """Computes ``fn()`` and its gradient with respect to ``variables``.

        ``fn`` takes no arguments, reads variables (and anything else) and returns ``(value, aux)`` with a
        scalar ``value``. Returns ``((value, aux), grads)`` with one gradient per variable. Assignments that
        ``fn`` makes to variables (e.g. batch-norm statistics) take effect, as if ``fn`` had run eagerly.
        """
        variables = list(variables)
        assigned_order = []

        def pure(values):
            with StatelessScope(dict(zip(variables, values))) as scope:
                value, aux = fn()
            # Variables are not tensors, so which variables were assigned travels outside the traced values.
            assigned_order[:] = [v for v, _ in scope.assigned.values()]
            return value, (aux, [val for _, val in scope.assigned.values()])

        values = [v.value for v in variables]
        (value, (aux, new_values)), grads = self.value_and_grad(pure, has_aux=True)(values)
        for var, new in zip(assigned_order, new_values):
            var.assign(self.stop_gradient(new))
        return (value, aux), grads

    def compile_step(self, fn, state_variables, jit_compile="auto", read_only=()):
        """Returns a callable that runs ``fn(*args)`` — which reads and assigns ``state_variables`` — as this
        engine runs training steps best. The default runs it eagerly; JAX makes it a pure jitted function of
        the variables' values, TensorFlow a ``tf.function``, PyTorch and native a recorded replay (``replay.py``).
        Every variable ``fn`` assigns must be in ``state_variables``. ``jit_compile`` is the value given to
        ``compile()``: ``True`` (the engine's extra compiler: XLA, ``torch.compile``), ``"auto"`` (the engine's
        default) or ``False``. ``read_only`` names those of ``state_variables`` that the step is expected only
        to read (the weights, in ``evaluate`` and ``predict``): a hint an engine that passes state in and out
        of a compiled function (JAX) uses to pass them in only. It must never change a result: a step that
        assigns one of them all the same still updates it."""
        return fn

    def check_index_range(self, x, low, high, template, ignore=None):
        """``x`` (integers) after checking that every value but ``ignore`` lies in ``[low, high)``; else raises
        :class:`~.index_checks.IndexRangeError` with ``template`` filled in (``{lo}``, ``{hi}``: the received
        minimum and maximum). The front end calls it inside compiled steps when index checks are on; the result
        must be used in place of ``x``, so that the check runs before anything computed from it.

        The default reads the minimum and maximum on the host (eager engines; a recorded replay repeats the
        call). A graph engine checks in its graph and may fail with its own exception, carrying the message
        between :func:`~.index_checks.tag` markers.
        """
        bad = index_checks.out_of_range(np.asarray(self.to_numpy(x)), low, high, ignore)
        if bad is not None:
            raise index_checks.IndexRangeError(index_checks.fill(template, *bad))
        return x

    def inference_scope(self):
        """A context manager in which ops record nothing for autodiff: the trainer runs test and predict steps in it.

        Engines that record a graph as ops run (native, PyTorch: ``torch.no_grad``, as Keras runs its PyTorch
        test and predict steps) then keep no graph nodes and no activations for a backward pass that never
        comes. A gradient a step takes itself (``variables_value_and_grad``) turns recording back on inside.
        The default (JAX, TensorFlow: nothing is recorded outside a gradient) is a no-op.
        """
        return contextlib.nullcontext()

    def match_variable_layout(self, variable, reference):
        """Stores ``variable`` in the same memory layout as ``reference`` (same shape); its values are unchanged.

        An optimizer calls it for each slot it makes for a weight (momentum, velocity, ...), so that the
        element-wise update reads every tensor in the same order. The default does nothing: only an engine that
        keeps some variables in a layout of its own choosing (PyTorch keeps dense kernels column-major) needs it.
        """
