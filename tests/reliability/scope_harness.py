"""Per-call engine state is per thread: scopes opened in one thread are not seen in another.

Run as ``python -m tests.reliability.scope_harness`` with ``HIGHLEVEL_BACKEND`` set. Thread A opens, and holds
open, every scope a step or a user can open; meanwhile thread B looks at the same state, then A checks that
its scopes did take effect. Prints one JSON line: for each piece of state, what A and B saw.

The audit (per engine; "thread" means :class:`threading.local` or a context variable, which a new thread starts
without):

============================  ==================================================================================
state                         where it lives
============================  ==================================================================================
grad mode                     native: per thread (``autograd._ThreadState``); PyTorch: ``torch.no_grad`` is per
                              thread; JAX, TensorFlow: no mode (a gradient is a function or a tape per thread)
step recorder (native, torch)  recordings take turns under one lock; the engine methods it routes are routed
                              for the recording thread only, other threads call them directly
``name_scope``                per thread (``name_scoping._Stack``)
``backend_scope``             a context variable
``device`` scope              the engine's own: ``jax.default_device`` (thread-local config), ``tf.device``
                              (per-thread eager context), ``torch.device`` (the per-thread function-mode
                              stack); native has one device
``StatelessScope``,           per thread (``variable._Scopes``)
``SymbolicScope``
dtype policy                  per thread, as in Keras (``mixed_precision.policy._GlobalPolicy``)
distribution                  process-wide on purpose: a device mesh and the variables laid out on it belong to
                              the process (Keras: the same)
seeds                         a layer's ``SeedGenerator`` is its own state (a variable the step carries), so
                              dropout in two threads draws as it does alone; the unseeded global generator is
                              process-wide, as ``set_random_seed`` sets it for the whole program
config flags (floatx, ...)    process-wide, as in Keras
============================  ==================================================================================
"""

import json
import threading

import numpy as np

import highlevel as hl
from highlevel import name_scoping
from highlevel.backends.contract.variable import _scopes
from highlevel.mixed_precision import policy as policy_module


def _look(variable, other_backend):
    """What the calling thread sees of each piece of state."""
    made = hl.Variable(np.zeros(2, "float32"), name="made_here")
    return {
        "name_scope": name_scoping.current_path(),
        "variable_path": made.path,
        "variable_value": float(hl.ops.convert_to_numpy(variable.value)[0]),
        "open_stateless_scopes": len(_scopes.stack),
        "backend": hl.config.backend(),
        "policy": policy_module.dtype_policy().name,
        "other_backend_scoped": hl.config.backend() == other_backend,
    }


def main():
    variable = hl.Variable(np.ones(2, "float32"), name="weights")
    env_backend = hl.config.backend()
    other = "native" if env_backend != "native" else "jax"
    opened, looked, seen = threading.Event(), threading.Event(), {}

    def thread_a():
        policy_module.set_dtype_policy("mixed_bfloat16")
        with hl.name_scope("thread_a"), hl.StatelessScope([(variable, np.full(2, 7.0, "float32"))]):
            with hl.SymbolicScope():
                seen["a_symbolic_depth"] = len(_scopes.stack)
            seen["a_inside"] = _look(variable, env_backend)
            with hl.config.backend_scope(other):
                seen["a_backend"] = hl.config.backend()
                opened.set()
                looked.wait(60)

    def thread_b():
        opened.wait(60)
        seen["b"] = _look(variable, env_backend)
        looked.set()

    threads = [threading.Thread(target=thread_a, daemon=True), threading.Thread(target=thread_b, daemon=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    seen["main_after"] = {"policy": policy_module.dtype_policy().name, "name_scope": name_scoping.current_path()}
    print(json.dumps({"backend": env_backend, "other": other, "seen": seen}))


if __name__ == "__main__":
    main()
