"""Training hooks of the JAX engine: a step becomes a pure function of the variables' values under ``jax.jit``.

The step code is the same stateful code as on every engine (it reads variables and assigns them); inside a
:class:`StatelessScope` those reads see traced values and the assignments are collected, so tracing it once
gives a pure function ``(state values, batch) -> (outputs, new state values)``. The state is donated to XLA
(updated in place on the device) and the new values are written back to the variables after every call, so
callbacks and user code always read current weights.
"""

import jax

from highlevel.backends.contract import StatelessScope, TrainingContract


class TrainingOps(TrainingContract):
    def compile_step(self, fn, state_variables, jit_compile="auto"):
        variables = list(state_variables)
        known = {id(v) for v in variables}

        def pure(values, *args):
            with StatelessScope(dict(zip(variables, values))) as scope:
                outputs = fn(*args)
            stray = [v.path for v, _ in scope.assigned.values() if id(v) not in known]
            if stray:
                raise ValueError(
                    f"The step assigned variables that are not part of its state: {stray}. Create every "
                    "variable (layers, optimizer slots, metrics) before the step is compiled."
                )
            new_values = [scope.values.get(id(v), value) for v, value in zip(variables, values)]
            return outputs, new_values

        jitted = jax.jit(pure, donate_argnums=0)

        def step(*args):
            outputs, new_values = jitted([v.handle.value for v in variables], *args)
            for v, value in zip(variables, new_values):
                v.handle.value = value
            return outputs

        return step
