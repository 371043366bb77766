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
import jax.numpy as jnp
import numpy as np

from highlevel.backends.contract import StatelessScope, TrainingContract, index_checks


class _AssignedReadOnly(Exception):
    """Raised while tracing when the step assigns a variable it was expected only to read."""

    def __init__(self, variables):
        super().__init__(f"assigned read-only variables: {[v.path for v in variables]}")
        self.variables = variables


class TrainingOps(TrainingContract):
    def check_index_range(self, x, low, high, template, ignore=None):
        # Traced: a host callback that raises; the step's execution fails as a whole, so no new value is written
        # back (the state is then not donated: see compile_step).
        if not isinstance(x, jax.core.Tracer):
            return super().check_index_range(x, low, high, template, ignore=ignore)
        if x.size == 0:
            return x
        probe = x if jnp.issubdtype(x.dtype, jnp.integer) else jnp.floor(x)
        if ignore is not None:
            probe = jnp.where(probe == ignore, low, probe)

        def check(lo, hi):
            if lo < low or hi >= high:
                message = index_checks.fill(template, np.asarray(lo), np.asarray(hi))
                raise index_checks.IndexRangeError(index_checks.tag(message))  # JAX wraps it: see error_from

        jax.debug.callback(check, jnp.min(probe), jnp.max(probe))
        return x

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
            # With index checks on, a step may fail while it runs: its state must then still be there.
            compiled["kept"] = jax.jit(pure)

        build()

        def step(*args):
            while True:
                mutable, fixed = compiled["mutable"], compiled["fixed"]
                checking = index_checks.enabled()
                try:
                    outputs, new_values = compiled["kept" if checking else "jitted"](
                        [v.handle.value for v in mutable], [v.handle.value for v in fixed], *args
                    )
                    if checking:  # a failed check surfaces here at the latest, before any value is written back
                        jax.block_until_ready((outputs, new_values))
                except _AssignedReadOnly as e:
                    # Nothing ran (the error came from tracing): move them to the assigned state, trace again.
                    reading.difference_update(id(v) for v in e.variables)
                    build()
                    continue
                for v, value in zip(mutable, new_values):
                    v.handle.value = value
                return outputs

        return step
