"""Training hooks of the JAX engine: a step becomes a pure function of the variables' values under ``jax.jit``.

The step code is the same stateful code as on every engine (it reads variables and assigns them); inside a
:class:`StatelessScope` those reads see traced values and the assignments are collected, so tracing it once
gives a pure function ``(state values, batch) -> (outputs, new state values)``. The state is donated to XLA
(updated in place on the device) and the new values are written back to the variables after every call, so
callbacks and user code always read current weights.

Variables the caller expects the step only to read (``read_only``: the weights in ``evaluate`` and ``predict``)
travel apart: neither donated nor handed back, so a call makes no output arrays for them and writes nothing
back (a predict step then costs what a hand-written ``jax.jit`` forward does). A step that does assign one of
them is traced again with it among the assigned state: the hint changes the speed, never the result.
"""

import jax

from highlevel.backends.contract import StatelessScope, TrainingContract


class _AssignedReadOnly(Exception):
    """Raised while tracing when the step assigns a variable it was expected only to read."""

    def __init__(self, variables):
        super().__init__(f"assigned read-only variables: {[v.path for v in variables]}")
        self.variables = variables


class TrainingOps(TrainingContract):
    def compile_step(self, fn, state_variables, jit_compile="auto", read_only=()):
        variables = list(state_variables)
        known = {id(v) for v in variables}
        reading = {id(v) for v in read_only} & known
        compiled = {}

        def build():
            mutable = [v for v in variables if id(v) not in reading]
            fixed = [v for v in variables if id(v) in reading]

            def pure(values, fixed_values, *args):
                mapping = dict(zip(mutable, values))
                mapping.update(zip(fixed, fixed_values))
                with StatelessScope(mapping) as scope:
                    outputs = fn(*args)
                stray = [v.path for v, _ in scope.assigned.values() if id(v) not in known]
                if stray:
                    raise ValueError(
                        f"The step assigned variables that are not part of its state: {stray}. Create every "
                        "variable (layers, optimizer slots, metrics) before the step is compiled."
                    )
                wrote = [v for v, _ in scope.assigned.values() if id(v) in reading]
                if wrote:
                    raise _AssignedReadOnly(wrote)
                new_values = [scope.values.get(id(v), value) for v, value in zip(mutable, values)]
                return outputs, new_values

            compiled["mutable"], compiled["fixed"] = mutable, fixed
            compiled["jitted"] = jax.jit(pure, donate_argnums=0)

        build()

        def step(*args):
            while True:
                mutable, fixed = compiled["mutable"], compiled["fixed"]
                try:
                    outputs, new_values = compiled["jitted"](
                        [v.handle.value for v in mutable], [v.handle.value for v in fixed], *args
                    )
                except _AssignedReadOnly as e:
                    # Nothing ran (the error came from tracing): move them to the assigned state, trace again.
                    reading.difference_update(id(v) for v in e.variables)
                    build()
                    continue
                for v, value in zip(mutable, new_values):
                    v.handle.value = value
                return outputs

        return step
