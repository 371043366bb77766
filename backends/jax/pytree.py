"""Variables are JAX pytrees whose one leaf is their current value, so that JAX's transforms take them as arguments.

The stateless training loop that JAX users write passes a model's variables straight to ``jax.jit``, ``jax.grad``
or ``jax.tree_util`` (``state = (model.trainable_variables, ...)`` on the first step). Flattening a variable gives
its value (the value a :class:`StatelessScope` maps it to, inside one); rebuilding gives the new leaf itself, a
plain array, which is what a pure function's outputs are. Registered when the JAX engine is imported.

>>> import jax, highlevel as hl
>>> v = hl.Variable([1.0, 2.0])
>>> jax.jit(lambda s: s[0] * 2.0)([v]).tolist()
[2.0, 4.0]
"""

import jax

from highlevel.backends.contract import Variable


def _flatten(variable):
    return (variable.value,), None


def _unflatten(_, leaves):
    return leaves[0]


def register(cls=Variable):
    """Registers ``cls`` (by default :class:`Variable`) as a pytree node; registering it twice does nothing."""
    try:
        jax.tree_util.register_pytree_node(cls, _flatten, _unflatten)
    except ValueError:  # already registered
        pass


register()
