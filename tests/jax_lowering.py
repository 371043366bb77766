"""Test-process speed-up for the JAX engine: one MLIR context per thread for many lowerings instead of one each.

JAX lowers every program it compiles (each eager op's program on the JAX engine, each jitted step) into a new
MLIR context, and building one (its dialects and their operations registered anew) costs about 8 ms on one core:
half of the lowering of the suite's tiny programs, whose compilation takes another 25-30 ms. The test suite
compiles tens of thousands of such programs, so the test processes reuse a context for up to
:data:`LOWERINGS_PER_CONTEXT` lowerings. What is lowered does not change: a context only interns the types,
attributes and operation names that modules are built from, and a module keeps its own context alive.

The context is per thread (an MLIR context is not meant to be built into from several threads at once), and
replaced after :data:`LOWERINGS_PER_CONTEXT` uses, so that what it interns (source locations, small
constants) stays bounded. This touches a private function of JAX: :func:`install` does nothing, and returns False,
where that function is missing, and the suite then runs as before, only slower. The library itself
never does this.
"""

import threading

#: Lowerings that share one context before a fresh one is made.
LOWERINGS_PER_CONTEXT = 512


def install():
    """Makes JAX's lowering reuse a per-thread MLIR context; returns whether it could (False, changing nothing,
    where JAX is missing or its private function is not there)."""
    try:
        from jax._src.interpreters import mlir
    except ImportError:  # JAX not installed, or its private layout changed
        return False
    original = getattr(mlir, "make_ir_context", None)
    if not callable(original):
        return False
    if getattr(original, "_highlevel_shared", False):
        return True
    local = threading.local()

    def shared_ir_context():
        uses = getattr(local, "uses", LOWERINGS_PER_CONTEXT)
        if uses >= LOWERINGS_PER_CONTEXT:
            local.context, uses = original(), 0
        local.uses = uses + 1
        return local.context

    shared_ir_context._highlevel_shared = True
    shared_ir_context.__wrapped__ = original
    mlir.make_ir_context = shared_ir_context
    return True
